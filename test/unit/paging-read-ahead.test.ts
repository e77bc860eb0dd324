/**
 * Read-ahead paging (Return All): the next page is requested from the page's text
 * before that page is parsed and handed on, under the same host and repeated-link
 * rules as ordinary paging, and the parsed page always has the final word.
 */
import type { IDataObject } from 'n8n-workflow';

import { paginate, PagingError, peekNextLink } from '../../nodes/shared/paging';
import type { PageFetcher } from '../../nodes/shared/paging';

const BASE = 'https://api.example.test';

interface Call {
	kind: 'text' | 'json';
	path: string;
	/** Pages the consumer had received when the call was made. */
	consumed: number;
}

/**
 * A fake API serving `pages` (text bodies keyed by path), logging every call with
 * how many pages the consumer had received at that moment.
 */
function textApi(pages: Record<string, string>, state: { consumed: number }) {
	const calls: Call[] = [];
	const answer = (path: string): string => {
		const key = path.startsWith(BASE) ? path.slice(BASE.length) : path;
		const body = pages[key];
		if (body === undefined) throw new Error(`no page at ${key}`);
		return body;
	};
	const api: PageFetcher & { calls: Call[] } = {
		baseUrl: BASE,
		calls,
		async request<T>(req: { path: string }): Promise<T> {
			calls.push({ kind: 'json', path: req.path, consumed: state.consumed });
			return JSON.parse(answer(req.path)) as T;
		},
		async requestText(req: { path: string }): Promise<string> {
			calls.push({ kind: 'text', path: req.path, consumed: state.consumed });
			return answer(req.path);
		},
	};
	return api;
}

const page = (ids: number[], link?: string, extra: IDataObject = {}) =>
	JSON.stringify({
		Items: ids.map((OrderID) => ({ OrderID, ...extra })),
		...(link ? { NextpageLink: link } : {}),
	});

async function readAll(api: PageFetcher, state: { consumed: number }, options: { limit?: number; readAhead?: boolean } = {}) {
	const out: IDataObject[] = [];
	for await (const items of paginate(api, {
		path: '/v1/orders',
		readAhead: true,
		...options,
	})) {
		out.push(...items);
		state.consumed++;
	}
	return out;
}

describe('peekNextLink', () => {
	it('finds the link in either spelling, unescaping the JSON string', () => {
		expect(peekNextLink('{"Items":[],"NextpageLink":"/v1/orders?$skip=120"}')).toBe('/v1/orders?$skip=120');
		expect(peekNextLink('{"Items":[],"NextPageLink" : "https:\\/\\/api.example.test\\/v1\\/orders?$skip=240"}')).toBe(
			'https://api.example.test/v1/orders?$skip=240',
		);
		expect(peekNextLink('{"value":[],"@odata.nextLink":"/v1/orders?$skiptoken=x"}')).toBe('/v1/orders?$skiptoken=x');
	});

	it('finds nothing where there is no usable link', () => {
		expect(peekNextLink('{"Items":[]}')).toBeUndefined();
		expect(peekNextLink('{"Items":[],"NextpageLink":null}')).toBeUndefined();
		expect(peekNextLink('{"Items":[],"NextpageLink":"  "}')).toBeUndefined();
		// Inside a string value the key's quotes are escaped, so it is not a key.
		expect(peekNextLink('{"Items":[{"Note":"see \\"NextpageLink\\": \\"/x\\""}]}')).toBeUndefined();
		// Cut off inside the link.
		expect(peekNextLink('{"Items":[],"NextpageLink":"/v1/ord')).toBeUndefined();
	});
});

