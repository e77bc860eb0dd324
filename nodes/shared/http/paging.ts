/** List paging (README.md "Performance"): the next-page links, on the Base URL's host only; pages asked ahead once the links move `$skip`. */
import type { IDataObject } from 'n8n-workflow';

import type { ApiClient, ListPage, PaginateOptions } from './types';
import { appendQuery } from './url';

export const PAGE_SIZE = 120;
export const PARALLEL_PAGES = 4;
/** The most pages one list read follows: 500 orders every working day for five years is about 5,000 pages. */
export const MAX_PAGES = 5_000;

const isRecord = (value: unknown): value is IDataObject => value !== null && typeof value === 'object' && !Array.isArray(value);
function describe(value: unknown): string {
	if (value === null || Array.isArray(value)) return value === null ? 'null' : 'a list';
	return typeof value === 'string' ? `the text "${value.slice(0, 40)}"` : `the ${typeof value} ${String(value).slice(0, 40)}`;
}

/** A list body's entries as sent (`Items`, `value` or a bare array), odd ones included, so positions hold. */
export function listEntries(body: unknown): unknown[] {
	const list = Array.isArray(body) ? body : isRecord(body) ? (body.Items ?? body.items ?? body.value ?? body.Value) : undefined;
	return Array.isArray(list) ? list : [];
}

/** Records from `Items`, `value` or a bare array, the link under any of its spellings, and `Count`. */
export function readListPage(body: unknown): ListPage {
	if (body === undefined || body === '') return { items: [] };
	if (!Array.isArray(body) && !isRecord(body)) return { items: [], problem: `the answer is ${describe(body)}, not a list` };
	const entries = listEntries(body);
	const odd = entries.findIndex((entry) => !isRecord(entry));
	// One n8n item is one JSON object: a null, text, number or list entry is reported.
	const page: ListPage = { items: odd < 0 ? (entries as IDataObject[]) : entries.filter(isRecord) };
	if (odd >= 0) page.problem = `entry ${odd + 1} of the page is ${describe(entries[odd])}, not a record`;
	if (isRecord(body)) {
		const link = body.NextpageLink ?? body.NextPageLink ?? body.nextPageLink ?? body['@odata.nextLink'];
		page.nextLink = typeof link === 'string' && link.trim() ? link.trim() : undefined;
		page.count = typeof body.Count === 'number' ? body.Count : undefined;
	}
	return page;
}

