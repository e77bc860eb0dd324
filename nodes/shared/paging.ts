/**
 * List paging: reading list bodies, resolving next-page links and deciding
 * when to stop. The decision functions are pure; `paginate` drives a client.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { createStringPool, shareStrings } from './stringPool';

export const PAGE_SIZE = 120;

export interface ListPage {
	items: IDataObject[];
	nextLink?: string;
	count?: number;
}

/** Items from `Items`, `value` or a bare array; the link under either spelling. */
export function readListPage(body: unknown): ListPage {
	if (Array.isArray(body)) return { items: body as IDataObject[] };
	if (!body || typeof body !== 'object') return { items: [] };
	const record = body as IDataObject;
	const list = record.Items ?? record.items ?? record.value ?? record.Value;
	const items = Array.isArray(list) ? (list as IDataObject[]) : [];
	const link = record.NextpageLink ?? record.NextPageLink ?? record.nextPageLink ?? record['@odata.nextLink'];
	const count = typeof record.Count === 'number' ? record.Count : undefined;
	return {
		items,
		nextLink: typeof link === 'string' && link.trim() ? link.trim() : undefined,
		count,
	};
}

/**
 * Turns a next-page link into a URL on the configured base URL. Relative links
 * are resolved against it; an absolute link to another host is refused so the
 * credential's headers never travel elsewhere.
 */
export function resolveNextLink(link: string, baseUrl: string): { url: string } | { problem: string } {
	const base = new URL(baseUrl);
	if (/^https?:\/\//i.test(link)) {
		let target: URL;
		try {
			target = new URL(link);
		} catch {
			return {
				problem: `The API returned an unreadable next-page link: ${link.slice(0, 200)}`,
			};
		}
		if (target.origin !== base.origin) {
			return {
				problem: `The API returned a next-page link to another host (${target.host}); it was not followed, to keep the credential on ${base.host}`,
			};
		}
		return { url: target.toString() };
	}
	if (link.startsWith('//')) {
		return {
			problem: `The API returned a protocol-relative next-page link (${link.slice(0, 100)}); it was not followed`,
		};
	}
	const prefix = baseUrl.replace(/\/+$/, '');
	return {
		url: link.startsWith('/') ? `${prefix}${link}` : `${prefix}/${link}`,
	};
}

/** `$top` for the first request: only when one page holds everything wanted. */
export function firstPageTop(limit: number | undefined, pageSize: number = PAGE_SIZE): number | undefined {
	if (limit === undefined) return undefined;
	return limit <= pageSize ? Math.max(1, limit) : undefined;
}

/** Whether another page must be fetched, given what is collected so far. */
export function needsAnotherPage(collected: number, limit: number | undefined, nextLink: string | undefined): boolean {
	if (!nextLink) return false;
	return limit === undefined || collected < limit;
}

export class PagingError extends Error {}

export interface PaginateOptions {
	path: string;
	qs?: IDataObject;
	/** Stop after this many records (Return All when undefined). */
	limit?: number;
	itemIndex?: number;
	operation?: string;
	/**
	 * Request the next page while the current one is parsed and handed on (Return All
	 * lists that are always read to the end). Never used with a limit; only links the
	 * host rule and the repeated-link rule accept are requested ahead.
	 */
	readAhead?: boolean;
}

interface PageRequest {
	method: 'GET';
	path: string;
	qs?: IDataObject;
	itemIndex?: number;
	operation?: string;
	/** The text an earlier read of this page gave that is not JSON (counts as its first attempt). */
	brokenText?: string;
}

/** A page body as received text, with its last few kB (where the next-page link sits) as a separate flat string. */
export interface ReceivedText {
	text: string;
	/** The end of `text` (at least `TAIL_CHARS` of it, or all of it); searched instead of the whole page. */
	tail: string;
}

/** How much of a page's end `peekNextLink` looks at (a link is at most 4 kB; room for fields after it). */
export const TAIL_CHARS = 8192;

export interface PageFetcher {
	readonly baseUrl: string;
	request<T = unknown>(req: PageRequest): Promise<T>;
	/** The successful body as received text, unparsed (enables read-ahead). */
	requestText?(req: PageRequest): Promise<string | ReceivedText>;
}

/** Appends a decoded chunk to a running tail, keeping its last `TAIL_CHARS` characters. */
export function nextTail(tail: string, chunk: string): string {
	return (chunk.length >= TAIL_CHARS ? chunk : tail + chunk).slice(-TAIL_CHARS);
}

const LINK_KEYS = ['"NextpageLink"', '"NextPageLink"', '"nextPageLink"', '"@odata.nextLink"'];

