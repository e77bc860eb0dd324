/**
 * Bounds of every request a node makes, as node options: the Maximum Response Size
 * field, and the reader that checks all request options (Read Retries, First Retry Delay,
 * Request Timeout, Maximum Response Size) against their ranges before any request. The
 * ranges and defaults live in retry.ts.
 *
 * `retryOptions` (fields.ts) includes `maxResponseSizeOption`, so every node's Options
 * collection offers it; `readRetryPolicy` (fields.ts) is `readRequestPolicy`. The trigger's
 * poll reads its options through `policyFromOptions`, which applies the same checks.
 */
import type { IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestOptionValues, RetryPolicy } from './retry';
import { checkRequestOptions, DEFAULT_MAX_RESPONSE_MB, MAX_RESPONSE_MB, policyFromOptions } from './retry';
import { fieldMessage } from '../domain/validation';

export const maxResponseSizeOption: INodeProperties = {
	displayName: 'Maximum Response Size (MB)',
	name: 'maxResponseSizeMb',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_RESPONSE_MB },
	default: DEFAULT_MAX_RESPONSE_MB,
	description:
		'The largest answer one request accepts, after decompression. A larger one fails the item instead of filling n8n\'s memory; real answers are far smaller (a list page is under 1 MB).',
};

/**
 * Request options as a policy; a value out of range is a NodeOperationError naming the option
 * and the item (`itemIndex` undefined in a poll), raised before any request.
 */
export function requestPolicy(ctx: { getNode(): INode }, itemIndex: number | undefined, values: RequestOptionValues): RetryPolicy {
	const problem = checkRequestOptions(values);
	if (problem) {
		throw new NodeOperationError(ctx.getNode(), fieldMessage(itemIndex, problem.field, problem.value, problem.problem ?? problem.message), {
			itemIndex,
			description: problem.hint,
		});
	}
	return policyFromOptions(values);
}

/** The request options of an Options collection (the first item's values apply to the run). */
export function readRequestPolicy(ctx: IExecuteFunctions, collection = 'options', itemIndex = 0): RetryPolicy {
	return requestPolicy(ctx, itemIndex, (ctx.getNodeParameter(collection, itemIndex, {}) ?? {}) as RequestOptionValues);
}
