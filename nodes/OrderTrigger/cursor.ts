/**
 * Poll cursor of the Order Trigger (pure). Each poll asks for `LastModified ge <from>` sorted by
 * LastModified, OrderID. LastModified has second resolution, so many orders share the second the
 * cursor stops at. Invariant:
 *   - every order whose LastModified second is before `from` has been handled; one at or after
 *     `from` has been handled exactly when `seen[OrderID]` equals its LastModified second;
 *   - `from` never passes the API's "now" minus CLOCK_MARGIN_SECONDS, so an order stamped in the
 *     future cannot carry the cursor past real orders still to come (it stays in `seen`, emitted
 *     once; a later version with an earlier stamp is a new version);
 *   - "new order": every order created before `createdFrom` has been read once (or was there at
 *     activation); it moves only after a poll that read its whole window. `createdAhead` keeps an
 *     order whose Created is after its LastModified until `createdFrom` passes it, so it is not
 *     new twice.
 * `from` never moves backwards, except a bound ahead of every clock the poll knows (damaged, or
 * left by an older version), moved back to the ceiling. A record the cursor cannot place is
 * skipped and reported. The caller stores the next state only after the poll succeeded.
 * Below the cursor, in this order: its stored form read back, the timestamps it works in, and
 * what the poll asks for (filter, sort) and pages through.
 */
import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../shared/domain/values';
import type { FilterCondition } from '../shared/query/odata';
import { buildFilter, buildOrderBy } from '../shared/query/odata';

/** "New order" or "new or updated order". */
export type OrderEvent = 'newOrder' | 'newOrUpdatedOrder';

export interface CursorState {
	version: 1;
	/** What the cursor was started for (party, start date); a change starts over. */
	scope: string;
	/** Inclusive lower bound for LastModified, in epoch seconds; null: no bound (the order book was empty at the start). */
	from: number | null;
	/** Orders never read that were created at or after this second are new; null: every order never read is new. */
	createdFrom: number | null;
	/** Orders read with LastModified at or after min(from, createdFrom): OrderID -> LastModified (epoch seconds). */
	seen: Record<string, number>;
	/** Orders read whose Created is after their LastModified and at or after `createdFrom`: OrderID -> Created. Absent when empty. */
	createdAhead?: Record<string, number>;
}

/** The clocks a poll knows, in epoch seconds. */
export interface PollClock {
	/** The earliest `Date` of the API's answers; undefined when it sent none that reads. */
	api?: number;
	host: number;
}

export interface DecideOptions {
	event: OrderEvent;
	clock: PollClock;
	/** Seconds `from` stays behind the newest LastModified seen, to catch changes the API stamps late (default 0). */
	lateWindowSeconds?: number;
	/** False when the poll stopped before the last page (time budget): `orders` are a prefix of the answer. */
	complete?: boolean;
}

/** A record the cursor cannot place; `orderId` only when it reads as a plain number. */
export interface Unplaced {
	orderId?: string;
	problem: string;
}

export interface PollDecision {
	/** One per order, in LastModified order. */
	emit: IDataObject[];
	next: CursorState;
	/** An order moved while the poll paged: the cursor stopped at its old second. */
	heldBack: boolean;
	skipped: Unplaced[];
	/** The stored bounds were ahead of every clock and were moved back to the ceiling. */
	rewound: boolean;
}

/** How far behind the API's "now" the cursor stays at least: its clock and the one stamping orders may differ a little. */
export const CLOCK_MARGIN_SECONDS = 60;

const clockNow = (clock: PollClock): number => clock.api ?? clock.host;

/** The newest second the cursor may stand on after a poll. */
export function cursorCeiling(clock: PollClock): number {
	return clockNow(clock) - CLOCK_MARGIN_SECONDS;
}

/** The OrderID as a string key (OrderID, with tolerant spellings). */
export function orderKey(order: IDataObject): string | undefined {
	const id = order.OrderID ?? order.OrderId ?? order.orderID ?? order.orderId;
	if (id === undefined || id === null || typeof id === 'object' || String(id).trim() === '') return undefined;
	return String(id).trim();
}

interface Placed {
	id: string;
	modified: number;
	order: IDataObject;
}

/** What a value is, for a notice: its kind, never its text (an API could echo anything into it). */
function kindOf(value: unknown, asText: string, asNumber: string): string {
	if (value === undefined) return 'missing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string') return asText;
	if (typeof value === 'number') return Number.isFinite(value) ? asNumber : String(value);
	return `a ${typeof value}`;
}

