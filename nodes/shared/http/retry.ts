/**
 * The bounds of every request, as node options (Read Retries, First Retry Delay, Request
 * Timeout, Maximum Response Size), and the retry decisions. A value out of range is an
 * error before any request, never silently clamped: Read Retries at most 10 (with the 30 s
 * back-off cap, at most about 5 minutes of waiting per read), Request Timeout at most 600 s
 * (a deadline for the whole exchange), Maximum Response Size at most 1,024 MB.
 */
import type { IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkNumber, fieldMessage } from '../domain/validation';

export interface RetryPolicy {
	maxRetries: number; // Extra attempts after the first one.
	baseDelayMs: number; // First back-off step; doubles on every attempt.
	maxDelayMs: number; // Upper bound of one back-off wait (a Retry-After is bounded by MAX_RETRY_AFTER_MS instead).
	timeoutMs?: number; // Deadline of one HTTP exchange, headers and body; the client's default when absent.
	maxResponseBytes?: number; // Largest body (after decompression) read from one answer; the client's default when absent.
}

/** The request options every node offers. */
export interface RequestOptionValues {
	maxRetries?: unknown;
	retryDelayMs?: unknown;
	timeoutSeconds?: unknown;
	maxResponseSizeMb?: unknown;
}

export const MB = 1024 * 1024;
const MAX_DELAY_MS = 30_000;
/**
 * The longest wait a Retry-After may ask for: rate limits count per second or minute; an API
 * asking for more is down or hostile, and the run fails naming the wait instead of sleeping.
 */
export const MAX_RETRY_AFTER_MS = 120_000;
/** Default Maximum Response Size: some 50 times the largest real answer (a list page is 0.3 MB, a file read a few MB). */
export const DEFAULT_MAX_RESPONSE_MB = 50;
const MAX_RESPONSE_MB = 1024;

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: MAX_DELAY_MS };
export const NO_RETRY: RetryPolicy = { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 };

export const maxResponseSizeOption: INodeProperties = {
	displayName: 'Maximum Response Size (MB)',
	name: 'maxResponseSizeMb',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_RESPONSE_MB },
	default: DEFAULT_MAX_RESPONSE_MB,
	description: 'The largest answer one request accepts, after decompression',
};

/** Each option's range; the unit is the one its name gives ("(Seconds)"), only Read Retries must be whole. */
const range = (key: keyof RequestOptionValues, field: string, min: number, max: number | undefined, hint: string) => {
	const unit = /\((\w+)\)$/.exec(field)?.[1];
	return { key, field, min, max, hint, whole: key === 'maxRetries', unit: unit ? ` ${unit === 'MB' ? unit : unit.toLowerCase()}` : '' };
};
const RANGES = [
	range('maxRetries', 'Read Retries', 0, 10, 'Enter 0 to 10 retries.'),
	range('retryDelayMs', 'First Retry Delay (Milliseconds)', 0, undefined, 'Enter 0 or more milliseconds.'),
	range('timeoutSeconds', 'Request Timeout (Seconds)', 1, 600, 'Enter 1 to 600 seconds.'),
	range('maxResponseSizeMb', 'Maximum Response Size (MB)', 1, MAX_RESPONSE_MB, 'Enter 1 to 1024 MB (default 50).'),
];

/** The first option that is not a number in its range: the option, the value as shown, what is wrong, the hint. */
function optionProblem(values: RequestOptionValues): { field: string; shown: string; problem: string; hint: string } | undefined {
	for (const range of RANGES) {
		const value = values[range.key];
		const checked = value === undefined || checkNumber(value, range);
		if (checked === true || checked.ok) continue;
		const shown =
			typeof value === 'string'
				? `"${value.slice(0, 40)}"`
				: Array.isArray(value)
					? 'a list'
					: value && typeof value === 'object'
						? 'an object'
						: String(value);
		return { field: range.field, shown, problem: checked.problem, hint: range.hint };
	}
	return undefined;
}

/** The policy the options describe; throws an Error naming the option for a value out of range (before any request). */
export function policyFromOptions(values: RequestOptionValues): RetryPolicy {
	const bad = optionProblem(values);
	if (bad) throw new Error(`"${bad.field}" ${bad.shown} ${bad.problem}`);
	const policy: RetryPolicy = {
		maxRetries: (values.maxRetries as number | undefined) ?? DEFAULT_RETRY_POLICY.maxRetries,
		baseDelayMs: (values.retryDelayMs as number | undefined) ?? DEFAULT_RETRY_POLICY.baseDelayMs,
		maxDelayMs: MAX_DELAY_MS,
	};
	if (values.timeoutSeconds !== undefined) policy.timeoutMs = Math.round((values.timeoutSeconds as number) * 1000);
	if (values.maxResponseSizeMb !== undefined) policy.maxResponseBytes = Math.round((values.maxResponseSizeMb as number) * MB);
	return policy;
}

/** The options as a policy; a value out of range is a NodeOperationError naming the option and the item (none in a poll). */
export function requestPolicy(ctx: { getNode(): INode }, itemIndex: number | undefined, values: RequestOptionValues): RetryPolicy {
	const bad = optionProblem(values);
	if (bad) {
		throw new NodeOperationError(ctx.getNode(), fieldMessage(itemIndex, bad.field, bad.shown, bad.problem), { itemIndex, description: bad.hint });
	}
	return policyFromOptions(values);
}

/** The request options of an Options collection (the first item's values apply to the run). */
export function readRequestPolicy(ctx: IExecuteFunctions, collection = 'options', itemIndex = 0): RetryPolicy {
	return requestPolicy(ctx, itemIndex, (ctx.getNodeParameter(collection, itemIndex, {}) ?? {}) as RequestOptionValues);
}

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
