/**
 * Poll cursor of the Order Trigger (pure: no n8n, no I/O).
 *
 * Every poll asks for `LastModified ge <from>` sorted by LastModified, OrderID.
 * LastModified has second resolution, so many orders can share the second the
 * cursor stops at; the state therefore remembers which order versions it has
 * already handled at or after `from`:
 *
 *   - every order whose LastModified second is before `from` has been handled;
 *   - an order at or after `from` has been handled exactly when
 *     `seen[OrderID]` equals its LastModified second.
 *
 * For the "new order" event a second bound, `createdFrom`, says which orders can
 * still be new: every order created before it has been read at least once (or
 * was there at activation). It only moves after a poll that read its whole
 * window, and `seen` keeps every order read at or after it.
 *
 * A poll emits what is not handled yet and moves `from` up to the newest second
 * it read (minus the optional late-change window). The caller stores the next
 * state only after the poll succeeded, so a failed poll leaves it as it was.
 */
import type { IDataObject } from 'n8n-workflow';

/** "New order" or "new or updated order". */
export type OrderEvent = 'newOrder' | 'newOrUpdatedOrder';

export interface CursorState {
	/** Shape version of this object in static data. */
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

export interface DecideOptions {
	event: OrderEvent;
	/** Seconds `from` stays behind the newest LastModified seen, to catch changes the API stamps late (default 0). */
	lateWindowSeconds?: number;
	/** False when the poll stopped before the last page (time budget): `orders` are a prefix of the answer. */
	complete?: boolean;
}

export interface PollDecision {
	/** Orders to emit, one per order, in LastModified order. */
	emit: IDataObject[];
	/** The state to store once the poll has fully succeeded. */
	next: CursorState;
	/** An order moved (was changed) while the poll paged: the cursor stopped at its old second so nothing is skipped. */
	heldBack: boolean;
}

/** An order the cursor cannot place (no OrderID, no readable LastModified). */
export class CursorError extends Error {
	constructor(
		message: string,
		readonly orderId?: string,
	) {
		super(message);
		this.name = 'CursorError';
	}
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const MS_JSON = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/;

/**
 * A timestamp as epoch seconds (fraction dropped), or undefined. Accepts ISO 8601
 * with or without zone (no zone = UTC, the way the filter literal is read back),
 * `/Date(ms)/` and epoch milliseconds.
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

/** The OrderID as a string key (OrderID, with tolerant spellings). */
export function orderKey(order: IDataObject): string | undefined {
	const id = order.OrderID ?? order.OrderId ?? order.orderID ?? order.orderId;
	if (id === undefined || id === null || String(id).trim() === '') return undefined;
	return String(id).trim();
}

function describe(order: IDataObject): string {
	const id = orderKey(order);
	return id ? `order ${id}` : `an order without OrderID (${JSON.stringify(order).slice(0, 80)})`;
}

function lastModifiedOf(order: IDataObject): number {
	const value = order.LastModified ?? order.lastModified;
	const seconds = parseTimestamp(value);
	if (seconds === undefined) {
		throw new CursorError(
			`The API returned ${describe(order)} with a LastModified the trigger cannot read (${JSON.stringify(value ?? null)})`,
			orderKey(order),
		);
	}
	return seconds;
}

/** A scope key: the cursor restarts when the party or the start date changes. */
export function scopeKey(partyId: string, startDate: string | undefined): string {
	return JSON.stringify([partyId, startDate ?? '']);
}

/** The stored state when it is usable for this scope; undefined means "start over". */
export function readState(raw: unknown, scope: string): CursorState | undefined {
	if (!raw || typeof raw !== 'object') return undefined;
	const state = raw as Partial<CursorState>;
	if (state.version !== 1 || state.scope !== scope) return undefined;
	const bound = (value: unknown) => value === null || (typeof value === 'number' && Number.isFinite(value));
	if (!bound(state.from) || !bound(state.createdFrom)) return undefined;
	if (!state.seen || typeof state.seen !== 'object') return undefined;
	const seen: Record<string, number> = {};
	for (const [id, seconds] of Object.entries(state.seen)) {
		if (typeof seconds === 'number' && Number.isFinite(seconds)) seen[id] = seconds;
	}
	return { version: 1, scope, from: state.from as number | null, createdFrom: state.createdFrom as number | null, seen };
}

/** Start at a given date: everything changed at or after it counts as not handled. */
export function stateFromDate(seconds: number, scope: string): CursorState {
	return { version: 1, scope, from: seconds, createdFrom: seconds, seen: {} };
}

/**
 * "Now" for the first activation is the newest LastModified in the order book (the
 * API's clock, not n8n's). `newestFirst` are orders sorted by LastModified desc;
 * more are needed while the last one is still inside the start window.
 */
export function baselineNeedsMore(newestFirst: IDataObject[], lateWindowSeconds = 0): boolean {
	if (newestFirst.length === 0) return false;
	const top = lastModifiedOf(newestFirst[0]);
	const last = lastModifiedOf(newestFirst[newestFirst.length - 1]);
	return last >= top - Math.max(0, lateWindowSeconds);
}

/** The state at first activation: orders already in the book are handled, nothing is emitted. */
export function baselineState(newestFirst: IDataObject[], scope: string, lateWindowSeconds = 0): CursorState {
	if (newestFirst.length === 0) return { version: 1, scope, from: null, createdFrom: null, seen: {} };
	let top = -Infinity;
	for (const order of newestFirst) top = Math.max(top, lastModifiedOf(order));
	const from = top - Math.max(0, lateWindowSeconds);
	const seen: Record<string, number> = {};
	for (const order of newestFirst) {
		const id = orderKey(order);
		const seconds = lastModifiedOf(order);
		if (id !== undefined && seconds >= from) seen[id] = Math.max(seconds, seen[id] ?? -Infinity);
	}
	return { version: 1, scope, from, createdFrom: from, seen };
}

/** The `LastModified ge …` bound of the next poll's filter, as literal text; undefined: no bound. */
export function lowerBound(state: CursorState): string | undefined {
	return state.from === null ? undefined : formatSeconds(state.from);
}

/** The larger bound, null meaning "no bound". */
function later(a: number | null, b: number): number {
	return a === null ? b : Math.max(a, b);
}

/**
 * Which orders a poll emits and where the cursor goes next.
 *
 * `orders` are what the poll fetched (`LastModified ge from`, sorted by
 * LastModified then OrderID), in order; with `complete: false` they are a prefix
 * of the answer (the poll ran out of time) and `from` only moves up to the newest
 * second actually read.
 *
 * New or updated: an order version is emitted when `seen` does not hold that
 * OrderID with that LastModified second.
 * New: an order is emitted when this trigger never read it and it was created at
 * or after `createdFrom`; an order created earlier and changed now is an update,
 * not new. List items without a Created count as new when never read.
 *
 * When an order changed while the poll paged (it shows up twice), the records
 * after its old place moved up one and one of them may have slipped onto a page
 * already read: `from` stops at the second it moved away from, and the next poll
 * reads from there again.
 */
export function decidePoll(state: CursorState, orders: IDataObject[], options: DecideOptions): PollDecision {
	const late = Math.max(0, options.lateWindowSeconds ?? 0);
	const { from, createdFrom } = state;
	const seen: Record<string, number> = { ...state.seen };
	const emitted = new Map<string, number>();
	const emit: IDataObject[] = [];
	const readThisPoll = new Map<string, number>();
	let newest: number | undefined;
	/** Oldest second an order moved away from during this poll. */
	let holdAt: number | undefined;

	for (const order of orders) {
		const id = orderKey(order);
		if (id === undefined) throw new CursorError(`The API returned ${describe(order)}; the trigger needs OrderID to emit each order once`);
		const modified = lastModifiedOf(order);
		if (from !== null && modified < from) continue; // handled before; the API sent more than asked

		const earlier = readThisPoll.get(id);
		if (earlier !== undefined && earlier !== modified) holdAt = Math.min(earlier, modified, holdAt ?? Infinity);
		readThisPoll.set(id, Math.max(modified, earlier ?? -Infinity));
		newest = newest === undefined ? modified : Math.max(newest, modified);

		const known = seen[id];
		seen[id] = Math.max(modified, known ?? -Infinity);
		const index = emitted.get(id);
		if (index !== undefined) {
			if (modified > (earlier ?? -Infinity)) emit[index] = order; // one item per order per poll: its newest version
			continue;
		}
		if (known === modified) continue;

		if (options.event === 'newOrder') {
			if (known !== undefined) continue;
			const created = parseTimestamp(order.Created ?? order.created);
			if (created !== undefined && createdFrom !== null && created < createdFrom) continue;
		} else if (known !== undefined && known > modified) {
			continue; // an older version than one already handled
		}

		emitted.set(id, emit.length);
		emit.push(order);
	}

	let nextFrom = from;
	let nextCreatedFrom = createdFrom;
	if (newest !== undefined) {
		// Everything before the second an order moved away from was read before the move.
		nextFrom = later(from, Math.min(newest, holdAt ?? Infinity) - late);
		// Every order that exists now has been read once only when the whole window was read unshifted.
		if (options.complete !== false && holdAt === undefined) nextCreatedFrom = later(createdFrom, nextFrom);
	}
	const keepFrom = nextFrom === null || nextCreatedFrom === null ? null : Math.min(nextFrom, nextCreatedFrom);
	const nextSeen: Record<string, number> = {};
	for (const [id, seconds] of Object.entries(seen)) {
		if (keepFrom === null || seconds >= keepFrom) nextSeen[id] = seconds;
	}
	return {
		emit,
		next: { version: 1, scope: state.scope, from: nextFrom, createdFrom: nextCreatedFrom, seen: nextSeen },
		heldBack: holdAt !== undefined,
	};
}
