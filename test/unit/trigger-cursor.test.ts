import type { IDataObject } from 'n8n-workflow';

import {
	afterPage,
	baselineNeedsMore,
	baselineState,
	decidePoll,
	FIRST_PAGE,
	formatSeconds,
	loadState,
	lowerBound,
	orderKey,
	parseTimestamp,
	scopeKey,
	stateFromDate,
} from '../../nodes/OrderTrigger/cursor';
import type { CursorState, OrderEvent, PollClock } from '../../nodes/OrderTrigger/cursor';

const T0 = Date.UTC(2024, 4, 1, 10, 0, 0) / 1000;
const iso = (seconds: number) => `${formatSeconds(seconds)}Z`;
const order = (id: number, modified: number, created = modified): IDataObject => ({
	OrderID: id,
	Created: iso(created),
	LastModified: iso(modified),
});
const ids = (items: IDataObject[]) => items.map((o) => o.OrderID);
const SCOPE = scopeKey('100001', undefined);
/** Clocks far ahead of every order in these tests: the ceiling never binds. */
const CLOCK: PollClock = { api: T0 + 10 * 365 * 86_400, host: T0 + 10 * 365 * 86_400 };

describe('parseTimestamp / formatSeconds', () => {
	it('reads ISO with Z, with offset, without zone (UTC), with fractions, /Date()/ and epoch ms', () => {
		expect(parseTimestamp('2024-05-01T10:00:00Z')).toBe(T0);
		expect(parseTimestamp('2024-05-01T12:00:00+02:00')).toBe(T0);
		expect(parseTimestamp('2024-05-01T10:00:00')).toBe(T0);
		expect(parseTimestamp('2024-05-01 10:00:00.9876')).toBe(T0);
		expect(parseTimestamp('2024-05-01T10:00:00.999Z')).toBe(T0);
		expect(parseTimestamp(`/Date(${T0 * 1000 + 500})/`)).toBe(T0);
		expect(parseTimestamp(T0 * 1000 + 999)).toBe(T0);
		expect(parseTimestamp('2024-05-01')).toBe(Date.UTC(2024, 4, 1) / 1000);
	});

	it('refuses what is not a timestamp', () => {
		for (const bad of ['', 'yesterday', '2024-02-30T00:00:00', '2024-05-01T24:00:00', null, undefined, {}, NaN]) {
			expect(parseTimestamp(bad)).toBeUndefined();
		}
	});

	it('formats the DateTime literal text in UTC without zone, second resolution', () => {
		expect(formatSeconds(T0)).toBe('2024-05-01T10:00:00');
		expect(lowerBound(stateFromDate(T0 + 59, SCOPE))).toBe('2024-05-01T10:00:59');
		expect(lowerBound({ version: 1, scope: SCOPE, from: null, createdFrom: null, seen: {} })).toBeUndefined();
	});

	it('keys orders by OrderID in its spellings', () => {
		expect(orderKey({ OrderID: 7 })).toBe('7');
		expect(orderKey({ OrderId: '8' })).toBe('8');
		expect(orderKey({ Name: 'x' })).toBeUndefined();
	});
});

describe('loadState', () => {
	it('returns a stored state for the same scope and says when the scope changed', () => {
		const state = { version: 1, scope: SCOPE, from: T0, createdFrom: T0, seen: { '5': T0 } };
		expect(loadState(state, SCOPE)).toEqual({ kind: 'ok', state });
		expect(loadState(state, scopeKey('999', undefined))).toEqual({ kind: 'otherScope' });
		expect(loadState(state, scopeKey('100001', '2024-01-01'))).toEqual({ kind: 'otherScope' });
		expect(loadState(undefined, SCOPE)).toEqual({ kind: 'absent' });
	});
});

