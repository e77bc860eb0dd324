/**
 * The item loop of the action operations: outputs paired with their input item, and
 * continueOnFail turning a failure into the one error item every node emits.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export type ItemResult = IDataObject | IDataObject[] | INodeExecutionData | INodeExecutionData[] | undefined;

/** Output items for one input item, each paired with it by n8n's helpers (an item already paired keeps its pairing). */
function toItems(ctx: IExecuteFunctions, result: ItemResult, itemIndex: number): INodeExecutionData[] {
	if (result === undefined) return [];
	const items = ctx.helpers.returnJsonArray(result as IDataObject | IDataObject[]);
	return ctx.helpers.constructExecutionMetaData(items, { itemData: { item: itemIndex } });
}

/**
 * The error item continueOnFail emits: message, hint, HTTP status and API code, never request
 * options. n8n routes only items carrying `error` to the error output, so only that mode sets it.
 */
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

/** One item's read: its checked value, or (continueOnFail) the error that failed it. */
export type ItemRead<T> = { itemIndex: number; value: T } | { itemIndex: number; error: Error };

/**
 * The read phase of every loop: every item read and checked before the first request, so no
 * write happens on a half-checked batch. A bad item stops the run here, naming field and item;
 * under continueOnFail it becomes that item's error and the others go on.
 */
export async function readEveryItem<T>(ctx: IExecuteFunctions, read: (itemIndex: number) => T | Promise<T>): Promise<Array<ItemRead<T>>> {
	const reads: Array<ItemRead<T>> = [];
	for (let itemIndex = 0; itemIndex < ctx.getInputData().length; itemIndex++) {
		try {
			reads.push({ itemIndex, value: await read(itemIndex) });
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (!ctx.continueOnFail()) throw nodeError;
			reads.push({ itemIndex, error: nodeError });
		}
	}
	return reads;
}

/** runBatched's request phase made item after item: a failure stops the run, or under continueOnFail is that item's Error. */
export function oneByOne<T, R>(ctx: IExecuteFunctions, run: (value: T, itemIndex: number) => Promise<R>) {
	return async (reads: Array<{ itemIndex: number; value: T }>): Promise<Array<R | Error>> => {
		const results: Array<R | Error> = [];
		for (const { itemIndex, value } of reads) {
			try {
				results.push(await run(value, itemIndex));
			} catch (error) {
				const nodeError = asNodeError(ctx, error, itemIndex);
				if (!ctx.continueOnFail()) throw nodeError;
				results.push(nodeError);
			}
		}
		return results;
	};
}

/**
 * The item loop of every operation: `read` checks every item first (readEveryItem), then `run`
 * makes one item's requests, item after item in input order (runBatched, oneByOne). A failure
 * stops the run, or under continueOnFail becomes the item's error item.
 */
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
	/** Reads and checks one item, before any request (readEveryItem); throwing fails that item (continueOnFail) or the run. */
	read(itemIndex: number): T | Promise<T>;
	/** The batched requests for every item read: one result per entry, in the same order. */
	run(read: Array<{ itemIndex: number; value: T }>): Promise<R[]>;
	/** One item's outputs from its result. */
	emit(result: R, itemIndex: number): BatchedOutput;
	/** How many outputs the node has (default 1). */
	outputs?: number;
	/** Which output a successful entry goes to (default the first). */
	route?(result: R, itemIndex: number): number;
	/**
	 * Which output error items leave through under continueOnFail (default the first): never
	 * one whose branch acts on a success (Peppol Lookup's Can Receive sends invoices).
	 */
	errorOutput?: number;
	/** Fields an error item carries besides the error (e.g. the input item's, when the node keeps them). */
	errorFields?(itemIndex: number): IDataObject | undefined;
}

/**
 * runItems' mode for the operations that batch across items (Send, Create and Send, Peppol
 * Lookup): read every item first (readEveryItem), run the requests together, then answer per item in
 * input order, every output paired with its item. A failed entry becomes an error item
 * under continueOnFail and stops the run otherwise, stamped with the item it belongs to.
 */
export async function runBatched<T, R>(ctx: IExecuteFunctions, steps: BatchedSteps<T, R>): Promise<INodeExecutionData[][]> {
	const continueOnFail = ctx.continueOnFail();
	const entries = await readEveryItem(ctx, steps.read.bind(steps));
	const read = entries.filter((entry): entry is { itemIndex: number; value: T } => 'value' in entry);
	const results = read.length ? await steps.run(read) : [];

	const outputs: INodeExecutionData[][] = Array.from({ length: steps.outputs ?? 1 }, () => []);
	const failed = (error: Error, itemIndex: number) => {
		const item = errorItem(ctx, error, itemIndex);
		const fields = steps.errorFields?.(itemIndex);
		if (fields) item.json = { ...fields, ...item.json };
		outputs[steps.errorOutput ?? 0].push(item);
	};
	let next = 0;
	for (const entry of entries) {
		const { itemIndex } = entry;
		if ('error' in entry) {
			failed(entry.error, itemIndex);
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
