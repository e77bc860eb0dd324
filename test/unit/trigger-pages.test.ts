/**
 * The paging plan (pure): one record of overlap per page, a shift detected when the
 * overlap does not match, and a $skip list read with deletes between its pages loses
 * nothing when driven by the plan (and does lose with plain $skip: the reason for it).
 */
import type { IDataObject } from 'n8n-workflow';

import { afterPage, FIRST_PAGE, samePlace } from '../../nodes/OrderTrigger/cursor';
import type { PagePlan } from '../../nodes/OrderTrigger/cursor';

const rec = (id: number, modified = `2024-05-01T10:00:${String(id % 60).padStart(2, '0')}Z`): IDataObject => ({ OrderID: id, LastModified: modified });

describe('afterPage', () => {
	it('asks the next page one place back, expecting the last record again', () => {
		const items = [rec(1), rec(2), rec(3)];
		const outcome = afterPage(FIRST_PAGE, items, true);
		expect(outcome).toEqual({ kind: 'page', records: items, next: { skip: 2, expect: rec(3) }, stalled: false });
	});

	it('drops the overlapping record when it matches, and ends without a next page', () => {
		const outcome = afterPage({ skip: 2, expect: rec(3) }, [rec(3), rec(4)], false);
		expect(outcome).toEqual({ kind: 'page', records: [rec(4)], stalled: false });
	});

	it('reports a shift when the first record is not the expected one (deleted before it, or it moved)', () => {
		expect(afterPage({ skip: 2, expect: rec(3) }, [rec(4), rec(5)], true)).toEqual({ kind: 'shifted' });
		expect(afterPage({ skip: 2, expect: rec(3) }, [rec(3, '2024-05-01T11:00:00Z')], false)).toEqual({ kind: 'shifted' });
		expect(afterPage({ skip: 2, expect: rec(3) }, [], false)).toEqual({ kind: 'shifted' });
	});

	it('compares order versions by OrderID and LastModified, other entries as a whole', () => {
		expect(samePlace({ OrderID: 3, LastModified: 'x', Total: 1 }, { OrderID: '3', LastModified: 'x', Total: 2 })).toBe(true);
		expect(samePlace({ OrderID: 3, LastModified: 'x' }, { OrderID: 3, LastModified: 'y' })).toBe(false);
		expect(samePlace(null, null)).toBe(true);
		expect(samePlace({ a: 1 }, { a: 2 })).toBe(false);
	});

	it('stops as stalled when a page brings nothing new but more are said to remain', () => {
		expect(afterPage({ skip: 5, expect: rec(6) }, [rec(6)], true)).toEqual({ kind: 'page', records: [], stalled: true });
		expect(afterPage(FIRST_PAGE, [], true)).toEqual({ kind: 'page', records: [], stalled: true });
	});

	it('a page of one record moves on without overlap (it cannot overlap with itself)', () => {
		expect(afterPage(FIRST_PAGE, [rec(1)], true)).toEqual({ kind: 'page', records: [rec(1)], next: { skip: 1 }, stalled: false });
	});
});

describe('a $skip list with an order deleted between its pages', () => {
	const PAGE = 120;
	/** Reads `book` page by page; `between(k)` runs before page k (from 1) is answered. */
	function readWithPlan(book: IDataObject[], between: (k: number) => void) {
		const read: unknown[] = [];
		let plan: PagePlan = FIRST_PAGE;
		let shifts = 0;
		for (let k = 0; k < 100; k++) {
			if (k > 0) between(k);
			const outcome = afterPage(plan, book.slice(plan.skip, plan.skip + PAGE), plan.skip + PAGE < book.length);
			if (outcome.kind === 'shifted') {
				shifts++;
				plan = FIRST_PAGE; // the trigger restarts from the last second read; here, from the top
				read.length = 0;
				continue;
			}
			read.push(...outcome.records);
			if (!outcome.next) break;
			plan = outcome.next;
		}
		return { read, shifts };
	}

	it('with the plan: every record still there is read (a shift is seen and the run starts again)', () => {
		const book = Array.from({ length: 300 }, (_, i) => rec(i + 1));
		let deletes = 0;
		const { read, shifts } = readWithPlan(book, (k) => {
			if (k === 1 && deletes === 0) {
				book.splice(10, 1); // order 11 goes while page 2 is asked for
				deletes++;
			}
		});
		const ids = read.map((r) => (r as IDataObject).OrderID);
		expect(shifts).toBe(1);
		expect(ids).toEqual(book.map((r) => r.OrderID));
	});

	it('without overlap (plain $skip of 120) the record after the boundary is never read', () => {
		const book = Array.from({ length: 300 }, (_, i) => rec(i + 1));
		const read: IDataObject[] = [];
		for (let skip = 0, k = 0; skip < book.length; skip += PAGE, k++) {
			if (k === 1) book.splice(10, 1);
			read.push(...book.slice(skip, skip + PAGE));
		}
		const missing = book.filter((r) => !read.includes(r)).map((r) => r.OrderID);
		expect(missing).toEqual([121]);
	});
});