const stampKind = (value: unknown): string =>
	kindOf(value, `text of ${String(value).length} characters that is not a date of years 1-9999`, 'a number that is not a time of years 1-9999');

/** Where a record sits in the cursor's order, or why it cannot sit anywhere. */
export function place(record: unknown): Placed | Unplaced {
	if (record === null || typeof record !== 'object' || Array.isArray(record)) {
		return { problem: `a list entry that is not an order (${record === null ? 'null' : Array.isArray(record) ? 'a list' : typeof record})` };
	}
	const order = record as IDataObject;
	const id = orderKey(order);
	const shown = id !== undefined && /^\d{1,20}$/.test(id) ? id : undefined;
	const value = order.LastModified ?? order.lastModified;
	const parsed = parseTimestamp(value);
	// A time the filter cannot write (a broken /Date(…)/) would stop every later poll once the cursor stood on it.
	const modified = isWritableSecond(parsed) ? parsed : undefined;
	if (id === undefined) return { problem: `an order without OrderID (LastModified ${modified === undefined ? stampKind(value) : 'present'})` };
	if (modified === undefined) return { orderId: shown, problem: `order ${shown ?? '(OrderID not a number)'} with LastModified ${stampKind(value)}` };
	return { id, modified, order };
}

const isPlaced = (value: Placed | Unplaced): value is Placed => 'id' in value;

/** Created as a second the state can keep, or undefined. */
function createdOf(placed: Placed): number | undefined {
	const created = parseTimestamp(placed.order.Created ?? placed.order.created);
	return isWritableSecond(created) ? created : undefined;
}

/** `createdAhead` only when it holds something. */
const withAhead = (state: CursorState, ahead: Record<string, number>): CursorState => (Object.keys(ahead).length ? { ...state, createdAhead: ahead } : state);

/** A scope key: the cursor restarts when the party or the start date changes. */
export function scopeKey(partyId: string, startDate: string | undefined): string {
	return JSON.stringify([partyId, startDate ?? '']);
}

/** Start at a given second (null: no bound): everything changed at or after it counts as not handled, except what `seen` holds. */
export function stateFromDate(seconds: number | null, scope: string, seen: Record<string, number> = {}): CursorState {
	return { version: 1, scope, from: seconds, createdFrom: seconds, seen };
}

export interface BaselineOptions {
	clock: PollClock;
	lateWindowSeconds?: number;
}

/** Placeable records and the lowest second the start must have read down to (undefined: none placeable yet). */
function baselineFloor(newestFirst: unknown[], options: BaselineOptions): { placed: Placed[]; floor?: number } {
	const placed = newestFirst.map(place).filter(isPlaced);
	if (placed.length === 0) return { placed };
	const ceiling = cursorCeiling(options.clock);
	let top: number | undefined;
	for (const p of placed) if (p.modified <= ceiling) top = Math.max(p.modified, top ?? -Infinity);
	// Only orders stamped after the ceiling so far: every one read is at or after it, and handled.
	const floor = top === undefined ? ceiling : top - Math.max(0, options.lateWindowSeconds ?? 0);
	return { placed, floor };
}

/** "Now" at first activation: the newest LastModified at or before the ceiling; `newestFirst` needs more while its last is at or after the start. */
export function baselineNeedsMore(newestFirst: unknown[], options: BaselineOptions): boolean {
	const { placed, floor } = baselineFloor(newestFirst, options);
	if (floor === undefined) return newestFirst.length > 0;
	return placed[placed.length - 1].modified >= floor;
}

/** The state at first activation: orders already in the book are handled, nothing is emitted. */
export function baselineState(newestFirst: unknown[], scope: string, options: BaselineOptions): CursorState {
	const { placed, floor } = baselineFloor(newestFirst, options);
	if (floor === undefined) return stateFromDate(null, scope);
	const seen: Record<string, number> = {};
	const ahead: Record<string, number> = {};
	for (const p of placed) {
		if (p.modified >= floor) seen[p.id] = Math.max(p.modified, seen[p.id] ?? -Infinity);
		const created = createdOf(p);
		if (created !== undefined && created > p.modified && created >= floor) ahead[p.id] = created;
	}
	return withAhead(stateFromDate(floor, scope, seen), ahead);
}

