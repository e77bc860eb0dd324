'use strict';
/**
 * The AccessPoint Trigger (webhooks) in the real n8n: checkWebhookTrigger() creates a
 * workflow with the trigger through n8n's REST API, publishes it and checks, against the
 * emulator (in this process) and n8n's own execution list:
 *
 *  1. publishing creates exactly the webhooks the events need at the emulator, once, all
 *     pointing at n8n's production webhook URL;
 *  2. N emulator events give exactly N executions, mode webhook, with the right item each;
 *  3. a forged call (another secret) is answered 401 and a replayed call (a delivered body
 *     with its signature, sent again) 200 "already received": neither starts an execution;
 *  4. unpublishing deletes the webhooks at the emulator.
 *
 * Also: the emulator's duplicate fault (the same body again right after the 2xx, while the
 * first execution may still run). How many executions it gives is reported (n8n saves the
 * trigger's record only when the first ends); the steps after the trigger must run once.
 *
 * Needs the credential e2e/lib/templates.js imports (CREDENTIAL) and n8n's WEBHOOK_URL on
 * loopback (e2e/lib/n8n.js n8nEnv), which the emulator accepts over http.
 *
 *   const { checkWebhookTrigger } = require('./lib/webhook');
 *   await step('AccessPoint Trigger ...', () => checkWebhookTrigger({ rest, baseUrl: server.base, emulator: emu, log }));
 *
 * Resolves with figures; rejects with every problem found (the workflow is unpublished either way).
 */
const crypto = require('node:crypto');
const path = require('node:path');

const { CREDENTIAL, PKG, api } = require('./templates');
const { publishWorkflow, unpublishWorkflow } = require('./n8n');

const TRIGGER = 'AccessPoint Trigger (e2e)';
const SUMMARY = 'Event summary';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const uuid = () => crypto.randomUUID();

