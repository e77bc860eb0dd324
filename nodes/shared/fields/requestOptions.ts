/**
 * The bounds of every request as node options (Read Retries, First Retry Delay, Request Timeout, Maximum Response Size),
 * read into the client's RetryPolicy (http/retry.ts). A value out of range is an error before any request, never silently
 * clamped: Read Retries at most 10 (with the 30 s back-off cap, at most about 5 minutes of waiting per read), Request Timeout
 * at most 600 s (a deadline for the whole exchange), Maximum Response Size at most 1,024 MB.
 */
import type { IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_MAX_RESPONSE_MB, DEFAULT_RETRY_POLICY, MAX_DELAY_MS, MAX_RESPONSE_MB, MB } from '../http/retry';
import type { RetryPolicy } from '../http/types';
import { checkNumber, fieldMessage } from '../domain/validation';

/** The request options every node offers. */
export interface RequestOptionValues {
	maxRetries?: unknown;
	retryDelayMs?: unknown;
	timeoutSeconds?: unknown;
	maxResponseSizeMb?: unknown;
}

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
