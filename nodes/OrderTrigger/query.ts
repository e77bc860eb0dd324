/**
 * What the Order Trigger asks for (pure): its own filter parts (event, order type, direction, the
 * cursor bound), the sort, and how it pages through the sorted list.
 */
import type { FilterCondition } from '../shared/query/odata';
import { buildFilter, buildOrderBy } from '../shared/query/odata';
import { isRecord } from '../shared/domain/values';
import type { OrderEvent } from './cursor';
import { orderKey } from './cursor';

/** The Trigger On values: the cursor's two events and the incoming-invoice preset. */
export type TriggerEvent = OrderEvent | 'newIncomingInvoice';

/** "New Incoming Supplier Invoice" follows every change of Cost orders with `IsSent eq false` (the service's page "Status of export"). */
export function cursorEvent(event: TriggerEvent): OrderEvent {
	return event === 'newOrder' ? 'newOrder' : 'newOrUpdatedOrder';
}

/** '' means "any"; `modifiedFrom` is `YYYY-MM-DDThh:mm:ss`. */
export interface TriggerScopeInput {
	event?: TriggerEvent;
	orderType: string;
	direction: string;
	modifiedFrom?: string;
}

const byChange = (direction: 'asc' | 'desc') =>
	buildOrderBy([
		{ field: 'LastModified', direction },
		{ field: 'OrderID', direction },
	]);
/** Oldest change first, OrderID breaking ties: the order the cursor walks in. */
export const OLDEST_FIRST = byChange('asc');
/** Newest change first: the baseline at first activation and the manual-mode sample. */
export const NEWEST_FIRST = byChange('desc');

/** `OrderType eq '…' and OrderDirection eq '…' [and IsSent eq false] and LastModified ge DateTime'…'`, parts left out when not set. */
export function triggerFilter(input: TriggerScopeInput): string {
	const conditions: FilterCondition[] = [];
	const incoming = input.event === 'newIncomingInvoice';
	const direction = incoming ? 'Cost' : input.direction;
	if (input.orderType) conditions.push({ field: 'OrderType', operator: 'eq', value: input.orderType, type: 'string' });
	if (direction) conditions.push({ field: 'OrderDirection', operator: 'eq', value: direction, type: 'string' });
	if (incoming) conditions.push({ field: 'IsSent', operator: 'eq', value: false, type: 'boolean' });
	if (input.modifiedFrom) conditions.push({ field: 'LastModified', operator: 'ge', value: input.modifiedFrom, type: 'datetime' });
	return buildFilter(conditions, 'and');
}

/**
 * Paging through a sorted list. Invariant: when a run ends, every record that sorts at or before
 * the last one read, and stayed in the list meanwhile, was read.
 * An order deleted or changed before a page boundary moves every later record up one place, so
 * a plain `$skip` would never show the one that slipped onto a page already read. Each page
 * after the first starts one place early: its first record must be the previous page's last.
 * When it is not, the list shifted; the page is dropped and the run starts again from the
 * second of the last record read (the caller says how). The next-page link only says "more
 * remain"; it is never requested.
 */
/** The page to ask for: where it starts and, past the first, the record it must start with. */
export interface PagePlan {
	skip: number;
	expect?: unknown;
}

export type PageOutcome =
	/** The list moved between two requests: drop this page and start the run again. */
	| { kind: 'shifted' }
	/** `records` are new to this run; `next` is undefined at the end of the list. */
	| { kind: 'page'; records: unknown[]; next?: PagePlan; stalled: boolean };

export const FIRST_PAGE: PagePlan = { skip: 0 };

/** Identity of a record's place in the sort: OrderID and LastModified as sent, or the whole record when it has no OrderID. */
function placeKey(record: unknown): string {
	const order = isRecord(record) ? record : {};
	const id = orderKey(order);
	return JSON.stringify(id === undefined ? ['other', record ?? null] : ['order', id, order.LastModified ?? order.lastModified ?? null]);
}

/** Whether two records are the same order version (the overlap check). */
export function samePlace(a: unknown, b: unknown): boolean {
	return placeKey(a) === placeKey(b);
}

/** What a page means. One that brings nothing new while more are said to remain ends the run as stalled. */
export function afterPage(plan: PagePlan, items: unknown[], more: boolean): PageOutcome {
	let records = items;
	if (plan.expect !== undefined) {
		if (items.length === 0 || !samePlace(items[0], plan.expect)) return { kind: 'shifted' };
		records = items.slice(1);
	}
	if (!more) return { kind: 'page', records, stalled: false };
	if (records.length === 0) return { kind: 'page', records, stalled: true };
	// One place back, so the next page starts with this page's last record; a page of one
	// record cannot overlap without asking for itself again.
	const next: PagePlan = items.length >= 2 ? { skip: plan.skip + items.length - 1, expect: items[items.length - 1] } : { skip: plan.skip + items.length };
	return { kind: 'page', records, next, stalled: false };
}
