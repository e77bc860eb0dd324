/**
 * The item loop of the action operations: outputs paired with their input item, and
 * continueOnFail turning a failure into the one error item every node emits.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export type ItemResult = IDataObject | IDataObject[] | INodeExecutionData[] | undefined;

function isExecutionData(value: unknown): value is INodeExecutionData {
	return !!value && typeof value === 'object' && 'json' in (value as object);
}

/** Output items for one input item, each paired with it. */
export function toItems(result: ItemResult, itemIndex: number): INodeExecutionData[] {
	if (result === undefined) return [];
	const list = Array.isArray(result) ? result : [result];
	return list.map((entry) => {
		if (!isExecutionData(entry)) return { json: entry as IDataObject, pairedItem: { item: itemIndex } };
		// Already paired (e.g. thousands of list records): kept as is, not copied.
		return entry.pairedItem === undefined ? { ...entry, pairedItem: { item: itemIndex } } : entry;
	});
}

/**
 * The error item continueOnFail emits: message, hint, HTTP status and API code, never
 * request options. With "continue (using error output)" n8n routes only items carrying
 * `error` to the error output; with "continue" the item keeps its readable json on the
 * (first) main output.
 */
export function errorItem(ctx: IExecuteFunctions, error: Error, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	const withDetails = error as Error & { description?: string | null; httpCode?: string | null; context?: IDataObject };
	if (withDetails.description) json.description = withDetails.description;
	if (withDetails.httpCode) json.httpCode = withDetails.httpCode;
	if (withDetails.context?.apiCode) json.code = withDetails.context.apiCode;
	const item: INodeExecutionData = { json, pairedItem: { item: itemIndex } };
	if (ctx.getNode().onError === 'continueErrorOutput' && (error instanceof NodeApiError || error instanceof NodeOperationError)) {
		item.error = error;
	}
	return item;
}

/** Stamps the item on any error, turning unknown errors into NodeOperationErrors. */
export function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * The item loop every per-item operation uses: one call per input item, outputs
 * paired with their item, and continueOnFail turning a failure into an error item.
 */
export async function runPerItem(
	ctx: IExecuteFunctions,
	handler: (itemIndex: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await handler(itemIndex);
			for (const item of toItems(result, itemIndex)) output.push(item);
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (ctx.continueOnFail()) {
				output.push(errorItem(ctx, nodeError, itemIndex));
				continue;
			}
			throw nodeError;
		}
	}
	return output;
}
