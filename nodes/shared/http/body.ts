/**
 * Reading an answer within bounds. Every request asks n8n for the body as a stream
 * (`encoding: 'stream'`; axios has already undone gzip/deflate/brotli), so nothing is
 * buffered before these checks see it:
 * - size: the decompressed bytes are counted as they arrive, and the stream is destroyed
 *   (closing the connection and stopping the inflater) the moment they pass the limit, so
 *   3 MB of gzip that inflates to 3 GB costs at most the limit in memory;
 * - time: the request's deadline (an AbortSignal) covers the wait for the headers and the
 *   whole body, so a server trickling a byte every few seconds cannot hold a run open;
 * - secrets: each decoded chunk is searched for the key's forms as it arrives (no join of
 *   the page for it), so the caller masks only a body that holds one.
 *
 * The text is decoded chunk by chunk as it is iterated: no copy of the whole body as a
 * Buffer is made (async iteration measured 2.0x the JSON at peak for Return All over
 * 12,000 orders; 'data' or 'readable' listeners 2.8x, see bench/README.md).
 */
import { nextTail } from './paging';
import type { ReceivedText } from './paging';

/** An answer cut off by a bound: too large, or not complete before the deadline. */
export class BodyLimitError extends Error {
	constructor(
		readonly reason: 'size' | 'deadline',
		/** Bytes received when it was cut off. */
		readonly received: number,
	) {
		super(reason === 'size' ? 'response too large' : 'response deadline passed');
		this.name = 'BodyLimitError';
	}
}

export interface BodyBounds {
	/** Largest decompressed body accepted. */
	maxBytes: number;
	/** Aborts when the request's deadline passes. */
	deadline: AbortSignal;
	/** Keep the running tail (list pages, where the next-page link sits). */
	tail: boolean;
	/** Texts to look for as the body arrives (the key's forms): `found` says whether one occurs. */
	watch: string[];
}

/** A body as text, or (helpers that hand back parsed data, as tests' fakes do) the value as given. */
export type ReadBody = (ReceivedText & { found: boolean }) | { value: unknown };

/**
 * Whether a watched text occurs in `part` or across its start (`carry`: the end of the
 * previous part). Searched in the flat chunk as decoded, so the page is not joined for it.
 */
function watchedIn(carry: string, part: string, watch: string[]): boolean {
	for (const text of watch) {
		if (part.includes(text)) return true;
		if (carry && (carry + part.slice(0, text.length - 1)).includes(text)) return true;
	}
	return false;
}

interface Destroyable {
	destroy?: (error?: Error) => void;
}

function isStream(body: unknown): body is AsyncIterable<Uint8Array> & Destroyable {
	return !!body && typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function';
}

/** Drops an answer that is not read (a redirect, one that came after its deadline): its connection is closed. */
export function discardBody(body: unknown): void {
	if (isStream(body) && typeof body.destroy === 'function') body.destroy();
}

/**
 * Waits for `pending` until the deadline; after it, fails with a BodyLimitError and drops
 * the answer whenever it still arrives.
 */
