/**
 * A list read holds each repeated short string once (nodes/shared/node/client.ts, shareStrings;
 * docs/performance.md, 2a/2h): values, key order and prototypes unchanged, an own `__proto__` key
 * stays an own data property, the table stays bounded, and the records of a read through the
 * parallel windows keep less heap than the same pages parsed plainly (measured after forced
 * collections, not timed).
 */
import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { PARALLEL_PAGES } from '../../nodes/shared/http/paging';
import { paginateList, shareStrings } from '../../nodes/shared/node/client';
import type { ApiClient, ApiContext, ApiRequest } from '../../nodes/shared/http/transport';
import { settledHeap } from '../harness/heap';

const STATUSES = ['Draft', 'Sent', 'Paid', 'Overdue'];
const PARTIES = ['Blue Foods 42 BV - accounts payable', 'Emulator Master BV - invoicing desk', 'Green Logistics NV - finance team'];

/** A page of `n` orders as JSON text: most string values repeat across records (V8 already shares those of 10 characters or fewer). */
function pageText(from: number, n: number, next?: string): string {
	const Items = Array.from({ length: n }, (_, i) => ({
		OrderID: from + i,
		OrderNumber: `INV-2026-${String(from + i).padStart(6, '0')}`,
		Currency: 'EUR',
		OrderStatus: STATUSES[(from + i) % STATUSES.length],
		OrderDate: `2026-10-${String(((from + i) % 28) + 1).padStart(2, '0')}T00:00:00`,
		Customer: { Name: PARTIES[(from + i) % PARTIES.length], CountryCode: 'BE', Email: 'billing@blue.foods.example' },
		Supplier: { Name: PARTIES[(from + i + 1) % PARTIES.length], CountryCode: 'NL', Email: 'billing@emulator-master.example' },
		OrderLines: [{ Description: 'Monitor 27" Bright 14', Unit: 'piece of equipment' }],
	}));
	return JSON.stringify(next ? { Items, NextpageLink: next } : { Items });
}

describe('shareStrings', () => {
	it('leaves every value as it was: same JSON, keys in the same order, same prototypes, an own __proto__ key stays one', () => {
		const deep = JSON.stringify({ l1: { l2: { l3: { l4: { l5: { l6: { l7: { l8: { l9: { l10: 'deep-deep-deep' } } } } } } } } } });
		const text = JSON.stringify({
			Items: [
				{
					a: 'EUR-EUR-EUR-EUR',
					b: 1.5,
					c: null,
					d: true,
					e: ['EUR-EUR-EUR-EUR', 'x', 2, ['EUR-EUR-EUR-EUR', { f: 'EUR-EUR-EUR-EUR' }]],
					g: { i: 'y'.repeat(200) },
				},
				{ z: 'EUR-EUR-EUR-EUR', a: 'EUR-EUR-EUR-EUR', nested: 'DEEP' },
				'PROTO',
			],
		})
			.replace('"DEEP"', deep)
			.replace('"PROTO"', '{"__proto__":{"polluted":"EUR-EUR-EUR-EUR"},"a":"EUR-EUR-EUR-EUR","p":{"__proto__":"EUR-EUR-EUR-EUR"}}');
		const records = (JSON.parse(text) as { Items: IDataObject[] }).Items;
		const expected = (JSON.parse(text) as { Items: IDataObject[] }).Items;
		const table = new Map<string, string>();
		shareStrings(records, table);

		expect(JSON.stringify({ Items: records })).toBe(text);
		expect(records).toEqual(expected);
		for (const [i, record] of records.entries()) {
			expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
			expect(Object.keys(record)).toEqual(Object.keys(expected[i]));
		}
		const proto = records[2];
		expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toEqual({ polluted: 'EUR-EUR-EUR-EUR' });
		expect(Object.getOwnPropertyDescriptor(proto.p, '__proto__')?.value).toBe('EUR-EUR-EUR-EUR');
		expect(Object.getPrototypeOf(proto.p)).toBe(Object.prototype);
		expect((proto as { polluted?: unknown }).polluted).toBeUndefined();
		expect(({} as IDataObject).polluted).toBeUndefined();
		// Bounded: the 200-character string, 'x' (V8 shares strings of 10 characters or fewer itself) and the string nested past depth 8 are not in the table.
		expect([...table.keys()]).toEqual(['EUR-EUR-EUR-EUR']);
	});

	it('writes only own keys, even when Object.prototype holds an enumerable string', () => {
		const records = JSON.parse('[{"a":"inherited-value-xyz"},{"b":"inherited-value-xyz"}]') as IDataObject[];
		Object.defineProperty(Object.prototype, 'polluted', { value: 'inherited-value-xyz', enumerable: true, configurable: true });
		try {
			shareStrings(records, new Map());
		} finally {
			delete (Object.prototype as IDataObject).polluted;
		}
		expect(records.map((record) => Object.keys(record))).toEqual([['a'], ['b']]);
		expect(records).toEqual([{ a: 'inherited-value-xyz' }, { b: 'inherited-value-xyz' }]);
	});

	it('keeps the table bounded however many different strings pass, and still shares after it was emptied', () => {
		const table = new Map<string, string>();
		for (let page = 0; page < 30; page++) {
			shareStrings(
				Array.from({ length: 1000 }, (_, i) => ({ id: `id-${page}-${i}`, same: 'EUR-EUR-EUR-EUR' })),
				table,
			);
			expect(table.size).toBeLessThanOrEqual(8192);
		}
		expect(table.has('EUR-EUR-EUR-EUR')).toBe(true);
	});
});

