/**
 * The AccessPoint Trigger's events (pure): which API webhooks a selection needs, how a call of the
 * service is verified (its signature) and read (the published wrapper and its older form,
 * docs/api.md "Webhooks"; a flat body is no published form and is not read), and the item it becomes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { isRecord, text } from '../shared/domain/values';

export type TriggerEvent = 'orderCreated' | 'orderUpdated' | 'orderDeleted' | 'deliveryStatusChanged';
export type EntityType = 'Order' | 'Message';
/** I new, U updated, D deleted (the page "Webhooks"). */
export type UpdateType = 'I' | 'U' | 'D';
/** The item's `event`. */
export type OutputEvent = 'created' | 'updated' | 'deleted' | 'deliveryStatusChanged';

/** One API webhook: an entity type and one update type. */
export interface Subscription {
	entityType: EntityType;
	updateType: UpdateType;
}

export const TRIGGER_EVENTS: readonly TriggerEvent[] = ['orderCreated', 'orderUpdated', 'orderDeleted', 'deliveryStatusChanged'];
const ORDER_UPDATES = { orderCreated: 'I', orderUpdated: 'U', orderDeleted: 'D' } as const;
const ORDER_OUTPUTS = { I: ['orderCreated', 'created'], U: ['orderUpdated', 'updated'], D: ['orderDeleted', 'deleted'] } as const;
/** The service's limit per party (docs/api.md "Webhooks"). */
export const WEBHOOKS_PER_PARTY = 4;

/** The webhooks a selection needs, in a stable order, each once. A sent document's message is
 * inserted (I), then updated (U) with its flow state; a customer's response (IMR/MLR) is a new message (I). */
export function subscriptionsFor(events: readonly TriggerEvent[]): Subscription[] {
	return TRIGGER_EVENTS.filter((e) => events.includes(e)).flatMap((e): Subscription[] =>
		e === 'deliveryStatusChanged'
			? [
					{ entityType: 'Message', updateType: 'I' },
					{ entityType: 'Message', updateType: 'U' },
				]
			: [{ entityType: 'Order', updateType: ORDER_UPDATES[e] }],
	);
}

/** "Order I" for one webhook; "Order I, Message I, Message U" for a list. */
export const subscriptionKey = (s: { entityType: string; updateType: string }): string => `${s.entityType} ${s.updateType}`;
export const describeSubscriptions = (list: readonly Subscription[]): string => list.map(subscriptionKey).join(', ');

export function isTriggerEvent(value: unknown): value is TriggerEvent {
	return typeof value === 'string' && (TRIGGER_EVENTS as readonly string[]).includes(value);
}

const record = (v: unknown): IDataObject => (isRecord(v) ? v : {});
const word = (value: unknown): string | undefined => text(value) || undefined;

/** A call of the service, read. */
export interface ServiceEvent {
	entityType: EntityType;
	updateType: UpdateType;
	/** UpdatedEntityID: the message's id, or the order's. */
	entityId?: string;
	/** Message events: the message (OrderMessage); empty for an Order event or when not sent. */
	message: IDataObject;
	/** Message events: AdditionalMessageInformation (older form: MessageAdditionalInformation). */
	state: IDataObject;
}

/** The event a payload reports; undefined when it names no entity/update type this trigger knows (a flat body). */
export function readServiceEvent(payload: IDataObject): ServiceEvent | undefined {
	const entity = word(payload.UpdatedEntityType)?.toLowerCase();
	const update = word(payload.WebhookUpdateTypeTC)?.toUpperCase();
	const entityType = entity === 'order' ? 'Order' : entity === 'message' ? 'Message' : undefined;
	if (!entityType || (update !== 'I' && update !== 'U' && update !== 'D')) return undefined;
	const detail = record(payload.EntityDetail);
	const message = entityType === 'Message' ? (isRecord(detail.OrderMessage) ? detail.OrderMessage : detail) : {};
	const state = entityType === 'Message' ? record(detail.AdditionalMessageInformation ?? detail.MessageAdditionalInformation) : {};
	return { entityType, updateType: update, entityId: word(payload.UpdatedEntityID), message, state };
}

