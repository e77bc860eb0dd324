'use strict';
/**
 * The nodes as AI tools in the real n8n (issue 40): checkAgentAndMcp() imports the two AI templates through
 * n8n's REST API and proves, against the emulator (in this process):
 *
 *  AI Agent (examples/invoice-assistant.json's agent and tools; a Webhook in place of the Chat Trigger and
 *  the writes wired straight to the agent, since no human approves in a test), driven by a local scripted
 *  OpenAI-compatible chat model (e2e/lib/chatModel.js) through four conversations:
 *   1. overdue unpaid invoices: the model's OData filter reaches the service as sent, and the model is told
 *      how many more exist beyond the 25 shown;
 *   2. a Peppol check of two companies: the "cannot receive" answer reaches the model (it was "" before);
 *   3. a customer's response to a sent invoice: Find orders by its number, then Get delivery status: the
 *      "Refused" answer (not the tool's first output in a workflow) reaches the model;
 *   4. a payment the model records twice (the same call repeated): one payment at the service, and the
 *      model is told the second was already recorded.
 *  MCP Server Trigger (examples/invoicing-mcp-server.json, published): an MCP client (the official SDK,
 *  @modelcontextprotocol/sdk, over Streamable HTTP) lists the tools and calls Check Peppol ("cannot
 *  receive" arrives, it was [] before), Find orders (the "more exist" line) and Get order with a bad
 *  argument (the error names the value and the fix; no request reaches the service).
 *
 *   const { checkAgentAndMcp } = require('./lib/agent');
 *   const figures = await checkAgentAndMcp({ rest, baseUrl, repo, tc, log }); // emulator: its own unless given
 *
 * Resolves with figures; rejects with every problem found (the workflows are unpublished either way).
 */
const crypto = require('node:crypto');
const path = require('node:path');

const { publishWorkflow, unpublishWorkflow } = require('./n8n');
const { startChatModel } = require('./chatModel');

const PKG = 'n8n-nodes-access-point';
const uuid = () => crypto.randomUUID();
const AGENT_PATH = 'ap-agent-e2e';
const MCP_PATH = 'ap-mcp-e2e';

/** @modelcontextprotocol/sdk: this repository's devDependency, else MCP_SDK_DIR (an npm --prefix folder), else n8n's own copy. */
function loadMcpSdk(repo, tc) {
	const paths = [repo, process.env.MCP_SDK_DIR, tc && path.join(tc.n8n.dir, 'node_modules', 'n8n')].filter(Boolean);
	const load = (sub) => require(require.resolve(`@modelcontextprotocol/sdk/${sub}`, { paths }));
	const client = require.resolve('@modelcontextprotocol/sdk/client/index.js', { paths });
	const root = client.slice(0, client.lastIndexOf(`${path.sep}dist${path.sep}`));
	return {
		Client: load('client/index.js').Client,
		StreamableHTTPClientTransport: load('client/streamableHttp.js').StreamableHTTPClientTransport,
		version: require(path.join(root, 'package.json')).version,
		from: root,
	};
}

