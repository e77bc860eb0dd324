/**
 * Read-ahead paging (Return All): the next page is requested from the page's text
 * before that page is parsed and handed on, under the same host and repeated-link
 * rules as ordinary paging, and the parsed page always has the final word.
 */
import type { IDataObject } from 'n8n-workflow';

import { nextTail, paginate, PagingError, peekNextLink, TAIL_CHARS } from '../../nodes/shared/http/paging';
import type { PageFetcher } from '../../nodes/shared/http/paging';
import { getText, serveJson } from '../harness/loopback';

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

/** A fake API that only answers text reads (read-ahead lists never use the JSON path). */
function textOnly(baseUrl: string, requestText: NonNullable<PageFetcher['requestText']>): PageFetcher {
	return {
		baseUrl,
		async request<T>(): Promise<T> {
			throw new Error('not used');
		},
		requestText,
	};
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
		const api = textOnly(BASE, async (req: { path: string }): Promise<string> => {
			if (req.path === '/v1/orders') return page([1], '/v1/orders?$skip=1');
			throw new Error('HTTP 503 on page 2');
		});
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
		const api = textOnly(BASE, async (req: { path: string }): Promise<string> => {
			if (req.path === '/v1/orders') return first;
			decoy++;
			throw new Error('decoy failed');
		});
		const out = await readAll(api, state);
		expect(out).toEqual([{ OrderID: 1, NextpageLink: '/v1/decoy' }]);
		expect(decoy).toBe(1);
	});
});

describe('page tail', () => {
	it('keeps the last TAIL_CHARS characters of the text, whatever the chunk sizes', () => {
		const text = Array.from({ length: 3000 }, (_, i) => `{"OrderID":${i}},`).join('') + '"NextpageLink":"/v1/orders?$skip=120"}';
		for (const size of [1, 7, 100, 4096, TAIL_CHARS - 1, TAIL_CHARS, 20_000, text.length]) {
			let tail = '';
			for (let at = 0; at < text.length; at += size) tail = nextTail(tail, text.slice(at, at + size));
			expect(tail).toBe(text.slice(-TAIL_CHARS));
			expect(peekNextLink(tail)).toBe(peekNextLink(text));
		}
	});

	it('reads the link from the tail the client gives, not from the whole text', async () => {
		const state = { consumed: 0 };
		const calls: string[] = [];
		const api = textOnly(BASE, async (req: { path: string }) => {
			calls.push(`${req.path} after ${state.consumed}`);
			if (req.path === '/v1/orders') {
				const text = page([1], '/v1/orders?$skip=1');
				// A tail without the link: the next page is then only requested once the page is handed on.
				return { text, tail: '}' };
			}
			if (req.path.endsWith('$skip=1')) {
				const text = page([2], '/v1/orders?$skip=2');
				return { text, tail: text.slice(-40) };
			}
			return page([3]);
		});
		const out = await readAll(api, state);
		expect(out.map((o) => o.OrderID)).toEqual([1, 2, 3]);
		// Page 2 after page 1 was handed on (its tail had no link); page 3 ahead of page 2 (its tail had one).
		expect(calls).toEqual(['/v1/orders after 0', `${BASE}/v1/orders?$skip=1 after 1`, `${BASE}/v1/orders?$skip=2 after 1`]);
	});
});

describe('read-ahead on the wire', () => {
	let server: { url: string; close(): Promise<void> };

	beforeAll(async () => {
		server = await serveJson((url) => {
			const skip = Number(new URL(url, 'http://x').searchParams.get('$skip') ?? 0);
			const ids = Array.from({ length: 500 }, (_, i) => skip + i);
			return page(ids, skip < 1000 ? `/v1/orders?$skip=${skip + 500}` : undefined, { Note: 'x'.repeat(200) });
		});
	});
	afterAll(async () => await server.close());

	/** Blocks the thread, as n8n's authentication (two expression evaluations) and client set-up do. */
	const busy = (ms: number) => {
		const until = performance.now() + ms;
		while (performance.now() < until);
	};

	it('writes the next request before the current page is parsed and handed on, even behind a slow request chain', async () => {
		const base = server.url;
		const written: Array<{ path: string; at: number }> = [];
		const handed: number[] = [];
		const api = textOnly(base, async (req: { path: string }) => {
			await Promise.resolve();
			busy(3); // longer than one timer tick: the chain reaches the socket after the first yield is due
			const url = req.path.startsWith('http') ? req.path : `${base}${req.path}`;
			return await getText(url, () => written.push({ path: url.slice(base.length), at: performance.now() }));
		});
		let count = 0;
		for await (const items of paginate(api, { path: '/v1/orders', readAhead: true })) {
			handed.push(performance.now());
			count += items.length;
		}
		expect(count).toBe(1500);
		expect(written.map((w) => w.path)).toEqual(['/v1/orders', '/v1/orders?$skip=500', '/v1/orders?$skip=1000']);
		// Page k+1's request was written to the socket before page k reached the consumer.
		expect(written[1].at).toBeLessThan(handed[0]);
		expect(written[2].at).toBeLessThan(handed[1]);
	});
});
