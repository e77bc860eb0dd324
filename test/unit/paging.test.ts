import type { IDataObject } from 'n8n-workflow';

import {
	firstPageTop,
	MAX_PAGES,
	needsAnotherPage,
	pageKey,
	paginate,
	PagingError,
	readListPage,
	resolveNextLink,
} from '../../nodes/shared/http/paging';
import type { PageFetcher } from '../../nodes/shared/http/paging';

const BASE = 'https://api.example.test';

/** A fake API of `total` records served 120 per page with a configurable link form. */
function fakeApi(
	total: number,
	linkFor: (skip: number) => IDataObject,
	options: { pageSize?: number } = {},
): PageFetcher & { calls: Array<{ path: string; qs?: IDataObject }> } {
	const pageSize = options.pageSize ?? 120;
	const calls: Array<{ path: string; qs?: IDataObject }> = [];
	return {
		baseUrl: BASE,
		calls,
		async request<T>(req: { path: string; qs?: IDataObject }): Promise<T> {
			calls.push({ path: req.path, qs: req.qs });
			const url = new URL(req.path, BASE);
			const skip = Number(url.searchParams.get('$skip') ?? req.qs?.$skip ?? 0);
			const top = Math.min(pageSize, Number(url.searchParams.get('$top') ?? req.qs?.$top ?? pageSize));
			const items = Array.from({ length: Math.max(0, Math.min(top, total - skip)) }, (_, i) => ({
				OrderID: skip + i + 1,
			}));
			const more = skip + items.length < total;
			return { Items: items, ...(more ? linkFor(skip + items.length) : {}) } as T;
		},
	};
}

async function collect(api: PageFetcher, limit?: number): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	for await (const page of paginate(api, { path: '/v1/orders', limit })) out.push(...page);
	return out;
}

describe('readListPage', () => {
	it('reads Items, value and bare arrays, and both link spellings', () => {
		expect(readListPage({ Items: [{ a: 1 }], NextpageLink: '/x' })).toEqual({ items: [{ a: 1 }], nextLink: '/x', count: undefined });
		expect(readListPage({ value: [{ a: 2 }], NextPageLink: '/y', Count: 7 })).toEqual({ items: [{ a: 2 }], nextLink: '/y', count: 7 });
		expect(readListPage([{ a: 3 }])).toEqual({ items: [{ a: 3 }] });
		expect(readListPage({ Items: [], NextpageLink: '  ' }).nextLink).toBeUndefined();
		expect(readListPage(null).items).toEqual([]);
	});
	it('reports entries that are not records, and bodies that are not lists, keeping only the records', () => {
		expect(readListPage({ Items: [null] })).toMatchObject({ items: [], problem: 'entry 1 of the page is null, not a record' });
		expect(readListPage({ Items: [{ a: 1 }, 'x', 2] })).toMatchObject({ items: [{ a: 1 }], problem: 'entry 2 of the page is the text "x", not a record' });
		expect(readListPage([{ a: 1 }, [1]])).toMatchObject({ items: [{ a: 1 }], problem: 'entry 2 of the page is a list, not a record' });
		expect(readListPage({ Items: [{ a: 1 }, 7] }).problem).toBe('entry 2 of the page is the number 7, not a record');
		expect(readListPage(null).problem).toBe('the answer is null, not a list');
		expect(readListPage(5).problem).toBe('the answer is the number 5, not a list');
		expect(readListPage(undefined)).toEqual({ items: [] });
		expect(readListPage({ Items: [{ a: 1 }] }).problem).toBeUndefined();
	});
});