/** The `LastModified ge …` bound of the next poll's filter, as literal text; undefined: no bound. */
export function lowerBound(state: CursorState): string | undefined {
	return state.from === null ? undefined : formatSeconds(state.from);
}

/** Where a bound goes: up to `candidate` but not past the ceiling, never backwards, except from beyond every clock. */
function settle(stored: number | null, candidate: number | undefined, clock: PollClock): { value: number | null; rewound: boolean } {
	const ceiling = cursorCeiling(clock);
	// Ahead of every clock the poll knows: no change can have happened there yet.
	if (stored !== null && stored > Math.max(clock.api ?? -Infinity, clock.host)) return { value: ceiling, rewound: true };
	if (candidate === undefined) return { value: stored, rewound: false };
	const capped = Math.min(candidate, ceiling);
	return { value: stored === null ? capped : Math.max(stored, capped), rewound: false };
}

/**
 * Which orders a poll emits and where the cursor goes next. New or updated: a version `seen` does
 * not hold. New: never read and created at or after `createdFrom` (no Created: new when never
 * read). An order changed while the poll paged shows up twice, and a record after its old place
 * may have slipped onto a page already read: `from` stops at the second it moved away from.
 */
export function decidePoll(state: CursorState, orders: unknown[], options: DecideOptions): PollDecision {
	const late = Math.max(0, options.lateWindowSeconds ?? 0);
	const { from, createdFrom } = state;
	const seen: Record<string, number> = { ...state.seen };
	const ahead: Record<string, number> = { ...(state.createdAhead ?? {}) };
	const emitted = new Map<string, number>();
	const emit: IDataObject[] = [];
	const skipped: Unplaced[] = [];
	const readThisPoll = new Map<string, number>();
	const ceiling = cursorCeiling(options.clock);
	/** The newest second read at or before the ceiling; the oldest second an order moved away from. */
	let newest: number | undefined;
	let holdAt: number | undefined;

	for (const record of orders) {
		const placed = place(record);
		if (!isPlaced(placed)) {
			skipped.push(placed);
			continue;
		}
		const { id, modified, order } = placed;
		if (from !== null && modified < from) continue; // handled before; the API sent more than asked
		const created = createdOf(placed);
		const createdAhead = ahead[id];
		if (created !== undefined && created > modified) ahead[id] = created;

		const earlier = readThisPoll.get(id);
		if (earlier !== undefined && earlier !== modified) holdAt = Math.min(earlier, modified, holdAt ?? Infinity);
		readThisPoll.set(id, Math.max(modified, earlier ?? -Infinity));
		if (modified <= ceiling) newest = newest === undefined ? modified : Math.max(newest, modified);

		const known = seen[id];
		// A version stamped ahead of the clock is followed by earlier stamps once the writer's clock is right again.
		const superseded = known !== undefined && known > modified && known > clockNow(options.clock);
		seen[id] = superseded ? modified : Math.max(modified, known ?? -Infinity);
		const index = emitted.get(id);
		if (index !== undefined) {
			if (modified > (earlier ?? -Infinity)) emit[index] = order; // one item per order per poll: its newest version
			continue;
		}
		if (known === modified) continue;

		if (options.event === 'newOrder') {
			if (known !== undefined || createdAhead !== undefined) continue;
			if (created !== undefined && createdFrom !== null && created < createdFrom) continue;
		} else if (known !== undefined && known > modified && !superseded) {
			continue; // an older version than one already handled
		}

		emitted.set(id, emit.length);
		emit.push(order);
	}

	// Everything before the second an order moved away from was read before the move.
	const candidate = newest === undefined ? undefined : Math.min(newest, holdAt ?? Infinity) - late;
	const nextFrom = settle(from, candidate, options.clock);
	// Every order that exists now has been read once only when the whole window was read unshifted.
	const whole = newest !== undefined && options.complete !== false && holdAt === undefined;
	const nextCreatedFrom = settle(createdFrom, whole && nextFrom.value !== null ? nextFrom.value : undefined, options.clock);
	const keepFrom = nextFrom.value === null || nextCreatedFrom.value === null ? null : Math.min(nextFrom.value, nextCreatedFrom.value);
	const since = (entries: Record<string, number>, bound: number | null) =>
		Object.fromEntries(Object.entries(entries).filter(([, s]) => bound === null || s >= bound));
	const next = { version: 1, scope: state.scope, from: nextFrom.value, createdFrom: nextCreatedFrom.value, seen: since(seen, keepFrom) } as const;
	const rewound = nextFrom.rewound || nextCreatedFrom.rewound;
	return { emit, next: withAhead(next, since(ahead, nextCreatedFrom.value)), heldBack: holdAt !== undefined, skipped, rewound };
}

