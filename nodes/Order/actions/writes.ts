/** Writes to the service (orders, parties, products): a change sent as JSON, the object it answered, a refusal in words. */
import { type IDataObject, type INode, type JsonObject, NodeApiError } from 'n8n-workflow';

import type { ApiClient, ApiRequest } from '../../shared/http/transport';
import { isRecord } from '../../shared/domain/values';

/** The ID a create answers: a bare number or numeric text, a list of one, or an object carrying it (as `key` in any case, Id or Items). */
export function answeredId(answer: unknown, key: string): number | undefined {
	if (typeof answer === 'number') return Number.isSafeInteger(answer) && answer > 0 ? answer : undefined;
	if (typeof answer === 'string') return /^\s*"?\d{1,15}"?\s*$/.test(answer) ? answeredId(Number(answer.replace(/[\s"]/g, '')), key) : undefined;
	if (Array.isArray(answer)) return answer.length === 1 ? answeredId(answer[0], key) : undefined;
	if (!isRecord(answer)) return undefined;
	const named = Object.keys(answer).find((name) => name.toLowerCase() === key.toLowerCase());
	return answeredId((named === undefined ? undefined : answer[named]) ?? answer.Id ?? answer.id ?? answer.Items, key);
}

/** The object a change answered with, or undefined: some deployments answer the order or a summary, others an empty 200. */
export function answeredObject(answer: unknown): IDataObject | undefined {
	return answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as IDataObject) : undefined;
}

/** A 2xx answer that cannot be used (no ID, not a list, an odd record): the item's NodeApiError, in words, with what to check. */
export function answerError(node: INode, message: string, description: string, itemIndex: number): NodeApiError {
	return new NodeApiError(node, { message } as JsonObject, { message, description, itemIndex });
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
