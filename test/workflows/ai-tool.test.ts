/**
 * Issue 40: the nodes as AI tools, run by n8n-core's WorkflowExecute as n8n 2.x runs a tool the AI Agent
 * calls: the node's `<name>Tool` variant in a plain execute context (isToolExecution() false there).
 * The agent and n8n's MCP wrapper read only a tool's first output, and of an error only its message: so
 * every answer ("cannot receive", "not delivered", "nothing found", "there are more") must be there.
 * The same runs on the node itself (not a tool) keep their outputs as they were.
 */
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('the nodes as AI Agent tools (engine, emulator)', () => {
	let h: Harness;
	let orders: Rec[];

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 200 }, quiet: true });
		orders = [...h.emulator.store.book(h.emulator.credentials.partyId).values()];
	});
	afterAll(async () => {
		await h?.close();
	});
	beforeEach(() => h.emulator.clearRequests());

	const run = async (type: string, parameters: IDataObject, input: IDataObject[] = [{}]) => {
		const result = await h.runNode(type, parameters, input);
		return { result, name: result.nodeName as string };
	};
	const requests = (path: string) => (h.emulator.requests as Array<{ path: string; query: Record<string, string> }>).filter((r) => r.path.startsWith(path));

	it('Peppol Lookup: "cannot receive" reaches the first output (the one the model reads), in input order', async () => {
		const input = [{ id: 'BE0123456749' }, { id: '0403.170.701' }];
		const tool = await run('accessPointPeppolLookupTool', { identifier: '={{ $json.id }}' }, input);
		tool.result.assertSuccess();
		expect(tool.result.outputs(tool.name)).toHaveLength(1);
		expect(tool.result.output(tool.name).map((j) => [j.lookupIdentifier, j.canReceiveInvoice, j.Registered])).toEqual([
			['BE0123456749', true, true],
			['0403170701', false, false],
		]);
		// The node in a workflow: two outputs, Cannot Receive the second.
		const node = await run('accessPointPeppolLookup', { identifier: '={{ $json.id }}' }, input);
		expect(node.result.output(node.name, 0).map((j) => j.lookupIdentifier)).toEqual(['BE0123456749']);
		expect(node.result.output(node.name, 1).map((j) => j.lookupIdentifier)).toEqual(['0403170701']);
	});

	it('Get Delivery Status: "not sent / pending" reaches the first output in the agent\'s context', async () => {
		const draft = orders.find((o) => !o.IsSent) as Rec;
		expect(draft).toBeDefined();
		const tool = await run('accessPointOrderTool', { resource: 'order', operation: 'getDeliveryStatus', orderId: String(draft.OrderID) });
		tool.result.assertSuccess();
		expect(tool.result.output(tool.name)).toEqual([expect.objectContaining({ OrderID: draft.OrderID, Delivered: false })]);
		const node = await run('accessPointOrder', { resource: 'order', operation: 'getDeliveryStatus', orderId: String(draft.OrderID) });
		expect(node.result.output(node.name, 0)).toEqual([]);
		expect(node.result.output(node.name, 1)).toHaveLength(1);
	});

	it('Get Many cut at the Limit says how many more exist and how to read them (Skip); the node alone does not add it', async () => {
		const invoices = orders.filter((o) => o.OrderType === 'Invoice');
		expect(invoices.length).toBeGreaterThan(5);
		const parameters = {
			resource: 'order',
			operation: 'getAll',
			limit: 5,
			filters: { conditions: [{ field: 'OrderType', operator: 'eq', value: 'Invoice' }] },
		};
		const tool = await run('accessPointOrderTool', parameters);
		tool.result.assertSuccess();
		const items = tool.result.output(tool.name);
		expect(items).toHaveLength(6);
		expect(items[5]).toEqual({ message: `5 orders shown, ${invoices.length - 5} more exist: call again with Skip 5, or narrow the filters.` });
		// The filter reached the service as OData.
		expect(requests('/v1/orders')[0].query.$filter).toBe("OrderType eq 'Invoice'");
		// A Limit above 100 in the tool's settings: the answer is still bounded, and says what it left out.
		const next = await run('accessPointOrderTool', { ...parameters, limit: 500 });
		const bounded = next.result.output(next.name);
		expect(bounded).toHaveLength(101);
		expect(bounded[100]).toEqual({ message: `${invoices.length - 100} more items not shown (100 items or 100 kB per call): narrow the request` });
		const node = await run('accessPointOrder', parameters);
		expect(node.result.output(node.name)).toHaveLength(5);
	});

	it("an empty result says it is empty, with the warning the editor would show (a value none of the API's)", async () => {
		const parameters = {
			resource: 'order',
			operation: 'getAll',
			filters: { conditions: [{ field: 'OrderStatus', operator: 'eq', value: '={{ "Unpaid" }}' }] },
		};
		const tool = await run('accessPointOrderTool', parameters);
		tool.result.assertSuccess();
		const [answer, ...rest] = tool.result.output(tool.name);
		expect(rest).toEqual([]);
		expect(answer.message).toMatch(
			/^Nothing found: "Get many orders" returned no result for these parameters\. Order Status "Unpaid" is not one of the API's values \(Draft, ToSend, ToPay/,
		);
		const node = await run('accessPointOrder', parameters);
		expect(node.result.output(node.name)).toEqual([]);
	});

	it('a bad argument: the fix hint is in the error message (the model sees the message only), and no request is made', async () => {
		const tool = await run('accessPointOrderTool', { resource: 'order', operation: 'get', orderId: 'INV-2026-0042' });
		const error = tool.result.nodeError(tool.name) as Error & { description?: string };
		expect(error).toBeDefined();
		expect(error.description).toBeTruthy();
		expect(error.message).toContain(error.description);
		expect(error.message).toMatch(/INV-2026-0042/);
		expect(requests('/v1/order')).toEqual([]);
		const node = await run('accessPointOrder', { resource: 'order', operation: 'get', orderId: 'INV-2026-0042' });
		const plain = node.result.nodeError(node.name) as Error & { description?: string };
		expect(plain.message).not.toContain(plain.description);
	});
});