/**
 * The stored cursor read back; a poll never fails over it: nothing stored or another scope starts over; damaged with a readable
 * `from`, it carries on (unreadable `seen` dropped, `createdFrom` = `from`); else from "now". Problems in words, never the stored text.
 */
export type StoredCursor =
	| { kind: 'ok'; state: CursorState }
	| { kind: 'absent' }
	| { kind: 'otherScope' }
	| { kind: 'repaired'; state: CursorState; problem: string }
	| { kind: 'unusable'; problem: string };

const storedKind = (value: unknown): string => kindOf(value, 'text', 'a number that is not a whole second of years 1-9999');

/** A stored bound: null (no bound) or a writable second; undefined when it is neither. */
function readBound(value: unknown): number | null | undefined {
	if (value === null) return null;
	return isWritableSecond(value) ? value : undefined;
}

/** OrderID -> second entries; those that do not read are dropped and counted. */
function readSeconds(raw: unknown): { entries: Record<string, number>; problem?: string } {
	const entries: Record<string, number> = {};
	if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { entries, problem: storedKind(raw) };
	let dropped = 0;
	for (const [id, seconds] of Object.entries(raw)) {
		if (id.trim() !== '' && isWritableSecond(seconds)) entries[id] = seconds;
		else dropped++;
	}
	return { entries, problem: dropped ? `partly unreadable (${dropped} entries dropped)` : undefined };
}

export function loadState(raw: unknown, scope: string): StoredCursor {
	if (raw === undefined || raw === null) return { kind: 'absent' };
	if (typeof raw !== 'object' || Array.isArray(raw)) return { kind: 'unusable', problem: `it is ${storedKind(raw)}, not a cursor` };
	const stored = raw as Record<string, unknown>;
	if (stored.version !== 1) {
		const version = Number.isSafeInteger(stored.version) ? String(stored.version) : storedKind(stored.version);
		return { kind: 'unusable', problem: `it has another shape (version ${version}, not 1)` };
	}
	if (typeof stored.scope !== 'string') return { kind: 'unusable', problem: `its scope is ${storedKind(stored.scope)}` };
	if (stored.scope !== scope) return { kind: 'otherScope' };

	const from = readBound(stored.from);
	if (from === undefined) return { kind: 'unusable', problem: `its position (from) is ${storedKind(stored.from)}` };
	const problems: string[] = [];
	let createdFrom = readBound(stored.createdFrom);
	if (createdFrom === undefined) {
		problems.push(`its "new since" bound (createdFrom) was ${storedKind(stored.createdFrom)} and is now the position`);
		createdFrom = from;
	}
	const handled = readSeconds(stored.seen);
	if (handled.problem) problems.push(`its list of orders handled at the position was ${handled.problem}`);
	const state: CursorState = { version: 1, scope, from, createdFrom, seen: handled.entries };
	if (stored.createdAhead !== undefined) {
		const ahead = readSeconds(stored.createdAhead);
		if (ahead.problem) problems.push(`its list of orders created ahead of their change was ${ahead.problem}`);
		if (Object.keys(ahead.entries).length) state.createdAhead = ahead.entries;
	}
	return problems.length ? { kind: 'repaired', state, problem: problems.join('; ') } : { kind: 'ok', state };
}

/** Timestamps as the API and HTTP write them, in whole epoch seconds: LastModified and the filter's literal have second resolution. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const MS_JSON = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/;

/**
 * A timestamp (ISO 8601, `/Date(ms)/`, epoch ms) as epoch seconds. A zoneless time counts as
 * written (as if UTC): the service writes and reads its stamps in Belgian time, so the cursor
 * stays in its frame; only the clocks are moved into it (`serviceClock`).
 */
