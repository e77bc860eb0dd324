/** What the per-item Order operations share: the one-order operation, the service's answer shapes, its refusals in words. */
import { type IDataObject, type IExecuteFunctions, type INode, type INodeExecutionData, type JsonObject, NodeApiError } from 'n8n-workflow';

import { type ItemResult, runItems } from '../../../shared/node/items';
import type { ApiClient, ApiRequest } from '../../../shared/http/transport';
import type { ClientProvider } from '../../../shared/node/router';
import { readPartyOption } from '../options';
import { readOrderId } from './orderId';
import { requireValid } from '../../../shared/node/input';
import { checkDate } from './orderBody';

/** The execute of an operation on one order per item (Get, Delete, Mark as (Not) Exported): every item's OrderID checked first, then `run` with the item's client. */
export function orderOperation(run: (ctx: IExecuteFunctions, client: ApiClient, orderId: number, itemIndex: number) => Promise<ItemResult>) {
	return async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
		const read = (itemIndex: number) => ({ orderId: readOrderId(this, itemIndex), party: readPartyOption(this, itemIndex) });
		return await runItems(this, read, async ({ orderId, party }, itemIndex) => run(this, await clients(itemIndex, party), orderId, itemIndex));
	};
}

/** The object a change answered with, or undefined: some deployments answer the order or a summary, others an empty 200. */
export function answeredObject(answer: unknown): IDataObject | undefined {
	return answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as IDataObject) : undefined;
}

/** A NodeApiError carrying the status and the API's code and description where n8n shows them. */
export function apiError(node: INode, message: string, hint: string, status: string, itemIndex: number, code?: string, apiDescription?: string): NodeApiError {
	const response: JsonObject = { message, httpCode: status };
	if (code) response.code = code;
	if (apiDescription) response.apiDescription = apiDescription;
	const error = new NodeApiError(node, response, { message, description: hint, httpCode: status, itemIndex });
	if (code) error.context.apiCode = code;
	if (apiDescription) error.context.apiDescription = apiDescription;
	return error;
}

/** A refusal (HTTP 400/409) in words saying what was not done and why; anything else is returned unchanged. */
export function refusalError(node: INode, error: unknown, itemIndex: number, notDone: string, hint: string): unknown {
	if (!(error instanceof NodeApiError)) return error;
	const status = String(error.httpCode ?? '');
	if (status !== '400' && status !== '409') return error;
	const code = typeof error.context.apiCode === 'string' ? error.context.apiCode : undefined;
	const apiDescription = typeof error.context.apiDescription === 'string' ? error.context.apiDescription : undefined;
	const message = `${notDone}: ${apiDescription ?? 'the service refused it'} (HTTP ${status}${code ? `, ${code}` : ''})`;
	return apiError(node, message, hint, status, itemIndex, code, apiDescription);
}

/** A write whose answer may be empty or text (a success either way); a body goes as JSON. */
export async function sendJson(client: ApiClient, request: ApiRequest): Promise<unknown> {
	const headers = request.body === undefined ? request.headers : { 'Content-Type': 'application/json', ...request.headers };
	return await client.request<unknown>({ ...request, headers, acceptText: true });
}

/** Sends a change of an order (sendJson); a refusal is thrown in refusalError's words. */
export async function sendChange(node: INode, client: ApiClient, request: ApiRequest & { itemIndex: number }, notDone: string, hint: string): Promise<unknown> {
	return await sendJson(client, request).catch((error: unknown) => {
		throw refusalError(node, error, request.itemIndex, notDone, hint);
	});
}

/** A date parameter as YYYY-MM-DD: a real date, or `fallback()` when empty (required without one). */
export function readDate(ctx: IExecuteFunctions, itemIndex: number, name: string, label: string, fallback?: () => string): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	return fallback && (raw === '' || raw === undefined || raw === null) ? fallback() : requireValid(ctx, itemIndex, label, raw, checkDate);
}
