/**
 * The cursor against clocks (pure): it never stands past the API's "now" minus the
 * margin, so an order stamped in the future is emitted once and does not hide the real
 * orders after it; a stored position ahead of every clock is moved back; records it
 * cannot place are skipped and named, never a reason to stop.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	baselineNeedsMore,
	baselineState,
	CLOCK_MARGIN_SECONDS,
	cursorCeiling,
	decidePoll,
	formatSeconds,
	parseHttpDate,
	scopeKey,
} from '../../nodes/OrderTrigger/cursor';
import type { CursorState, OrderEvent, PollClock } from '../../nodes/OrderTrigger/cursor';

const T0 = Date.UTC(2024, 4, 1, 10, 0, 0) / 1000;
const YEAR = 365 * 86_400;
const iso = (seconds: number) => `${formatSeconds(seconds)}Z`;
const order = (id: number, modified: number, created = modified): IDataObject => ({ OrderID: id, Created: iso(created), LastModified: iso(modified) });
const ids = (items: IDataObject[]) => items.map((o) => o.OrderID);
const SCOPE = scopeKey('100001', undefined);
const at = (api: number | undefined, host = api ?? T0): PollClock => ({ api, host });
const start = (from: number | null, seen: Record<string, number> = {}): CursorState => ({ version: 1, scope: SCOPE, from, createdFrom: from, seen });

describe('parseHttpDate', () => {
	it('reads the IMF-fixdate a server sends in Date', () => {
		expect(parseHttpDate('Wed, 01 May 2024 10:00:00 GMT')).toBe(T0);
		expect(parseHttpDate(' Wed, 01 May 2024 10:00:07 GMT ')).toBe(T0 + 7);
	});

	it('refuses anything else, and clocks outside years 2000-9999', () => {
		for (const bad of [
			undefined,
			'',
			'yesterday',
			'2024-05-01T10:00:00Z',
			'Wed, 31 Feb 2024 10:00:00 GMT',
			'Wed, 01 Foo 2024 10:00:00 GMT',
			'Wed, 01 May 2024 10:00:00 CET',
			'Thu, 01 Jan 1970 00:00:00 GMT',
			5,
		]) {
			expect(parseHttpDate(bad)).toBeUndefined();
		}
	});
});

describe('the ceiling', () => {
	it("is the API's now minus the margin, n8n's clock when the API sent none", () => {
		expect(CLOCK_MARGIN_SECONDS).toBe(60);
		expect(cursorCeiling(at(T0, T0 + 3600))).toBe(T0 - 60);
		expect(cursorCeiling(at(undefined, T0 + 3600))).toBe(T0 + 3600 - 60);
	});
});

describe('an order stamped in the future', () => {
	it.each<OrderEvent>(['newOrUpdatedOrder', 'newOrder'])('(%s) is emitted once and the N real orders after it all come, once', (event) => {
		const N = 50;
		let state = start(T0 - 3600);
		let now = T0;
		const emitted: unknown[] = [];
		const book: IDataObject[] = [order(1, T0 + YEAR)];
		const poll = () => {
			const window = book
				.filter((o) => state.from === null || String(o.LastModified) >= iso(state.from))
				.sort((a, b) => String(a.LastModified).localeCompare(String(b.LastModified)));
			const decision = decidePoll(state, window, { event, clock: at(now) });
			emitted.push(...ids(decision.emit));
			expect(decision.next.from).toBeLessThanOrEqual(now - CLOCK_MARGIN_SECONDS);
			state = decision.next;
		};
		poll();
		for (let i = 0; i < N; i++) {
			now += 7;
			book.push(order(100 + i, now - 1));
			poll();
		}
		now += 120;
		poll();
		expect(emitted.filter((id) => id === 1)).toHaveLength(1);
		expect(emitted.filter((id) => id !== 1).sort()).toEqual(Array.from({ length: N }, (_, i) => 100 + i).sort());
		expect(emitted).toHaveLength(N + 1);
		expect(state.seen['1']).toBe(T0 + YEAR); // kept until the clock reaches it
	});

	it('the start at first activation does not stand on it either', () => {
		// The newest order at or before the ceiling (T0 - 60) is the start; those after it are read and handled.
		const newestFirst = [order(9, T0 + YEAR), order(8, T0 - 10), order(7, T0 - 200), order(6, T0 - 300)];
		const clock = at(T0);
		expect(baselineNeedsMore(newestFirst.slice(0, 2), { clock })).toBe(true);
		expect(baselineNeedsMore(newestFirst.slice(0, 3), { clock })).toBe(true); // more may share T0 - 200
		expect(baselineNeedsMore(newestFirst, { clock })).toBe(false);
		const state = baselineState(newestFirst, SCOPE, { clock });
		expect(state.from).toBe(T0 - 200);
		expect(state.seen).toEqual({ '9': T0 + YEAR, '8': T0 - 10, '7': T0 - 200 });
		// A real order after activation comes; nothing from before does.
		const window = [order(7, T0 - 200), order(8, T0 - 10), order(10, T0 + 5), order(9, T0 + YEAR)];
		const next = decidePoll(state, window, { event: 'newOrUpdatedOrder', clock: at(T0 + 30) });
		expect(ids(next.emit)).toEqual([10]);
		expect(next.next.from).toBe(T0 - 200); // the newest at or before the ceiling, T0 + 30 - 60
		// Only orders after the ceiling: the start is the ceiling, and each of them is handled.
		expect(baselineState([order(9, T0 + YEAR), order(8, T0 - 10)], SCOPE, { clock })).toMatchObject({ from: T0 - 60, seen: { '9': T0 + YEAR, '8': T0 - 10 } });
	});

	it("a later version with an earlier stamp (the writer's clock put right) is a new version, not a stale one", () => {
		const first = decidePoll(start(T0), [order(1, T0 + YEAR)], { event: 'newOrUpdatedOrder', clock: at(T0 + 5) });
		expect(ids(first.emit)).toEqual([1]);
		const fixed = decidePoll(first.next, [order(1, T0 + 8)], { event: 'newOrUpdatedOrder', clock: at(T0 + 10) });
		expect(ids(fixed.emit)).toEqual([1]);
		expect(fixed.next.seen['1']).toBe(T0 + 8);
		// Where the clock is not involved, an older version than one handled stays silent.
		const stale = decidePoll(start(T0, { '2': T0 + 9 }), [order(2, T0 + 3)], { event: 'newOrUpdatedOrder', clock: at(T0 + 100) });
		expect(stale.emit).toEqual([]);
	});

	it('"new": an order created ahead of its change is new once, even after it leaves `seen`', () => {
		let state = start(T0);
		const created = T0 + YEAR;
		const first = decidePoll(state, [order(5, T0 + 2, created)], { event: 'newOrder', clock: at(T0 + 100) });
		expect(ids(first.emit)).toEqual([5]);
		expect(first.next.createdAhead).toEqual({ '5': created });
		state = first.next;
		// Time passes; `seen` forgets it; then it changes again.
		state = decidePoll(state, [order(6, T0 + 500)], { event: 'newOrder', clock: at(T0 + 1000) }).next;
		expect(state.seen['5']).toBeUndefined();
		const again = decidePoll(state, [order(5, T0 + 900, created)], { event: 'newOrder', clock: at(T0 + 1000) });
		expect(again.emit).toEqual([]);
		// Once "new since" passes its Created, the entry goes.
		const later = decidePoll(again.next, [order(7, created + 10)], { event: 'newOrder', clock: at(created + 100) });
		expect(later.next.createdAhead).toBeUndefined();
	});
});

describe('a stored position ahead of every clock', () => {
	it('is moved back to the ceiling (and says so); within the margin it only stops advancing', () => {
		const ahead = decidePoll(start(T0 + YEAR, { '1': T0 + YEAR }), [], { event: 'newOrUpdatedOrder', clock: at(T0) });
		expect(ahead.rewound).toBe(true);
		expect(ahead.next.from).toBe(T0 - 60);
		expect(ahead.next.createdFrom).toBe(T0 - 60);

		const within = decidePoll(start(T0 - 10), [order(3, T0 - 5)], { event: 'newOrUpdatedOrder', clock: at(T0) });
		expect(within.rewound).toBe(false);
		expect(within.next.from).toBe(T0 - 10); // never backwards, not past the ceiling either
		expect(ids(within.emit)).toEqual([3]);
	});

	it("only when it is ahead of both the API's clock and n8n's: one wrong clock does not move it back", () => {
		const state = start(T0 + 3600);
		expect(decidePoll(state, [], { event: 'newOrder', clock: at(T0, T0 + 7200) }).rewound).toBe(false);
		expect(decidePoll(state, [], { event: 'newOrder', clock: at(T0 + 7200, T0) }).rewound).toBe(false);
		expect(decidePoll(state, [], { event: 'newOrder', clock: at(T0, T0) }).rewound).toBe(true);
	});
});

describe('records the cursor cannot place', () => {
	const odd: unknown[] = [
		null,
		'a string',
		42,
		[1, 2],
		{ OrderID: 4, LastModified: 'soon' },
		{ OrderID: 5 },
		{ OrderID: 6, LastModified: '/Date(-99999999999999999)/' },
		{ LastModified: iso(T0 + 1) },
		{ OrderID: { nested: true }, LastModified: iso(T0 + 1) },
	];

	it('are skipped and named, and the orders around them come and move the cursor', () => {
		const decision = decidePoll(start(T0), [order(1, T0), ...odd, order(2, T0 + 3)], { event: 'newOrUpdatedOrder', clock: at(T0 + 1000) });
		expect(ids(decision.emit)).toEqual([1, 2]);
		expect(decision.next.from).toBe(T0 + 3);
		expect(decision.skipped.map((s) => s.problem)).toEqual([
			'a list entry that is not an order (null)',
			'a list entry that is not an order (string)',
			'a list entry that is not an order (number)',
			'a list entry that is not an order (a list)',
			'order 4 with LastModified text of 4 characters that is not a date of years 1-9999',
			'order 5 with LastModified missing',
			'order 6 with LastModified text of 26 characters that is not a date of years 1-9999',
			'an order without OrderID (LastModified present)',
			'an order without OrderID (LastModified present)',
		]);
		expect(decision.skipped[4].orderId).toBe('4');
	});

	it('never carry what they hold into the notice', () => {
		const decision = decidePoll(start(T0), [{ OrderID: 'key-123', LastModified: 'secret-api-key' }], { event: 'newOrder', clock: at(T0) });
		expect(JSON.stringify(decision.skipped)).not.toMatch(/secret|key-123/);
	});

	it('at first activation are passed over too', () => {
		const state = baselineState([null, { OrderID: 4 }, order(3, T0)], SCOPE, { clock: at(T0 + 1000) });
		expect(state.from).toBe(T0);
		expect(state.seen).toEqual({ '3': T0 });
		expect(baselineState([null, 'x'], SCOPE, { clock: at(T0) }).from).toBeNull();
	});
});
