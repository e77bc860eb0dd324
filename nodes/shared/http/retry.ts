/** The retry decisions and bounds' defaults of every request (the node options that set them: fields/requestOptions.ts). */
import type { RetryPolicy } from './types';

export type { RetryPolicy } from './types';

export const MB = 1024 * 1024;
export const MAX_DELAY_MS = 30_000;
/** Rate limits count per second or minute: a Retry-After asking for more is down or hostile, and the run fails naming the wait. */
export const MAX_RETRY_AFTER_MS = 120_000;
/** Default Maximum Response Size: some 50 times the largest real answer (a list page is 0.3 MB, a file read a few MB). */
export const DEFAULT_MAX_RESPONSE_MB = 50;
export const MAX_RESPONSE_MB = 1024;

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: MAX_DELAY_MS };
export const NO_RETRY: RetryPolicy = { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 };

/** 429 and 5xx answers are worth another try (and failures with no answer at all, decided by the client). */
export function shouldRetry(status: number): boolean {
	return status === 429 || (status >= 500 && status <= 599);
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
	const text = String(value ?? '').trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(parseFloat(text) * 1000);
	const date = text ? Date.parse(text) : NaN;
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before the next attempt: Retry-After when the API sent one (up to its cap), else the doubling back-off. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfter?: string): number {
	const asked = parseRetryAfterMs(retryAfter);
	if (asked !== undefined) return Math.min(MAX_RETRY_AFTER_MS, asked);
	return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attempt, 30));
}
