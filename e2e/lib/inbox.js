'use strict';
/**
 * The Peppol Inbox Trigger in the real n8n: checkInboxTrigger() creates a workflow (the trigger,
 * polling every 5 seconds, with Confirm After Emitting, then a Set node a user would branch on),
 * publishes it through n8n's REST API and checks, against the emulator in this process:
 *
 *  1. a customer refuses one of our sent invoices (the emulator's delivery flow puts the IMR in
 *     the inbox): exactly one execution, whose item says RE / rejected, the invoice number and
 *     the reason, with the IMR as binary data, and the Set node reads the same;
 *  2. the next poll confirms the item at the emulator (the inbox is empty again);
 *  3. later polls start nothing more (the item is never emitted twice);
 *  4. a queue holding a hostile document (an invoice with 10,000 unused namespace declarations: beyond the reader's
 *     limit of 100 attributes on an element) and one over Maximum File Size (1 MB here) between two good invoices
 *     (issue 37): each of the four emitted once, the good ones read (their numbers), the hostile and the oversized one
 *     each with its DocumentProblem; the next poll confirms the two read, not the bad ones (refused here afterwards),
 *     and nothing is emitted again.
 * The workflow is unpublished either way. Resolves with figures; rejects with every problem.
 *
 *   const { checkInboxTrigger } = require('./lib/inbox');
 *   await step('Peppol Inbox Trigger ...', () => checkInboxTrigger({ rest, emulator: emu, log }));
 */
const crypto = require('node:crypto');

const { CREDENTIAL, PKG, api } = require('./templates');
const { hostileUbl } = require('../../emulator/documents');
const { publishWorkflow, unpublishWorkflow } = require('./n8n');
const { waitForExecution, executionIds } = require('./oauth');

const TRIGGER = 'Peppol Inbox Trigger (e2e)';
const ACT = 'What the customer said';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const uuid = () => crypto.randomUUID();

/** Every 5 seconds (n8n's custom cron with seconds), so the check takes seconds, not minutes. */
const EVERY_5_SECONDS = { item: Array.from({ length: 12 }, (_, i) => ({ mode: 'custom', cronExpression: `${i * 5} * * * * *` })) };

