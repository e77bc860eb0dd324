/** Retry decisions for reads: pure, so they are unit-tested without n8n. */

export interface RetryPolicy {
	/** Extra attempts after the first one. */
	maxRetries: number;
	/** First back-off step; doubles on every attempt. */
	baseDelayMs: number;
	/** Upper bound for one wait, Retry-After included. */
	maxDelayMs: number;
	/** Time limit of one HTTP attempt (reads and writes); the transport's default when absent. */
	timeoutMs?: number;
}

/** The request options every node offers (Read Retries, First Retry Delay, Request Timeout). */
export interface RequestOptionValues {
	maxRetries?: number;
	retryDelayMs?: number;
	timeoutSeconds?: number;
}

export function policyFromOptions(options: RequestOptionValues): RetryPolicy {
	const policy: RetryPolicy = {
		maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
		baseDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
		maxDelayMs: DEFAULT_RETRY_POLICY.maxDelayMs,
	};
	if (typeof options.timeoutSeconds === 'number' && options.timeoutSeconds > 0) {
		policy.timeoutMs = Math.round(options.timeoutSeconds * 1000);
	}
	return policy;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };
export const NO_RETRY: RetryPolicy = { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 };

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

export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfter: string | undefined): number {
	const fromHeader = parseRetryAfterMs(retryAfter);
	const backoff = policy.baseDelayMs * 2 ** attempt;
	return Math.min(policy.maxDelayMs, fromHeader ?? backoff);
}
