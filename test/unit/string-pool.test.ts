/**
 * Records read through paging hold each repeated short string once: values are
 * unchanged (deep-equal, same keys, same prototype), the pool stays bounded, and the
 * heap the records keep shrinks (measured after forced collections, not timed).
 */
import type { IDataObject } from 'n8n-workflow';

import { paginate } from '../../nodes/shared/http/paging';
import type { PageFetcher } from '../../nodes/shared/http/paging';
import { createStringPool, shareStrings } from '../../nodes/shared/http/stringPool';
import { settledHeap } from '../harness/heap';

const STATUSES = ['Draft', 'Sent', 'Paid', 'Overdue'];
const PARTIES = ['Blue Foods 42 BV - accounts payable', 'Emulator Master BV - invoicing desk', 'Green Logistics NV - finance team'];

/** A page of `n` orders as JSON text: most string values repeat across records. */
function pageText(from: number, n: number, next?: string): string {
	const Items = Array.from({ length: n }, (_, i) => ({
		OrderID: from + i,
		OrderNumber: `INV-2026-${String(from + i).padStart(6, '0')}`,
		Currency: 'EUR',
		OrderStatus: STATUSES[(from + i) % STATUSES.length],
		OrderDate: `2026-10-${String(((from + i) % 28) + 1).padStart(2, '0')}`,
		Customer: { Name: PARTIES[(from + i) % PARTIES.length], CountryCode: 'BE', Email: 'billing@blue.foods.example' },
		Supplier: { Name: PARTIES[(from + i + 1) % PARTIES.length], CountryCode: 'NL', Email: 'billing@emulator-master.example' },
		OrderLines: [{ Description: 'Monitor 27" Bright 14', Unit: 'piece' }],
	}));
	return JSON.stringify(next ? { Items, NextpageLink: next } : { Items });
}

describe('shareStrings', () => {
	it('leaves every value as it was (deep-equal, same keys in the same order, same prototype)', () => {
		const text = JSON.stringify({
			Items: [
				{ a: 'EUR', b: 1.5, c: null, d: true, e: ['EUR', 'x', 2, ['EUR', { f: 'EUR' }]], g: { h: 'EUR', i: 'y'.repeat(200) } },
				{ a: 'EUR', nested: { l1: { l2: { l3: { l4: { l5: { l6: { l7: { l8: 'EUR' } } } } } } } } },
				'PROTO',
			],
		}).replace('"PROTO"', '{"__proto__":"EUR","a":"EUR"}');
		const records = (JSON.parse(text) as { Items: IDataObject[] }).Items;
		shareStrings(records, createStringPool());
		expect(JSON.stringify({ Items: records })).toBe(text);
		const expected = (JSON.parse(text) as { Items: IDataObject[] }).Items;
		expect(records).toEqual(expected);
		for (const [i, record] of records.entries()) {
			expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
			expect(Object.getOwnPropertyNames(record)).toEqual(Object.getOwnPropertyNames(expected[i]));
		}
		expect(Object.getOwnPropertyDescriptor(records[2], '__proto__')?.value).toBe('EUR');
		expect(({} as IDataObject).a).toBeUndefined();
	});

	it('keeps the pool bounded however many different strings pass', () => {
		const pool = createStringPool();
		for (let page = 0; page < 30; page++) {
			shareStrings(
				Array.from({ length: 1000 }, (_, i) => ({ id: `id-${page}-${i}`, same: 'EUR' })),
				pool,
			);
			expect(pool.size).toBeLessThanOrEqual(8192);
		}
	});

	it('makes the records of a paged list keep less heap than the same pages parsed plainly', async () => {
		const PER_PAGE = 250;
		const pagesOf = (count: number) =>
			Array.from({ length: count }, (_, p) => pageText(p * PER_PAGE, PER_PAGE, p < count - 1 ? `/v1/orders?$skip=${(p + 1) * PER_PAGE}` : undefined));
		const apiOver = (texts: string[]): PageFetcher => ({
			baseUrl: 'https://api.example.test',
			async request<T>(req: { path: string }): Promise<T> {
				const skip = Number(/\$skip=(\d+)/.exec(req.path)?.[1] ?? 0);
				return JSON.parse(texts[skip / PER_PAGE]) as T;
			},
		});
		const readPlain = (texts: string[]) => {
			const out: IDataObject[] = [];
			for (const text of texts) for (const item of (JSON.parse(text) as { Items: IDataObject[] }).Items) out.push(item);
			return out;
		};
		const readPaged = async (texts: string[]) => {
			const out: IDataObject[] = [];
			for await (const items of paginate(apiOver(texts), { path: '/v1/orders' })) for (const item of items) out.push(item);
			return out;
		};
		// Both paths run once first, so compiling their code is not counted below.
		const warm = pagesOf(3);
		expect(await readPaged(warm)).toEqual(readPlain(warm));

		const texts = pagesOf(60);
		/** Heap the records a read keeps, measured in a settled heap. */
		const kept = async (read: () => Promise<IDataObject[]>) => {
			const before = await settledHeap();
			const records = await read();
			const bytes = (await settledHeap()) - before;
			return { records, bytes };
		};
		// Three rounds in alternating order; the median of each resists anything else the process frees meanwhile.
		const plainBytes: number[] = [];
		const pagedBytes: number[] = [];
		for (let round = 0; round < 3; round++) {
			for (const which of round % 2 ? ['paged', 'plain'] : ['plain', 'paged']) {
				const { records, bytes } = which === 'plain' ? await kept(async () => readPlain(texts)) : await kept(async () => await readPaged(texts));
				expect(records).toHaveLength(60 * PER_PAGE);
				(which === 'plain' ? plainBytes : pagedBytes).push(bytes);
			}
		}
		const median = (list: number[]) => [...list].sort((a, b) => a - b)[1];
		expect(await readPaged(texts)).toEqual(readPlain(texts));
		// Plain: every record its own copies of the repeated strings. Paged: one copy each.
		expect(median(plainBytes)).toBeGreaterThan(0);
		expect(median(pagedBytes)).toBeLessThan(median(plainBytes) * 0.75);
	});
});
