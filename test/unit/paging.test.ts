/**
 * List paging (nodes/shared/http/paging.ts) against fake APIs: links followed once each, on the
 * base host only, with the caps; and the windows: once two pages show the service pages by
 * $skip, the pages after them are asked PARALLEL_PAGES at a time, and the read is the one the
 * links give (compared with a plain loop over the links), whatever the server does.
 */
import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGES, PARALLEL_PAGES, pageKey, paginate, PagingError, readListPage, resolveNextLink } from '../../nodes/shared/http/paging';
import type { ApiClient, ApiRequest } from '../../nodes/shared/http/transport';

type Fake = Pick<ApiClient, 'baseUrl' | 'request'>;
const BASE = 'https://api.example.test';

/**
 * A fake API of `total` records (OrderID 1…, OrderDate in runs of `ties`) served `pageSize` a
 * page, links from `linkFor`; it counts requests and the most in flight at once (each answer
 * waits a turn of the event loop). Without the record ID in $orderby, each request orders
 * records of one OrderDate its own way (as a database may), unless `stableTies`.
 */
function fakeApi(
	total: number,
	linkFor: (skip: number) => IDataObject,
	options: { pageSize?: number; count?: boolean; ties?: number; stableTies?: boolean; ignoreSkip?: boolean } = {},
) {
	const pageSize = options.pageSize ?? 120;
	const calls: Array<{ path: string; qs?: IDataObject }> = [];
	let inFlight = 0;
	const api = {
		baseUrl: BASE,
		calls,
		most: 0,
		async request<T>(req: ApiRequest): Promise<T> {
			calls.push({ path: req.path, qs: req.qs });
			inFlight++;
			api.most = Math.max(api.most, inFlight);
			await sleep(0);
			inFlight--;
			const url = new URL(req.path, BASE);
			const get = (name: string) => url.searchParams.get(name) ?? (req.qs?.[name] as string | undefined);
			const skip = options.ignoreSkip ? 0 : Number(get('$skip') ?? 0);
			const top = Math.min(pageSize, Number(get('$top') ?? pageSize));
			const ties = options.ties ?? 1;
			const orderby = String(get('$orderby') ?? '');
			const records = Array.from({ length: total }, (_, i) => ({ OrderID: i + 1, OrderDate: `2024-01-${String(1 + Math.floor(i / ties)).padStart(2, '0')}` }));
			if (ties > 1 && !options.stableTies && !/OrderID/.test(orderby)) {
				// Equal OrderDates in an order of this request's own (here: reversed on every other request).
				const flip = calls.length % 2 === 0;
				records.sort((a, b) => (a.OrderDate === b.OrderDate ? (flip ? b.OrderID - a.OrderID : a.OrderID - b.OrderID) : a.OrderDate < b.OrderDate ? -1 : 1));
			}
			const items = records.slice(skip, skip + Math.max(0, top));
			const more = skip + items.length < total;
			return { Items: items, ...(options.count ? { Count: total } : {}), ...(more ? linkFor(skip + items.length) : {}) } as T;
		},
	};
	return api;
}

async function collect(api: Fake, options: { limit?: number; qs?: IDataObject; key?: string } = {}): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	for await (const page of paginate(api, { path: '/v1/orders', ...options })) out.push(...page);
	return out;
}

/** A plain loop over the links, one page at a time: what a sequential read gives. */
async function sequential(api: Fake, qs?: IDataObject): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	let body = (await api.request({ method: 'GET', path: '/v1/orders', qs })) as IDataObject;
	for (;;) {
		out.push(...(body.Items as IDataObject[]));
		const link = body.NextpageLink ?? body.NextPageLink;
		if (typeof link !== 'string') return out;
		body = (await api.request({ method: 'GET', path: new URL(link, BASE).toString() })) as IDataObject;
	}
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

