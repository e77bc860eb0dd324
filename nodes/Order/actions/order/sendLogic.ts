/**
 * Pure pieces of sending orders (field notes "Sending"): transport types, order-ID lists,
 * idempotency keys, batching, per-order errors of a rejected batch and the delivery
 * outcome read from an order's Messages. No n8n, no I/O.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ApiErrorEntry } from '../../../shared/apiErrorEntries';
import { checkOrderId } from '../../../shared/orderId';

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
export function attributeErrors(
	entries: ApiErrorEntry[],
	orderIds: number[],
): { perOrder: Map<number, ApiErrorEntry>; unattributed: ApiErrorEntry[] } {
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

export interface DeliveryOutcome {
	/** How the order actually went out, from its latest Messages entry with a transport type. */
	deliveredVia?: string;
	/** True when it went out by another method than the one asked for. */
	fallback?: boolean;
	deliveryMessage?: string;
	deliveredAt?: string;
}

/** The delivery of an order as its Messages record it, compared with the requested transport. */
export function deliveryOutcome(order: IDataObject, requested: string): DeliveryOutcome {
	const messages = Array.isArray(order.Messages) ? (order.Messages as unknown[]) : [];
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as IDataObject | null;
		if (!message || typeof message !== 'object') continue;
		const via = normalizeTransportType(message.TransportType ?? message.Transporttype ?? message.transportType);
		if (!via) continue;
		const outcome: DeliveryOutcome = { deliveredVia: via, fallback: !sameTransport(via, requested) };
		if (typeof message.Description === 'string' && message.Description) outcome.deliveryMessage = message.Description;
		if (typeof message.Date === 'string' && message.Date) outcome.deliveredAt = message.Date;
		return outcome;
	}
	return {};
}