describe('pageKey', () => {
	it('treats option order, encoding and $skip=0 as the same page', () => {
		const first = pageKey(`${BASE}/v1/orders?$orderby=OrderDate&$filter=A%20eq%201`);
		expect(pageKey(`${BASE}/v1/orders?%24filter=A+eq+1&$orderby=OrderDate`)).toBe(first);
		expect(pageKey(`${BASE}/v1/orders?$filter=A%20eq%201&$orderby=OrderDate&$skip=0`)).toBe(first);
		expect(pageKey(`${BASE}/v1/orders?$filter=A%20eq%201&$orderby=OrderDate&$skip=120`)).not.toBe(first);
		expect(pageKey(`${BASE}/v1/parties?$filter=A%20eq%201&$orderby=OrderDate`)).not.toBe(first);
	});
});

describe('resolveNextLink', () => {
	it('resolves relative links against the base URL, keeping a path prefix', () => {
		expect(resolveNextLink('/v1/orders?$skip=120', BASE)).toEqual({ url: `${BASE}/v1/orders?$skip=120` });
		expect(resolveNextLink('/v1/orders?$skip=120', 'https://proxy.test/ap')).toEqual({
			url: 'https://proxy.test/ap/v1/orders?$skip=120',
		});
		expect(resolveNextLink('v1/orders?$skip=1', BASE)).toEqual({ url: `${BASE}/v1/orders?$skip=1` });
	});
	it('accepts absolute links on the same origin and refuses other hosts', () => {
		expect(resolveNextLink(`${BASE}/v1/orders?$skip=120`, BASE)).toEqual({ url: `${BASE}/v1/orders?$skip=120` });
		expect(resolveNextLink('https://evil.test/v1/orders', BASE)).toHaveProperty('problem');
		expect(resolveNextLink('http://api.example.test/v1/orders', BASE)).toHaveProperty('problem');
		expect(resolveNextLink('//evil.test/v1/orders', BASE)).toHaveProperty('problem');
	});
});

describe('paging decisions', () => {
	it('sets $top only when one page holds the limit', () => {
		expect(firstPageTop(undefined)).toBeUndefined();
		expect(firstPageTop(50)).toBe(50);
		expect(firstPageTop(120)).toBe(120);
		expect(firstPageTop(121)).toBeUndefined();
	});
	it('fetches another page only when a link exists and the limit is not reached', () => {
		expect(needsAnotherPage(120, undefined, '/next')).toBe(true);
		expect(needsAnotherPage(120, 130, '/next')).toBe(true);
		expect(needsAnotherPage(130, 130, '/next')).toBe(false);
		expect(needsAnotherPage(10, undefined, undefined)).toBe(false);
	});
});

