/**
 * Pure pieces of sending orders (field notes "Sending"): transport types, order-ID lists,
 * idempotency keys, batching, per-order errors of a rejected batch, and what an order's
 * Messages and CurrentDocumentDeliveryDetails say about its send and delivery. No n8n, no I/O.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ApiErrorEntry } from '../../../shared/http/transport';
import { checkOrderId } from './orderId';
import { isRecord, text } from '../../../shared/domain/values';

export const TRANSPORT_TYPES = ['Peppol', 'Email', 'Letter'] as const;

function squash(text: string): string {
	return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** A known transport type in the API's spelling ("email" → Email); other texts trimmed; '' → undefined. */
export function normalizeTransportType(value: unknown): string | undefined {
	if (value === undefined || value === null || typeof value === 'object') return undefined;
	const text = String(value).trim();
	if (!text) return undefined;
	const known = TRANSPORT_TYPES.find((type) => squash(type) === squash(text));
	return known ?? text;
}

/** Whether two transport type names mean the same delivery method (E-mail = Email). */
export function sameTransport(a: string, b: string): boolean {
	return squash(a) === squash(b);
}

export type OrderIdList = { ids: number[] } | { problem: string; value?: unknown };

/**
 * Order IDs from a mapped value: 123, "123", "123, 456", [123, "456"] or an order
 * object ({ OrderID }). Duplicates are kept once.
 */
export function parseOrderIdList(value: unknown): OrderIdList {
	const parts: unknown[] = [];
	const add = (entry: unknown) => {
		if (typeof entry === 'string') {
			for (const piece of entry.split(/[\s,;]+/)) if (piece) parts.push(piece);
		} else if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
			const record = entry as IDataObject;
			parts.push(record.OrderID ?? record.OrderId ?? entry);
		} else {
			parts.push(entry);
		}
	};
	if (Array.isArray(value)) value.forEach(add);
	else if (value !== undefined && value !== null) add(value);
	if (parts.length === 0) return { problem: 'is empty' };
	const ids: number[] = [];
	for (const part of parts) {
		const checked = checkOrderId(part);
		if (!checked.ok) return { problem: checked.problem === 'is empty' ? 'is not an OrderID' : checked.problem, value: part };
		const id = Number(checked.value);
		if (!ids.includes(id)) ids.push(id);
	}
	return { ids };
}

/** 32-bit FNV-1a of a text, as 8 hex digits (a stable short fingerprint, not security). */
export function fingerprint(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(16).padStart(8, '0');
}

const MAX_KEY_LENGTH = 200;

/**
 * `<prefix>-<text>` as a header value: printable ASCII kept, anything else
 * percent-encoded; longer than 200 characters → a prefix of it plus a fingerprint of the whole.
 */
export function idempotencyKey(prefix: string, text: string): string {
	const safe = /^[\x20-\x7e]*$/.test(text) ? text.trim() : encodeURIComponent(text.trim());
	const key = `${prefix}-${safe}`;
	if (key.length <= MAX_KEY_LENGTH) return key;
	return `${key.slice(0, MAX_KEY_LENGTH - 20)}-${fingerprint(key)}-${text.length}`;
}

/** The key of a create: `create-<ExternalProviderID>`. */
export function createIdempotencyKey(externalProviderId: string): string {
	return idempotencyKey('create', externalProviderId);
}

/** The key of one send call: transport, strictness and the sorted order IDs. */
export function sendIdempotencyKey(transportType: string, strict: boolean, orderIds: number[]): string {
	const ids = [...orderIds].sort((a, b) => a - b).join('-');
	return idempotencyKey('send', `${transportType}-${strict ? 'strict-' : ''}${ids}`);
}

/** One order to send for one input item. */
export interface SendTarget {
	itemIndex: number;
	orderId: number;
	partyId?: string;
	transportType: string;
	strict: boolean;
}

/** One send call: orders sharing party, transport type and strictness. */
export interface SendBatch {
	partyId?: string;
	transportType: string;
	strict: boolean;
	orderIds: number[];
	/** The first item asking for an order of this batch (its client and error stamp). */
	itemIndex: number;
}

/**
 * Groups targets by party, transport type (case-insensitively) and strictness, in the
 * order they first appear; each order once per group; at most batchSize orders a call.
 */
export function planBatches(targets: SendTarget[], batchSize: number): SendBatch[] {
	const size = Math.max(1, Math.floor(batchSize) || 1);
	const groups = new Map<string, { first: SendTarget; ids: number[]; items: Map<number, number> }>();
	for (const target of targets) {
		const key = JSON.stringify([target.partyId ?? '', squash(target.transportType), target.strict]);
		let group = groups.get(key);
		if (!group) groups.set(key, (group = { first: target, ids: [], items: new Map() }));
		if (!group.items.has(target.orderId)) {
			group.items.set(target.orderId, target.itemIndex);
			group.ids.push(target.orderId);
		}
	}
	const batches: SendBatch[] = [];
	for (const { first, ids, items } of groups.values()) {
		for (let start = 0; start < ids.length; start += size) {
			const orderIds = ids.slice(start, start + size);
			batches.push({
				partyId: first.partyId,
				transportType: first.transportType,
				strict: first.strict,
				orderIds,
				itemIndex: Math.min(...orderIds.map((id) => items.get(id) as number)),
			});
		}
	}
	return batches;
}

/**
 * The entries of a rejected batch, by the orders each names (an entry may name several);
 * entries naming none of the batch's orders are left over.
 */