describe('paginate: links', () => {
	const relative = (skip: number) => ({ NextpageLink: `/v1/orders?$skip=${skip}` });
	const absolute = (skip: number) => ({ NextPageLink: `${BASE}/v1/orders?$skip=${skip}` });

	it.each([
		['NextpageLink, relative', relative],
		['NextPageLink, absolute', absolute],
	])('returns every record once, in order, with %s', async (_name, linkFor) => {
		const api = fakeApi(500, linkFor, { count: true });
		const all = await collect(api);
		expect(all.map((o) => o.OrderID)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
		// Count tells where the list ends: no page is asked beyond it.
		expect(api.calls).toHaveLength(5);
	});

	it('stops mid-page at the limit without fetching a page it does not need', async () => {
		const api = fakeApi(1000, relative);
		const some = await collect(api, { limit: 130 });
		expect(some).toHaveLength(130);
		expect(some[129].OrderID).toBe(130);
		expect(api.calls).toHaveLength(2);
	});

	it('makes one request with $top when the limit fits one page', async () => {
		const api = fakeApi(1000, relative);
		const some = await collect(api, { limit: 50 });
		expect(some).toHaveLength(50);
		expect(api.calls).toEqual([{ path: `${BASE}/v1/orders`, qs: { $top: 50 } }]);
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

	it(`stops after at most ${MAX_PAGES} pages when the links never end, windows or not`, async () => {
		const endless = (linkFor: (skip: number) => string) => {
			const api = {
				baseUrl: BASE,
				calls: 0,
				async request<T>(req: ApiRequest): Promise<T> {
					api.calls++;
					const skip = Number(new URL(req.path, BASE).searchParams.get('$skip') ?? 0);
					return { Items: [{ OrderID: skip + 1 }], NextpageLink: linkFor(skip) } as T;
				},
			};
			return api;
		};
		// $skip links (the windows start) and token links (they never do).
		for (const linkFor of [
			(skip: number) => `/v1/orders?$skip=${skip + 1}`,
			(skip: number) => `/v1/orders?$skiptoken=${skip + 1}&$skip=${skip + 1}&n=${skip}`,
		]) {
			const api = endless(linkFor);
			const error = await collect(api).catch((e: Error) => e);
			expect(error).toBeInstanceOf(PagingError);
			expect((error as Error).message).toBe(
				`The API kept sending next-page links: stopped after ${MAX_PAGES} pages (${MAX_PAGES * 120} records at 120 a page, the most one list read follows); the list was not returned`,
			);
			expect(api.calls).toBe(MAX_PAGES);
		}
	});

	it('refuses a page holding an entry that is not a record, naming the entry and the page', async () => {
		const api = fakeApi(300, relative);
		const bad: Fake = {
			baseUrl: BASE,
			async request<T>(req: ApiRequest): Promise<T> {
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

describe('paginate: pages in parallel', () => {
	const relative = (skip: number) => ({ NextpageLink: `/v1/orders?$skip=${skip}` });

	it.each([
		['relative $skip links, Count', relative, true],
		['absolute $skip links with $top, no Count', (skip: number) => ({ NextPageLink: `${BASE}/v1/orders?$top=120&$skip=${skip}` }), false],
	])(`%s: the same records in the same order as a read over the links, at most ${PARALLEL_PAGES} pages in flight`, async (_name, linkFor, count) => {
		const api = fakeApi(12_000, linkFor, { count });
		const all = await collect(api);
		const reference = await sequential(fakeApi(12_000, linkFor, { count }));
		expect(all).toEqual(reference);
		expect(all).toHaveLength(12_000);
		expect(api.most).toBe(PARALLEL_PAGES);
		expect(api.most).toBeGreaterThan(1); // pages really in parallel
		// 100 pages; without Count the windows may ask up to PARALLEL_PAGES - 1 beyond the end.
		expect(api.calls.length - 100).toBeLessThanOrEqual(count ? 0 : PARALLEL_PAGES - 1);
	});

	it('with a Limit, asks no window beyond the pages it needs', async () => {
		const api = fakeApi(12_000, relative, { count: true });
		expect(await collect(api, { limit: 1000 })).toEqual((await sequential(fakeApi(12_000, relative))).slice(0, 1000));
		expect(api.calls).toHaveLength(9);
	});

	it('a link that breaks the pattern drops the windows and the links are followed from there', async () => {
		// From page 5 on, the service links with a token it alone understands, and ignores $skip without it.
		const token = (skip: number) => (skip >= 600 ? { NextpageLink: `/v1/orders?$skiptoken=${skip}` } : relative(skip));
		const api = fakeApi(2000, token, { count: true });
		const tokenAware: Fake = {
			baseUrl: BASE,
			async request<T>(req: ApiRequest): Promise<T> {
				const url = new URL(req.path, BASE);
				const skip = Number(
					url.searchParams.get('$skiptoken') ?? (Number(url.searchParams.get('$skip') ?? 0) < 600 ? (url.searchParams.get('$skip') ?? 0) : 0),
				);
				return await api.request({ ...req, path: `/v1/orders?$skip=${skip}` });
			},
		};
		const all = await collect(tokenAware);
		expect(all.map((o) => o.OrderID)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
	});

	it('a server that ignores $skip and links by token: the links are followed, every record once', async () => {
		const api = fakeApi(600, (skip) => ({ NextpageLink: `/v1/orders?page=${skip / 120 + 1}` }));
		const paged: Fake = {
			baseUrl: BASE,
			async request<T>(req: ApiRequest): Promise<T> {
				const page = Number(new URL(req.path, BASE).searchParams.get('page') ?? 1);
				return await api.request({ ...req, path: `/v1/orders?$skip=${(page - 1) * 120}` });
			},
		};
		expect((await collect(paged)).map((o) => o.OrderID)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
		expect(api.calls).toHaveLength(5);
	});

	it('a server that ignores $skip but links with it: refused at page 2, nothing output twice', async () => {
		const api = fakeApi(600, relative, { ignoreSkip: true });
		const out: IDataObject[] = [];
		const error = await (async () => {
			for await (const page of paginate(api, { path: '/v1/orders', operation: 'List orders' })) out.push(...page);
		})().catch((e: Error) => e);
		expect((error as Error).message).toBe('List orders: the API answered the records of the page before again (page 2); the list was not read');
		expect(out).toHaveLength(120);
		expect(new Set(out.map((o) => o.OrderID)).size).toBe(120);
	});

	it('windows running, a page links to another host: the read fails, no request leaves the base host, nothing past it is output', async () => {
		// Pages 1-4 link by $skip (windows start at page 3); page 5 links to a foreign host with the very same path.
		const api = fakeApi(1200, (skip) => (skip === 600 ? { NextpageLink: `https://evil.example/v1/orders?$skip=${skip}` } : relative(skip)), { count: true });
		const out: IDataObject[] = [];
		const error = await (async () => {
			for await (const page of paginate(api, { path: '/v1/orders', operation: 'List orders' })) out.push(...page);
		})().catch((e: Error) => e);
		expect(error).toBeInstanceOf(PagingError);
		expect((error as Error).message).toMatch(/next-page link to another host \(evil\.example\)/);
		expect(api.most).toBeGreaterThan(1); // the windows were running
		expect(api.calls.every((c) => !/^https?:/i.test(c.path) || c.path.startsWith(BASE))).toBe(true);
		expect(out.map((o) => o.OrderID)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
	});

	it('a server whose Count says more than it holds: a short page without a link ends the read, the windows asked ahead are dropped', async () => {
		const api = fakeApi(1000, relative, { count: true });
		const lying: Fake = {
			baseUrl: BASE,
			async request<T>(req: ApiRequest): Promise<T> {
				return { ...((await api.request(req)) as IDataObject), Count: 50_000 } as T;
			},
		};
		const all = await collect(lying);
		expect(all.map((o) => o.OrderID)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
		expect(api.calls.length).toBeLessThanOrEqual(9 + PARALLEL_PAGES - 1);
	});

	it('a sort on a field with equal values ends with the record ID, so every record comes exactly once', async () => {
		// 12 orders a day: equal OrderDates straddle every page boundary.
		const api = fakeApi(1200, relative, { ties: 12, count: true });
		const all = await collect(api, { qs: { $orderby: 'OrderDate desc' }, key: 'OrderID' });
		expect(api.calls[0].qs).toEqual({ $orderby: 'OrderDate desc,OrderID' });
		expect(new Set(all.map((o) => o.OrderID)).size).toBe(1200);
		// Not added when the sort already names it, nor when one page holds the Limit.
		const named = fakeApi(1200, relative, { ties: 12 });
		await collect(named, { qs: { $orderby: 'OrderID desc' }, key: 'OrderID' });
		expect(named.calls[0].qs).toEqual({ $orderby: 'OrderID desc' });
		const one = fakeApi(1200, relative, { ties: 12 });
		await collect(one, { qs: { $orderby: 'OrderDate' }, key: 'OrderID', limit: 10 });
		expect(one.calls[0].qs).toEqual({ $orderby: 'OrderDate', $top: 10 });
	});
});