describe('paginate', () => {
	const relative = (skip: number) => ({ NextpageLink: `/v1/orders?$skip=${skip}` });
	const absolute = (skip: number) => ({ NextPageLink: `${BASE}/v1/orders?$skip=${skip}` });

	it.each([
		['NextpageLink, relative', relative],
		['NextPageLink, absolute', absolute],
	])('returns every record once with %s', async (_name, linkFor) => {
		const api = fakeApi(500, linkFor);
		const all = await collect(api);
		expect(all).toHaveLength(500);
		expect(new Set(all.map((o) => o.OrderID)).size).toBe(500);
		expect(api.calls).toHaveLength(5);
	});

	it('stops mid-page at the limit without fetching a page it does not need', async () => {
		const api = fakeApi(1000, relative);
		const some = await collect(api, 130);
		expect(some).toHaveLength(130);
		expect(some[129].OrderID).toBe(130);
		expect(api.calls).toHaveLength(2);
	});

	it('makes one request with $top when the limit fits one page', async () => {
		const api = fakeApi(1000, relative);
		const some = await collect(api, 50);
		expect(some).toHaveLength(50);
		expect(api.calls).toEqual([{ path: '/v1/orders', qs: { $top: 50 } }]);
	});

	it('stops with a clear error when a link repeats', async () => {
		const api = fakeApi(1000, () => ({ NextpageLink: '/v1/orders?$skip=120' }));
		await expect(collect(api)).rejects.toThrow(/next-page link to a page already read/);
		expect(api.calls).toHaveLength(2);
	});

	it('counts the first page as read: a link cycling back to it is refused, no record is repeated', async () => {
		for (const back of ['/v1/orders?$orderby=OrderDate', '/v1/orders?$skip=0&$orderby=OrderDate', `${BASE}/v1/orders?%24orderby=OrderDate`]) {
			const api = fakeApi(1000, () => ({ NextpageLink: back }));
			const out: IDataObject[] = [];
			const error = await (async () => {
				for await (const page of paginate(api, { path: '/v1/orders', qs: { $orderby: 'OrderDate' }, limit: 180 })) out.push(...page);
			})().catch((e: Error) => e);
			expect(error).toBeInstanceOf(PagingError);
			expect((error as Error).message).toMatch(/next-page link to a page already read .*after 120 records/);
			expect(api.calls).toHaveLength(1);
			expect(out).toHaveLength(120);
		}
	});

	it(`stops after at most ${MAX_PAGES} pages when the links never end`, async () => {
		const endless: PageFetcher & { calls: number } = {
			baseUrl: BASE,
			calls: 0,
			async request<T>(req: { path: string }): Promise<T> {
				endless.calls++;
				const skip = Number(new URL(req.path, BASE).searchParams.get('$skip') ?? 0);
				return { Items: [{ OrderID: skip + 1 }], NextpageLink: `/v1/orders?$skip=${skip + 1}` } as T;
			},
		};
		const error = await collect(endless).catch((e: Error) => e);
		expect(error).toBeInstanceOf(PagingError);
		expect((error as Error).message).toBe(
			`The API kept sending next-page links: stopped after ${MAX_PAGES} pages (${MAX_PAGES * 120} records at 120 a page, the most one list read follows); the list was not returned`,
		);
		expect(endless.calls).toBe(MAX_PAGES);
		// The same cap with a Limit the pages never fill, and with read-ahead (requestText).
		const textual: PageFetcher & { calls: number } = {
			baseUrl: BASE,
			calls: 0,
			request: endless.request,
			async requestText(req: { path: string }): Promise<string> {
				textual.calls++;
				return JSON.stringify(await endless.request({ method: 'GET', path: req.path }));
			},
		};
		for (const [api, options] of [
			[endless, { limit: 10 ** 9 }],
			[textual, { readAhead: true }],
		] as Array<[PageFetcher & { calls: number }, IDataObject]>) {
			endless.calls = 0;
			textual.calls = 0;
			const failure = await (async () => {
				for await (const page of paginate(api, { path: '/v1/orders', maxPages: 7, ...options })) void page;
			})().catch((e: Error) => e);
			expect((failure as Error).message).toMatch(/stopped after 7 pages/);
			expect(api.calls).toBe(7);
		}
	});

	it('refuses a page holding an entry that is not a record, naming the entry and the page', async () => {
		const api = fakeApi(300, relative);
		const bad: PageFetcher = {
			baseUrl: BASE,
			async request<T>(req: { method: 'GET'; path: string }): Promise<T> {
				const body = (await api.request(req)) as IDataObject;
				if (String(req.path).includes('$skip=120')) (body.Items as unknown[])[3] = null;
				return body as T;
			},
		};
		const out: IDataObject[] = [];
		const error = await (async () => {
			for await (const page of paginate(bad, { path: '/v1/orders', operation: 'List orders' })) out.push(...page);
		})().catch((e: Error) => e);
		expect((error as Error).message).toBe('List orders: entry 4 of the page is null, not a record (page 2); the list was not read');
		expect(out).toHaveLength(120);
	});

	it('refuses to follow a link to a foreign host', async () => {
		const api = fakeApi(1000, (skip) => ({ NextpageLink: `https://evil.test/v1/orders?$skip=${skip}` }));
		const error = await collect(api).catch((e: Error) => e);
		expect(error).toBeInstanceOf(PagingError);
		expect((error as Error).message).toMatch(/another host \(evil\.test\)/);
		expect(api.calls).toHaveLength(1);
	});
});