export async function beforeDeadline<T extends { body?: unknown }>(pending: Promise<T>, deadline: AbortSignal): Promise<T> {
	let onAbort: () => void = () => undefined;
	const expired = new Promise<never>((_resolve, reject) => {
		onAbort = () => {
			pending.then(
				(late) => discardBody(late?.body),
				() => undefined,
			);
			reject(new BodyLimitError('deadline', 0));
		};
		if (deadline.aborted) onAbort();
		else deadline.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([pending, expired]);
	} finally {
		deadline.removeEventListener('abort', onAbort);
	}
}

function fromText(text: string, bounds: BodyBounds): ReceivedText & { found: boolean } {
	// A text body (not a stream) is already in memory: only its size is checked, in UTF-16 units.
	if (text.length > bounds.maxBytes) throw new BodyLimitError('size', text.length);
	return { text, tail: bounds.tail ? nextTail('', text) : '', found: watchedIn('', text, bounds.watch) };
}

/** The whole body as text within the bounds; throws BodyLimitError when one is passed. */
export async function readBody(body: unknown, bounds: BodyBounds): Promise<ReadBody> {
	if (typeof body === 'string') return fromText(body, bounds);
	if (body instanceof Uint8Array) {
		if (body.byteLength > bounds.maxBytes) throw new BodyLimitError('size', body.byteLength);
		return fromText(new TextDecoder().decode(body), bounds);
	}
	if (!isStream(body)) return { value: body };
	let received = 0;
	const onDeadline = () => {
		if (typeof body.destroy === 'function') body.destroy(new BodyLimitError('deadline', received));
	};
	if (bounds.deadline.aborted) {
		discardBody(body);
		throw new BodyLimitError('deadline', 0);
	}
	bounds.deadline.addEventListener('abort', onDeadline, { once: true });
	const decoder = new TextDecoder();
	let text = '';
	let tail = '';
	let found = false;
	let carry = '';
	const longest = Math.max(0, ...bounds.watch.map((w) => w.length));
	// Leaving the loop early (a throw) destroys the stream: the connection closes, inflation stops.
	const consume = async () => {
		for await (const chunk of body) {
			received += chunk.byteLength;
			if (received > bounds.maxBytes) throw new BodyLimitError('size', received);
			const part = decoder.decode(chunk, { stream: true });
			text += part;
			if (bounds.tail) tail = nextTail(tail, part);
			if (longest && !found) {
				found = watchedIn(carry, part, bounds.watch);
				carry = (part.length >= longest ? part : carry + part).slice(-(longest - 1));
			}
		}
	};
	const failure = await consume().then(
		() => undefined,
		(error: unknown) => error ?? new Error('the answer could not be read'),
	);
	bounds.deadline.removeEventListener('abort', onDeadline);
	if (failure !== undefined) {
		// A stream destroyed by the deadline may end with the stream's own abort error instead of ours.
		const size = failure instanceof BodyLimitError && failure.reason === 'size';
		if (bounds.deadline.aborted && !size) throw new BodyLimitError('deadline', received);
		throw failure;
	}
	const rest = decoder.decode();
	if (longest && !found && rest) found = watchedIn(carry, rest, bounds.watch);
	return { text: text + rest, tail: bounds.tail ? nextTail(tail, rest) : '', found };
}

/**
 * A successful body handed to the caller as it arrives (a file read decodes its base64 on
 * the way), under the same bounds as `readBody`: passing the size or the deadline ends
 * the iteration with `toError(problem)` and destroys the source, so the rest is never read;
 * a connection lost mid-body ends it with `toError` of that failure (the caller decides
 * whether to read again).
 */
export async function* boundedStream(
	body: unknown,
	bounds: Pick<BodyBounds, 'maxBytes' | 'deadline'>,
	toError: (problem: BodyLimitError | Error) => Error,
): AsyncGenerator<Uint8Array> {
	if (!isStream(body)) {
		// A helper that handed back a string or parsed data (tests' fakes): as bytes.
		const bytes = body instanceof Uint8Array ? body : Buffer.from(typeof body === 'string' ? body : (JSON.stringify(body) ?? ''), 'utf8');
		if (bytes.byteLength > bounds.maxBytes) throw toError(new BodyLimitError('size', bytes.byteLength));
		yield bytes;
		return;
	}
	let received = 0;
	const onDeadline = () => {
		if (typeof body.destroy === 'function') body.destroy(new BodyLimitError('deadline', received));
	};
	if (bounds.deadline.aborted) {
		discardBody(body);
		throw toError(new BodyLimitError('deadline', 0));
	}
	bounds.deadline.addEventListener('abort', onDeadline, { once: true });
	try {
		for await (const chunk of body) {
			received += chunk.byteLength;
			if (received > bounds.maxBytes) throw new BodyLimitError('size', received);
			yield chunk;
		}
	} catch (error) {
		const sized = error instanceof BodyLimitError && error.reason === 'size';
		// A stream destroyed by the deadline may end with the stream's own abort error instead of ours.
		if (!sized && bounds.deadline.aborted) throw toError(new BodyLimitError('deadline', received));
		throw toError(error instanceof Error ? error : new Error('the answer could not be read'));
	} finally {
		bounds.deadline.removeEventListener('abort', onDeadline);
		discardBody(body);
	}
}