describe('baseline (first activation starts from "now")', () => {
	it('takes the newest LastModified as the cursor and every order at that second as handled', () => {
		const newestFirst = [order(9, T0 + 5), order(8, T0 + 5), order(3, T0 + 5), order(7, T0 + 2)];
		expect(baselineNeedsMore(newestFirst, { clock: CLOCK })).toBe(false);
		expect(baselineNeedsMore(newestFirst.slice(0, 3), { clock: CLOCK })).toBe(true);
		const state = baselineState(newestFirst, SCOPE, { clock: CLOCK });
		expect(state).toEqual({
			version: 1,
			scope: SCOPE,
			from: T0 + 5,
			createdFrom: T0 + 5,
			seen: { '9': T0 + 5, '8': T0 + 5, '3': T0 + 5 },
		});
		// The next poll re-reads that second: nothing from before activation comes out.
		expect(decidePoll(state, [order(3, T0 + 5), order(8, T0 + 5), order(9, T0 + 5)], { clock: CLOCK, event: 'newOrUpdatedOrder' }).emit).toEqual([]);
	});

	it('starts without a bound when the order book is empty', () => {
		const state = baselineState([], SCOPE, { clock: CLOCK });
		expect(state.from).toBeNull();
		const decision = decidePoll(state, [order(1, T0), order(2, T0 + 1, T0 - 3600)], { clock: CLOCK, event: 'newOrder' });
		expect(ids(decision.emit)).toEqual([1, 2]);
		expect(decision.next.from).toBe(T0 + 1);
	});

	it('with a late-change window keeps handling the orders inside the window', () => {
		const newestFirst = [order(9, T0 + 5), order(7, T0 + 3), order(6, T0 + 1)];
		expect(baselineNeedsMore(newestFirst.slice(0, 2), { clock: CLOCK, lateWindowSeconds: 3 })).toBe(true);
		const state = baselineState(newestFirst, SCOPE, { clock: CLOCK, lateWindowSeconds: 3 });
		expect(state.from).toBe(T0 + 2);
		expect(state.seen).toEqual({ '9': T0 + 5, '7': T0 + 3 });
	});
});