export function parseTimestamp(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? Math.floor(value / 1000) : undefined;
	if (value instanceof Date) {
		const t = value.getTime();
		return Number.isNaN(t) ? undefined : Math.floor(t / 1000);
	}
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	const ms = MS_JSON.exec(text);
	if (ms) return Math.floor(Number(ms[1]) / 1000);
	const m = ISO.exec(text);
	if (!m) return undefined;
	const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
	if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return undefined;
	let t = Date.UTC(y, mo - 1, d, h, mi, s);
	if (new Date(t).getUTCDate() !== d) return undefined;
	const zone = m[8];
	if (zone && zone.toUpperCase() !== 'Z') {
		const z = zone.replace(':', '');
		const minutes = (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5))) * (z[0] === '-' ? -1 : 1);
		t -= minutes * 60_000;
	}
	return Math.floor(t / 1000);
}

/** `YYYY-MM-DDThh:mm:ss` (UTC) for epoch seconds: the text of the filter's DateTime literal. */
export function formatSeconds(seconds: number): string {
	return new Date(seconds * 1000).toISOString().slice(0, 19);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

/** An HTTP `Date` header (IMF-fixdate, RFC 9110) as epoch seconds; undefined for a year outside 2000-9999. */
export function parseHttpDate(value: unknown): number | undefined {
	const m = typeof value === 'string' ? IMF_FIXDATE.exec(value.trim()) : null;
	const month = m ? MONTHS.indexOf(m[2]) + 1 : 0;
	if (!m || !month || Number(m[3]) < 2000) return undefined;
	return parseTimestamp(`${m[3]}-${String(month).padStart(2, '0')}-${m[1]}T${m[4]}:${m[5]}:${m[6]}Z`);
}

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in epoch seconds: the times the filter's literal can write. */
const FIRST_SECOND = -62_135_596_800;
const LAST_SECOND = 253_402_300_799;

/** A whole second the cursor can stand on and write into the filter. */
export function isWritableSecond(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value >= FIRST_SECOND && value <= LAST_SECOND;
}

/** Seconds Brussels is ahead of UTC at an instant: CEST (+2 h) from the last Sunday of March to the last Sunday of October, 01:00 UTC (EU rule), else CET (+1 h). */
export function brusselsOffset(utcSeconds: number): number {
	const year = new Date(utcSeconds * 1000).getUTCFullYear();
	const lastSunday = (month: number) => {
		const last = Date.UTC(year, month + 1, 0, 1);
		return last / 1000 - new Date(last).getUTCDay() * 86_400;
	};
	return utcSeconds >= lastSunday(2) && utcSeconds < lastSunday(9) ? 7200 : 3600;
}

/** True for an ISO date-time written without a zone, the way the service writes its timestamps ("2026-05-04T09:55:34.063"). */
export function isZoneless(value: unknown): boolean {
	const m = typeof value === 'string' ? ISO.exec(value.trim()) : null;
	return !!m && m[4] !== undefined && m[8] === undefined;
}

/** A clock (epoch seconds) in the stamps' frame: Belgian wall-clock time when they carry no zone (docs/api.md "Orders"). */
export function serviceClock(utcSeconds: number, zoneless: boolean): number {
	return zoneless ? utcSeconds + brusselsOffset(utcSeconds) : utcSeconds;
}

/** What the poll asks for: the Order Trigger's filter parts (event, order type, direction, cursor bound) and the cursor's sort. */
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

/**
 * `OrderType eq '…' and OrderDirection eq '…' [and IsSent eq false] and LastModified ge DateTime'…'`, parts left out when
 * not set; a supplier invoice is an invoice or a credit note: `(OrderType eq 'Invoice' or OrderType eq 'CreditNote')`.
 */
export function triggerFilter(input: TriggerScopeInput): string {
	const incoming = input.event === 'newIncomingInvoice';
	const parts: Array<[string, FilterCondition['value'], FilterCondition['type'], FilterCondition['operator']?]> = [
		['OrderType', input.orderType, 'string'],
		['OrderDirection', incoming ? 'Cost' : input.direction, 'string'],
		['IsSent', incoming ? false : '', 'boolean'],
		['LastModified', input.modifiedFrom, 'datetime', 'ge'],
	];
	// '' and undefined leave a part out.
	const conditions = parts.filter(([, value]) => value !== '' && value !== undefined);
	const filter = buildFilter(
		conditions.map(([field, value, type, operator = 'eq']) => ({ field, operator, value, type })),
		'and',
	);
	if (!incoming || input.orderType) return filter;
	const invoices = buildFilter(
		['Invoice', 'CreditNote'].map((value) => ({ field: 'OrderType', operator: 'eq', value, type: 'string' })),
		'or',
	);
	return `(${invoices}) and ${filter}`;
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
