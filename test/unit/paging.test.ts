import type { IDataObject } from 'n8n-workflow';

import {
	firstPageTop,
	needsAnotherPage,
	paginate,
	PagingError,
	readListPage,
	resolveNextLink,
} from '../../nodes/shared/paging';
import type { PageFetcher } from '../../nodes/shared/paging';

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
		await expect(collect(api)).rejects.toThrow(/same next-page link twice/);
		expect(api.calls).toHaveLength(2);
	});

	it('refuses to follow a link to a foreign host', async () => {
		const api = fakeApi(1000, (skip) => ({ NextpageLink: `https://evil.test/v1/orders?$skip=${skip}` }));
		const error = await collect(api).catch((e: Error) => e);
		expect(error).toBeInstanceOf(PagingError);
		expect((error as Error).message).toMatch(/another host \(evil\.test\)/);
		expect(api.calls).toHaveLength(1);
	});
});