/** @param {{ id: string, name: string }} [credential] the credential to use (default: the one e2e/lib/templates.js imports) */
function workflowJson(credential = CREDENTIAL) {
	return {
		name: '[e2e] AccessPoint Trigger (webhooks)',
		nodes: [
			{
				id: uuid(),
				name: TRIGGER,
				type: `${PKG}.accessPointTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId: uuid(),
				parameters: { events: ['orderCreated', 'deliveryStatusChanged'], options: { maxRetries: 0, includeFiles: ['pdf'] } },
				credentials: { [CREDENTIAL.type]: { id: credential.id, name: credential.name } },
			},
			{
				id: uuid(),
				name: SUMMARY,
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [240, 0],
				parameters: {
					assignments: {
						assignments: [
							{ id: uuid(), name: 'event', value: '={{ $json.event }}', type: 'string' },
							{ id: uuid(), name: 'OrderID', value: '={{ $json.OrderID }}', type: 'number' },
							{ id: uuid(), name: 'deliveryStatus', value: "={{ $json.deliveryStatus ?? '' }}", type: 'string' },
						],
					},
					options: {},
				},
			},
		],
		connections: { [TRIGGER]: { main: [[{ node: SUMMARY, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** n8n's own `flatted` (execution data is stored flatted). */
function flatted() {
	const { ensureToolchain } = require('../install');
	const dir = ensureToolchain({ browser: false }).n8n.dir;
	return require(require.resolve('flatted', { paths: [path.join(dir, 'node_modules', 'n8n')] }));
}

async function until(what, test, { timeoutMs = 30000, everyMs = 250 } = {}) {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const value = await test();
		if (value) return value;
		if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await sleep(everyMs);
	}
}

/** Executions of the workflow (newest first), as n8n's executions list gives them. */
async function listExecutions(rest, workflowId) {
	const list = await rest.get(`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100`);
	return (list && (list.results || list)) || [];
}

async function readExecution(rest, id, parse) {
	const full = await rest.get(`/rest/executions/${id}`);
	const data = typeof full.data === 'string' ? parse(full.data) : full.data;
	return { ...full, data };
}

async function sendInvoice(emu) {
	const created = await api(emu, 'POST', '/v1/orders', {
		OrderType: 'Invoice',
		OrderDirection: 'Income',
		OrderDate: '2024-03-01',
		Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
		OrderLines: [{ Quantity: 1, Description: 'e2e webhook', UnitPriceExcl: 100, VATPercentage: 21 }],
	});
	const id = Number(created && typeof created === 'object' ? created.OrderID : created);
	await api(emu, 'POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [id] });
	return id;
}

/** The trigger's items of one execution. */
function triggerItems(exec, part = 'json') {
	const runs = (exec.data && exec.data.resultData && exec.data.resultData.runData && exec.data.resultData.runData[TRIGGER]) || [];
	return runs.flatMap((task) => ((task.data && task.data.main && task.data.main[0]) || []).map((i) => i[part]));
}

/**
 * @param {{ rest: import('./n8n').Rest, baseUrl: string, emulator: any, credential?: { id: string, name: string }, log?: (line: string) => void }} options
 */
async function checkWebhookTrigger({ rest, baseUrl, emulator: emu, credential, log = () => {} }) {
	const problems = [];
	const fail = (p) => {
		problems.push(p);
		log(`FAIL ${p}`);
	};
	const parse = flatted().parse;
	const ours = () => emu.webhooks.list().filter((w) => String(w.WebhookURL).startsWith(`${baseUrl}/webhook/`));
	const figures = {};

	const created = await rest.post('/rest/workflows', workflowJson(credential));
	const id = created.id;
	let published = false;
	try {
		// 1. publish: exactly the webhooks the events need, once.
		const t0 = Date.now();
		await publishWorkflow(rest, id);
		published = true;
		await until('the trigger registering 3 webhooks at the emulator', () => ours().length >= 3);
		await sleep(2000); // a second registration (it must not happen) would show by now
		const hooks = ours();
		figures.webhooks = hooks.length;
		const kinds = hooks.map((w) => `${w.EntityType} ${w.EntityUpdateType}`).sort();
		log(`published in ${Date.now() - t0} ms: ${hooks.length} webhooks at the emulator (${kinds.join(', ')}) -> ${hooks[0] ? hooks[0].WebhookURL : '-'}`);
		if (JSON.stringify(kinds) !== JSON.stringify(['Message I', 'Message U', 'Order I'])) fail(`expected webhooks Message I, Message U, Order I; the emulator has ${kinds.join(', ') || 'none'}`);
		const url = hooks[0] && hooks[0].WebhookURL;
		if (hooks.some((w) => w.WebhookURL !== url)) fail('the webhooks call different URLs');

		// 2. N events -> N executions.
		emu.webhooks.clearDeliveries();
		const before = (await listExecutions(rest, id)).length;
		const order = await sendInvoice(emu); // Order I; the send: Message I (no flow state yet), Message U Sent (the service's page "Webhooks")
		emu.delivery.set(order, 'Delivered', { info: 'Delivered to the AP (e2e)' }); // Message I Delivered
		emu.delivery.set(order, 'Refused', { reason: 'REF', info: 'Unknown purchase order (e2e)' }); // Message I Refused
		const expected = [
			['created', ''],
			['deliveryStatusChanged', ''],
			['deliveryStatusChanged', 'Sent'],
			['deliveryStatusChanged', 'Delivered'],
			['deliveryStatusChanged', 'Refused'],
		];
		const n = expected.length;
		await emu.webhooks.settle();
		const deliveries = emu.webhooks.deliveries();
		const calls = deliveries.reduce((sum, d) => sum + d.attempts.length, 0);
		log(`${n} events: ${deliveries.length} deliveries, ${calls} calls, answers ${deliveries.map((d) => d.attempts.map((a) => a.status).join('+')).join(', ')}`);
		if (deliveries.some((d) => d.state !== 'delivered')) fail(`not every delivery succeeded: ${deliveries.map((d) => d.state).join(', ')}`);
		await until(`${n} executions`, async () => {
			const all = await listExecutions(rest, id);
			return all.length - before >= n && all.every((r) => !['running', 'new'].includes(r.status));
		});
		await sleep(3000); // anything extra would show by now
		const all = await listExecutions(rest, id);
		const rows = all.slice(0, all.length - before);
		figures.executions = rows.length;
		if (rows.length !== n) fail(`${n} events gave ${rows.length} executions`);
		const got = [];
		for (const row of rows) {
			const exec = await readExecution(rest, row.id, parse);
			if (exec.status !== 'success') fail(`execution ${row.id} ended "${exec.status}"`);
			if (exec.mode !== 'webhook') fail(`execution ${row.id} has mode "${exec.mode}"`);
			const items = triggerItems(exec);
			if (items.length !== 1) fail(`execution ${row.id}: the trigger emitted ${items.length} items`);
			for (const item of items) {
				got.push([item.event, item.deliveryStatus || '']);
				if (item.OrderID !== order) fail(`execution ${row.id}: OrderID ${item.OrderID}, expected ${order}`);
				if (!item.payload || typeof item.payload !== 'object' || !item.receivedAt) fail(`execution ${row.id}: item without payload or receivedAt`);
				if (item.deliveryStatus === 'Refused' && item.refusedReason !== 'REF') fail(`execution ${row.id}: refusedReason ${item.refusedReason}`);
			}
		}
		const sort = (list) => list.map((x) => x.join(':')).sort();
		log(`${rows.length} executions (mode webhook): ${sort(got).join(', ')}`);
		// Include Files (Main PDF): each item carries the order's PDF as binary data, read in webhook()
		// (in queue mode: by the webhook process, stored in n8n's binary data store, passed on by a worker).
		const pdf = emu.files.get(emu.files.refs(order).OrderPDF.FileID);
		const binaries = [];
		for (const row of rows) binaries.push(...triggerItems(await readExecution(rest, row.id, parse), 'binary'));
		const withPdf = binaries.filter((b) => b && b.pdf && b.pdf.fileName === pdf.FileName && b.pdf.mimeType === 'application/pdf' && (b.pdf.bytes === undefined || b.pdf.bytes === pdf.content.length));
		figures.itemsWithPdf = withPdf.length;
		const sample = withPdf[0] && withPdf[0].pdf;
		log(`Include Files: ${withPdf.length} of ${binaries.length} item(s) carry the order's PDF (${pdf.FileName}, ${pdf.content.length} bytes${sample ? `; n8n shows ${sample.fileSize}${sample.id ? `, stored as ${String(sample.id).split(':')[0]}` : ''}` : ''})`);
		if (withPdf.length !== n) fail(`${withPdf.length} of ${n} items carry the order's PDF ${pdf.FileName}`);
		if (JSON.stringify(sort(got)) !== JSON.stringify(sort(expected))) fail(`items ${sort(got).join(', ')}; expected ${sort(expected).join(', ')}`);

		// 3. forged and replayed calls start nothing.
		const seen = new Set((await listExecutions(rest, id)).map((row) => row.id));
		const delivered = deliveries.find((d) => d.EntityType === 'Message' && d.state === 'delivered' && JSON.parse(d.body).Status);
		const attempt = delivered.attempts[delivered.attempts.length - 1];
		const forgedBody = JSON.stringify({ ...JSON.parse(delivered.body), EventID: 987654321 });
		const t = Math.floor(Date.now() / 1000);
		const forgedSig = `t=${t},s=${crypto.createHmac('sha256', 'not-the-secret').update(`${t}.${forgedBody}`).digest('hex')}`;
		const post = async (body, signature) => {
			const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'billit-signature': signature }, body });
			return { status: res.status, text: (await res.text()).slice(0, 200) };
		};
		const forged = await post(forgedBody, forgedSig);
		const replayed = await post(delivered.body, attempt.signature);
		log(`forged call -> HTTP ${forged.status} ${forged.text}; replayed call -> HTTP ${replayed.status} ${replayed.text}`);
		if (forged.status !== 401) fail(`a forged call was answered ${forged.status}`);
		if (replayed.status !== 200) fail(`a replayed call was answered ${replayed.status} ${replayed.text}`);
		await sleep(3000);
		const fresh = (await listExecutions(rest, id)).filter((row) => !seen.has(row.id));
		// The replay is refused in webhook() when the trigger's static data already holds the event. Executions
		// that end together each save their own copy of static data (last one wins), and on a queue-mode worker
		// the trigger keeps no record there, so a replay can also start an execution; the trigger then passes
		// nothing on (n8n's deduplication store): no step after it runs.
		let replayPassedOn = 0;
		for (const row of fresh) replayPassedOn += triggerItems(await readExecution(rest, row.id, parse)).length;
		figures.afterForgedAndReplayed = `${fresh.length} execution(s), ${replayPassedOn} item(s) passed on`;
		log(`after the forged and replayed calls: ${figures.afterForgedAndReplayed} (replay ${/already received/i.test(replayed.text) ? 'refused in webhook()' : 'stopped by the deduplication store'})`);
		if (fresh.length > 1) fail(`forged and replayed calls started ${fresh.length} executions`);
		if (replayPassedOn) fail(`the replayed event was passed on again (${replayPassedOn} item(s))`);

		// The emulator's duplicate fault sends the same body again right after the 2xx, usually while
		// the first execution still runs; n8n saves the trigger's record of the event only when that
		// execution ends (see nodes/AccessPointTrigger/record.ts).
		const beforeDuplicate = (await listExecutions(rest, id)).length;
		emu.webhooks.clearDeliveries();
		emu.webhooks.failNext(1, 'duplicate');
		await api(emu, 'POST', '/v1/orders', { OrderType: 'Invoice', OrderDirection: 'Income', OrderDate: '2024-03-02', Customer: { Name: 'Duplicate NV' }, OrderLines: [{ Quantity: 1, Description: 'dup', UnitPriceExcl: 1, VATPercentage: 21 }] });
		await emu.webhooks.settle();
		await sleep(3000);
		const [dup] = emu.webhooks.deliveries();
		const latest = await listExecutions(rest, id);
		const dupRows = latest.slice(0, latest.length - beforeDuplicate);
		let passedOn = 0;
		let summaries = 0;
		for (const row of dupRows) {
			const exec = await readExecution(rest, row.id, parse);
			passedOn += triggerItems(exec).length;
			if (exec.data.resultData.runData[SUMMARY]) summaries++;
		}
		figures.duplicateFaultExecutions = dupRows.length;
		figures.duplicateFaultItemsPastTrigger = passedOn;
		log(
			`emulator duplicate fault (same body right after the 2xx, answers ${dup ? dup.attempts.map((a) => a.status).join('+') : '-'}): ` +
				`${dupRows.length} execution(s), ${passedOn} item(s) passed on by the trigger, "${SUMMARY}" ran ${summaries} time(s)`,
		);
		// The steps after the trigger run once per event even then (n8n's deduplication store, record.ts).
		if (passedOn !== 1 || summaries !== 1) fail(`a duplicated event reached the steps after the trigger ${summaries} time(s)`);

		// 4. unpublish: the webhooks are gone at the emulator.
		await unpublishWorkflow(rest, id);
		published = false;
		await until('the webhooks to be deleted at the emulator', () => ours().length === 0).catch((e) => fail(e.message));
		figures.webhooksAfterUnpublish = ours().length;
		log(`unpublished: ${ours().length} webhooks left at the emulator`);
	} finally {
		if (published) await unpublishWorkflow(rest, id).catch(() => {});
	}
	if (problems.length) throw new Error(problems.join('; '));
	return figures;
}

module.exports = { checkWebhookTrigger, workflowJson, TRIGGER };
