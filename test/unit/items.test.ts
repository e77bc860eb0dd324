import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { constructExecutionMetaData, returnJsonArray } from 'n8n-core';

import { errorItem, runBatched, runItems } from '../../nodes/shared/node/items';

const node = (onError = 'stopWorkflow') => ({ name: 'Node', type: 'test', onError }) as unknown as INode;

function fakeContext(count: number, continueOnFail: boolean, onError?: string): IExecuteFunctions {
	return {
		getNode: () => node(onError),
		getInputData: () => Array.from({ length: count }, (_, i) => ({ json: { i } })),
		continueOnFail: () => continueOnFail,
		// n8n-core's own item helpers, as a node gets them.
		helpers: { returnJsonArray, constructExecutionMetaData },
	} as unknown as IExecuteFunctions;
}

describe('errorItem', () => {
	it('carries message, hint, status and API code, and the error itself only for the error output', () => {
		const error = new NodeApiError(node(), { message: 'x' }, { message: 'Refused', description: 'Fix it', httpCode: '400', itemIndex: 1 });
		error.context.apiCode = 'Bad';
		expect(errorItem(fakeContext(1, true), error, 1)).toEqual({
			json: { error: 'Refused', description: 'Fix it', httpCode: '400', code: 'Bad' },
			pairedItem: { item: 1 },
		});
		expect(errorItem(fakeContext(1, true, 'continueErrorOutput'), error, 1).error).toBe(error);
		expect(errorItem(fakeContext(1, true, 'continueErrorOutput'), new Error('plain'), 1).error).toBeUndefined();
	});
});

describe('runBatched', () => {
	/** Items 0..n-1; item 1 fails to read; the batch doubles each value; value 3 fails in the batch. */
	const steps = (calls: number[][]) => ({
		read: (itemIndex: number) => {
			if (itemIndex === 1) throw new NodeOperationError(node(), 'Item 1: "Value" is bad', { itemIndex });
			return itemIndex;
		},
		run: async (read: Array<{ itemIndex: number; value: number }>) => {
			calls.push(read.map((entry) => entry.value));
			return read.map(({ value }) => (value === 3 ? { failed: value } : { doubled: [value * 2, value * 2 + 1] }));
		},
		emit: (result: { failed: number } | { doubled: number[] }) =>
			'failed' in result ? [new NodeOperationError(node(), `failed ${result.failed}`, { itemIndex: 0 })] : result.doubled.map((v) => ({ v })),
		outputs: 2,
		route: (_result: unknown, itemIndex: number) => (itemIndex === 2 ? 1 : 0),
	});

	it('reads all items, runs one batch, and answers in input order with pairing; failures become error items', async () => {
		const calls: number[][] = [];
		const [first, second] = await runBatched(fakeContext(4, true), steps(calls));
		expect(calls).toEqual([[0, 2, 3]]);
		expect(first.map((item) => [item.json, item.pairedItem])).toEqual([
			[{ v: 0 }, { item: 0 }],
			[{ v: 1 }, { item: 0 }],
			[{ error: 'Item 1: "Value" is bad' }, { item: 1 }],
			[{ error: 'failed 3' }, { item: 3 }],
		]);
		expect(second.map((item) => [item.json, item.pairedItem])).toEqual([
			[{ v: 4 }, { item: 2 }],
			[{ v: 5 }, { item: 2 }],
		]);
	});

	it('without continueOnFail stops at a bad item before any request', async () => {
		const calls: number[][] = [];
		await expect(runBatched(fakeContext(4, false), steps(calls))).rejects.toThrow('Item 1: "Value" is bad');
		expect(calls).toEqual([]);
	});

	it('without continueOnFail stops at the first failed entry, stamped with its own item', async () => {
		const calls: number[][] = [];
		const ctx = fakeContext(4, false);
		const failing = { ...steps(calls), read: (itemIndex: number) => itemIndex };
		const error = (await runBatched(ctx, failing).catch((e: unknown) => e)) as NodeOperationError;
		expect(error.message).toBe('failed 3');
		expect(error.context.itemIndex).toBe(3);
		expect(calls).toEqual([[0, 1, 2, 3]]);
	});
});

describe('runItems (the one item loop)', () => {
	/** Item 2 (index 2) fails its read; run records the items it was called for. */
	const read = async (itemIndex: number) => {
		if (itemIndex === 2) throw new NodeOperationError(node(), 'Item 3: "Value" is bad', { itemIndex });
		return itemIndex * 10;
	};

	it('checks every item before the first run: a bad item 3 stops the node before items 1-2 run', async () => {
		const ran: number[] = [];
		const run = async (value: number) => {
			ran.push(value);
			return { value };
		};
		await expect(runItems(fakeContext(3, false), read, run)).rejects.toThrow('Item 3: "Value" is bad');
		expect(ran).toEqual([]);
	});

	it("under continueOnFail runs the good items in order, the bad one an error item in its place; a failed run is its item's error", async () => {
		const run = async (value: number, itemIndex: number) => {
			if (itemIndex === 1) throw new Error('the service refused');
			return [{ value }, { value: value + 1 }];
		};
		const out = await runItems(fakeContext(4, true), read, run);
		expect(out.map((item) => [item.json, item.pairedItem])).toEqual([
			[{ value: 0 }, { item: 0 }],
			[{ value: 1 }, { item: 0 }],
			[{ error: 'the service refused' }, { item: 1 }],
			[{ error: 'Item 3: "Value" is bad' }, { item: 2 }],
			[{ value: 30 }, { item: 3 }],
			[{ value: 31 }, { item: 3 }],
		]);
	});

	it('without continueOnFail a failed run stops at its item: the items after it never run', async () => {
		const ran: number[] = [];
		const run = async (_value: number, itemIndex: number) => {
			ran.push(itemIndex);
			if (itemIndex === 0) throw new Error('down');
			return {};
		};
		const error = (await runItems(fakeContext(2, false), async (i) => i, run).catch((e: unknown) => e)) as NodeOperationError;
		expect(error.context.itemIndex).toBe(0);
		expect(ran).toEqual([0]);
	});
});