function workflowJson() {
	const set = (name, value, type = 'string') => ({ id: uuid(), name, value, type });
	return {
		name: '[e2e] Peppol Inbox Trigger (IMR)',
		nodes: [
			{
				id: uuid(),
				name: TRIGGER,
				type: `${PKG}.accessPointInboxTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: EVERY_5_SECONDS, confirmAfterEmitting: true, options: { maxRetries: 0, maxFileSizeMb: 1 } },
				credentials: { [CREDENTIAL.type]: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
			},
			{
				id: uuid(),
				name: ACT,
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [240, 0],
				parameters: {
					assignments: {
						assignments: [
							set('refused', "={{ $json.Response?.Code === 'RE' }}", 'boolean'),
							set('invoice', '={{ $json.Response?.InvoiceNumber }}'),
							set('reason', '={{ $json.Response?.ReasonText }}'),
						],
					},
					options: {},
				},
			},
		],
		connections: { [TRIGGER]: { main: [[{ node: ACT, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

async function until(what, test, timeoutMs) {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const value = await test();
		if (value) return value;
		if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await sleep(250);
	}
}

const nodeItems = (exec, name, part = 'json') =>
	((exec.data && exec.data.resultData && exec.data.resultData.runData && exec.data.resultData.runData[name]) || []).flatMap((task) =>
		((task.data && task.data.main && task.data.main[0]) || []).map((i) => i[part]),
	);

/** An execution with its data, once it has ended (else undefined). */
async function finished(rest, executionId) {
	const { parse } = require('flatted');
	const full = await rest.get(`/rest/executions/${executionId}`);
	if (!['success', 'error', 'crashed', 'canceled'].includes(full.status)) return undefined;
	return { ...full, data: typeof full.data === 'string' ? parse(full.data) : full.data };
}

/** @param {{ rest: import('./n8n').Rest, emulator: any, log?: (line: string) => void }} options */
async function checkInboxTrigger({ rest, emulator: emu, log = () => {} }) {
	const problems = [];
	const fail = (p) => {
		problems.push(p);
		log(`FAIL ${p}`);
	};
	const party = emu.credentials.partyId;
	// Earlier steps (the webhook check refuses an invoice) leave responses in the inbox: start empty.
	for (const item of emu.inbox.items(party)) await api(emu, 'POST', `/v1/peppol/inbox/${item.InboxItemID}/confirm`);
	const figures = {};
	const created = await rest.post('/rest/workflows', workflowJson());
	const id = created.id;
	const before = await executionIds(rest, id);
	const polls = () => emu.requests.filter((r) => r.method === 'GET' && r.path === '/v1/peppol/inbox').length;
	try {
		const polled = polls();
		await publishWorkflow(rest, id);
		await until('the trigger polling the inbox', () => polls() > polled, 30000);

		// 1. A customer refuses one of our invoices: its IMR arrives in the inbox.
		const orderId = Number(
			await api(emu, 'POST', '/v1/orders', {
				OrderType: 'Invoice',
				OrderDirection: 'Income',
				OrderDate: '2024-03-01',
				Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
				OrderLines: [{ Quantity: 2, Description: 'e2e inbox', UnitPriceExcl: 150, VATPercentage: 21 }],
			}),
		);
		await api(emu, 'POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [orderId] });
		const { OrderNumber } = await api(emu, 'GET', `/v1/orders/${orderId}`);
		const reason = 'No purchase order matches this invoice (e2e)';
		emu.delivery.set(orderId, 'Refused', { reason: 'REF', info: reason });
		const [imr] = emu.inbox.items(party);
		if (!imr || imr.PeppolDocumentType !== 'IMR') throw new Error(`the emulator's inbox has no IMR: ${JSON.stringify(emu.inbox.items(party)).slice(0, 300)}`);
		const t0 = Date.now();
		const exec = await waitForExecution(rest, id, { after: before, timeoutMs: 60000 });
		figures.secondsToExecution = Math.round((Date.now() - t0) / 100) / 10;
		if (exec.status !== 'success') fail(`the execution ended "${exec.status}"`);
		const items = nodeItems(exec, TRIGGER);
		const [item] = items;
		const [binary] = nodeItems(exec, TRIGGER, 'binary');
		const [acted] = nodeItems(exec, ACT);
		log(
			`execution ${exec.id} (${exec.mode}) ${figures.secondsToExecution} s after the refusal: ${items.length} item(s); ${JSON.stringify(item && item.Response).slice(0, 400)}`,
		);
		log(`the workflow read: ${JSON.stringify(acted)}`);
		if (items.length !== 1) fail(`the trigger emitted ${items.length} items`);
		if (!item || item.InboxItemID !== imr.InboxItemID || item.DocumentKind !== 'IMR') fail(`the item is not the IMR ${imr.InboxItemID}`);
		const response = (item && item.Response) || {};
		if (response.Code !== 'RE' || !/rejected/i.test(String(response.Meaning))) fail(`Response.Code ${response.Code}, Meaning ${response.Meaning}`);
		if (response.InvoiceNumber !== OrderNumber) fail(`Response.InvoiceNumber ${response.InvoiceNumber}, expected ${OrderNumber}`);
		if (!String(response.ReasonText).includes(reason)) fail(`Response.ReasonText "${response.ReasonText}" lacks the reason`);
		if (!binary || !binary.data || binary.data.mimeType !== 'application/xml')
			fail(`the item carries no XML document (binary: ${JSON.stringify(binary).slice(0, 200)})`);
		if (!acted || acted.refused !== true || acted.invoice !== OrderNumber || !String(acted.reason).includes(reason))
			fail(`the Set node read ${JSON.stringify(acted)}`);

		// 2. The next poll confirms it.
		await until('the IMR confirmed at the emulator', () => emu.inbox.confirmed().some((c) => c.InboxItemID === imr.InboxItemID), 30000);
		figures.confirmedAfterSeconds = Math.round((Date.now() - t0) / 100) / 10;
		if (emu.inbox.items(party).length) fail(`the inbox still holds ${emu.inbox.items(party).length} item(s)`);

		// 3. Nothing more.
		const pollsBefore = polls();
		await until('two more polls', () => polls() >= pollsBefore + 2, 20000);
		const after = await executionIds(rest, id);
		figures.executions = [...after].filter((e) => !before.has(e)).length;
		log(`confirmed ${figures.confirmedAfterSeconds} s after the refusal; ${polls() - pollsBefore} poll(s) since: ${figures.executions} execution(s) in all`);
		if (figures.executions !== 1) fail(`${figures.executions} executions for one inbox item`);

		// 4. Good, hostile, oversized, good: each once, the bad ones with their problem; one bad document holds back nothing.
		const seen = await executionIds(rest, id);
		const MB = 1024 * 1024;
		const queue = [
			['good', emu.inbox.receive({ orderNumber: 'E2E-GOOD-1' })],
			['hostile', emu.inbox.receive({ xml: hostileUbl('xmlns', 0.9 * MB, { number: 'E2E-HOSTILE' }) })],
			['oversized', emu.inbox.receive({ xml: hostileUbl('plain', 1.5 * MB, { number: 'E2E-OVERSIZED' }) })],
			['good', emu.inbox.receive({ orderNumber: 'E2E-GOOD-2' })],
		];
		const t4 = Date.now();
		const emitted = await until(
			'the four queued documents emitted',
			async () => {
				const ids = [...(await executionIds(rest, id))].filter((e) => !seen.has(e));
				const execs = await Promise.all(ids.map((e) => finished(rest, e)));
				if (execs.some((e) => !e)) return undefined;
				const got = execs.flatMap((e) => nodeItems(e, TRIGGER));
				return got.length >= queue.length ? { got, execs } : undefined;
			},
			60000,
		);
		figures.queueSeconds = Math.round((Date.now() - t4) / 100) / 10;
		const got = emitted.got;
		log(
			`queue: ${got.length} item(s) in ${emitted.execs.length} execution(s), ${figures.queueSeconds} s: ${JSON.stringify(got.map((i) => [i.InboxItemID, i.Invoice && i.Invoice.Number, i.DocumentProblem && i.DocumentProblem.slice(0, 90)]))}`,
		);
		for (const e of emitted.execs) if (e.status !== 'success') fail(`a queue execution ended "${e.status}"`);
		const ids = got.map((i) => i.InboxItemID);
		if (JSON.stringify(ids) !== JSON.stringify(queue.map(([, q]) => q.InboxItemID))) fail(`the queue came out as ${JSON.stringify(ids)}`);
		queue.forEach(([what, q]) => {
			const item = got.find((i) => i.InboxItemID === q.InboxItemID) || {};
			const number = item.Invoice && item.Invoice.Number;
			const expected = { hostile: /^The document is beyond what is read: more than 100 attributes/, oversized: /above Maximum File Size|larger than 1 MB/ }[
				what
			];
			if (expected) {
				if (!expected.test(String(item.DocumentProblem)) || number) fail(`the ${what} document's problem: ${item.DocumentProblem} (Invoice.Number ${number})`);
			} else if (item.DocumentProblem || !number) fail(`the ${what} document ${q.InboxItemID}: ${item.DocumentProblem || 'no Invoice.Number'}`);
		});
		await until(
			'the two read confirmed',
			() => queue.every(([what, q]) => what !== 'good' || emu.inbox.confirmed().some((c) => c.InboxItemID === q.InboxItemID)),
			30000,
		);
		const bad = [queue[1][1], queue[2][1]];
		for (const q of bad)
			if (!emu.inbox.items(party).some((i) => i.InboxItemID === q.InboxItemID)) fail(`the bad document ${q.InboxItemID} was confirmed (it was not read)`);
		const pollsNow = polls();
		await until('two more polls', () => polls() >= pollsNow + 2, 20000);
		const later = [...(await executionIds(rest, id))].filter((e) => !seen.has(e));
		if (later.length !== emitted.execs.length) fail(`${later.length - emitted.execs.length} more execution(s) after the queue was emitted`);
		const left = emu.inbox.items(party).map((i) => i.InboxItemID);
		for (const q of bad) if (left.includes(q.InboxItemID)) await api(emu, 'POST', `/v1/peppol/inbox/${q.InboxItemID}/refuse`, { RefusalReason: 'OTH' });
	} finally {
		await unpublishWorkflow(rest, id).catch((e) => fail(`unpublish failed: ${e.message}`));
	}
	if (problems.length) throw new Error(problems.join('; '));
	return figures;
}

module.exports = { checkInboxTrigger, workflowJson, TRIGGER };
