/**
 * The AccessPoint Trigger's events (pure: no n8n context, no I/O): which API webhooks a
 * selection needs, how a received payload is classified, and the item it becomes.
 */
import type { IDataObject } from 'n8n-workflow';

export type TriggerEvent = 'orderCreated' | 'orderUpdated' | 'orderDeleted' | 'deliveryStatusChanged';
export type EntityType = 'Order' | 'Message';
export type UpdateType = 'I' | 'U' | 'D';
/** The item's `event`. */
export type OutputEvent = 'created' | 'updated' | 'deleted' | 'deliveryStatusChanged';

/** One API webhook: an entity type and one update type. */
export interface Subscription {
	entityType: EntityType;
	updateType: UpdateType;
}

export const TRIGGER_EVENTS: readonly TriggerEvent[] = ['orderCreated', 'orderUpdated', 'orderDeleted', 'deliveryStatusChanged'];

const SUBSCRIPTIONS: Record<TriggerEvent, Subscription[]> = {
	orderCreated: [{ entityType: 'Order', updateType: 'I' }],
	orderUpdated: [{ entityType: 'Order', updateType: 'U' }],
	orderDeleted: [{ entityType: 'Order', updateType: 'D' }],
	// Every delivery step (Delivered, Error, Refused, Accepted) arrives as a NEW message (I);
	// U covers a service that updates a message's status in place.
	deliveryStatusChanged: [
		{ entityType: 'Message', updateType: 'I' },
		{ entityType: 'Message', updateType: 'U' },
	],
};

export function subscriptionKey(s: Subscription): string {
	return `${s.entityType}:${s.updateType}`;
}

/** The webhooks a selection needs, in a stable order, each once. */
export function subscriptionsFor(events: readonly TriggerEvent[]): Subscription[] {
	const out: Subscription[] = [];
	const seen = new Set<string>();
	for (const event of TRIGGER_EVENTS) {
		if (!events.includes(event)) continue;
		for (const s of SUBSCRIPTIONS[event]) {
			if (seen.has(subscriptionKey(s))) continue;
			seen.add(subscriptionKey(s));
			out.push(s);
		}
	}
	return out;
}

/** "Order I, Order U, Message I" for messages. */
export function describeSubscriptions(list: readonly Subscription[]): string {
	return list.map((s) => `${s.entityType} ${s.updateType}`).join(', ');
}

export function isTriggerEvent(value: unknown): value is TriggerEvent {
	return typeof value === 'string' && (TRIGGER_EVENTS as readonly string[]).includes(value);
}

function entityTypeOf(value: unknown): EntityType | undefined {
	if (typeof value !== 'string') return undefined;
	const v = value.trim().toLowerCase();
	return v === 'order' ? 'Order' : v === 'message' ? 'Message' : undefined;
}

function updateTypeOf(value: unknown): UpdateType | undefined {
	if (typeof value !== 'string') return undefined;
	const v = value.trim().toUpperCase();
	return v === 'I' || v === 'U' || v === 'D' ? v : undefined;
}

/** What a payload is about; undefined when it names no entity/update type this trigger knows. */
export function classify(payload: IDataObject): { entityType: EntityType; updateType: UpdateType } | undefined {
	const entityType = entityTypeOf(payload.EntityType);
	const updateType = updateTypeOf(payload.EntityUpdateType);
	return entityType && updateType ? { entityType, updateType } : undefined;
}

/** The item's `event` when the selection asked for this kind of event; undefined: ignore it. */
export function outputEventOf(entityType: EntityType, updateType: UpdateType, selected: readonly TriggerEvent[]): OutputEvent | undefined {
	if (entityType === 'Message') {
		return selected.includes('deliveryStatusChanged') && updateType !== 'D' ? 'deliveryStatusChanged' : undefined;
	}
	const byUpdate: Record<UpdateType, [TriggerEvent, OutputEvent]> = {
		I: ['orderCreated', 'created'],
		U: ['orderUpdated', 'updated'],
		D: ['orderDeleted', 'deleted'],
	};
	const [wanted, output] = byUpdate[updateType];
	return selected.includes(wanted) ? output : undefined;
}

function scalar(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 80);
	return undefined;
}

/**
 * The key that makes a repeated delivery of one event recognisable: entity type, update
 * type, the entity and when it happened. The service sends the same EventID/EventDate on
 * every retry and duplicate; EventID is preferred because two changes of one entity can
 * share a second. Undefined when the payload names neither (the caller falls back to a
 * hash of the body, which does not change between retries either).
 */
export function eventKey(payload: IDataObject, entityType: EntityType, updateType: UpdateType): string | undefined {
	const entity = scalar(payload.EntityID) ?? scalar(payload.MessageID) ?? scalar(payload.OrderID);
	const eventId = scalar(payload.EventID);
	const when = eventId === undefined ? (scalar(payload.EventDate) ?? scalar(payload.LastModified) ?? scalar(payload.StatusDate)) : `#${eventId}`;
	if (entity === undefined || when === undefined) return undefined;
	return `${entityType}|${updateType}|${entity}|${when}`;
}

/** The OrderID of a payload as a number JavaScript holds exactly, or undefined. */
export function orderIdOf(payload: IDataObject): number | undefined {
	const raw = payload.OrderID;
	const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
	return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

const nullable = (value: unknown) => (value === undefined ? null : value);

/** Delivery details a Message payload carries: its flow state and, when given, info and refusal reason. */
function messageDelivery(payload: IDataObject): IDataObject {
	return {
		deliveryStatus: nullable(payload.Status),
		deliveryInfo: nullable(payload.StatusInfo),
		refusedReason: nullable(payload.RefusedReasonTC),
	};
}

/** A full order's CurrentDocumentDeliveryDetails, flattened. */
export function flattenDelivery(order: IDataObject): IDataObject {
	const d = (order.CurrentDocumentDeliveryDetails ?? {}) as IDataObject;
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
	entityType: EntityType;
	updateType: UpdateType;
	payload: IDataObject;
	receivedAt: string;
	/** With Fetch Full Order: the order as read after the event; null when it no longer exists. */
	order?: IDataObject | null;
}

/**
 * One output item. Without a full order: the event, what it is about and the payload. With
 * one: the whole order with its delivery details flattened; for a Message event the
 * message's own flow state, info and reason win (they say what just happened).
 */
export function buildItem(parts: ItemParts): IDataObject {
	const { event, entityType, updateType, payload, receivedAt, order } = parts;
	const fromMessage = entityType === 'Message' ? messageDelivery(payload) : {};
	const item: IDataObject = { event, entityType, updateType };
	if (order) Object.assign(item, order, flattenDelivery(order), { event, entityType, updateType });
	item.OrderID = nullable(payload.OrderID ?? order?.OrderID);
	if (entityType === 'Message') item.MessageID = nullable(payload.MessageID ?? payload.EntityID);
	if (!order && payload.OrderNumber !== undefined) item.OrderNumber = payload.OrderNumber;
	for (const [key, value] of Object.entries(fromMessage)) {
		if (value !== null || !(key in item)) item[key] = value;
	}
	if (order === null) item.orderFound = false;
	item.receivedAt = receivedAt;
	item.payload = payload;
	return item;
}
