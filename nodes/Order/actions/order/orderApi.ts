/** Order calls on the shared client: the lookup by ExternalProviderID and the create that finds an order made before. */
import { type IDataObject, type INode, type JsonObject, NodeApiError } from 'n8n-workflow';

import type { ApiClient } from '../../../shared/http/transport';
import { readListPage } from '../../../shared/http/paging';
import { type SingleOrderPath, getOrder, hasStatus } from '../../../shared/domain/order';
import { externalIdFilter, readOrderId } from './orderBody';
import { type IdempotencyHeader, createIdempotencyKey } from './sendLogic';
import { sendJson } from './orderChanges';

/** The orders matching all conditions, of the first `top`: a server that ignores $filter would answer others, so `matches` has the last word. */
export async function findOrders(
	client: ApiClient,
	filter: string,
	matches: (order: IDataObject) => boolean,
	{ itemIndex, top, operation }: { itemIndex: number; top: number; operation: string },
): Promise<IDataObject[]> {
	const qs = { $filter: filter, $top: top };
	return readListPage(await client.request<unknown>({ method: 'GET', path: '/v1/orders', qs, itemIndex, operation })).items.filter(matches);
}

/** The first order whose ExternalProviderID equals the given one, or undefined. */
export async function findOrderByExternalId(client: ApiClient, externalProviderId: string, itemIndex: number): Promise<IDataObject | undefined> {
	const operation = `Look up order with ExternalProviderID ${externalProviderId}`;
	const [found] = await findOrders(client, externalIdFilter(externalProviderId), (order) => String(order.ExternalProviderID ?? '') === externalProviderId, {
		itemIndex,
		top: 1,
		operation,
	});
	return found;
}

export interface CreateOrderOptions {
	node: INode;
	itemIndex: number;
	/** Look the ExternalProviderID up first and return that order instead of creating one (and send the create's idempotency key). */
	skipIfExists: boolean;
	/** Read the whole order after creating (the create answer is only its OrderID). */
	fetchFull: boolean;
	singleOrderPath: SingleOrderPath;
	idempotencyHeader: IdempotencyHeader;
	/** The lookup's result when the caller made it already (null: nothing found). */
	found?: IDataObject | null;
}

export interface CreateOrderResult {
	/** The order as output: `{ OrderID }`, the full order, or the existing order. */
	order: IDataObject;
	orderId?: number;
	alreadyExisted: boolean;
}

/** How a create answer without an OrderID looked, without echoing long text (it could carry anything). */
function describeAnswer(answer: unknown): string {
	if (answer === undefined || answer === null || (typeof answer === 'string' && answer.trim() === '')) return 'an empty answer';
	if (typeof answer === 'string') {
		const text = answer.trim();
		return text.length <= 12 && /^[\w .!-]+$/.test(text) ? `the text "${text}"` : 'a text answer';
	}
	if (Array.isArray(answer)) return 'a list';
	if (typeof answer === 'object') return 'an object without OrderID';
	return `the value ${String(answer).slice(0, 12)}`;
}

/** A 2xx create without a readable OrderID confirmed nothing: the item fails, so a re-run with Skip If Already Created is safe. */
function noOrderIdError(node: INode, answer: unknown, itemIndex: number, externalId: string): NodeApiError {
	const message = `Create order answered with ${describeAnswer(answer)}: the API confirmed no OrderID, so the order may or may not exist`;
	const description = externalId
		? `Check the order in the web app, or re-run this item with "Skip If Already Created" on: it finds the order by its External Provider ID (${externalId.slice(0, 80)}) instead of creating it twice.`
		: 'Check the order in the web app before re-running. Set an External Provider ID and re-run with "Skip If Already Created" on: it finds the order by External Provider ID instead of creating it twice.';
	return new NodeApiError(node, { message } as JsonObject, { message, description, itemIndex });
}

/** Creates an order from a checked body (see checkOrder), honouring "skip if already created". */
export async function createOrder(client: ApiClient, body: IDataObject, options: CreateOrderOptions): Promise<CreateOrderResult> {
	const { itemIndex, skipIfExists, idempotencyHeader } = options;
	const externalId = typeof body.ExternalProviderID === 'string' ? body.ExternalProviderID : '';
	const existingResult = async (existing: IDataObject): Promise<CreateOrderResult> => {
		const orderId = readOrderId(existing);
		const order = options.fetchFull && orderId !== undefined ? await getOrder(client, orderId, itemIndex, options.singleOrderPath) : existing;
		return { order, orderId, alreadyExisted: true };
	};
	const keyed = skipIfExists && externalId !== '';
	const existing = options.found !== undefined ? options.found : keyed ? await findOrderByExternalId(client, externalId, itemIndex) : undefined;
	if (existing) return await existingResult(existing);
	const headers: Record<string, string> = keyed && idempotencyHeader !== 'none' ? { [idempotencyHeader]: createIdempotencyKey(externalId) } : {};
	const attempt = await sendJson(client, { method: 'POST', path: '/v1/orders', body, headers, itemIndex, operation: 'Create order' }).then(
		(answer) => ({ answer }),
		(error: unknown) => ({ error }),
	);
	if ('error' in attempt) {
		// 409: the idempotency key (or ExternalProviderID) was used before: the order exists.
		const found = hasStatus(attempt.error, '409') && externalId ? await findOrderByExternalId(client, externalId, itemIndex) : undefined;
		if (!found) throw attempt.error;
		return await existingResult(found);
	}
	const { answer } = attempt;
	const orderId = readOrderId(answer);
	if (orderId === undefined) throw noOrderIdError(options.node, answer, itemIndex, externalId);
	const order = options.fetchFull ? await getOrder(client, orderId, itemIndex, options.singleOrderPath) : { OrderID: orderId };
	return { order, orderId, alreadyExisted: false };
}