describe('paginate shares the strings of one read across its pages', () => {
	const PER_PAGE = 120;
	const pagesOf = (count: number) =>
		Array.from({ length: count }, (_, p) => pageText(p * PER_PAGE, PER_PAGE, p < count - 1 ? `/v1/orders?$skip=${(p + 1) * PER_PAGE}` : undefined));
	/** Answers each page parsed afresh from its text, as the transport does; counts the most requests in flight at once. */
	const apiOver = (texts: string[]) => {
		let inFlight = 0;
		const api = {
			baseUrl: 'https://api.example.test',
			most: 0,
			async request<T>(req: ApiRequest): Promise<T> {
				api.most = Math.max(api.most, ++inFlight);
				await sleep(0);
				inFlight--;
				const skip = Number(/\$skip=(\d+)/.exec(req.path)?.[1] ?? 0);
				return JSON.parse(texts[skip / PER_PAGE]) as T;
			},
		};
		return api satisfies Pick<ApiClient, 'baseUrl' | 'request'>;
	};
	const readPlain = (texts: string[]) => texts.flatMap((text) => (JSON.parse(text) as { Items: IDataObject[] }).Items);
	const readPaged = async (api: ReturnType<typeof apiOver>) => {
		const out: IDataObject[] = [];
		const ctx = { getNode: () => ({ name: 'Order' }) } as unknown as ApiContext;
		for await (const items of paginateList.call(ctx, api, { path: '/v1/orders' })) out.push(...items);
		return out;
	};

	it('makes the records keep less heap than the same pages parsed plainly, pages asked in parallel', async () => {
		// Both paths run once first, so compiling their code is not counted below.
		const warm = pagesOf(4);
		expect(await readPaged(apiOver(warm))).toEqual(readPlain(warm));

		const texts = pagesOf(100);
		const kept = async (read: () => Promise<IDataObject[]>) => {
			const before = await settledHeap();
			const records = await read();
			const bytes = (await settledHeap()) - before;
			expect(records).toHaveLength(100 * PER_PAGE);
			return bytes;
		};
		// Three rounds in alternating order; the medians resist whatever else the process frees meanwhile.
		const plain: number[] = [];
		const paged: number[] = [];
		for (let round = 0; round < 3; round++) {
			for (const which of round % 2 ? ['paged', 'plain'] : ['plain', 'paged']) {
				if (which === 'plain') plain.push(await kept(async () => readPlain(texts)));
				else {
					const api = apiOver(texts);
					paged.push(await kept(async () => await readPaged(api)));
					expect(api.most).toBe(PARALLEL_PAGES);
				}
			}
		}
		const median = (list: number[]) => [...list].sort((a, b) => a - b)[1];
		expect(await readPaged(apiOver(texts))).toEqual(readPlain(texts));
		// Plain: every record its own copies of the repeated strings. Paged: one copy each.
		expect(median(plain)).toBeGreaterThan(0);
		expect(median(paged)).toBeLessThan(median(plain) * 0.75);
	});
});
