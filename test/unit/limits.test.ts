/**
 * The request options' ranges and their node-level reader (retry.ts): a value out of range
 * is refused with the option named, before any request; nothing is clamped.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DEFAULT_MAX_RESPONSE_MB, MB } from '../../nodes/shared/http/retry';
import { maxResponseSizeOption, policyFromOptions, readRequestPolicy } from '../../nodes/shared/fields/requestOptions';

function ctx(options: IDataObject): IExecuteFunctions {
	return {
		getNode: () => ({ id: '1', name: 'Order', type: 'n8n-nodes-access-point.accessPointOrder', typeVersion: 1, position: [0, 0], parameters: {} }),
		getNodeParameter: (name: string) => (name === 'options' ? options : undefined),
	} as unknown as IExecuteFunctions;
}

const REFUSED: Array<[IDataObject, string]> = [
	[{ maxRetries: 1e9 }, '"Read Retries" 1000000000 is not a whole number from 0 to 10'],
	[{ maxRetries: 11 }, '"Read Retries" 11 is not a whole number from 0 to 10'],
	[{ maxRetries: -1 }, '"Read Retries" -1 is not a whole number from 0 to 10'],
	[{ maxRetries: 1.5 }, '"Read Retries" 1.5 is not a whole number from 0 to 10'],
	[{ maxRetries: '3' }, '"Read Retries" "3" is not a whole number from 0 to 10'],
	[{ retryDelayMs: -5 }, '"First Retry Delay (Milliseconds)" -5 is not a number of 0 or more milliseconds'],
	[{ retryDelayMs: Infinity }, '"First Retry Delay (Milliseconds)" Infinity is not a number of 0 or more milliseconds'],
	[{ timeoutSeconds: 1e12 }, '"Request Timeout (Seconds)" 1000000000000 is not a number from 1 to 600 seconds'],
	[{ timeoutSeconds: 0 }, '"Request Timeout (Seconds)" 0 is not a number from 1 to 600 seconds'],
	[{ timeoutSeconds: { s: 5 } }, '"Request Timeout (Seconds)" an object is not a number from 1 to 600 seconds'],
	[{ maxResponseSizeMb: 0 }, '"Maximum Response Size (MB)" 0 is not a number from 1 to 1024 MB'],
	[{ maxResponseSizeMb: 4096 }, '"Maximum Response Size (MB)" 4096 is not a number from 1 to 1024 MB'],
	[{ maxResponseSizeMb: NaN }, '"Maximum Response Size (MB)" NaN is not a number from 1 to 1024 MB'],
];

describe('request option ranges', () => {
	it.each(REFUSED)('%j is refused: %s', (values, message) => {
		expect(() => policyFromOptions(values)).toThrow(message);
		const error = (() => {
			try {
				readRequestPolicy(ctx(values));
			} catch (e) {
				return e as NodeOperationError;
			}
			return undefined;
		})();
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe(`Item 0: ${message}`);
		expect(error?.context.itemIndex).toBe(0);
		expect(String(error?.description).length).toBeGreaterThan(20);
	});

	it('values in range become the policy; the defaults apply when absent', () => {
		expect(policyFromOptions({})).toEqual({ maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000 });
		expect(readRequestPolicy(ctx({ maxRetries: 10, retryDelayMs: 600_000, timeoutSeconds: 600, maxResponseSizeMb: 1024, actForParty: '5' }))).toEqual({
			maxRetries: 10,
			baseDelayMs: 600_000,
			maxDelayMs: 30_000,
			timeoutMs: 600_000,
			maxResponseBytes: 1024 * MB,
		});
		expect(policyFromOptions({ maxRetries: 0, timeoutSeconds: 1.5, maxResponseSizeMb: 0.5 + 0.5 })).toMatchObject({
			maxRetries: 0,
			timeoutMs: 1500,
			maxResponseBytes: MB,
		});
	});

	it('the Maximum Response Size field offers the same range and default', () => {
		expect(maxResponseSizeOption).toMatchObject({
			name: 'maxResponseSizeMb',
			type: 'number',
			default: DEFAULT_MAX_RESPONSE_MB,
			typeOptions: { minValue: 1, maxValue: 1024 },
		});
	});
});