describe('decidePoll', () => {
	const start = (from: number, seen: Record<string, number> = {}, createdFrom = from): CursorState => ({
		version: 1,
		scope: SCOPE,
		from,
		createdFrom,
		seen,
	});

	it('emits new orders in order and moves the cursor to the newest second, remembering the IDs at it', () => {
		const decision = decidePoll(start(T0), [order(1, T0), order(2, T0 + 1), order(3, T0 + 1)], { clock: CLOCK, event: 'newOrUpdatedOrder' });
		expect(ids(decision.emit)).toEqual([1, 2, 3]);
		expect(decision.next).toEqual(start(T0 + 1, { '2': T0 + 1, '3': T0 + 1 }));
		expect(decision.heldBack).toBe(false);
	});

	it('does not repeat orders at the cursor second and does not lose orders added to that second later', () => {
		const state = start(T0 + 1, { '2': T0 + 1, '3': T0 + 1 });
		const decision = decidePoll(state, [order(2, T0 + 1), order(3, T0 + 1), order(4, T0 + 1)], { clock: CLOCK, event: 'newOrUpdatedOrder' });
		expect(ids(decision.emit)).toEqual([4]);
		expect(decision.next).toEqual(start(T0 + 1, { '2': T0 + 1, '3': T0 + 1, '4': T0 + 1 }));
	});

	it('leaves the state alone when nothing came back', () => {
		const state = start(T0 + 1, { '2': T0 + 1 });
		const decision = decidePoll(state, [], { clock: CLOCK, event: 'newOrUpdatedOrder' });
		expect(decision.emit).toEqual([]);
		expect(decision.next).toEqual(state);
	});

	it('emits an update of an order already emitted (new or updated), but not for the "new" event', () => {
		const state = start(T0 + 1, { '2': T0 + 1 });
		const updated = { ...order(2, T0 + 4, T0 + 1), OrderStatus: 'Paid' };
		expect(ids(decidePoll(state, [updated], { clock: CLOCK, event: 'newOrUpdatedOrder' }).emit)).toEqual([2]);
		const asNew = decidePoll(state, [updated], { clock: CLOCK, event: 'newOrder' });
		expect(asNew.emit).toEqual([]);
		expect(asNew.next).toEqual(start(T0 + 4, { '2': T0 + 4 }));
	});

	it('"new": an order created before the window and changed now is not new; one created inside it is', () => {
		const state = start(T0 + 10, {});
		const decision = decidePoll(state, [order(1, T0 + 10, T0 - 86400), order(2, T0 + 11, T0 + 10), order(3, T0 + 12, T0 + 12)], {
			clock: CLOCK,
			event: 'newOrder',
		});
		expect(ids(decision.emit)).toEqual([2, 3]);
		// Order 1 is remembered anyway, so it is not re-considered at this second.
		expect(decision.next.seen).toEqual({ '3': T0 + 12 });
	});

	it('"new": an order created at the cursor second and seen before is not emitted again after an update', () => {
		const first = decidePoll(start(T0), [order(5, T0)], { clock: CLOCK, event: 'newOrder' });
		expect(ids(first.emit)).toEqual([5]);
		const second = decidePoll(first.next, [order(5, T0 + 3, T0)], { clock: CLOCK, event: 'newOrder' });
		expect(second.emit).toEqual([]);
	});

	it('"new": list items without Created count as new when never seen', () => {
		const decision = decidePoll(start(T0), [{ OrderID: 1, LastModified: iso(T0) }], { clock: CLOCK, event: 'newOrder' });
		expect(ids(decision.emit)).toEqual([1]);
	});

	it('ignores orders before the cursor the API should not have sent, and older versions than handled', () => {
		const state = start(T0 + 5, { '2': T0 + 6 });
		const decision = decidePoll(state, [order(1, T0 + 4), order(2, T0 + 5)], { clock: CLOCK, event: 'newOrUpdatedOrder' });
		expect(decision.emit).toEqual([]);
		expect(decision.next).toEqual(start(T0 + 5, { '2': T0 + 6 }));
	});

	it('emits one item per order when an order shows up twice in one poll, and holds the cursor back', () => {
		// Order 2 was changed while the poll paged: seen on page 1 at T0, again at the end at T0 + 9.
		const decision = decidePoll(start(T0), [order(1, T0), order(2, T0), order(3, T0 + 2), order(2, T0 + 9)], {
			clock: CLOCK,
			event: 'newOrUpdatedOrder',
		});
		expect(ids(decision.emit)).toEqual([1, 2, 3]);
		expect(decision.emit[1].LastModified).toBe(iso(T0 + 9));
		expect(decision.heldBack).toBe(true);
		expect(decision.next.from).toBe(T0);
		expect(decision.next.seen).toEqual({ '1': T0, '2': T0 + 9, '3': T0 + 2 });
		// The next poll re-reads the window: a record the shift made us skip comes out, nothing repeats.
		const again = decidePoll(decision.next, [order(1, T0), order(3, T0 + 2), order(4, T0 + 3), order(2, T0 + 9)], {
			clock: CLOCK,
			event: 'newOrUpdatedOrder',
		});
		expect(ids(again.emit)).toEqual([4]);
		expect(again.next.from).toBe(T0 + 9);
	});

	it('holds the cursor only back to the second the changed order moved away from', () => {
		const decision = decidePoll(start(T0), [order(1, T0), order(2, T0 + 3), order(3, T0 + 4), order(2, T0 + 9)], {
			clock: CLOCK,
			event: 'newOrUpdatedOrder',
		});
		expect(decision.heldBack).toBe(true);
		expect(decision.next.from).toBe(T0 + 3);
		// A slipped order may be unread, so "new" keeps its bound and the orders read since it.
		expect(decision.next.createdFrom).toBe(T0);
		expect(decision.next.seen).toEqual({ '1': T0, '2': T0 + 9, '3': T0 + 4 });
	});

	it('"new": after a poll cut short, an order created inside the window and changed later is still new', () => {
		// The poll read one page (orders 1, 2) and stopped; order 3, created at T0 + 1, was not read.
		const cut = decidePoll(start(T0), [order(1, T0), order(2, T0 + 2)], { clock: CLOCK, event: 'newOrder', complete: false });
		expect(ids(cut.emit)).toEqual([1, 2]);
		expect(cut.next).toEqual(start(T0 + 2, { '1': T0, '2': T0 + 2 }, T0));
		// Meanwhile order 3 changed: its LastModified is after the cursor, its Created before it.
		const next = decidePoll(cut.next, [order(2, T0 + 2), order(3, T0 + 5, T0 + 1)], { clock: CLOCK, event: 'newOrder' });
		expect(ids(next.emit)).toEqual([3]);
		expect(next.next).toEqual(start(T0 + 5, { '3': T0 + 5 }));
	});

	it('a poll cut short moves "from" to the newest second read and keeps the IDs there', () => {
		const cut = decidePoll(start(T0), [order(1, T0), order(2, T0 + 2), order(3, T0 + 2)], { clock: CLOCK, event: 'newOrUpdatedOrder', complete: false });
		expect(cut.next.from).toBe(T0 + 2);
		const rest = decidePoll(cut.next, [order(2, T0 + 2), order(3, T0 + 2), order(4, T0 + 2), order(5, T0 + 3)], {
			clock: CLOCK,
			event: 'newOrUpdatedOrder',
		});
		expect(ids(rest.emit)).toEqual([4, 5]);
	});

	it('a same-version repeat (records shifted by an insert) is emitted once and does not hold back', () => {
		const decision = decidePoll(start(T0), [order(1, T0), order(2, T0), order(2, T0), order(3, T0)], { clock: CLOCK, event: 'newOrUpdatedOrder' });
		expect(ids(decision.emit)).toEqual([1, 2, 3]);
		expect(decision.heldBack).toBe(false);
	});

	it('keeps a late-change window behind the newest second and still emits each version once', () => {
		const late = { clock: CLOCK, event: 'newOrUpdatedOrder' as OrderEvent, lateWindowSeconds: 5 };
		const first = decidePoll(start(T0), [order(1, T0), order(2, T0 + 10)], late);
		expect(first.next.from).toBe(T0 + 5);
		expect(first.next.seen).toEqual({ '2': T0 + 10 });
		// Order 3 was stamped T0 + 7 but became visible only now: caught, order 2 not repeated.
		const second = decidePoll(first.next, [order(3, T0 + 7), order(2, T0 + 10)], late);
		expect(ids(second.emit)).toEqual([3]);
		expect(second.next.from).toBe(T0 + 5);
	});

	it('never moves the cursor backwards', () => {
		const decision = decidePoll(start(T0 + 10), [order(1, T0 + 11)], { clock: CLOCK, event: 'newOrUpdatedOrder', lateWindowSeconds: 60 });
		expect(decision.next.from).toBe(T0 + 10);
	});

	it('does not mutate the state it was given', () => {
		const state = start(T0, { '1': T0 });
		const copy = JSON.parse(JSON.stringify(state));
		decidePoll(state, [order(1, T0), order(2, T0 + 1)], { clock: CLOCK, event: 'newOrUpdatedOrder' });
		expect(state).toEqual(copy);
	});
});

