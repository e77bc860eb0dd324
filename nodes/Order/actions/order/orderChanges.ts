/**
 * What the operations on an existing order (Update, Delete, Record Payment, Get Delivery
 * Status) share: reading every item first, the service's two answer shapes, and its
 * refusals put in words a user can act on.
 */
import { type IDataObject, type IExecuteFunctions, type INode, type JsonObject, NodeApiError } from 'n8n-workflow';

import { asNodeError } from '../../../shared/node/items';
import type { ApiClient, ApiRequest } from '../../../shared/http/transport';

/**
 * Every item read and checked before any request. A bad item stops the run here, or,
 * under continueOnFail, keeps its error for its turn (so outputs stay in input order).
 */
export function readEveryItem<T>(ctx: IExecuteFunctions, read: (itemIndex: number) => T): Array<T | Error> {
	return ctx.getInputData().map((_item, itemIndex) => {
		try {
			return read(itemIndex);
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (!ctx.continueOnFail()) throw nodeError;
			return nodeError;
		}
	});
}

/**
 * The object a change answered with, or undefined: PATCH and payments answer the order
 * (or a summary) on some deployments and an empty 200 on others; both are a success.
 */
export function answeredObject(answer: unknown): IDataObject | undefined {
	return answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as IDataObject) : undefined;
}

/**
 * A business refusal (HTTP 400/409: the service understood and said no) as an error that
 * says what was not done and why, keeping the status and the API's code and description.
 * Anything else (404, 5xx, network) is returned unchanged: the transport's words fit it.
 */
export function refusalError(node: INode, error: unknown, itemIndex: number, notDone: string, hint: string): unknown {
	if (!(error instanceof NodeApiError)) return error;
	const status = String(error.httpCode ?? '');
	if (status !== '400' && status !== '409') return error;
	const code = typeof error.context.apiCode === 'string' ? error.context.apiCode : undefined;
	const apiDescription = typeof error.context.apiDescription === 'string' ? error.context.apiDescription : undefined;
	const message = `${notDone}: ${apiDescription ?? 'the service refused it'} (HTTP ${status}${code ? `, ${code}` : ''})`;
	const response: JsonObject = { message, httpCode: status };
	if (code) response.code = code;
	if (apiDescription) response.apiDescription = apiDescription;
	const refused = new NodeApiError(node, response, { message, description: hint, httpCode: status, itemIndex });
	if (code) refused.context.apiCode = code;
	if (apiDescription) refused.context.apiDescription = apiDescription;
	return refused;
}

/**
 * Sends a change of an order (`acceptText`: an empty or text answer is a success); a refusal
 * is thrown in refusalError's words: `notDone`, then `hint` saying what to do instead.
 */
export async function sendChange(node: INode, client: ApiClient, request: ApiRequest & { itemIndex: number }, notDone: string, hint: string): Promise<unknown> {
	return await client.request<unknown>({ ...request, acceptText: true }).catch((error: unknown) => {
		throw refusalError(node, error, request.itemIndex, notDone, hint);
	});
}
