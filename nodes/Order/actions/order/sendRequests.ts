/**
 * The send requests of Send and Create and Send: the send fields and run settings, one send command per
 * batch (party, transport, strictness), then one read per order to report the delivery. When the API
 * rejects a batch for some of its orders, those get their own outcome and the rest go out in one more call.
 */
import { type IDataObject, type IExecuteFunctions, type INode, type INodeProperties, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { inputError, readBoolean, requireValid } from '../../../shared/node/input';
import type { BatchedOutput } from '../../../shared/node/items';
import { type Check, checkBoolean, checkChoice, checkNumber } from '../../../shared/domain/validation';
import type { ClientProvider } from '../../../shared/node/router';
import type { ApiClient, ApiErrorEntry } from '../../../shared/http/transport';
import { getOrder } from '../../../shared/node/order';
import { apiError, sendJson } from '../writes';
import { text } from '../../../shared/domain/values';
import {
	type IdempotencyHeader,
	type SendBatch,
	type SendTarget,
	attributeErrors,
	deliveryState,
	IDEMPOTENCY_HEADERS,
	isAlreadySent,
	isNotOnPeppol,
	normalizeTransportType,
	planBatches,
	sendFacts,
	sendIdempotencyKey,
	TRANSPORT_TYPES,
} from './sendRules';

const CUSTOM = 'custom';
/** No TransportType: the service sends over Peppol, else by e-mail (page "Send via Email", since February 2026). */
const PEPPOL_ELSE_EMAIL = 'peppolElseEmail';

/** Transport Type and Strict (No Fallback), for an operation that sends. */
export function sendFields(): INodeProperties[] {
	return [
		{
			displayName: 'Transport Type',
			name: 'transportType',
			type: 'options',
			options: [
				{
					name: 'Peppol, Else E-Mail',
					value: PEPPOL_ELSE_EMAIL,
					description: "Sends no transport type: Peppol if the customer is on it, else the customer's e-mail",
				},
				{ name: 'Peppol Only', value: 'Peppol', description: 'A customer not on Peppol is refused (TheCustomerIsNotActiveOnPeppol), never e-mailed' },
				// The value 1.0 saved: sent as SMTP, the published name (sendRules.ts normalizeTransportType).
				{ name: 'E-Mail', value: 'Email', description: "To the customer's e-mail address (sent as SMTP)" },
				{ name: 'Letter', value: 'Letter', description: "On paper, by post to the customer's address" },
				{ name: 'Custom', value: CUSTOM, description: 'Another transport type, typed below' },
			],
			default: PEPPOL_ELSE_EMAIL,
			description: 'How the orders are delivered. Since February 2026 a named transport type never falls back to another.',
		},
		{
			displayName: 'Custom Transport Type',
			name: 'customTransportType',
			type: 'string',
			// Not "required": with Transport Type as an expression n8n would demand it on every item.
			default: '',
			placeholder: 'e.g. SDI',
			description: 'The transport type as the API names it',
			displayOptions: { show: { transportType: [CUSTOM] } },
		},
		{
			displayName: 'Strict (No Fallback)',
			name: 'strictTransportType',
			type: 'boolean',
			default: false,
			description: 'Whether to send the StrictTransportType header; with Peppol, Else E-Mail it makes the send Peppol only',
		},
	];
}

/** Transport Type and Strict for one item, or a NodeOperationError naming the field and item. */
export function readSendChoice(ctx: IExecuteFunctions, itemIndex: number): { transportType: string; strict: boolean } {
	const chosen = ctx.getNodeParameter('transportType', itemIndex, PEPPOL_ELSE_EMAIL) as unknown;
	const strict = readBoolean(ctx, itemIndex, 'strictTransportType', 'Strict (No Fallback)', false);
	if (chosen === PEPPOL_ELSE_EMAIL) return { transportType: strict ? 'Peppol' : '', strict };
	const field = chosen === CUSTOM ? 'Custom Transport Type' : 'Transport Type';
	const raw = chosen === CUSTOM ? (ctx.getNodeParameter('customTransportType', itemIndex, '') as unknown) : chosen;
	const hint = 'A transport type is a short name such as Peppol, SMTP (e-mail) or Letter.';
	// Refused, not cleaned: "Pe€ppol" or "Peppol\u0000" would otherwise be sent as Peppol.
	if (typeof raw === 'string' && /[^\x20-\x7e]/.test(raw))
		throw inputError(ctx, itemIndex, field, raw, 'contains a line break or another control or non-ASCII character', hint);
	const transportType = normalizeTransportType(raw);
	if (!transportType) throw inputError(ctx, itemIndex, field, undefined, 'is empty', `Choose ${TRANSPORT_TYPES.join(', ')} or type another.`);
	if (transportType.length > 50) throw inputError(ctx, itemIndex, 'Custom Transport Type', transportType, 'is not a transport type', hint);
	return { transportType, strict };
}

/** Options that apply to the whole run (read from the first item). */
export interface SendSettings {
	batchSize: number;
	idempotencyHeader: IdempotencyHeader;
	checkDelivery: boolean;
	fetchFull: boolean;
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

/**
 * A NodeApiError for one order of a rejected batch, from the API's entry for it. The 2026 Peppol refusal names no
 * order: given the order (read for it; {} when the read failed), the error names it, its customer and what to do.
 */
function orderSendError(node: INode, orderId: number, entry: ApiErrorEntry, batch: SendBatch, status: string, order?: IDataObject): NodeApiError {
	const party = (order?.Customer ?? order?.CounterParty) as IDataObject | undefined;
	const [number, vat] = [text(order?.OrderNumber), text(party?.VATNumber)];
	const who = `${text(party?.Name) || text(party?.DisplayName) || 'its customer'}${vat ? ` (${vat})` : ''}`;
	const message = order
		? `Order ${orderId}${number ? ` (${number})` : ''} was not sent: ${who} is not active on Peppol (${entry.code ?? 'TheCustomerIsNotActiveOnPeppol'})`
		: `Send order ${orderId} failed with HTTP ${status}${entry.code ? ` (${entry.code})` : ''}${entry.description ? `: ${entry.description}` : ''}`;
	const hint = order
		? 'Send it with Transport Type "Peppol, Else E-Mail" or "E-Mail", or check the customer with Peppol Lookup.'
		: hintFor(entry, batch, status);
	const error = apiError(node, message, hint, status, batch.itemIndex, entry.code, entry.description);
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
			// No TransportType at all for "Peppol, Else E-Mail": the published way to keep the fallback.
			const body = { ...(batch.transportType ? { Transporttype: batch.transportType } : {}), OrderIDs: pending };
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
				const notOnPeppol = entries.find(isNotOnPeppol);
				if (notOnPeppol && unattributed.length > 0) {
					// The refusal names no order: alone, an order's refusal is its own, and the others still go out.
					if (pending.length === 1) perOrder.set(pending[0], notOnPeppol);
					else {
						for (const id of pending)
							for (const [one, outcome] of await sendBatch(node, client, { ...batch, orderIds: [id] }, idempotencyHeader)) outcomes.set(one, outcome);
						return outcomes;
					}
				}
				if (perOrder.size > 0 && (unattributed.length === 0 || notOnPeppol)) {
					for (const [id, entry] of perOrder) {
						outcomes.set(
							id,
							isAlreadySent(entry)
								? { status: 'alreadySent', reason: 'AlreadySent' }
								: {
										status: 'failed',
										error: orderSendError(
											node,
											id,
											entry,
											batch,
											status,
											isNotOnPeppol(entry) ? await getOrder(client, id, batch.itemIndex).catch(() => ({})) : undefined,
										),
									},
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
				reads.set(key, { order: await getOrder(client, request.orderId, request.itemIndex) });
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
	out.transportType = request.transportType || null;
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