/**
 * A simulated order book with skip-based paging (like the API's NextpageLink) that
 * changes between polls and between pages of one poll. The invariants that matter:
 * no order version is emitted twice, and after quiet polls every order's latest
 * version (new or updated) / every order created after activation (new) was emitted.
 */
describe('decidePoll and the paging plan against a changing, paged order book', () => {
	function prng(seed: number) {
		let a = seed >>> 0;
		return () => {
			a = (a + 0x6d2b79f5) >>> 0;
			let t = a;
			t = Math.imul(t ^ (t >>> 15), t | 1);
			t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
			return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
		};
	}

	interface Churn {
		/** Share of changes that delete an order (0 = none). */
		deletes?: number;
		/** Share of inserts stamped a year ahead of the API's clock. */
		future?: number;
		lateWindowSeconds?: number;
	}

	/**
	 * An order book changing between polls and between the pages of a poll, read the way
	 * poll.ts reads it: `$skip` pages of 120 with one record of overlap (cursor.ts afterPage), a run
	 * started again from the last second read when the list shifted, the API's clock
	 * ticking with the changes.
	 */
	function simulate(event: OrderEvent, seed: number, churn: Churn = {}) {
		const rnd = prng(seed);
		const lateWindowSeconds = churn.lateWindowSeconds ?? 0;
		const book = new Map<number, { OrderID: number; Created: number; LastModified: number }>();
		let now = T0;
		let nextId = 1;
		let shifts = 0;
		let deleted = 0;
		const deletedIds = new Set<number>();
		const add = () => {
			const id = nextId++;
			const stamp = rnd() < (churn.future ?? 0) ? now + 365 * 86_400 : now;
			book.set(id, { OrderID: id, Created: stamp, LastModified: stamp });
		};
		const update = () => {
			const id = 1 + Math.floor(rnd() * (nextId - 1));
			const o = book.get(id);
			if (o) o.LastModified = now;
		};
		const remove = () => {
			const id = 1 + Math.floor(rnd() * (nextId - 1));
			if (book.delete(id)) {
				deleted++;
				deletedIds.add(id);
			}
		};
		const mutate = (n: number) => {
			for (let i = 0; i < n; i++) {
				if (rnd() < 0.3) now += 1; // many changes share a second
				const r = rnd();
				if (r < (churn.deletes ?? 0)) remove();
				else if (r < 0.6 || book.size === 0) add();
				else update();
			}
		};
		const sorted = (from: number | null, newestFirst = false) => {
			const list = [...book.values()]
				.filter((o) => from === null || o.LastModified >= from)
				.sort((a, b) => a.LastModified - b.LastModified || a.OrderID - b.OrderID)
				.map((o) => order(o.OrderID, o.LastModified, o.Created));
			return newestFirst ? list.reverse() : list;
		};
		const clock = (): PollClock => ({ api: now, host: now });

		mutate(200);
		const atActivation = new Map([...book.values()].map((o) => [o.OrderID, o.LastModified]));
		let state = baselineState(sorted(null, true), SCOPE, { clock: clock(), lateWindowSeconds });
		const emitted = new Map<string, number>();
		const emittedIds = new Map<number, number>();

		const poll = (changesBetweenPages: boolean, maxPages = Infinity) => {
			let read: unknown[] = [];
			let complete = true;
			let bound = state.from;
			let plan = FIRST_PAGE;
			for (let pages = 1; ; pages++) {
				const all = sorted(bound);
				const outcome = afterPage(plan, all.slice(plan.skip, plan.skip + 120), plan.skip + 120 < all.length);
				if (outcome.kind === 'shifted') {
					shifts++;
					const seconds = read.map((o) => parseTimestamp((o as IDataObject).LastModified) as number);
					bound = Math.max(state.from ?? -Infinity, ...seconds);
					plan = FIRST_PAGE;
				} else {
					read = read.concat(outcome.records);
					if (!outcome.next) break;
					plan = outcome.next;
				}
				if (pages >= maxPages) {
					complete = false; // out of time: a prefix
					break;
				}
				if (changesBetweenPages) mutate(Math.floor(rnd() * 6));
			}
			const decision = decidePoll(state, read, { clock: clock(), event, lateWindowSeconds, complete });
			for (const o of decision.emit) {
				const key = `${String(o.OrderID)}@${String(o.LastModified)}`;
				emitted.set(key, (emitted.get(key) ?? 0) + 1);
				emittedIds.set(o.OrderID as number, (emittedIds.get(o.OrderID as number) ?? 0) + 1);
			}
			expect(state.from === null || decision.next.from === null || decision.next.from >= state.from).toBe(true);
			expect(decision.next.from === null || decision.next.from <= now - 60 || decision.next.from === state.from).toBe(true);
			state = decision.next;
		};

		for (let round = 0; round < 60; round++) {
			mutate(Math.floor(rnd() * (round % 7 === 0 ? 400 : 40)));
			poll(round % 3 !== 2, round % 4 === 1 ? 1 + Math.floor(rnd() * 2) : Infinity);
		}
		now += 120; // past the clock margin
		poll(false);
		poll(false);
		return { book, atActivation, emitted, emittedIds, shifts, deleted, deletedIds };
	}

	/**
	 * "New or updated" against the book: `lost`, latest versions of orders changed since activation
	 * never emitted; `twice`, versions emitted more than once; `extra`, latest versions of orders
	 * unchanged since activation (or changed again inside the very second read then) emitted anyway.
	 */
	function checkNewOrUpdated({ book, atActivation, emitted }: ReturnType<typeof simulate>) {
		const twice = [...emitted].filter(([, count]) => count > 1).map(([key]) => key);
		const lost: string[] = [];
		const extra: string[] = [];
		for (const o of book.values()) {
			const key = `${o.OrderID}@${iso(o.LastModified)}`;
			const expected = atActivation.get(o.OrderID) === o.LastModified ? 0 : 1;
			if ((emitted.get(key) ?? 0) < expected) lost.push(key);
			if (expected === 0 && emitted.has(key)) extra.push(key);
		}
		return { lost, twice, extra };
	}

	it.each([1, 2, 3, 4, 5])('new or updated (seed %i): every latest version emitted once, no version twice', (seed) => {
		expect(checkNewOrUpdated(simulate('newOrUpdatedOrder', seed))).toEqual({ lost: [], twice: [], extra: [] });
	});

	it.each([6, 7, 8])('new (seed %i): each order created after activation exactly once, none from before', (seed) => {
		const { book, atActivation, emittedIds } = simulate('newOrder', seed);
		for (const o of book.values()) {
			expect(emittedIds.get(o.OrderID) ?? 0).toBe(atActivation.has(o.OrderID) ? 0 : 1);
		}
	});

	it('with a late-change window the same holds', () => {
		const { book, atActivation, emittedIds } = simulate('newOrder', 11, { lateWindowSeconds: 3 });
		for (const o of book.values()) expect(emittedIds.get(o.OrderID) ?? 0).toBe(atActivation.has(o.OrderID) ? 0 : 1);
	});

	it.each([21, 22, 23])('deletes while paging and orders stamped a year ahead (seed %i): nothing lost, nothing twice', (seed) => {
		const run = simulate('newOrUpdatedOrder', seed, { deletes: 0.15, future: 0.02 });
		const future = [...run.book.values()].filter((o) => o.LastModified > T0 + 86_400).length;
		expect(run.deleted).toBeGreaterThan(50);
		expect(run.shifts).toBeGreaterThan(2);
		expect(future).toBeGreaterThan(3);
		expect(checkNewOrUpdated(run)).toEqual({ lost: [], twice: [], extra: [] });
		const created = simulate('newOrder', seed, { deletes: 0.15, future: 0.02 });
		for (const o of created.book.values()) {
			expect(created.emittedIds.get(o.OrderID) ?? 0).toBe(created.atActivation.has(o.OrderID) ? 0 : 1);
		}
	});
});