/** The item's `event` when the selection asked for this kind of event; undefined: ignore it. */
export function outputEventOf(ev: ServiceEvent, selected: readonly TriggerEvent[]): OutputEvent | undefined {
	if (ev.entityType === 'Message') return ev.updateType !== 'D' && selected.includes('deliveryStatusChanged') ? 'deliveryStatusChanged' : undefined;
	const [trigger, output] = ORDER_OUTPUTS[ev.updateType];
	return selected.includes(trigger) ? output : undefined;
}

/** The OrderID an event is about (a Message's OrderID, an Order's UpdatedEntityID) as a safe integer, or undefined. */
export function orderIdOf(ev: ServiceEvent): number | undefined {
	const raw = word(ev.entityType === 'Message' ? ev.message.OrderID : ev.entityId);
	const id = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : NaN;
	return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** The flow state the service reported (EInvoiceFlowState: Sent, Accepted, Delivered, Refused), or undefined. */
export function flowStateOf(ev: ServiceEvent): string | undefined {
	return word(ev.state.EInvoiceFlowState);
}

/** The PartyID a payload names (at the top, in EntityDetail or in its message), when it names one. */
export function partyIdOf(payload: IDataObject): string | undefined {
	const detail = record(payload.EntityDetail);
	return word(payload.PartyID) ?? word(detail.PartyID) ?? word(record(detail.OrderMessage).PartyID);
}

const SECRET_KEY = /secret/i;

/** Whether a payload is the confirmation sent when a webhook is made (its shape is not published): a field named like Secret at its top, in EntityDetail or in the message. */
export function isConfirmation(payload: IDataObject): boolean {
	const detail = record(payload.EntityDetail);
	return [payload, detail, record(detail.OrderMessage)].some((level) => Object.keys(level).some((key) => SECRET_KEY.test(key)));
}

/** The value with every field named like Secret, and every text holding one of the secrets, replaced (items never carry one). */
export function redactSecrets(value: unknown, secrets: readonly string[], depth = 0): unknown {
	if (typeof value === 'string') return secrets.some((s) => s && value.includes(s)) ? '[redacted]' : value;
	if (!value || typeof value !== 'object' || depth > 32) return value;
	if (Array.isArray(value)) return value.map((v) => redactSecrets(v, secrets, depth + 1));
	return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : redactSecrets(v, secrets, depth + 1)]));
}

/** `Description` of a network response as its code and text: "AB: The document has been ..." (IMR/MLR); text only when it has no code. */
export function parseDescription(value: unknown): { code?: string; text?: string } {
	const description = word(value);
	if (description === undefined) return {};
	const m = /^([A-Z]{2})\s*:\s*([\s\S]*)$/.exec(description);
	return m ? { code: m[1], text: word(m[2]) } : { text: description };
}

const nullable = (value: unknown) => (value === undefined ? null : value);

/** What a Message event says, flattened; the delivery status is the flow state, or Error when Success is false. */
function messageFields(ev: ServiceEvent): IDataObject {
	const m = ev.message;
	const flowState = flowStateOf(ev);
	const status = flowState ?? (m.Success === false ? 'Error' : undefined);
	const response = parseDescription(m.Description);
	const stateInfo = word(ev.state.AdditionalFlowStateInformation);
	return {
		MessageID: nullable(ev.entityId),
		flowState: nullable(flowState),
		deliveryStatus: nullable(status),
		deliveryInfo: nullable(response.text ?? stateInfo),
		refusedReason: status === 'Refused' ? nullable(stateInfo ?? response.text ?? response.code) : null,
		responseCode: nullable(response.code),
		direction: nullable(word(m.MessageDirection)),
		transportType: nullable(word(m.TransportType)),
		success: typeof m.Success === 'boolean' ? m.Success : null,
		fileId: nullable(word(m.FileID)),
	};
}

/** A full order's CurrentDocumentDeliveryDetails, flattened. */
function flattenDelivery(order: IDataObject): IDataObject {
	const d = record(order.CurrentDocumentDeliveryDetails);
	return {
		delivered: d.IsDocumentDelivered === true,
		deliveryStatus: nullable(d.DocumentDeliveryStatus),
		deliveryInfo: nullable(d.DocumentDeliveryInfo),
		refusedReason: nullable(d.DocumentRefusedReasonTC),
		refusedInfo: nullable(d.DocumentRefusedInfo),
	};
}