const isoDay = (date) => date.toISOString().slice(0, 10);
const parse = (content) => {
	try {
		return JSON.parse(content);
	} catch {
		return undefined;
	}
};
/** The records in a tool result as n8n hands it to the model (a JSON list, or one object). */
function records(content) {
	const value = parse(content);
	const list = Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : [];
	return list.map((entry) => (entry && typeof entry === 'object' && entry.json ? entry.json : entry));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Publishes and waits for n8n 2.x's background publication to settle; throws with its message when it failed. */
async function publish(rest, id) {
	await publishWorkflow(rest, id);
	for (let i = 0; i < 120; i++) {
		const st = await rest.get(`/rest/workflows/${id}/publication-status`).catch(() => undefined);
		if (!st || st.status !== 'in_progress') {
			if (st && /error|fail/i.test(String(st.status))) throw new Error(`n8n could not publish workflow ${id}: ${JSON.stringify(st).slice(0, 400)}`);
			return st;
		}
		await sleep(500);
	}
	throw new Error(`the publication of workflow ${id} did not settle in 60 s`);
}

/** The scripted conversations: each the tool calls its question needs, then an answer from the results. */
function conversations(orders) {
	const today = new Date();
	const cutoff = isoDay(new Date(today.getTime() - 30 * 86400000));
	const overdue = `OrderType eq 'Invoice' and OrderDirection eq 'Income' and Paid eq false and ExpiryDate lt DateTime'${cutoff}'`;
	const refused = orders.find((o) => o.OrderType === 'Invoice' && o.OrderDirection === 'Income' && o.OrderStatus === 'Refused');
	const payable = orders.find(
		(o) => o.OrderType === 'Invoice' && o.OrderDirection === 'Income' && !o.Paid && Number(o.ToPay) > 20 && o.OrderNumber !== refused.OrderNumber,
	);
	const payment = { amount: '10.00', payment_date: isoDay(today), reference: `BANK-E2E-${payable.OrderID}` };
	const orderIdIn = (content) => (records(content).find((r) => r && r.OrderID) || {}).OrderID;
	return [
		{
			name: 'overdue unpaid invoices',
			message: 'Which sales invoices are unpaid more than 30 days after their due date?',
			overdue,
			script: ({ results }) =>
				results.length === 0
					? { calls: [{ tool: 'Find orders', args: { filter: overdue, skip: 0 } }] }
					: { text: `Overdue and unpaid: ${records(results[0].content).length} lines. ${results[0].content.slice(0, 400)}` },
		},
		{
			name: 'Peppol check',
			message: 'Can BE0123456749 and 0403.170.701 receive invoices over Peppol?',
			script: ({ results }) =>
				results.length === 0
					? {
							calls: [
								{ tool: 'Check Peppol', args: { identifier: 'BE0123456749' } },
								{ tool: 'Check Peppol', args: { identifier: '0403.170.701' } },
							],
						}
					: { text: results.map((r) => r.content).join(' | ') },
		},
		{
			name: "customer's response to a sent invoice",
			message: `Did the customer accept invoice ${refused.OrderNumber}?`,
			order: refused,
			script: ({ results }) => {
				if (results.length === 0) return { calls: [{ tool: 'Find orders', args: { filter: `OrderNumber eq '${refused.OrderNumber}'`, skip: 0 } }] };
				if (results.length === 1) return { calls: [{ tool: 'Get delivery status', args: { order_id: orderIdIn(results[0].content) } }] };
				return { text: results[1].content };
			},
		},
		{
			name: 'payment recorded once though the model repeats the call',
			message: `Record a payment of 10,00 received today for invoice ${payable.OrderNumber}, bank reference ${payment.reference}.`,
			order: payable,
			payment,
			script: ({ results }) => {
				if (results.length === 0) return { calls: [{ tool: 'Find orders', args: { filter: `OrderNumber eq '${payable.OrderNumber}'`, skip: 0 } }] };
				const args = { order_id: orderIdIn(results[0].content), ...payment };
				// The model calls Record payment, then (as models do after a slow answer) the same call again.
				if (results.length < 3) return { calls: [{ tool: 'Record payment', args }] };
				return { text: results[2].content };
			},
		},
	];
}

/** The assistant template's agent and AccessPoint tools, started by a Webhook, on the scripted model. */
function agentWorkflow(template, { credential, openAi }) {
	const wf = JSON.parse(JSON.stringify(template));
	const keep = wf.nodes.filter((n) => n.type.startsWith(`${PKG}.`) || /\.(agent|lmChatOpenAi)$/.test(n.type));
	const agent = keep.find((n) => n.type.endsWith('.agent'));
	agent.parameters = { ...agent.parameters, promptType: 'define', text: '={{ $json.body.message }}' };
	const model = keep.find((n) => n.type.endsWith('.lmChatOpenAi'));
	model.parameters = { model: { __rl: true, mode: 'id', value: 'e2e-scripted' }, responsesApiEnabled: false, options: {} };
	model.credentials = { openAiApi: { id: openAi.id, name: openAi.name } };
	for (const n of keep) if (n.credentials && n.credentials.accessPointApi) n.credentials.accessPointApi = { id: credential.id, name: credential.name };
	const webhook = {
		id: uuid(),
		name: 'Question',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: uuid(),
		parameters: { httpMethod: 'POST', path: AGENT_PATH, responseMode: 'lastNode', options: {} },
	};
	const connections = {
		Question: { main: [[{ node: agent.name, type: 'main', index: 0 }]] },
		[model.name]: { ai_languageModel: [[{ node: agent.name, type: 'ai_languageModel', index: 0 }]] },
	};
	// The writes straight to the agent: the template's chat approval needs a person in the chat.
	for (const n of keep.filter((x) => x.type.startsWith(`${PKG}.`))) connections[n.name] = { ai_tool: [[{ node: agent.name, type: 'ai_tool', index: 0 }]] };
	return {
		name: '[e2e] AI Agent with the AccessPoint tools (scripted chat model)',
		nodes: [webhook, ...keep],
		connections,
		settings: { executionOrder: 'v1' },
	};
}

function mcpWorkflow(template, { credential }) {
	const wf = JSON.parse(JSON.stringify(template));
	wf.name = '[e2e] Invoicing MCP server';
	for (const n of wf.nodes) {
		if (n.type.endsWith('.mcpTrigger')) {
			n.parameters.path = MCP_PATH;
			n.webhookId = uuid();
		}
		if (n.credentials && n.credentials.accessPointApi) n.credentials.accessPointApi = { id: credential.id, name: credential.name };
	}
	delete wf.active;
	delete wf.pinData;
	return wf;
}

/** Without `emulator`, on an emulator of its own: the set-up changes orders that other steps of e2e/run.js count. */
async function checkAgentAndMcp(options) {
	if (options.emulator) return await runChecks(options);
	const { createEmulator } = require(path.join(options.repo, 'emulator'));
	const emulator = await createEmulator({ port: 0, orders: 300 });
	try {
		return await runChecks({ ...options, emulator });
	} finally {
		await emulator.close();
	}
}

async function runChecks({ rest, baseUrl, emulator: emu, repo, tc, log = () => {} }) {
	const problems = [];
	const figures = {};
	const templates = (file) => require(path.join(repo, 'examples', file));
	// Set-up: 40 sales invoices unpaid and due 45 days ago (the seeded book is mostly recent), so the
	// answer is longer than the tool's 25 and the model must be told how many more exist.
	const due = isoDay(new Date(Date.now() - 45 * 86400000));
	const unpaid = [...emu.store.book(emu.credentials.partyId).values()].filter(
		(o) => o.OrderType === 'Invoice' && o.OrderDirection === 'Income' && o.Paid === false,
	);
	for (const o of unpaid.slice(0, 40)) emu.store.updateOrder(emu.credentials.partyId, o.OrderID, { ExpiryDate: due });
	const orders = [...emu.store.book(emu.credentials.partyId).values()];
	const { apiKey, partyId, baseUrl: emuUrl } = emu.credentials;
	const credential = await rest.post('/rest/credentials', {
		name: 'AccessPoint (AI e2e)',
		type: 'accessPointApi',
		data: { apiKey, partyId, environment: 'custom', baseUrl: emuUrl },
	});
	const talks = conversations(orders);
	const model = await startChatModel({
		script: (user) => (ctx) => (talks.find((t) => t.message === user) || { script: () => ({ text: 'no script' }) }).script(ctx),
	});
	const openAi = await rest.post('/rest/credentials', { name: 'Scripted chat model (e2e)', type: 'openAiApi', data: { apiKey: 'e2e-no-key', url: model.url } });
	const created = [];
	const published = [];
	try {
		// ---- AI Agent ----
		const agentWf = await rest.post('/rest/workflows', agentWorkflow(templates('invoice-assistant.json'), { credential, openAi }));
		created.push(agentWf.id);
		published.push(agentWf.id);
		const status = await publish(rest, agentWf.id);
		log(`AI Agent workflow ${agentWf.id} published (${JSON.stringify(status)}); chat model ${model.url}`);
		for (const talk of talks) {
			emu.clearRequests();
			const seen = model.toolResults.length;
			const t0 = Date.now();
			const res = await fetch(`${baseUrl}/webhook/${AGENT_PATH}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ message: talk.message }),
				signal: AbortSignal.timeout(180000),
			});
			const text = await res.text();
			const results = model.toolResults.slice(seen);
			const requests = emu.requests.map((r) => `${r.method} ${r.path}${r.query && r.query.$filter ? ` $filter=${r.query.$filter}` : ''}`);
			log(
				`"${talk.message}" -> HTTP ${res.status} in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${results.length} tool result(s) to the model; ${requests.length} request(s) at the service`,
			);
			for (const r of results) log(`   ${r.tool}: ${r.content.slice(0, 220)}${r.content.length > 220 ? '…' : ''} (${r.content.length} chars)`);
			log(`   answer: ${text.slice(0, 240)}`);
			const fail = (why) => problems.push(`${talk.name}: ${why}`);
			if (!res.ok) fail(`the webhook answered HTTP ${res.status}: ${text.slice(0, 300)}`);
			if (talk.overdue) {
				const filters = emu.requests.filter((r) => r.path === '/v1/orders').map((r) => r.query.$filter);
				if (!filters.includes(talk.overdue)) fail(`the service did not get the model's filter (${JSON.stringify(filters)})`);
				const cutoff = talk.overdue.match(/DateTime'([^']+)'/)[1];
				const expected = orders.filter((o) => o.OrderType === 'Invoice' && o.OrderDirection === 'Income' && o.Paid === false && o.ExpiryDate < cutoff);
				const content = results[0] ? results[0].content : '';
				// The 25 newest of them (the tool sorts on OrderDate, newest first), each one that matches.
				const wanted = new Set(expected.map((o) => o.OrderID));
				const shown = records(content).filter((r) => r && r.OrderID);
				const stray = shown.filter((r) => !wanted.has(r.OrderID));
				if (shown.length !== Math.min(25, expected.length) || stray.length)
					fail(`the model got ${shown.length} orders (${stray.length} not overdue and unpaid)`);
				if (expected.length <= 25) fail(`the set-up left ${expected.length} overdue invoices, not more than 25`);
				else if (!content.includes(`${expected.length - 25} more exist`)) fail(`the model was not told that ${expected.length - 25} more exist`);
				figures.overdue = { matching: expected.length, resultChars: content.length };
			} else if (talk.name === 'Peppol check') {
				const all = results.map((r) => r.content).join('\n');
				if (results.length !== 2) fail(`expected 2 tool results, got ${results.length}`);
				if (!/"canReceiveInvoice":\s*true/.test(all)) fail('the "can receive" answer did not reach the model');
				if (!/"canReceiveInvoice":\s*false/.test(all) || !all.includes('0403170701'))
					fail('the "cannot receive" answer (0403.170.701) did not reach the model');
			} else if (talk.payment) {
				const pays = emu.requests.filter((r) => r.method === 'POST' && r.path === `/v1/orders/${talk.order.OrderID}/payments`);
				const stored = emu.store.book(partyId).get(talk.order.OrderID);
				const recorded = (stored.Payments || []).filter((p) => String(p.Description || '').includes(talk.payment.reference));
				if (pays.length !== 2) fail(`expected the model's 2 Record payment calls to reach the service, got ${pays.length}`);
				if (recorded.length !== 1) fail(`the payment was recorded ${recorded.length} times`);
				if (!results[2] || !/"AlreadyRecorded":\s*true/.test(results[2].content))
					fail('the repeated call did not tell the model the payment was already recorded');
				figures.payment = { calls: pays.length, recorded: recorded.length };
			} else if (talk.order) {
				const status = results[1] ? results[1].content : '';
				if (!status.includes(String(talk.order.OrderID)) || !/"Status":\s*"Refused"/.test(status))
					fail(`the "Refused" delivery status did not reach the model (${status.slice(0, 200)})`);
			}
			if (!results.length) fail('no tool result reached the model');
		}
		figures.modelRequests = model.requests.length;
		figures.toolDefinitionChars = Math.max(...model.requests.map((r) => JSON.stringify(r.tools || []).length));

		// ---- The assistant template as shipped (Chat Trigger, Human review, Reply): n8n publishes it ----
		const whole = JSON.parse(JSON.stringify(templates('invoice-assistant.json')));
		for (const n of whole.nodes) {
			if (n.credentials && n.credentials.accessPointApi) n.credentials.accessPointApi = { id: credential.id, name: credential.name };
			if (n.type.endsWith('.lmChatOpenAi')) n.credentials = { openAiApi: { id: openAi.id, name: openAi.name } };
		}
		delete whole.active;
		delete whole.pinData;
		const shipped = await rest.post('/rest/workflows', { ...whole, name: '[e2e] Invoice assistant as shipped' });
		created.push(shipped.id);
		published.push(shipped.id);
		const shippedStatus = await publish(rest, shipped.id);
		log(`the assistant template as shipped: published (${JSON.stringify(shippedStatus && shippedStatus.triggers)})`);
		if (!shippedStatus || shippedStatus.status !== 'published') problems.push(`the assistant template did not publish: ${JSON.stringify(shippedStatus)}`);

		// ---- MCP Server Trigger ----
		const mcpWf = await rest.post('/rest/workflows', mcpWorkflow(templates('invoicing-mcp-server.json'), { credential }));
		created.push(mcpWf.id);
		published.push(mcpWf.id);
		await publish(rest, mcpWf.id);
		const sdk = loadMcpSdk(repo, tc);
		log(`MCP workflow ${mcpWf.id} published; client @modelcontextprotocol/sdk ${sdk.version} (${sdk.from}) -> ${baseUrl}/mcp/${MCP_PATH}`);
		const client = new sdk.Client({ name: 'n8n-nodes-access-point-e2e', version: '1.0.0' });
		await client.connect(new sdk.StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/${MCP_PATH}`)));
		try {
			const { tools } = await client.listTools();
			const names = tools.map((t) => t.name);
			log(`MCP tools: ${names.join(', ')}`);
			const want = ['Find_orders', 'Get_order', 'Get_delivery_status', 'Check_Peppol', 'Record_payment', 'Create_credit_note'];
			for (const name of want) if (!names.includes(name)) problems.push(`MCP: the tool ${name} is not listed (${names.join(', ')})`);
			figures.mcpTools = names.length;
			figures.mcpToolDefinitionChars = JSON.stringify(tools).length;
			const call = async (name, args) => {
				const result = await client.callTool({ name, arguments: args });
				const text = (result.content || []).map((c) => c.text || '').join('\n');
				log(
					`MCP ${name}(${JSON.stringify(args)}) -> ${result.isError ? 'ERROR ' : ''}${text.slice(0, 220)}${text.length > 220 ? '…' : ''} (${text.length} chars)`,
				);
				return { text, isError: !!result.isError };
			};
			const peppol = await call('Check_Peppol', { identifier: '0403.170.701' });
			if (!/"canReceiveInvoice":\s*false/.test(peppol.text))
				problems.push(`MCP: Check Peppol's "cannot receive" did not arrive (${peppol.text.slice(0, 200)})`);
			const found = await call('Find_orders', { filter: "OrderType eq 'Invoice'", skip: 0 });
			if (!/more exist: call again with Skip 25/.test(found.text)) problems.push('MCP: Find orders did not say how many more exist');
			emu.clearRequests();
			const bad = await call('Get_order', { order_id: -7 });
			if (!/is not an OrderID\. .*whole number/.test(bad.text))
				problems.push(`MCP: a bad OrderID's error does not say what to send (${bad.text.slice(0, 200)})`);
			if (emu.requests.length) problems.push(`MCP: a bad argument still sent ${emu.requests.length} request(s)`);
		} finally {
			await client.close().catch(() => {});
		}
	} finally {
		for (const id of published) await unpublishWorkflow(rest, id).catch(() => {});
		for (const id of created) await rest.request('DELETE', `/rest/workflows/${id}`).catch(() => {});
		await rest.request('DELETE', `/rest/credentials/${credential.id}`).catch(() => {});
		await rest.request('DELETE', `/rest/credentials/${openAi.id}`).catch(() => {});
		await model.close();
	}
	if (problems.length) throw new Error(problems.join('; '));
	return figures;
}

module.exports = { checkAgentAndMcp, startChatModel, loadMcpSdk };
