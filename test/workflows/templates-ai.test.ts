/**
 * The AI templates (issue 40): examples/invoice-assistant.json (Chat Trigger → AI Agent, read tools, writes
 * behind n8n's chat approval) and examples/invoicing-mcp-server.json (MCP Server Trigger, the same tools).
 * n8n's AI nodes are not in n8n-core, so the harness checks the templates' AccessPoint tools: each is our
 * node's `…Tool` variant with parameters the node defines, a description for the model, every `$fromAI`
 * value described and typed; and each tool runs in n8n-core's WorkflowExecute as the AI Agent runs it (the
 * model's arguments are the tool node's input item) against the emulator. The real-n8n run with a chat
 * model and an MCP client is e2e/lib/agent.js.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { traverseNodeParameters } from 'n8n-workflow';

import { AI_TEMPLATES, loadTemplate } from '../../scripts/demo';
import { createHarness } from '../harness';
import type { Harness, WorkflowJson } from '../harness';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Node = WorkflowJson['nodes'][number] & { parameters: Rec };

const PKG = 'n8n-nodes-access-point';
const READS = ['Find orders', 'Get order', 'Get delivery status', 'Check Peppol', 'Find customer by VAT', 'List Peppol inbox', 'List registrations'];
const WRITES = ['Create and send invoice', 'Record payment', 'Create credit note', 'Confirm inbox item', 'Refuse inbox item', 'Mark as exported'];

const template = (file: string): WorkflowJson => loadTemplate(file) as WorkflowJson;
const toolsOf = (wf: WorkflowJson) => wf.nodes.filter((n) => n.type.startsWith(`${PKG}.`)) as Node[];
const fromAi = (node: Node) => {
	const found: Array<{ key: string; description?: string; type?: string }> = [];
	traverseNodeParameters(node.parameters as never, found as never);
	return found;
};
const targets = (wf: WorkflowJson, name: string) =>
	((wf.connections as Rec)[name]?.ai_tool ?? []).flat().map((c: { node: string; type: string }) => `${c.type}→${c.node}`);

describe('the AI templates (examples/invoice-assistant.json, examples/invoicing-mcp-server.json)', () => {
	let h: Harness;
	let orders: Rec[];

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 300 }, quiet: true });
		orders = [...h.emulator.store.book(h.emulator.credentials.partyId).values()];
	});
	afterAll(async () => {
		await h?.close();
	});

	it('are the two AI templates, left out of the engine-run demo', () => {
		expect(AI_TEMPLATES).toEqual(['invoice-assistant.json', 'invoicing-mcp-server.json']);
	});

	describe.each(AI_TEMPLATES)('%s', (file) => {
		const wf = template(file);

		it('is an n8n export with a setup note, no instance ids and the same tools as its sibling', () => {
			expect(Object.keys(wf).sort()).toEqual(['active', 'connections', 'name', 'nodes', 'pinData', 'settings', 'tags']);
			expect(wf.settings).toEqual({ executionOrder: 'v1' });
			const note = wf.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote' && /### Set up/.test(String(n.parameters?.content)));
			expect(note).toBeDefined();
			expect(new Set(wf.nodes.map((n) => n.id)).size).toBe(wf.nodes.length);
			expect(toolsOf(wf).map((n) => n.name)).toEqual([...READS, ...WRITES]);
		});

		it("each AccessPoint tool is a usableAsTool node's Tool variant, with only parameters the node defines and a description for the model", () => {
			for (const node of toolsOf(wf)) {
				const base = node.type.replace(/Tool$/, '');
				expect(node.type).toBe(`${base}Tool`);
				const description = h.nodeTypes.getByNameAndVersion(base, node.typeVersion).description;
				expect(description.usableAsTool).toBe(true);
				const names = new Set(description.properties.map((p: INodeProperties) => p.name));
				for (const key of Object.keys(node.parameters)) {
					if (key === 'descriptionType' || key === 'toolDescription') continue;
					expect(`${node.name}: ${key} ${names.has(key) ? 'defined' : 'UNDEFINED'}`).toBe(`${node.name}: ${key} defined`);
				}
				expect(node.parameters.descriptionType).toBe('manual');
				expect(String(node.parameters.toolDescription).length).toBeGreaterThan(60);
				expect(node.credentials).toEqual({ accessPointApi: { id: '', name: 'AccessPoint account' } });
			}
		});

		it('every value the model fills ($fromAI) has a description and a type', () => {
			for (const node of toolsOf(wf)) {
				for (const argument of fromAi(node)) {
					expect(argument.key).toMatch(/^[a-z_]{2,30}$/);
					expect(`${node.name}.${argument.key}: ${argument.description ?? ''}`.length).toBeGreaterThan(node.name.length + argument.key.length + 20);
					expect(['string', 'number', 'boolean', 'json']).toContain(argument.type);
				}
			}
			const keys = (name: string) => fromAi(wf.nodes.find((n) => n.name === name) as Node).map((a) => a.key);
			expect(keys('Find orders')).toEqual(['filter', 'skip']);
			expect(keys('Record payment')).toEqual(['order_id', 'amount', 'payment_date', 'reference']);
		});
	});

	it('the assistant: read tools go to the agent, the writes only through the chat approval (n8n Human review)', () => {
		const wf = template('invoice-assistant.json');
		for (const name of READS) expect(targets(wf, name)).toEqual(['ai_tool→AI Agent']);
		for (const name of WRITES) expect(targets(wf, name)).toEqual(['ai_tool→Approve in chat']);
		expect(targets(wf, 'Approve in chat')).toEqual(['ai_tool→AI Agent']);
		expect(wf.nodes.find((n) => n.name === 'Approve in chat')?.type).toBe('@n8n/n8n-nodes-langchain.chatHitlTool');
	});

	it('the MCP server: every tool is served by the MCP Server Trigger', () => {
		const wf = template('invoicing-mcp-server.json');
		for (const name of [...READS, ...WRITES]) expect(targets(wf, name)).toEqual(['ai_tool→MCP Server Trigger']);
	});

	describe('the tools run as the AI Agent runs them (arguments on the input item)', () => {
		const wf = template('invoice-assistant.json');
		const run = async (name: string, args: IDataObject) => {
			const node = wf.nodes.find((n) => n.name === name) as Node;
			h.emulator.clearRequests();
			const result = await h.runNode(node.type, JSON.parse(JSON.stringify(node.parameters)), [args], { name });
			return { result, items: result.output(name) as Rec[] };
		};

		it("Find orders: the model's OData filter reaches the service as given; 25 at a time, the rest counted with the Skip to read it", async () => {
			const filter = "OrderType eq 'Invoice' and OrderDirection eq 'Income' and Paid eq false";
			const { result, items } = await run('Find orders', { filter, skip: 0 });
			result.assertSuccess();
			const expected = orders.filter((o) => o.OrderType === 'Invoice' && o.OrderDirection === 'Income' && o.Paid === false);
			expect(expected.length).toBeGreaterThan(25);
			const [request] = (h.emulator.requests as Array<{ path: string; query: Rec }>).filter((r) => r.path === '/v1/orders');
			expect(request.query.$filter).toBe(filter);
			expect(items).toHaveLength(26);
			expect(items[25]).toEqual({ message: `25 orders shown, ${expected.length - 25} more exist: call again with Skip 25, or narrow the filters.` });
		});

		it('Check Peppol: a company not on Peppol is an answer the model reads (not an empty first output)', async () => {
			const { items } = await run('Check Peppol', { identifier: '0403.170.701' });
			expect(items).toEqual([expect.objectContaining({ canReceiveInvoice: false, Registered: false })]);
		});

		it('Record payment repeated by the model with the same reference is recorded once', async () => {
			const invoice = orders.find((o) => o.OrderType === 'Invoice' && o.OrderDirection === 'Income' && !o.Paid && Number(o.ToPay) > 20) as Rec;
			const args = { order_id: invoice.OrderID, amount: '10.00', payment_date: '2026-03-02', reference: 'BANK-2026-0001' };
			const first = await run('Record payment', args);
			first.result.assertSuccess();
			const again = await run('Record payment', args);
			again.result.assertSuccess();
			expect(again.items).toEqual([expect.objectContaining({ OrderID: invoice.OrderID, AlreadyRecorded: true })]);
			const stored = h.emulator.store.book(h.emulator.credentials.partyId).get(invoice.OrderID) as Rec;
			// The published payment is {Amount, Description, Date}: the bank reference travels in its Description
			expect(stored.Payments.filter((p: Rec) => String(p.Description).includes('ref. BANK-2026-0001'))).toEqual([
				expect.objectContaining({ Amount: 10, Date: '2026-03-02' }),
			]);
		});

		it('a bad argument: the model reads what to send instead, and no request is made', async () => {
			const { result } = await run('Get order', { order_id: 'INV-2026-0042' });
			const error = result.nodeError('Get order') as Error;
			expect(error.message).toMatch(/"Order" INV-2026-0042 is not an OrderID\. .*whole number/);
			expect(h.emulator.requests).toEqual([]);
		});
	});
});