export interface ItemParts {
	event: OutputEvent;
	ev: ServiceEvent;
	/** The call's body as received (secrets redacted). */
	payload: IDataObject;
	receivedAt: string;
	/** With Fetch Full Order: the order as read after the event; null when it no longer exists. */
	order?: IDataObject | null;
}

/** One output item: the event (with a full order: the order, its delivery details flattened; a Message's own fields win where it names them) and the payload. */
export function buildItem(parts: ItemParts): IDataObject {
	const { event, ev, payload, receivedAt, order } = parts;
	const head = { event, entityType: ev.entityType, updateType: ev.updateType };
	const item: IDataObject = { ...head };
	if (order) Object.assign(item, order, flattenDelivery(order), head);
	item.OrderID = nullable(orderIdOf(ev) ?? order?.OrderID);
	if (ev.entityType === 'Message') {
		for (const [key, value] of Object.entries(messageFields(ev))) {
			if (value !== null || !(key in item)) item[key] = value;
		}
	}
	if (order === null) item.orderFound = false;
	item.receivedAt = receivedAt;
	item.payload = payload;
	return item;
}

/**
 * The `Billit-Signature` header: `t=<unix seconds>,s=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, computed over the raw
 * request bytes (never re-serialised JSON) and compared in constant time.
 */
export const SIGNATURE_HEADER = 'billit-signature';
/** How far a timestamp may be ahead of n8n's clock (clock skew between the service and n8n). */
export const MAX_FUTURE_SKEW_MS = 60_000;

export interface SignatureHeader {
	/** Unix seconds. */
	t: number;
	/** Every `s=` value (a service rotating its secret may send more than one). */
	signatures: Buffer[];
}

const MAX_HEADER_LENGTH = 2048;
const MAX_SIGNATURES = 8;

/** The parsed header, or undefined when it is missing or not of the documented form. */
export function parseSignatureHeader(value: unknown): SignatureHeader | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' || text.length === 0 || text.length > MAX_HEADER_LENGTH) return undefined;
	let t: number | undefined;
	const signatures: Buffer[] = [];
	for (const part of text.split(',')) {
		const eq = part.indexOf('=');
		if (eq < 0) continue;
		const key = part.slice(0, eq).trim();
		const val = part.slice(eq + 1).trim();
		if (key === 't' && /^\d{1,12}$/.test(val)) t = Number(val);
		else if (key === 's' && /^[0-9a-fA-F]{64}$/.test(val) && signatures.length < MAX_SIGNATURES) signatures.push(Buffer.from(val, 'hex'));
	}
	return t === undefined || signatures.length === 0 ? undefined : { t, signatures };
}

/** Whether any `s=` of the header was made with any of the secrets (constant-time per comparison). */
export function signedWithAny(header: SignatureHeader, rawBody: Uint8Array, secrets: readonly string[]): boolean {
	let match = false;
	for (const secret of secrets) {
		if (!secret) continue;
		// HMAC-SHA256(secret, "<t>.<raw body>") over the bytes as received.
		const expected = createHmac('sha256', secret).update(`${header.t}.`, 'utf8').update(rawBody).digest();
		for (const given of header.signatures) {
			// Both are 32 bytes (the header parser accepts only 64 hex digits); no early exit on a match.
			if (given.length === expected.length && timingSafeEqual(given, expected)) match = true;
		}
	}
	return match;
}

export type TimestampVerdict = 'ok' | 'stale' | 'future';

/** A timestamp older than the maximum age is a replay; one more than a minute ahead is refused too. */
export function checkTimestamp(t: number, nowMs: number, maxAgeMs: number): TimestampVerdict {
	const atMs = t * 1000;
	if (atMs > nowMs + MAX_FUTURE_SKEW_MS) return 'future';
	if (nowMs - atMs > maxAgeMs) return 'stale';
	return 'ok';
}