describe('paginate with read-ahead', () => {
	it('requests page 2 before page 1 reaches the consumer, and each page once', async () => {
		const state = { consumed: 0 };
		const api = textApi(
			{
				'/v1/orders': page([1, 2], '/v1/orders?$skip=2'),
				'/v1/orders?$skip=2': page([3, 4], '/v1/orders?$skip=4'),
				'/v1/orders?$skip=4': page([5]),
			},
			state,
		);
		const out = await readAll(api, state);
		expect(out.map((o) => o.OrderID)).toEqual([1, 2, 3, 4, 5]);
		expect(api.calls).toEqual([
			{ kind: 'text', path: '/v1/orders', consumed: 0 },
			{ kind: 'text', path: `${BASE}/v1/orders?$skip=2`, consumed: 0 },
			{ kind: 'text', path: `${BASE}/v1/orders?$skip=4`, consumed: 1 },
		]);
	});

	it('never reads ahead with a limit (no page beyond what is wanted)', async () => {
		const state = { consumed: 0 };
		const api = textApi(
			{
				'/v1/orders': page([1, 2], '/v1/orders?$skip=2'),
				'/v1/orders?$skip=2': page([3, 4], '/v1/orders?$skip=4'),
			},
			state,
		);
		const out = await readAll(api, state, { limit: 3 });
		expect(out.map((o) => o.OrderID)).toEqual([1, 2, 3]);
		expect(api.calls.map((c) => c.kind)).toEqual(['json', 'json']);
	});

	it('does not read ahead unless asked', async () => {
		const state = { consumed: 0 };
		const api = textApi(
			{
				'/v1/orders': page([1], '/v1/orders?$skip=1'),
				'/v1/orders?$skip=1': page([2]),
			},
			state,
		);
		await readAll(api, state, { readAhead: false });
		expect(api.calls.map((c) => `${c.kind} ${c.consumed}`)).toEqual(['json 0', 'json 1']);
	});

	it('drops a guess the parsed page disagrees with and follows the parsed link', async () => {
		const state = { consumed: 0 };
		// The last "NextpageLink" key in the text belongs to a record, not to the page.
		const first = JSON.stringify({
			NextpageLink: '/v1/orders?$skip=2',
			Items: [{ OrderID: 1, NextpageLink: '/v1/decoy' }],
		});
		const api = textApi(
			{
				'/v1/orders': first,
				'/v1/decoy': page([99]),
				'/v1/orders?$skip=2': page([2]),
			},
			state,
		);
		const out = await readAll(api, state);
		expect(out.map((o) => o.OrderID)).toEqual([1, 2]);
		expect(api.calls.map((c) => c.path)).toEqual(['/v1/orders', `${BASE}/v1/decoy`, `${BASE}/v1/orders?$skip=2`]);
	});

	it('never requests ahead a link to another host', async () => {
		const state = { consumed: 0 };
		const api = textApi(
			{
				'/v1/orders': page([1], 'https://evil.example.test/v1/orders?$skip=1'),
			},
			state,
		);
		await expect(readAll(api, state)).rejects.toThrow(/another host \(evil\.example\.test\)/);
		expect(api.calls.map((c) => c.path)).toEqual(['/v1/orders']);
	});

	it('stops on a repeated link with at most the pages already asked for', async () => {
		const state = { consumed: 0 };
		const api = textApi(
			{
				'/v1/orders': page([1], '/v1/orders?$skip=1'),
				'/v1/orders?$skip=1': page([2], '/v1/orders?$skip=2'),
				'/v1/orders?$skip=2': page([3], '/v1/orders?$skip=1'),
			},
			state,
		);
		await expect(readAll(api, state)).rejects.toThrow(PagingError);
		// The repeated link is never requested again, not even ahead.
		expect(api.calls.map((c) => c.path)).toEqual(['/v1/orders', `${BASE}/v1/orders?$skip=1`, `${BASE}/v1/orders?$skip=2`]);
	});

	it('re-reads a page whose text is not JSON through the checked path', async () => {
		const state = { consumed: 0 };
		const calls: string[] = [];
		let firstTry = true;
		const api: PageFetcher = {
			baseUrl: BASE,
			async request<T>(req: { path: string }): Promise<T> {
				calls.push(`json ${req.path}`);
				return JSON.parse(page([1])) as T;
			},
			async requestText(req: { path: string }): Promise<string> {
				calls.push(`text ${req.path}`);
				if (firstTry) {
					firstTry = false;
					return '{"Items":[{"OrderID":1},{"Ord';
				}
				return page([1]);
			},
		};
		const out = await readAll(api, state);
		expect(out).toEqual([{ OrderID: 1 }]);
		expect(calls).toEqual(['text /v1/orders', 'json /v1/orders']);
	});

	it('surfaces a failure of the page read ahead when it is the page wanted', async () => {
		const api: PageFetcher = {
			baseUrl: BASE,
			async request<T>(): Promise<T> {
				throw new Error('not used');
			},
			async requestText(req: { path: string }): Promise<string> {
				if (req.path === '/v1/orders') return page([1], '/v1/orders?$skip=1');
				throw new Error('HTTP 503 on page 2');
			},
		};
		const seen: IDataObject[] = [];
		await expect(
			(async () => {
				for await (const items of paginate(api, {
					path: '/v1/orders',
					readAhead: true,
				}))
					seen.push(...items);
			})(),
		).rejects.toThrow('HTTP 503 on page 2');
		expect(seen).toEqual([{ OrderID: 1 }]);
	});

	it('ignores a failed read-ahead the parsed page does not need', async () => {
		const state = { consumed: 0 };
		const first = JSON.stringify({
			Items: [{ OrderID: 1, NextpageLink: '/v1/decoy' }],
		});
		let decoy = 0;
		const api: PageFetcher = {
			baseUrl: BASE,
			async request<T>(): Promise<T> {
				throw new Error('not used');
			},
			async requestText(req: { path: string }): Promise<string> {
				if (req.path === '/v1/orders') return first;
				decoy++;
				throw new Error('decoy failed');
			},
		};
		const out = await readAll(api, state);
		expect(out).toEqual([{ OrderID: 1, NextpageLink: '/v1/decoy' }]);
		expect(decoy).toBe(1);
	});
});
