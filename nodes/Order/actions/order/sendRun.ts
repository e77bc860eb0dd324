/**
 * Sending for Send and Create and Send: the shared parameters and run settings, one send command per
 * batch (party, transport, strictness), then one read per order to report the delivery. When the API
 * rejects a batch for some of its orders, those get their own outcome and the rest go out in one more call.
 */
import { type IDataObject, type IExecuteFunctions, type INode, type INodeProperties, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { inputError, readBoolean, requireValid } from '../../../shared/node/input';
import type { BatchedOutput } from '../../../shared/node/items';
import { type Check, checkBoolean, checkChoice, checkNumber } from '../../../shared/domain/validation';
import type { ClientProvider } from '../../../shared/node/router';
import type { ApiClient, ApiErrorEntry } from '../../../shared/http/transport';
import { type SingleOrderPath, getOrder, SINGLE_ORDER_PATHS } from '../../../shared/domain/order';
import { apiError, sendJson } from './orderChanges';
import {
	type IdempotencyHeader,
	type SendBatch,
	type SendTarget,
	attributeErrors,
	deliveryState,
	IDEMPOTENCY_HEADERS,
	isAlreadySent,
	normalizeTransportType,
	planBatches,
	sendFacts,
	sendIdempotencyKey,
	TRANSPORT_TYPES,
} from './sendLogic';

const CUSTOM = 'custom';

/** Transport Type and Strict (No Fallback), shown for the given operation. */
export function sendFields(operation: string): INodeProperties[] {
	const show = { resource: ['order'], operation: [operation] };
	return [
		{
			displayName: 'Transport Type',
			name: 'transportType',
			type: 'options',
			options: [
				{ name: 'Peppol', value: 'Peppol', description: 'Over Peppol, else by e-mail or post unless Strict is on' },
				{ name: 'E-Mail', value: 'Email', description: "To the customer's e-mail address" },
				{ name: 'Letter', value: 'Letter', description: "On paper, by post to the customer's address" },
				{ name: 'Custom', value: CUSTOM, description: 'Another transport type, typed below' },
			],
			default: 'Peppol',
			description: 'How the orders are delivered',
			displayOptions: { show },
		},
		{
			displayName: 'Custom Transport Type',
			name: 'customTransportType',
			type: 'string',
			// Not "required": with Transport Type as an expression n8n would demand it on every item.
			default: '',
			placeholder: 'e.g. SDI',
			description: 'The transport type as the API names it',
			displayOptions: { show: { ...show, transportType: [CUSTOM] } },
		},
		{
			displayName: 'Strict (No Fallback)',
			name: 'strictTransportType',
			type: 'boolean',
			default: false,
			description: 'Whether to fail an order instead of sending it by e-mail or post',
			displayOptions: { show },
		},
	];
}

/** Transport Type and Strict for one item, or a NodeOperationError naming the field and item. */
export function readSendChoice(ctx: IExecuteFunctions, itemIndex: number): { transportType: string; strict: boolean } {
	const chosen = ctx.getNodeParameter('transportType', itemIndex, 'Peppol') as unknown;
	const field = chosen === CUSTOM ? 'Custom Transport Type' : 'Transport Type';
	const raw = chosen === CUSTOM ? (ctx.getNodeParameter('customTransportType', itemIndex, '') as unknown) : chosen;
	const hint = 'A transport type is a short name such as Peppol, Email or Letter.';
	// Refused, not cleaned: "Pe€ppol" or "Peppol\u0000" would otherwise be sent as Peppol.
	if (typeof raw === 'string' && /[^\x20-\x7e]/.test(raw))
		throw inputError(ctx, itemIndex, field, raw, 'contains a line break or another control or non-ASCII character', hint);
	const transportType = normalizeTransportType(raw);
	if (!transportType) throw inputError(ctx, itemIndex, field, undefined, 'is empty', `Choose ${TRANSPORT_TYPES.join(', ')} or type another.`);
	if (transportType.length > 50) throw inputError(ctx, itemIndex, 'Custom Transport Type', transportType, 'is not a transport type', hint);
	return { transportType, strict: readBoolean(ctx, itemIndex, 'strictTransportType', 'Strict (No Fallback)', false) };
}

/** Options that apply to the whole run (read from the first item). */
export interface SendSettings {
	batchSize: number;
	idempotencyHeader: IdempotencyHeader;
	checkDelivery: boolean;
	fetchFull: boolean;
	singleOrderPath: SingleOrderPath;
}

export function readSendSettings(ctx: IExecuteFunctions): SendSettings {
	const options = (ctx.getNodeParameter('options', 0, {}) ?? {}) as IDataObject;
	// Each option is checked (item 1's values apply to the run), never clamped or defaulted away.
	const option = <T>(name: string, field: string, fallback: unknown, check: (value: unknown) => Check<T>): T =>
		requireValid(ctx, 0, field, options[name] ?? fallback, check);
	return {
		batchSize: option('batchSize', 'Batch Size', 100, (v) => checkNumber(v, { min: 1, whole: true })),
		idempotencyHeader: option('idempotencyHeader', 'Idempotency Header', 'Idempotency-Key', (v) => checkChoice(v, IDEMPOTENCY_HEADERS)) as IdempotencyHeader,
		checkDelivery: option('checkDelivery', 'Check Delivery', true, checkBoolean),
		fetchFull: option('fetchFullOrder', 'Fetch Full Order', false, checkBoolean),
		singleOrderPath: option('singleOrderPath', 'Single Order Path', 'auto', (v) => checkChoice(v, SINGLE_ORDER_PATHS)) as SingleOrderPath,
	};
}

export type SendOutcome =
	| { status: 'sent' }
	/** Sent before: the API said AlreadySent, or the idempotency key was used (409). */
	| { status: 'alreadySent'; reason: 'AlreadySent' | 'Conflict' | 'IsSent' }
	| { status: 'failed'; error: NodeApiError | NodeOperationError };

/** One order to send for one item; `known` skips the send (e.g. found already sent). */
export interface SendRequest extends SendTarget {
	known?: SendOutcome;
}

/** One request's outcome, and the order as read after sending (Check Delivery / Fetch Full Order). */
export interface SendReport {
	request: SendRequest;
	outcome: SendOutcome;
	order?: IDataObject;
	readError?: string;
}

function conflictNotSent(ctx: IExecuteFunctions, request: SendRequest, order: IDataObject): NodeApiError {
	const key = sendIdempotencyKey(request.transportType, request.strict, [request.orderId]);
	const message = `Send order ${request.orderId} answered HTTP 409, but it is not sent (OrderStatus ${String(order.OrderStatus)})`;
	const hint = `Send it alone (key ${key}), or set Idempotency Header to None.`;
	return apiError(ctx.getNode(), message, hint, '409', request.itemIndex);
}

const asFailure = (node: INode, error: unknown, itemIndex: number) =>
	error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(node, error as Error, { itemIndex });

function hintFor(entry: ApiErrorEntry, batch: SendBatch, status: string): string {
	const text = `${entry.code ?? ''} ${entry.description ?? ''}`;
	if (status === '401' || status === '403') {
		return "Check Options › Act for Party and the credential's Party ID.";
	}
	if (batch.strict && /peppol|receiver|transport/i.test(text)) {
		return 'Turn off Strict (No Fallback), or check the customer with Peppol Lookup.';
	}
	if (/not\s*found|unknown order|does not exist/i.test(text)) {
		return 'Check the Order ID and Options › Act for Party.';
	}
	return 'Check the order and the Transport Type.';
}

/** A NodeApiError for one order of a rejected batch, from the API's entry for it. */
function orderSendError(node: INode, orderId: number, entry: ApiErrorEntry, batch: SendBatch, status: string): NodeApiError {
	const message = `Send order ${orderId} failed with HTTP ${status}${entry.code ? ` (${entry.code})` : ''}${entry.description ? `: ${entry.description}` : ''}`;
	const error = apiError(node, message, hintFor(entry, batch, status), status, batch.itemIndex, entry.code, entry.description);
	error.context.orderId = orderId;
	return error;
}

/** Sends one batch: the outcome of each of its orders (an API failure is a `failed` outcome, never thrown). */
async function sendBatch(node: INode, client: ApiClient, batch: SendBatch, idempotencyHeader: IdempotencyHeader): Promise<Map<number, SendOutcome>> {
	const outcomes = new Map<number, SendOutcome>();
	let pending = [...batch.orderIds];
	while (pending.length) {
		const headers: Record<string, string> = {};
		if (batch.strict) headers.StrictTransportType = 'true';
		if (idempotencyHeader !== 'none') headers[idempotencyHeader] = sendIdempotencyKey(batch.transportType, batch.strict, pending);
		try {
			const body = { Transporttype: batch.transportType, OrderIDs: pending };
			const operation = `Send order${pending.length > 1 ? 's' : ''} ${pending.join(', ')}`;
			await sendJson(client, { method: 'POST', path: '/v1/orders/commands/send', body, headers, itemIndex: batch.itemIndex, operation });
			for (const id of pending) outcomes.set(id, { status: 'sent' });
			return outcomes;
		} catch (error) {
			const status = String((error as NodeApiError)?.httpCode ?? '');
			if (status === '409' && idempotencyHeader !== 'none') {
				for (const id of pending) outcomes.set(id, { status: 'alreadySent', reason: 'Conflict' });
				return outcomes;
			}
			// A refusal naming some of the batch's orders (strict transport, already sent,
			// unknown or foreign order) concerns only those.
			if (/^4\d\d$/.test(status) && status !== '409' && status !== '429') {
				const entries = ((error as NodeApiError).context?.apiErrors ?? []) as ApiErrorEntry[];
				const { perOrder, unattributed } = attributeErrors(entries, pending);
				if (perOrder.size > 0 && unattributed.length === 0) {
					for (const [id, entry] of perOrder) {
						outcomes.set(
							id,
							isAlreadySent(entry)
								? { status: 'alreadySent', reason: 'AlreadySent' }
								: { status: 'failed', error: orderSendError(node, id, entry, batch, status) },
						);
					}
					// The API sends none of a rejected batch: the others go out in one more call.
					pending = pending.filter((id) => !perOrder.has(id));
					continue;
				}
			}
			for (const id of pending) outcomes.set(id, { status: 'failed', error: asFailure(node, error, batch.itemIndex) });
			return outcomes;
		}
	}
	return outcomes;
}

/** Sends every request (batched), then reads each order once for Check Delivery / Fetch Full Order: one report per request, in order. */
export async function sendAll(ctx: IExecuteFunctions, clients: ClientProvider, requests: SendRequest[], settings: SendSettings): Promise<SendReport[]> {
	const node = ctx.getNode();
	const partyKey = (partyId: string | undefined, orderId: number) => `${partyId ?? ''}\u0000${orderId}`;
	const outcomes = new Map<string, SendOutcome>();
	for (const request of requests) if (request.known) outcomes.set(partyKey(request.partyId, request.orderId), request.known);

	const toSend = requests.filter((request) => !outcomes.has(partyKey(request.partyId, request.orderId)));
	for (const batch of planBatches(toSend, settings.batchSize)) {
		let result: Map<number, SendOutcome>;
		try {
			const client = await clients(batch.itemIndex, batch.partyId);
			result = await sendBatch(node, client, batch, settings.idempotencyHeader);
		} catch (error) {
			// e.g. the credential's Base URL is unusable: every order of the batch fails with it.
			result = new Map(batch.orderIds.map((id) => [id, { status: 'failed', error: asFailure(node, error, batch.itemIndex) }]));
		}
		for (const [id, outcome] of result) outcomes.set(partyKey(batch.partyId, id), outcome);
	}

	const reads = new Map<string, { order?: IDataObject; readError?: string }>();
	if (settings.checkDelivery || settings.fetchFull) {
		for (const request of requests) {
			const key = partyKey(request.partyId, request.orderId);
			const outcome = outcomes.get(key);
			if (reads.has(key) || !outcome || outcome.status === 'failed') continue;
			try {
				const client = await clients(request.itemIndex, request.partyId);
				reads.set(key, { order: await getOrder(client, request.orderId, request.itemIndex, settings.singleOrderPath) });
			} catch (error) {
				// The order went out; only the report is incomplete.
				reads.set(key, { readError: (error as Error).message });
			}
		}
	}

	return requests.map((request) => {
		const key = partyKey(request.partyId, request.orderId);
		let outcome = outcomes.get(key) as SendOutcome;
		const read = reads.get(key) ?? {};
		if (outcome.status === 'alreadySent' && outcome.reason === 'Conflict' && read.order && read.order.IsSent === false && read.order.OrderStatus === 'Draft') {
			outcome = { status: 'failed', error: conflictNotSent(ctx, request, read.order) };
		}
		return { request, outcome, ...read };
	});
}

/** The output of one sent order: how it went out (sentVia, sentAt) and, separately, what the service says of its delivery. */
export function sendOutput(report: SendReport, settings: SendSettings): IDataObject {
	const { request, outcome, order } = report;
	const out: IDataObject = settings.fetchFull && order ? { ...order } : { OrderID: request.orderId };
	out.OrderID = request.orderId;
	out.sent = outcome.status !== 'failed';
	out.alreadySent = outcome.status === 'alreadySent';
	out.transportType = request.transportType;
	out.strict = request.strict;
	if (order && settings.checkDelivery) {
		Object.assign(out, sendFacts(order, request.transportType));
		const { status, details } = deliveryState(order);
		out.deliveryStatus = status;
		if (status === 'Delivered' && details.DocumentDeliveryDate) out.deliveredAt = details.DocumentDeliveryDate;
		const info = details.DocumentRefusedInfo || details.DocumentDeliveryInfo;
		if (info) out.deliveryInfo = info;
	}
	if (order && !settings.fetchFull) {
		if (order.OrderStatus !== undefined) out.OrderStatus = order.OrderStatus;
		if (order.IsSent !== undefined) out.IsSent = order.IsSent;
	}
	if (report.readError) out.deliveryCheckError = report.readError;
	return out;
}

/** One item's outputs from its reports: each order's fields, or the Error of an order that failed. */
export function sendOutputs(
	reports: SendReport[],
	settings: SendSettings,
	toJson: (report: SendReport) => IDataObject = (report) => sendOutput(report, settings),
): BatchedOutput {
	return reports.map((report) => (report.outcome.status === 'failed' ? report.outcome.error : toJson(report)));
}