/** What identifies a page's URL: origin, path and the options sorted and decoded, `$skip=0` the same as none. */
export function pageKey(url: string): string {
	if (!URL.canParse(url)) return url;
	const parsed = new URL(url);
	const options = [...parsed.searchParams]
		.filter(([name, value]) => !(name.toLowerCase() === '$skip' && /^0*$/.test(value.trim())))
		.map(([name, value]) => `${name.toLowerCase()}=${value}`)
		.sort();
	return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}?${options.join('&')}`;
}

/** A next-page link as a URL on the base URL; a link to another host is refused (the credential never travels elsewhere). */
export function resolveNextLink(link: string, baseUrl: string): { url: string } | { problem: string } {
	const base = new URL(baseUrl);
	if (/^https?:\/\//i.test(link)) {
		if (!URL.canParse(link)) return { problem: `The API returned an unreadable next-page link: ${link.slice(0, 200)}` };
		const target = new URL(link);
		if (target.origin !== base.origin) {
			return { problem: `The API returned a next-page link to another host (${target.host}); it was not followed, to keep the credential on ${base.host}` };
		}
		return { url: target.toString() };
	}
	if (link.startsWith('//')) return { problem: `The API returned a protocol-relative next-page link (${link.slice(0, 100)}); it was not followed` };
	return { url: `${baseUrl.replace(/\/+$/, '')}/${link.replace(/^\//, '')}` };
}

export class PagingError extends Error {
	hint?: string; // How to fix it, when the default ("retry; check the Base URL") does not fit.
}
const pagingError = (message: string, hint?: string) => Object.assign(new PagingError(message), { hint });

const SKIP = /([?&](?:\$|%24)skip=)(\d+)/i;
const skipOf = (url: string) => Number(SKIP.exec(url)?.[2] ?? 0);
const withSkip = (url: string, skip: number) => (SKIP.test(url) ? url.replace(SKIP, `$1${skip}`) : `${url}${url.includes('?') ? '&' : '?'}$skip=${skip}`);

type PageRequest = { url: string; key: string; body: Promise<unknown>; cancel: AbortController };

/** Yields records page by page; refuses a link already followed, to another host, or a page repeating the one before. */
export async function* paginate(client: Pick<ApiClient, 'baseUrl' | 'request'>, options: PaginateOptions): AsyncGenerator<IDataObject[]> {
	const { limit, itemIndex, operation, key } = options;
	if (limit !== undefined && limit <= 0) return;
	const qs: IDataObject = { ...options.qs };
	if (limit !== undefined && limit <= PAGE_SIZE) {
		// One page holds everything wanted: ask for no more.
		if (qs.$top === undefined || Number(qs.$top) > limit) qs.$top = limit;
	} else if (key && typeof qs.$orderby === 'string' && qs.$orderby.trim() && !new RegExp(`(^|[,\\s])${key}(\\s|,|$)`, 'i').test(qs.$orderby)) {
		qs.$orderby = `${qs.$orderby},${key}`;
	}
	const first = resolveNextLink(options.path, client.baseUrl);
	if ('problem' in first) throw pagingError(first.problem);

	let requested = 0;
	const ask = (path: string, pageQs?: IDataObject): PageRequest => {
		requested++;
		const [cancel, url] = [new AbortController(), appendQuery(path, pageQs)];
		const body = client.request({ method: 'GET', path, qs: pageQs, itemIndex, operation, signal: cancel.signal });
		// Awaited when its turn comes, dropped otherwise: never an unhandled rejection.
		body.catch(() => undefined);
		return { url, key: pageKey(url), body, cancel };
	};
	const inFlight: PageRequest[] = [ask(first.url, qs)];
	const seen = new Set<string>([inFlight[0].key]);
	/** The windows: the URL they move `$skip` in, the records a page holds, the last `$skip` asked; null after a broken pattern. */
	let windows: { template: string; stride: number; last: number } | null | undefined;
	let [lastStride, collected, previousFirst] = [0, 0, undefined as string | undefined];
	try {
		for (let pageNumber = 1; ; pageNumber++) {
			const current = inFlight.shift() as PageRequest;
			const page = readListPage(await current.body);
			const firstRecord = page.items.length ? JSON.stringify(page.items[0]) : undefined;
			if (firstRecord !== undefined && firstRecord === previousFirst) page.problem ??= 'the API answered the records of the page before again';
			if (page.problem) {
				throw pagingError(
					`${operation ?? 'The list'}: ${page.problem} (page ${pageNumber}); the list was not read`,
					'The API answered something other than a list of records. Retry; if it persists, check the Base URL points at the API.',
				);
			}
			if (pageNumber === 1) options.total = page.count;
			previousFirst = firstRecord;
			const items = page.items.slice(0, limit === undefined ? undefined : limit - collected);
			collected += items.length;
			if (items.length) yield items;
			if (!page.nextLink || (limit !== undefined && collected >= limit)) return;

			const next = resolveNextLink(page.nextLink, client.baseUrl);
			if ('problem' in next) throw pagingError(next.problem);
			const nextKey = pageKey(next.url);
			if (seen.has(nextKey)) {
				throw pagingError(
					`The API returned a next-page link to a page already read (${next.url.replace(/^https?:\/\/[^/]+/, '')}); stopped to avoid an endless loop after ${collected} records`,
				);
			}
			seen.add(nextKey);
			if (inFlight.length && inFlight[0].key !== nextKey) {
				// The link is not the page asked ahead: drop the windows, follow the links from here.
				for (const dropped of inFlight.splice(0)) dropped.cancel.abort();
				windows = null;
			}
			if (!inFlight.length && requested >= MAX_PAGES) {
				throw pagingError(
					`The API kept sending next-page links: stopped after ${MAX_PAGES} pages (${MAX_PAGES * PAGE_SIZE} records at ${PAGE_SIZE} a page, the most one list read follows); the list was not returned`,
					'Narrow the list with Filters (e.g. by date) or use a Limit; if the account really holds more, read it in parts.',
				);
			}
			if (!inFlight.length) inFlight.push(ask(next.url));
			// The link is this page's URL with `$skip` moved on by the records it holds: twice in a row, the service pages by $skip.
			const stride = skipOf(next.url) - skipOf(current.url);
			const fits = stride > 0 && stride === page.items.length && pageKey(withSkip(next.url, skipOf(current.url))) === current.key;
			if (windows === undefined && fits && stride === lastStride) windows = { template: next.url, stride, last: skipOf(next.url) };
			lastStride = fits ? stride : 0;
			const room = (w: NonNullable<typeof windows>) =>
				inFlight.length < PARALLEL_PAGES &&
				requested < MAX_PAGES &&
				w.last + w.stride < (page.count ?? Infinity) &&
				collected + inFlight.length * w.stride < (limit ?? Infinity);
			while (windows && room(windows)) inFlight.push(ask(withSkip(windows.template, (windows.last += windows.stride))));
		}
	} finally {
		// Pages asked ahead and no longer needed (the end, a Limit, a failure): their connections close.
		for (const dropped of inFlight) dropped.cancel.abort();
	}
}
