/** The rules of sending orders, pure (docs/api.md "Sending"): transport types, order-ID lists, keys, batches, per-order errors, delivery. */
import type { IDataObject } from 'n8n-workflow';

import type { ApiErrorEntry } from '../../../shared/http/transport';
import { checkOrderId } from './orderId';
import { isRecord, text } from '../../../shared/domain/values';

/** The published transport types (page "Party types": e-mail is `SMTP`). */
export const TRANSPORT_TYPES = ['Peppol', 'SMTP', 'Letter'] as const;
/** Older spellings of e-mail (this node sent "Email" before 1.1): read as SMTP. */
const EMAIL_ALIASES = ['email', 'mail'];
/** Which header carries idempotency keys (production pages spell it both ways), or none. */
export const IDEMPOTENCY_HEADERS = ['Idempotency-Key', 'Idempotent-Key', 'none'] as const;
export type IdempotencyHeader = (typeof IDEMPOTENCY_HEADERS)[number];

const squash = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A known transport type in the API's spelling ("smtp", "Email" → SMTP); other texts trimmed; '' → undefined. */
export function normalizeTransportType(value: unknown): string | undefined {
	if (value === undefined || value === null || typeof value === 'object') return undefined;
	const trimmed = String(value).trim();
	if (EMAIL_ALIASES.includes(squash(trimmed))) return 'SMTP';
	return trimmed ? (TRANSPORT_TYPES.find((type) => squash(type) === squash(trimmed)) ?? trimmed) : undefined;
}

/** Whether an API error entry is the 2026 refusal of a named Peppol send to a customer not on Peppol (page "Send via Email"). */
export const isNotOnPeppol = (entry: ApiErrorEntry) =>
	squash(entry.code ?? '') === 'thecustomerisnotactiveonpeppol' || /not active on peppol/i.test(entry.description ?? '');

