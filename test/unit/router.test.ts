import type { IExecuteFunctions, INode, INodeExecutionData, INodeProperties, NodeOperationError } from 'n8n-workflow';
import { constructExecutionMetaData, returnJsonArray } from 'n8n-core';

import { AccessPointIdentification } from '../../nodes/Identification/AccessPointIdentification.node';
import { identification } from '../../nodes/Identification/actions';
import { AccessPointIntegration } from '../../nodes/Integration/AccessPointIntegration.node';
import { integration } from '../../nodes/Integration/actions';
import { AccessPointOrder } from '../../nodes/Order/AccessPointOrder.node';
import { order } from '../../nodes/Order/actions/order';
import { party } from '../../nodes/Order/actions/party';
import { product } from '../../nodes/Order/actions/product';
import { AccessPointPeppolLookup } from '../../nodes/PeppolLookup/AccessPointPeppolLookup.node';
import { peppolLookup } from '../../nodes/PeppolLookup/actions';
import { AccessPointRegistration } from '../../nodes/Registration/AccessPointRegistration.node';
import { registration } from '../../nodes/Registration/actions';
import type { ResourceOperations } from '../../nodes/shared/node/router';
import { describeOperations, router } from '../../nodes/shared/node/router';

const node = { name: 'Node', type: 'test', onError: 'stopWorkflow' } as unknown as INode;

/** A context over a parameter object; no credentials, so any client request fails the test. */
function fakeContext(parameters: Record<string, unknown>, extra: Partial<IExecuteFunctions> = {}): IExecuteFunctions {
	return {
		getNode: () => node,
		getInputData: () => [{ json: {} }],
		continueOnFail: () => false,
		// n8n-core's own item helpers, as a node gets them.
		helpers: { returnJsonArray, constructExecutionMetaData },
		getNodeParameter: (name: string, _item: number, fallback?: unknown) => (name in parameters ? parameters[name] : fallback),
		getCredentials: () => {
			throw new Error('no credential in this test');
		},
		...extra,
	} as unknown as IExecuteFunctions;
}

const nodes: Array<[string, { description: { properties: INodeProperties[] } }, ResourceOperations[]]> = [
	['Registration', new AccessPointRegistration(), [registration]],
	['Integration', new AccessPointIntegration(), [integration]],
	['Identification', new AccessPointIdentification(), [identification]],
	['Peppol Lookup', new AccessPointPeppolLookup(), [peppolLookup]],
	['Order', new AccessPointOrder(), [order, party, product]],
];

describe('operations listed once', () => {
	it.each(nodes)('%s: the Operation options are the list, and every operation file’s fields are in the node', (_name, instance, lists) => {
		const properties = instance.description.properties;
		for (const list of lists) {
			const parameter = properties.find((p) => p.name === 'operation' && (!list.resource || p.displayOptions?.show?.resource?.includes(list.resource.value)));
			expect(parameter?.options).toEqual(list.operations.map(({ name, value, description, action }) => ({ name, value, description, action })));
			expect(parameter?.default).toBe(list.default);
			const names = list.operations.map((entry) => entry.name);
			expect(names).toEqual([...names].sort());
			for (const entry of list.operations) for (const field of entry.module.description) expect(properties).toContain(field);
		}
	});

	it('gives the Resource parameter only to nodes with several resources', () => {
		expect(describeOperations([registration]).some((p) => p.name === 'resource')).toBe(false);
		const resource = describeOperations([order, party, product]).find((p) => p.name === 'resource');
		expect(resource).toMatchObject({ default: 'order', options: [{ value: 'order' }, { value: 'party' }, { value: 'product' }] });
	});
});

describe('router', () => {
	const seen: string[] = [];
	const echo = (tag: string, outputs?: number) => ({
		description: [],
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[] | INodeExecutionData[][]> {
			seen.push(tag);
			const item = { json: { tag } };
			return outputs ? Array.from({ length: outputs }, (_, i) => (i === 0 ? [item] : [])) : [item];
		},
	});
	const books: ResourceOperations = {
		resource: { name: 'Book', value: 'book' },
		default: 'get',
		operations: [
			{ name: 'Get', value: 'get', description: 'd', action: 'Get a book', module: echo('book.get') },
			{ name: 'Split', value: 'split', description: 'd', action: 'Split a book', module: echo('book.split', 2) },
		],
	};
	const pens: ResourceOperations = {
		resource: { name: 'Pen', value: 'pen' },
		default: 'get',
		operations: [{ name: 'Get', value: 'get', description: 'd', action: 'Get a pen', module: echo('pen.get') }],
		guard: (ctx, operation) => {
			throw new Error(`refused ${operation}`);
		},
	};

	beforeEach(() => seen.splice(0));

	it('runs the operation of the chosen resource; one output is wrapped, several are passed on', async () => {
		expect(await router.call(fakeContext({ resource: 'book', operation: 'get' }), [books, pens])).toEqual([[{ json: { tag: 'book.get' } }]]);
		expect(await router.call(fakeContext({ resource: 'book', operation: 'split' }), [books, pens])).toEqual([[{ json: { tag: 'book.split' } }], []]);
		expect(seen).toEqual(['book.get', 'book.split']);
	});

	it('refuses an operation its resource does not list, naming the resource', async () => {
		await expect(router.call(fakeContext({ resource: 'pen', operation: 'split' }), [books, pens])).rejects.toThrow(
			'The operation "split" is not supported for "pen"',
		);
		await expect(router.call(fakeContext({ operation: 'nope' }), [registration])).rejects.toThrow('The operation "nope" is not supported');
		expect(seen).toEqual([]);
	});

	it('a node saved by version 0.1 (Get Many was "getMany") is refused with what to do, not run with its fields dropped', async () => {
		const refused = await router.call(fakeContext({ operation: 'getMany' }), [registration]).then(
			() => undefined,
			(error: NodeOperationError) => error,
		);
		expect(refused?.message).toBe('The operation "getMany" is not supported');
		expect(refused?.description).toMatch(/version 0\.1 .*pick Get Many and set its fields again/);
		expect(seen).toEqual([]);
	});

	it("runs a resource's guard before the operation", async () => {
		await expect(router.call(fakeContext({ resource: 'pen', operation: 'get' }), [books, pens])).rejects.toThrow('refused get');
		expect(seen).toEqual([]);
	});
});

