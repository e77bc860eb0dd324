/**
 * Retry decisions and the bounds of one request: pure, so they are unit-tested without n8n.
 *
 * Every number a user can set here is checked, and a value out of range is an error, never
 * silently clamped: Read Retries at most 10 (with the 30 s back-off cap, at most about 5
 * minutes of back-off per read), Request Timeout at most 600 s (a deadline for the whole
 * exchange: one list page of 120 records arrives in well under a second), Maximum Response
 * Size at most 1,024 MB. First Retry Delay has no ceiling: every wait is capped at 30 s.
 */

export interface RetryPolicy {
	/** Extra attempts after the first one. */
	maxRetries: number;
	/** First back-off step; doubles on every attempt. */
	baseDelayMs: number;
	/** Upper bound for one back-off wait (a Retry-After the API sends is bounded by MAX_RETRY_AFTER_MS instead). */
	maxDelayMs: number;
	/** Deadline of one HTTP exchange, headers and body (reads and writes); the transport's default when absent. */
	timeoutMs?: number;
	/** Largest body (after decompression) read from one answer; the transport's default when absent. */
	maxResponseBytes?: number;
}

/** The request options every node offers (Read Retries, First Retry Delay, Request Timeout, Maximum Response Size). */
export interface RequestOptionValues {
	maxRetries?: unknown;
	retryDelayMs?: unknown;
	timeoutSeconds?: unknown;
	maxResponseSizeMb?: unknown;
}

export const MAX_RETRIES = 10;
export const MAX_RETRY_DELAY_MS = 30_000;
export const MAX_TIMEOUT_SECONDS = 600;
/**
 * The longest wait a Retry-After may ask for. Rate limits are counted per second or per
 * minute; an API asking for more than two minutes is down for maintenance or hostile, and
 * the run fails with a clear error instead of sleeping (n8n holds the execution meanwhile).
 */
export const MAX_RETRY_AFTER_MS = 120_000;
/**
 * Default Maximum Response Size. The largest real answers: a list page of 120 order
 * summaries is about 0.3 MB, a full order with a thousand lines about 1 MB, a file read
 * (`GET /v1/files/{id}`, base64) a few MB. 50 MB is some 50 times the largest of these, and
 * small enough that a hostile or broken server cannot fill n8n's memory.
 */
export const DEFAULT_MAX_RESPONSE_MB = 50;
export const MAX_RESPONSE_MB = 1024;
export const MB = 1024 * 1024;

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: MAX_RETRY_DELAY_MS };
export const NO_RETRY: RetryPolicy = { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 };

/** A request option outside its range; `field` is the option's display name. */
export class RequestOptionError extends Error {
	constructor(
		readonly field: string,
		message: string,
		readonly hint: string,
		/** The value as shown and what is wrong with it, for the item-stamped message (validation.ts fieldMessage). */
		readonly value?: unknown,
		readonly problem?: string,
	) {
		super(message);
		this.name = 'RequestOptionError';
	}
}

function shown(value: unknown): string {
	if (typeof value === 'string') return `"${value.slice(0, 40)}"`;
	if (typeof value === 'number') return String(value);
	if (value === null) return 'null';
	return Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : String(value);
}

interface Range {
	key: keyof RequestOptionValues;
	field: string;
	min: number;
	/** None: any number from `min` up (First Retry Delay: every wait is capped at MAX_RETRY_DELAY_MS anyway). */
	max?: number;
	whole: boolean;
	unit: string;
	hint: string;
}

const RANGES: Range[] = [
	{ key: 'maxRetries', field: 'Read Retries', min: 0, max: MAX_RETRIES, whole: true, unit: '', hint: 'Enter how often a failed read is tried again, from 0 to 10.' },
	{ key: 'retryDelayMs', field: 'First Retry Delay (Milliseconds)', min: 0, whole: false, unit: ' milliseconds', hint: 'Enter the first wait in milliseconds (0 or more); it doubles on every retry, up to 30 seconds.' },
	{ key: 'timeoutSeconds', field: 'Request Timeout (Seconds)', min: 1, max: MAX_TIMEOUT_SECONDS, whole: false, unit: ' seconds', hint: 'Enter how long one request may take in total, from 1 to 600 seconds.' },
	{ key: 'maxResponseSizeMb', field: 'Maximum Response Size (MB)', min: 1, max: MAX_RESPONSE_MB, whole: false, unit: ' MB', hint: 'Enter the largest answer to accept in MB, from 1 to 1024 (default 50).' },
];

/** The first request option that is not a number within its range, or undefined. */
export function checkRequestOptions(values: RequestOptionValues): RequestOptionError | undefined {
	for (const range of RANGES) {
		const value = values[range.key];
		if (value === undefined) continue;
		const ok =
			typeof value === 'number' && Number.isFinite(value) && value >= range.min && value <= (range.max ?? Infinity) && (!range.whole || Number.isInteger(value));
		if (ok) continue;
		const what = range.whole ? 'a whole number' : 'a number';
		const span = range.max === undefined ? `of ${range.min} or more` : `from ${range.min} to ${range.max}`;
		const problem = `is not ${what} ${span}${range.unit}`;
		return new RequestOptionError(range.field, `"${range.field}" ${shown(value)} ${problem}`, range.hint, shown(value), problem);
	}
	return undefined;
}

/** The policy the options describe; throws RequestOptionError for a value out of range (before any request). */
export function policyFromOptions(options: RequestOptionValues): RetryPolicy {
	const problem = checkRequestOptions(options);
	if (problem) throw problem;
	const policy: RetryPolicy = {
		maxRetries: (options.maxRetries as number | undefined) ?? DEFAULT_RETRY_POLICY.maxRetries,
		baseDelayMs: (options.retryDelayMs as number | undefined) ?? DEFAULT_RETRY_POLICY.baseDelayMs,
		maxDelayMs: DEFAULT_RETRY_POLICY.maxDelayMs,
	};
	if (options.timeoutSeconds !== undefined) policy.timeoutMs = Math.round((options.timeoutSeconds as number) * 1000);
	if (options.maxResponseSizeMb !== undefined) policy.maxResponseBytes = Math.round((options.maxResponseSizeMb as number) * MB);
	return policy;
}

/** 429 and 5xx answers, and failures with no answer at all, are worth another try. */
export function shouldRetry(status: number | undefined, networkError: boolean): boolean {
	if (networkError) return true;
	return status === 429 || (status !== undefined && status >= 500 && status <= 599);
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
	if (value === undefined || value === null) return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(parseFloat(text) * 1000);
	const date = Date.parse(text);
	if (!Number.isNaN(date)) return Math.max(0, date - now);
	return undefined;
}

/** The wait a Retry-After asks for when it is longer than MAX_RETRY_AFTER_MS (the run then fails), else undefined. */
export function retryAfterBeyondCap(retryAfter: string | undefined, now: number = Date.now()): number | undefined {
	const asked = parseRetryAfterMs(retryAfter, now);
	return asked !== undefined && asked > MAX_RETRY_AFTER_MS ? asked : undefined;
}

/** The wait before the next attempt: Retry-After when the API sent one (up to its cap), else the doubling back-off. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfter: string | undefined): number {
	const fromHeader = parseRetryAfterMs(retryAfter);
	if (fromHeader !== undefined) return Math.min(MAX_RETRY_AFTER_MS, fromHeader);
	return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attempt, 30));
}