/** Order IDs from a mapped value: 123, "123", "123, 456", [123, "456"] or an order object ({ OrderID }); each once. */
export function parseOrderIdList(value: unknown): { ids: number[] } | { problem: string; value?: unknown } {
	const parts: unknown[] = [];
	const add = (entry: unknown) => {
		if (typeof entry === 'string') parts.push(...entry.split(/[\s,;]+/).filter(Boolean));
		else if (isRecord(entry)) parts.push(entry.OrderID ?? entry.OrderId ?? entry);
		else parts.push(entry);
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
export function fingerprint(value: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193) >>> 0;
	return hash.toString(16).padStart(8, '0');
}

const MAX_KEY_LENGTH = 200;

/** `<prefix>-<text>` as a header value: printable ASCII kept, the rest percent-encoded; past 200 characters, a prefix plus a fingerprint of the whole. */
export function idempotencyKey(prefix: string, value: string): string {
	const key = `${prefix}-${/^[\x20-\x7e]*$/.test(value) ? value.trim() : encodeURIComponent(value.trim())}`;
	return key.length <= MAX_KEY_LENGTH ? key : `${key.slice(0, MAX_KEY_LENGTH - 20)}-${fingerprint(key)}-${value.length}`;
}

export const createIdempotencyKey = (externalProviderId: string) => idempotencyKey('create', externalProviderId);

/** The key of one send call: transport, strictness and the sorted order IDs. */
export function sendIdempotencyKey(transportType: string, strict: boolean, orderIds: number[]): string {
	const ids = [...orderIds].sort((a, b) => a - b).join('-');
	return idempotencyKey('send', `${transportType || 'PeppolElseEmail'}-${strict ? 'strict-' : ''}${ids}`);
}

/** One order to send for one input item. */
export interface SendTarget {
	itemIndex: number;
	orderId: number;
	partyId?: string;
	/** '' sends no TransportType: Peppol, else e-mail (the service's own choice since February 2026). */
	transportType: string;
	strict: boolean;
}

/** One send call: orders sharing party, transport type and strictness; `itemIndex` is the first item asking for one of them. */
export type SendBatch = Omit<SendTarget, 'orderId'> & { orderIds: number[] };

/** Targets grouped by party, transport type (any case) and strictness, in order of appearance; each order once per group, batchSize a call. */
export function planBatches(targets: SendTarget[], batchSize: number): SendBatch[] {
	const size = Math.max(1, Math.floor(batchSize) || 1);
	const groups = new Map<string, { first: SendTarget; items: Map<number, number> }>();
	for (const target of targets) {
		const key = JSON.stringify([target.partyId ?? '', squash(target.transportType), target.strict]);
		let group = groups.get(key);
		if (!group) groups.set(key, (group = { first: target, items: new Map() }));
		if (!group.items.has(target.orderId)) group.items.set(target.orderId, target.itemIndex);
	}
	const batches: SendBatch[] = [];
	for (const { first, items } of groups.values()) {
		const ids = [...items.keys()];
		for (let start = 0; start < ids.length; start += size) {
			const orderIds = ids.slice(start, start + size);
			const itemIndex = Math.min(...orderIds.map((id) => items.get(id) as number));
			batches.push({ partyId: first.partyId, transportType: first.transportType, strict: first.strict, orderIds, itemIndex });
		}
	}
	return batches;
}

/** The entries of a rejected batch by the orders each names (an entry may name several); entries naming none are left over. */
export function attributeErrors(entries: ApiErrorEntry[], orderIds: number[]): { perOrder: Map<number, ApiErrorEntry>; unattributed: ApiErrorEntry[] } {
	const perOrder = new Map<number, ApiErrorEntry>();
	const unattributed: ApiErrorEntry[] = [];
	for (const entry of entries) {
		const named = orderIds.filter((id) => new RegExp(`(?<!\\d)${id}(?!\\d)`).test(entry.description ?? ''));
		if (named.length === 0) unattributed.push(entry);
		// Two entries for one order: "already sent" says the most about it.
		for (const id of named) if (!perOrder.has(id) || isAlreadySent(entry)) perOrder.set(id, entry);
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

/** The latest Outgoing message (page "Get status info of a sales invoice"); where none names a direction, the latest with a transport. */
export function lastSend(order: IDataObject): IDataObject | undefined {
	const withTransport = messagesOf(order).filter((m) => normalizeTransportType(m.TransportType ?? m.Transporttype) !== undefined);
	return withTransport.filter((m) => direction(m) === 'outgoing' || !direction(m)).pop();
}

/** The receiver's latest response (an Incoming message): its code (IMR/MLR, e.g. AB, AP, RE) and text, from its Description "RE: …". */
export function lastResponse(order: IDataObject): { code?: string; text: string } | undefined {
	const last = messagesOf(order)
		.filter((m) => direction(m) === 'incoming' && text(m.Description))
		.pop();
	if (!last) return undefined;
	const description = text(last.Description);
	const coded = /^([A-Z]{2}):\s*([\s\S]*)$/.exec(description);
	return coded ? { code: coded[1], text: coded[2] } : { text: description };
}

/** How an order went out, from its last send (README "Send"): sentAt is the message's CreationDate as the service writes it. */
export function sendFacts(order: IDataObject, requested: string): { sentVia?: string; fallback?: boolean; sentAt?: string; sentInfo?: string } {
	const message = lastSend(order);
	const via = message && normalizeTransportType(message.TransportType ?? message.Transporttype);
	if (!message || !via) return {};
	const at = text(message.CreationDate) || text(message.Date);
	return {
		sentVia: via,
		fallback: squash(via) !== squash(requested || 'Peppol'),
		...(at ? { sentAt: at } : {}),
		...(text(message.Description) ? { sentInfo: text(message.Description) } : {}),
	};
}

/** Get Delivery Status's outputs, in order; the node's `outputs` expression names them the same way. */
export const DELIVERY_OUTPUTS = ['Delivered', 'Pending / Not Sent', 'Error / Refused'] as const;

/**
 * The delivery from `CurrentDocumentDeliveryDetails` (page "Get status info of a sales invoice"): "delivered"
 * only when the service says so. A refusal comes first: the page's negative example is status Error with the
 * Refused fields set, and no Refused field may ever read as delivered. A status this node does not know goes
 * to Error / Refused, where someone looks at it.
 */
export function deliveryState(order: IDataObject): { status: string; output: 0 | 1 | 2; details: IDataObject } {
	const details = isRecord(order.CurrentDocumentDeliveryDetails) ? order.CurrentDocumentDeliveryDetails : {};
	const refused = [details.DocumentRefusedDate, details.DocumentRefusedInfo, details.DocumentRefusedReasonTC].some((v) => text(v) !== '');
	const apiStatus = text(details.DocumentDeliveryStatus);
	const known = apiStatus.toLowerCase();
	const state = (status: string, output: 0 | 1 | 2) => ({ status, output, details });
	if (refused || known === 'refused') return state('Refused', 2);
	if (known === 'error') return state('Error', 2);
	if (known === 'delivered' || (!apiStatus && details.IsDocumentDelivered === true)) return state('Delivered', 0);
	if (known === 'pending') return state('Pending', 1);
	if (apiStatus) return state(apiStatus, 2);
	const neverSent = order.IsSent === false || (order.IsSent === undefined && Array.isArray(order.Messages) && !lastSend(order));
	return state(neverSent ? 'NotSent' : 'Unknown', 1);
}
