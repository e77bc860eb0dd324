/**
 * List paging: reading list bodies, resolving next-page links and deciding
 * when to stop. The decision functions are pure; `paginate` drives a client.
 * Over 300 lines because the read-ahead loop and the rules it must obey (host, repeated
 * page, page cap, odd entries) are kept side by side, where a reviewer can check them together.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { appendQuery } from '../query/odata';
import { createStringPool, shareStrings } from './stringPool';

export const PAGE_SIZE = 120;

/**
 * The most pages one list read follows. The API serves 120 records a page; the largest
 * plausible list is an account's whole order book: 500 orders every working day for five
 * years is about 600,000 orders, 5,000 pages. A server still sending next-page links after
 * that is broken or hostile, and Return All fails instead of reading forever.
 */
export const MAX_PAGES = 5_000;

export interface ListPage {
	items: IDataObject[];
	nextLink?: string;
	count?: number;
	/** Set when the body is no list, or holds an entry that is not a record (`items` then holds only the records). */
	problem?: string;
}

function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string') return `the text "${value.slice(0, 40)}"`;
	return `the ${typeof value} ${String(value).slice(0, 40)}`;
}

function isRecord(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Only records: a null, text, number or list entry is reported (one n8n item is one JSON object). */
function records(list: unknown[]): { items: IDataObject[]; problem?: string } {
	for (let i = 0; i < list.length; i++) {
		if (isRecord(list[i])) continue;
		return {
			items: list.filter(isRecord),
			problem: `entry ${i + 1} of the page is ${describeValue(list[i])}, not a record`,
		};
	}
	return { items: list as IDataObject[] };
}

/** A list body's entries as sent (`Items`, `value` or a bare array), odd ones included, so positions hold. */
export function listEntries(body: unknown): unknown[] {
	if (Array.isArray(body)) return body;
	if (!isRecord(body)) return [];
	const list = body.Items ?? body.items ?? body.value ?? body.Value;
	return Array.isArray(list) ? list : [];
}

/** Items from `Items`, `value` or a bare array; the link under either spelling. */
export function readListPage(body: unknown): ListPage {
	if (Array.isArray(body)) return records(body);
	if (body === undefined || body === '') return { items: [] };
	if (!isRecord(body)) return { items: [], problem: `the answer is ${describeValue(body)}, not a list` };
	const record = body;
	const page: ListPage = records(listEntries(record));
	const link = record.NextpageLink ?? record.NextPageLink ?? record.nextPageLink ?? record['@odata.nextLink'];
	page.nextLink = typeof link === 'string' && link.trim() ? link.trim() : undefined;
	page.count = typeof record.Count === 'number' ? record.Count : undefined;
	return page;
}

/**
 * What identifies a page's URL: origin, path and the query options sorted, decoded, with
 * `$skip=0` (the first page) the same as no `$skip`. Two links that differ only in the
 * order or the encoding of their options ask for the same page.
 */
export function pageKey(url: string): string {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return url;
	}
	const options = [...parsed.searchParams]
		.filter(([name, value]) => !(name.toLowerCase() === '$skip' && /^0*$/.test(value.trim())))
		.map(([name, value]) => `${name.toLowerCase()}=${value}`)
		.sort();
	return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}?${options.join('&')}`;
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

export class PagingError extends Error {
	constructor(
		message: string,
		/** How to fix it, when the default ("retry; check the Base URL") does not fit. */
		readonly hint?: string,
	) {
		super(message);
		this.name = 'PagingError';
	}
}

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
	/** At most this many pages (MAX_PAGES when absent). */
	maxPages?: number;
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
	const maxPages = options.maxPages ?? MAX_PAGES;
	const requestText = options.readAhead && limit === undefined ? client.requestText?.bind(client) : undefined;
	// The first page counts as seen: a link cycling back to it is refused like any repeated link.
	const first = resolveNextLink(options.path, client.baseUrl);
	const seen = new Set<string>('url' in first ? [pageKey(appendQuery(first.url, qs))] : []);
	/** Pages requested so far, read-ahead included. */
	let requested = 1;
	let pageNumber = 1;
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
		if (requestText && next && 'url' in next && requested < maxPages && !seen.has(pageKey(next.url))) {
			requested++;
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
		if (page.problem) {
			throw new PagingError(
				`${operation ?? 'The list'}: ${page.problem} (page ${pageNumber}); the list was not read`,
				'The API answered something other than a list of records. Retry; if it persists, check the Base URL points at the API.',
			);
		}
		shareStrings(page.items, strings);
		const remaining = limit === undefined ? page.items.length : limit - collected;
		const items = page.items.length > remaining ? page.items.slice(0, remaining) : page.items;
		collected += items.length;
		if (items.length) yield items;
		if (!needsAnotherPage(collected, limit, page.nextLink)) return;

		const next = resolveNextLink(page.nextLink as string, client.baseUrl);
		if ('problem' in next) throw new PagingError(next.problem);
		const key = pageKey(next.url);
		if (seen.has(key)) {
			throw new PagingError(
				`The API returned a next-page link to a page already read (${next.url.replace(/^https?:\/\/[^/]+/, '')}); stopped to avoid an endless loop after ${collected} records`,
			);
		}
		seen.add(key);
		const early = ahead;
		const useEarly = early !== undefined && early.url === next.url;
		if (!useEarly) {
			if (requested >= maxPages) {
				throw new PagingError(
					`The API kept sending next-page links: stopped after ${maxPages} pages (${maxPages * PAGE_SIZE} records at ${PAGE_SIZE} a page, the most one list read follows); the list was not returned`,
					'Narrow the list with Filters (e.g. by date) or use a Limit; if the account really holds more, read it in parts.',
				);
			}
			requested++;
		}
		pageNumber++;
		body = useEarly ? await parse(next.url, undefined, await (early as { text: Promise<string | ReceivedText> }).text) : await fetchPage(next.url);
	}
}
