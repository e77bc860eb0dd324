/**
 * Sending for Send and Create and Send: the shared parameters, the run-level settings,
 * and the run itself (batches per party/transport/strictness, then one read per order
 * to report the delivery).
 */
import { type IDataObject, type IExecuteFunctions, type INodeProperties, type JsonObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { inputError, readBoolean, requireValid } from '../../../shared/node/input';
import type { BatchedOutput } from '../../../shared/node/items';
import { type Check, checkBoolean, checkChoice, checkNumber } from '../../../shared/domain/validation';
import type { ClientProvider } from '../../../shared/node/router';
import { type SingleOrderPath, getOrder, SINGLE_ORDER_PATHS } from '../../../shared/domain/order';
import { type IdempotencyHeader, type SendOutcome, IDEMPOTENCY_HEADERS, sendBatch } from './sendApi';
import { type SendTarget, deliveryState, normalizeTransportType, planBatches, sendFacts, sendIdempotencyKey, TRANSPORT_TYPES } from './sendLogic';

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
				{
					name: 'Peppol',
					value: 'Peppol',
					description: 'Over the Peppol network (the service falls back to e-mail or post unless Strict is on)',
				},
				{ name: 'E-Mail', value: 'Email', description: "By e-mail to the customer's address" },
				{ name: 'Letter', value: 'Letter', description: 'By post' },
				{ name: 'Custom', value: CUSTOM, description: 'Another transport type the service supports, typed below' },
			],
			default: 'Peppol',
			description: 'How the orders are delivered; all orders of one send request share it',
			displayOptions: { show },
		},
		{
			displayName: 'Custom Transport Type',
			name: 'customTransportType',
			type: 'string',
			// Not "required": with Transport Type as an expression n8n would demand it on every item.
			default: '',
			placeholder: 'e.g. SDI',
			description: 'The transport type as the API names it (sent as Transporttype)',
			displayOptions: { show: { ...show, transportType: [CUSTOM] } },
		},
		{
			displayName: 'Strict (No Fallback)',
			name: 'strictTransportType',
			type: 'boolean',
			default: false,
			description:
				'Whether to fail an order whose receiver cannot get it by the chosen transport type (e.g. not on Peppol) instead of letting the service deliver it by e-mail or post. Sends the StrictTransportType header; the other orders of the batch are still sent.',
			displayOptions: { show },
		},
	];
}

export interface SendChoice {
	transportType: string;
	strict: boolean;
}

/** Transport Type and Strict for one item, or a NodeOperationError naming the field and item. */
export function readSendChoice(ctx: IExecuteFunctions, itemIndex: number): SendChoice {
	const chosen = ctx.getNodeParameter('transportType', itemIndex, 'Peppol') as unknown;
	const isCustom = chosen === CUSTOM;
	const raw = isCustom ? (ctx.getNodeParameter('customTransportType', itemIndex, '') as unknown) : chosen;
	// Refused, not cleaned: "Pe€ppol" or "Peppol\u0000" would otherwise be sent as Peppol.
	if (typeof raw === 'string' && /[^\x20-\x7e]/.test(raw)) {
		const field = isCustom ? 'Custom Transport Type' : 'Transport Type';
		throw inputError(
			ctx,
			itemIndex,
			field,
			raw,
			'contains a line break or another control or non-ASCII character',
			'A transport type is a short name such as Peppol, Email or Letter.',
		);
	}
	const transportType = normalizeTransportType(raw);
	if (!transportType) {
		const field = isCustom ? 'Custom Transport Type' : 'Transport Type';
		throw inputError(ctx, itemIndex, field, undefined, 'is empty', `Choose ${TRANSPORT_TYPES.join(', ')} or type the transport type the API expects.`);
	}
	if (/[\r\n]/.test(transportType) || transportType.length > 50) {
		const hint = 'A transport type is a short name such as Peppol, Email or Letter.';
		throw inputError(ctx, itemIndex, 'Custom Transport Type', transportType, 'is not a transport type', hint);
	}
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

/** One order to send for one item; `known` skips the send (e.g. found already sent). */
export interface SendRequest extends SendTarget {
	known?: SendOutcome;
}

export interface SendReport {
	request: SendRequest;
	outcome: SendOutcome;
	/** The order as read after sending (Check Delivery / Fetch Full Order). */
	order?: IDataObject;
	readError?: string;
}

function conflictNotSent(ctx: IExecuteFunctions, request: SendRequest, order: IDataObject, header: IdempotencyHeader): NodeApiError {
	const key = sendIdempotencyKey(request.transportType, request.strict, [request.orderId]);
	const message = `Send order ${request.orderId} answered HTTP 409 (idempotency key already used), but the order is not sent (OrderStatus ${String(order.OrderStatus)})`;
	return new NodeApiError(ctx.getNode(), { message, httpCode: '409' } as JsonObject, {
		message,
		description: `An earlier call used the same ${header} without sending this order. Send it on its own (its key is then ${key}) or set Options › Idempotency Header to None for this run.`,
		httpCode: '409',
		itemIndex: request.itemIndex,
	});
}

/**
 * Sends every request (batched), then reads each sent order once when Check Delivery or
 * Fetch Full Order is on. Returns one report per request, in the same order.
 */
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
			const failure =
				error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(node, error as Error, { itemIndex: batch.itemIndex });
			result = new Map(batch.orderIds.map((id) => [id, { status: 'failed', error: failure } as SendOutcome]));
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
			outcome = { status: 'failed', error: conflictNotSent(ctx, request, read.order, settings.idempotencyHeader) };
		}
		return { request, outcome, ...read };
	});
}

/**
 * The output fields of one sent (or already sent) order: how it went out (sentVia, sentAt: the
 * service's send message) and, separately, what the service says of its delivery (deliveryStatus;
 * deliveredAt only once it says Delivered).
 */
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
