/**
 * How the Order Trigger pages through a sorted list (pure). Invariant: when a run ends, every
 * record that sorts at or before the last one read, and stayed in the list meanwhile, was read.
 * An order deleted or changed before a page boundary moves every later record up one place, so
 * a plain `$skip` would never show the one that slipped onto a page already read. Each page
 * after the first starts one place early: its first record must be the previous page's last.
 * When it is not, the list shifted; the page is dropped and the run starts again from the
 * second of the last record read (the caller says how). The next-page link only says "more
 * remain"; it is never requested.
 */
import type { IDataObject } from 'n8n-workflow';

import { orderKey } from './cursor';

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
	if (record !== null && typeof record === 'object' && !Array.isArray(record)) {
		const order = record as IDataObject;
		const id = orderKey(order);
		if (id !== undefined) return JSON.stringify(['order', id, order.LastModified ?? order.lastModified ?? null]);
	}
	return JSON.stringify(['other', record ?? null]);
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