export function attributeErrors(entries: ApiErrorEntry[], orderIds: number[]): { perOrder: Map<number, ApiErrorEntry>; unattributed: ApiErrorEntry[] } {
	const perOrder = new Map<number, ApiErrorEntry>();
	const unattributed: ApiErrorEntry[] = [];
	for (const entry of entries) {
		const text = entry.description ?? '';
		const named = orderIds.filter((id) => new RegExp(`(?<!\\d)${id}(?!\\d)`).test(text));
		if (named.length === 0) unattributed.push(entry);
		for (const id of named) {
			// Two entries for one order: "already sent" says the most about it.
			if (!perOrder.has(id) || isAlreadySent(entry)) perOrder.set(id, entry);
		}
	}
	return { perOrder, unattributed };
}

/** Whether an error entry says the order was sent before (not a failure of this run). */
export function isAlreadySent(entry: ApiErrorEntry): boolean {
	if (entry.code && squash(entry.code) === 'alreadysent') return true;
	return !entry.code && /already (been )?sent/i.test(entry.description ?? '');
}

const messagesOf = (order: IDataObject): IDataObject[] => (Array.isArray(order.Messages) ? order.Messages.filter(isRecord) : []);
const direction = (message: IDataObject) => text(message.MessageDirection).toLowerCase();

/**
 * The order's last send: its latest Outgoing message (the service's `OrderMessage`, page "Get status
 * info of a sales invoice"), or, where no message names a direction, its latest one with a transport.
 */
export function lastSend(order: IDataObject): IDataObject | undefined {
	const withTransport = messagesOf(order).filter((m) => normalizeTransportType(m.TransportType ?? m.Transporttype) !== undefined);
	const outgoing = withTransport.filter((m) => direction(m) === 'outgoing' || !direction(m));
	return outgoing[outgoing.length - 1];
}

/** The receiver's latest response (an Incoming message): its code (IMR/MLR, e.g. AB, AP, RE) and text, from its Description "RE: …". */
export function lastResponse(order: IDataObject): { code?: string; text: string } | undefined {
	const incoming = messagesOf(order).filter((m) => direction(m) === 'incoming' && text(m.Description));
	const last = incoming[incoming.length - 1];
	if (!last) return undefined;
	const description = text(last.Description);
	const coded = /^([A-Z]{2}):\s*([\s\S]*)$/.exec(description);
	return coded ? { code: coded[1], text: coded[2] } : { text: description };
}

/** How an order went out, from its last send: the words of the Send outputs (README "Send"). */
export interface SendFacts {
	/** The transport it went out by, e.g. Peppol or Email. */
	sentVia?: string;
	/** True when that is not the transport asked for (the service fell back to e-mail or post). */
	fallback?: boolean;
	/** When the service wrote the send message (its CreationDate, Belgian time as the service writes it). */
	sentAt?: string;
	/** The send message's Description, e.g. why it fell back. */
	sentInfo?: string;
}

export function sendFacts(order: IDataObject, requested: string): SendFacts {
	const message = lastSend(order);
	const via = message && normalizeTransportType(message.TransportType ?? message.Transporttype);
	if (!message || !via) return {};
	const facts: SendFacts = { sentVia: via, fallback: !sameTransport(via, requested) };
	const at = text(message.CreationDate) || text(message.Date);
	if (at) facts.sentAt = at;
	if (text(message.Description)) facts.sentInfo = text(message.Description);
	return facts;
}

/** Get Delivery Status's outputs, in order; the node's `outputs` expression names them the same way. */
export const DELIVERY_OUTPUTS = ['Delivered', 'Pending / Not Sent', 'Error / Refused'] as const;

export interface DeliveryState {
	/** Delivered, Pending, Not sent, Refused, Error, Unknown (sent, nothing reported), or a status word this node does not know. */
	status: string;
	/** Index in DELIVERY_OUTPUTS. */
	output: 0 | 1 | 2;
	details: IDataObject;
}

/**
 * The delivery of an order from its `CurrentDocumentDeliveryDetails` (page "Get status info of a sales
 * invoice"): "delivered" only when the service says so (DocumentDeliveryStatus Delivered, or
 * IsDocumentDelivered without a status). A refusal comes first: the page's negative example is
 * DocumentDeliveryStatus Error with the Refused fields set, and no Refused field may ever read as
 * delivered. No status at all is Not sent for an order never sent, else Unknown; a status this node
 * does not know goes to Error / Refused, where someone looks at it.
 */
export function deliveryState(order: IDataObject): DeliveryState {
	const details = isRecord(order.CurrentDocumentDeliveryDetails) ? order.CurrentDocumentDeliveryDetails : {};
	const refused = [details.DocumentRefusedDate, details.DocumentRefusedInfo, details.DocumentRefusedReasonTC].some((v) => text(v) !== '');
	const apiStatus = text(details.DocumentDeliveryStatus);
	const known = apiStatus.toLowerCase();
	const state = (status: string, output: 0 | 1 | 2): DeliveryState => ({ status, output, details });
	if (refused || known === 'refused') return state('Refused', 2);
	if (known === 'error') return state('Error', 2);
	if (known === 'delivered' || (!apiStatus && details.IsDocumentDelivered === true)) return state('Delivered', 0);
	if (known === 'pending') return state('Pending', 1);
	if (apiStatus) return state(apiStatus, 2);
	const neverSent = order.IsSent === false || (order.IsSent === undefined && Array.isArray(order.Messages) && !lastSend(order));
	return state(neverSent ? 'Not sent' : 'Unknown', 1);
}
