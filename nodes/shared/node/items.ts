/** The item loop of the action operations: outputs paired with their input item; under continueOnFail, the one error item. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export type ItemResult = IDataObject | IDataObject[] | INodeExecutionData | INodeExecutionData[] | undefined;

/** Output items for one input item, each paired with it by n8n's helpers (an item already paired keeps its pairing). */
function toItems(ctx: IExecuteFunctions, result: ItemResult, itemIndex: number): INodeExecutionData[] {
	if (result === undefined) return [];
	const items = ctx.helpers.returnJsonArray(result as IDataObject | IDataObject[]);
	return ctx.helpers.constructExecutionMetaData(items, { itemData: { item: itemIndex } });
}

/** continueOnFail's error item (message, hint, status, API code; never request options); `error` only for the error output. */
export function errorItem(ctx: IExecuteFunctions, error: Error, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	const withDetails = error as Error & { description?: string | null; httpCode?: string | null; context?: IDataObject };
	if (withDetails.description) json.description = withDetails.description;
	if (withDetails.httpCode) json.httpCode = withDetails.httpCode;
	if (withDetails.context?.apiCode) json.code = withDetails.context.apiCode;
	const item: INodeExecutionData = { json, pairedItem: { item: itemIndex } };
	if (ctx.getNode().onError === 'continueErrorOutput' && (error instanceof NodeApiError || error instanceof NodeOperationError)) item.error = error;
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
 * `step` for each entry: a failure stops the run (stamped with its item) or, under continueOnFail, is that item's Error.
 * Runs the read phase (every item checked before the first request: no write on a half-checked batch) and oneByOne's.
 */
async function eachItem<E extends { itemIndex: number }, T>(ctx: IExecuteFunctions, entries: E[], step: (entry: E) => T | Promise<T>) {
	const results: Array<T | Error> = [];
	for (const entry of entries) {
		try {
			results.push(await step(entry));
		} catch (error) {
			const nodeError = asNodeError(ctx, error, entry.itemIndex);
			if (!ctx.continueOnFail()) throw nodeError;
			results.push(nodeError);
		}
	}
	return results;
}

/** runBatched's request phase made item after item (eachItem). */
export const oneByOne =
	<T, R>(ctx: IExecuteFunctions, run: (value: T, itemIndex: number) => Promise<R>) =>
	async (reads: Array<{ itemIndex: number; value: T }>) =>
		await eachItem(ctx, reads, async ({ itemIndex, value }) => await run(value, itemIndex));

/** The item loop of every operation: `read` checks every item first, then `run` makes each item's requests in input order. */
export async function runItems<T>(
	ctx: IExecuteFunctions,
	read: (itemIndex: number) => T | Promise<T>,
	run: (value: T, itemIndex: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const emit = (result: ItemResult | Error) => (result === undefined ? [] : Array.isArray(result) ? result : [result]);
	const [output] = await runBatched(ctx, { read, run: oneByOne(ctx, run), emit });
	return output;
}

/** One item's outputs: json or items (paired on the way out), and Errors for the entries that failed. */
export type BatchedOutput = Array<IDataObject | INodeExecutionData | Error>;

export interface BatchedSteps<T, R> {
	/** Reads and checks one item, every item before any request; throwing fails that item (continueOnFail) or the run. */
	read(itemIndex: number): T | Promise<T>;
	/** The batched requests for every item read: one result per entry, in the same order. */
	run(read: Array<{ itemIndex: number; value: T }>): Promise<R[]>;
	/** One item's outputs from its result. */
	emit(result: R, itemIndex: number): BatchedOutput;
	/** How many outputs the node has (default 1). */
	outputs?: number;
	/** Which output a successful entry goes to (default the first). */
	route?(result: R, itemIndex: number): number;
	/** continueOnFail's output for error items (default the first): never one acting on a success (Lookup's Can Receive sends invoices). */
	errorOutput?: number;
	/** Fields an error item carries besides the error (e.g. the input item's, when the node keeps them). */
	errorFields?(itemIndex: number): IDataObject | undefined;
}

/** runItems for operations batching across items (Send, Create and Send, Peppol Lookup): read all, request together, answer per item. */
export async function runBatched<T, R>(ctx: IExecuteFunctions, steps: BatchedSteps<T, R>): Promise<INodeExecutionData[][]> {
	const continueOnFail = ctx.continueOnFail();
	const items = Array.from({ length: ctx.getInputData().length }, (_, itemIndex) => ({ itemIndex }));
	const checked = await eachItem(ctx, items, ({ itemIndex }) => steps.read(itemIndex));
	const read = checked.flatMap((value, itemIndex) => (value instanceof Error ? [] : [{ itemIndex, value }]));
	const results = read.length ? await steps.run(read) : [];

	const outputs: INodeExecutionData[][] = Array.from({ length: steps.outputs ?? 1 }, () => []);
	const failed = (error: Error, itemIndex: number) => {
		const item = errorItem(ctx, error, itemIndex);
		const fields = steps.errorFields?.(itemIndex);
		if (fields) item.json = { ...fields, ...item.json };
		outputs[steps.errorOutput ?? 0].push(item);
	};
	let next = 0;
	for (const [itemIndex, value] of checked.entries()) {
		if (value instanceof Error) {
			failed(value, itemIndex);
			continue;
		}
		const result = results[next++];
		for (const out of steps.emit(result, itemIndex)) {
			if (out instanceof Error) {
				const nodeError = asNodeError(ctx, out, itemIndex);
				if (!continueOnFail) {
					// A batch error carries the first item of its batch; it stops the run at this one.
					(nodeError as NodeApiError | NodeOperationError).context.itemIndex = itemIndex;
					throw nodeError;
				}
				failed(nodeError, itemIndex);
				continue;
			}
			outputs[steps.route?.(result, itemIndex) ?? 0].push(...toItems(ctx, out, itemIndex));
		}
	}
	return outputs;
}