describe('as an AI tool (issue 40): what the model reads', () => {
	const item = (json: object, index: number) => ({ json, pairedItem: { item: index } }) as INodeExecutionData;
	const twoOutputs: ResourceOperations = {
		default: 'check',
		operations: [
			{
				name: 'Check',
				value: 'check',
				description: 'd',
				action: 'Check things',
				module: { description: [], execute: async () => [[item({ yes: 1 }, 1)], [item({ no: 0 }, 0), item({ no: 2 }, 2)]] },
			},
			{ name: 'None', value: 'none', description: 'd', action: 'Find nothing', module: { description: [], execute: async () => [] } },
			{
				name: 'Fail',
				value: 'fail',
				description: 'd',
				action: 'Fail',
				module: {
					description: [],
					execute: async () => {
						throw Object.assign(new Error('"Order" X is not an OrderID.'), { description: 'Search with Get Many first.' });
					},
				},
			},
		],
	};
	// The AI Agent runs the `…Tool` variant in a plain execute context; MCP in a supply-data context.
	const agent = (operation: string) => ({
		...fakeContext({ operation }, { isToolExecution: () => false }),
		getNode: () => ({ ...node, type: 'pkg.nodeTool' }),
	});
	const mcp = (operation: string) => fakeContext({ operation }, { isToolExecution: () => true });
	const workflow = (operation: string) => fakeContext({ operation }, { isToolExecution: () => false });

	it.each([
		['the agent', agent],
		['MCP', mcp],
	])('over %s: every output on the first, in input order; nothing found is said; the hint joins the message', async (_name, ctx) => {
		const merged = await router.call(ctx('check'), [twoOutputs]);
		expect(merged).toEqual([[item({ no: 0 }, 0), item({ yes: 1 }, 1), item({ no: 2 }, 2)]]);
		const empty = await router.call(ctx('none'), [twoOutputs]);
		expect(empty).toEqual([[item({ message: 'Nothing found: "Find nothing" returned no result for these parameters.' }, 0)]]);
		await expect(router.call(ctx('fail'), [twoOutputs])).rejects.toThrow('"Order" X is not an OrderID. Search with Get Many first.');
	});

	it('a tool answer is bounded: at most 100 items and 100 kB of JSON, then how many more were not shown', async () => {
		const many = (count: number, size: number) => ({
			default: 'list',
			operations: [
				{
					name: 'List',
					value: 'list',
					description: 'd',
					action: 'List things',
					module: { description: [], execute: async () => Array.from({ length: count }, (_, index) => item({ index, text: 'x'.repeat(size) }, 0)) },
				},
			],
		});
		const hundred = await router.call(agent('list'), [many(150, 10)]);
		expect(hundred[0]).toHaveLength(101);
		expect(hundred[0][100].json).toEqual({ message: '50 more items not shown (100 items or 100 kB per call): narrow the request' });
		const large = await router.call(mcp('list'), [many(30, 10_000)]);
		expect(large[0].length).toBeLessThan(11);
		expect(large[0].at(-1)?.json.message).toMatch(/^2\d more items not shown/);
		expect(await router.call(workflow('list'), [many(150, 10)])).toEqual([expect.any(Array)]);
		expect((await router.call(workflow('list'), [many(150, 10)]))[0]).toHaveLength(150);
	});

	it('in a workflow the outputs, the empty list and the message stay as they were', async () => {
		expect(await router.call(workflow('check'), [twoOutputs])).toHaveLength(2);
		expect(await router.call(workflow('none'), [twoOutputs])).toEqual([[]]);
		await expect(router.call(workflow('fail'), [twoOutputs])).rejects.toThrow(/^"Order" X is not an OrderID\.$/);
	});
});

describe('Identification through the router', () => {
	it("refuses the waiting operations as an AI tool call (MCP, and the agent's `…Tool` node), before anything runs", async () => {
		for (const operation of ['startAndWait', 'waitForResult']) {
			const ctx = fakeContext({ operation }, { isToolExecution: () => true } as Partial<IExecuteFunctions>);
			await expect(new AccessPointIdentification().execute.call(ctx)).rejects.toThrow('An AI tool call cannot wait');
			const agent = { ...fakeContext({ operation }), getNode: () => ({ ...node, type: 'pkg.accessPointIdentificationTool' }) } as IExecuteFunctions;
			await expect(new AccessPointIdentification().execute.call(agent)).rejects.toThrow('An AI tool call cannot wait');
		}
	});

	it('runs Parse Callback as a tool without a credential, every item on the first output (the one a model reads)', async () => {
		const ctx = fakeContext({ operation: 'parseCallback', callbackQuery: { registrationID: '123', success: 'true' }, options: {} }, {
			isToolExecution: () => true,
		} as Partial<IExecuteFunctions>);
		const outputs = await new AccessPointIdentification().execute.call(ctx);
		expect(outputs).toHaveLength(1);
		expect(outputs[0][0].json).toMatchObject({ identified: true, RegistrationID: 123 });
	});
});