/**
 * The next-page link of a list body still in text form, found without parsing the
 * whole page: the last occurrence of a link key followed by a JSON string. Only a
 * guess to start the next request early; the parsed body has the final word.
 */
export function peekNextLink(text: string): string | undefined {
	for (const key of LINK_KEYS) {
		const at = text.lastIndexOf(key);
		if (at < 0) continue;
		const match = /^\s*:\s*("(?:[^"\\]|\\.)*")/.exec(text.slice(at + key.length, at + key.length + 4096));
		if (!match) continue;
		try {
			const link = JSON.parse(match[1]) as string;
			return link.trim() || undefined;
		} catch {
			continue;
		}
	}
	return undefined;
}

/**
 * Yields records page by page, following next-page links on the base host,
 * never fetching a page it does not need, and refusing a link it already followed.
 */
export async function* paginate(client: PageFetcher, options: PaginateOptions): AsyncGenerator<IDataObject[]> {
	const { limit } = options;
	if (limit !== undefined && limit <= 0) return;
	const qs: IDataObject = { ...(options.qs ?? {}) };
	const top = firstPageTop(limit);
	if (top !== undefined && (qs.$top === undefined || Number(qs.$top) > top)) qs.$top = top;

	const { itemIndex, operation } = options;
	const requestText = options.readAhead && limit === undefined ? client.requestText?.bind(client) : undefined;
	const seen = new Set<string>();
	let collected = 0;
	/** At most one page requested ahead, and only from the page the loop is on. */
	let ahead: { url: string; text: Promise<string | ReceivedText> } | undefined;

	const get = async (path: string, pageQs?: IDataObject) =>
		await client.request({
			method: 'GET',
			path,
			qs: pageQs,
			itemIndex,
			operation,
		});

	/** Requests the page the text links to (when the rules allow it), then parses the text. */
	const parse = async (path: string, pageQs: IDataObject | undefined, received: string | ReceivedText): Promise<unknown> => {
		ahead = undefined;
		const { text, tail } = typeof received === 'string' ? { text: received, tail: received } : received;
		// The tail is flat and short: the page itself (many chunks joined) is not copied before the request.
		const guess = peekNextLink(tail);
		const next = guess === undefined ? undefined : resolveNextLink(guess, client.baseUrl);
		if (requestText && next && 'url' in next && next.url !== path && !seen.has(next.url)) {
			const pending = requestText({
				method: 'GET',
				path: next.url,
				itemIndex,
				operation,
			});
			// Awaited when the parsed page agrees, dropped when not: never an unhandled rejection.
			pending.catch(() => undefined);
			ahead = { url: next.url, text: pending };
			// Let the request reach the wire before the parse takes the thread. The first turn lets
			// n8n's request chain (authentication, client set-up) run to the socket; when that chain
			// takes over a millisecond the timer is already due, so a second turn gives the event loop
			// the pass that connects and writes the request. Otherwise the server would not see it
			// until this page was parsed and handed on.
			await sleep(0);
			await sleep(0);
		}
		try {
			return JSON.parse(text) as unknown;
		} catch {
			// Cut off or not JSON: the checked path takes it as a failed attempt, retries or names the problem.
			return await client.request({
				method: 'GET',
				path,
				qs: pageQs,
				itemIndex,
				operation,
				brokenText: text,
			});
		}
	};

	const fetchPage = async (path: string, pageQs?: IDataObject): Promise<unknown> =>
		requestText
			? await parse(
					path,
					pageQs,
					await requestText({
						method: 'GET',
						path,
						qs: pageQs,
						itemIndex,
						operation,
					}),
				)
			: await get(path, pageQs);

	// Values repeated across records (currency, status, parties...) are held once for the whole list.
	const strings = createStringPool();
	let body = await fetchPage(options.path, qs);
	for (;;) {
		const page = readListPage(body);
		shareStrings(page.items, strings);
		const remaining = limit === undefined ? page.items.length : limit - collected;
		const items = page.items.length > remaining ? page.items.slice(0, remaining) : page.items;
		collected += items.length;
		if (items.length) yield items;
		if (!needsAnotherPage(collected, limit, page.nextLink)) return;

		const next = resolveNextLink(page.nextLink as string, client.baseUrl);
		if ('problem' in next) throw new PagingError(next.problem);
		if (seen.has(next.url)) {
			throw new PagingError(
				`The API returned the same next-page link twice (${next.url.replace(/^https?:\/\/[^/]+/, '')}); stopped to avoid an endless loop after ${collected} records`,
			);
		}
		seen.add(next.url);
		const early = ahead;
		body = early && early.url === next.url ? await parse(next.url, undefined, await early.text) : await fetchPage(next.url);
	}
}
