'use strict';
/**
 * The AccessPoint Trigger (webhooks) in the real n8n: checkWebhookTrigger() creates a
 * workflow with the trigger through n8n's REST API, publishes it and checks, against the
 * emulator (in this process) and n8n's own execution list:
 *
 *  1. publishing creates exactly the webhooks the events need at the emulator, once, all
 *     pointing at n8n's production webhook URL; the confirmation each gets starts nothing;
 *  2. N emulator events (the service's published shapes) give exactly N executions, mode
 *     webhook, with the right item each: the flow state, the refusal text;
 *  3. the published "Refused" example, signed, starts one execution with its flow state and
 *     refusal text;
 *  4. a forged call (another secret) is answered 401; a replayed call (a delivered body with
 *     its signature, sent again) starts at most an execution that passes nothing on;
 *  5. restart (when the caller can restart n8n): a webhook deleted at the service while n8n
 *     was down is made again at start-up, and its events arrive again;
 *  6. unpublishing deletes the webhooks at the emulator;
 *  7. a workflow asking for every event, Order Deleted included (5 webhooks, 4 allowed), and one the party has no room for
 *     fail to publish before any webhook is made, with the message n8n shows after its
 *     background publication (its publication status).
 *
 * Also: the emulator's duplicate fault (the same body again right after the 2xx, while the
 * first execution may still run): the steps after the trigger must run once.
 *
 * Needs the credential e2e/lib/templates.js imports (CREDENTIAL) and n8n's WEBHOOK_URL on
 * loopback (e2e/lib/n8n.js n8nEnv), which the emulator accepts over http.
 *
 *   const { checkWebhookTrigger } = require('./lib/webhook');
 *   await step('AccessPoint Trigger ...', () => checkWebhookTrigger({ rest, baseUrl: server.base, emulator: emu, log, restart }));
 *   // restart: async () => stops n8n and starts it again on the same port and folder
 *
 * Resolves with figures; rejects with every problem found (the workflow is unpublished either way).
 */
const crypto = require('node:crypto');
const path = require('node:path');

const { CREDENTIAL, PKG, api } = require('./templates');
const { publishWorkflow, unpublishWorkflow } = require('./n8n');

const TRIGGER = 'AccessPoint Trigger (e2e)';
const FIXTURES = require('../../test/fixtures/webhook-payloads.json');
const SUMMARY = 'Event summary';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const uuid = () => crypto.randomUUID();

/**
 * @param {{ id: string, name: string }} [credential] the credential to use (default: the one e2e/lib/templates.js imports)
 * @param {string[]} [events]
 */
function workflowJson(credential = CREDENTIAL, events = ['orderCreated', 'deliveryStatusChanged']) {
	return {
		name: `[e2e] AccessPoint Trigger (webhooks) ${events.join(', ')}`,
		nodes: [
			{
				id: uuid(),
				name: TRIGGER,
				type: `${PKG}.accessPointTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId: uuid(),
				parameters: { events, options: { maxRetries: 0, includeFiles: ['pdf'] } },
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
							{ id: uuid(), name: 'refusedReason', value: "={{ $json.refusedReason ?? '' }}", type: 'string' },
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

/** Resolves once the emulator has logged no request for quietMs (at most timeoutMs). */
async function quiet(emu, { quietMs = 1500, timeoutMs = 30000 } = {}) {
	const end = Date.now() + timeoutMs;
	let seen = emu.requests.length;
	let since = Date.now();
	while (Date.now() < end && Date.now() - since < quietMs) {
		await new Promise((r) => setTimeout(r, 100));
		if (emu.requests.length !== seen) [seen, since] = [emu.requests.length, Date.now()];
	}
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

/** The publication status n8n shows once its background publication settled (n8n 2.x). */
async function settledPublication(rest, id) {
	return await until(
		'n8n to settle the publication',
		async () => {
			const st = await rest.get(`/rest/workflows/${id}/publication-status`);
			return st && st.status !== 'in_progress' ? st : undefined;
		},
		{ timeoutMs: 60000, everyMs: 500 },
	);
}

/**
 * @param {{ rest: import('./n8n').Rest, baseUrl: string, emulator: any, credential?: { id: string, name: string }, log?: (line: string) => void,
 *   restart?: (whileDown: () => Promise<unknown>) => Promise<import('./n8n').Rest> }} options
 *   restart: stops n8n, runs whileDown, starts n8n again (same folder and port) and answers a logged-in client
 */
async function checkWebhookTrigger({ rest: firstRest, baseUrl, emulator: emu, credential, log = () => {}, restart }) {
	let rest = firstRest;
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
		if (JSON.stringify(kinds) !== JSON.stringify(['Message I', 'Message U', 'Order I']))
			fail(`expected webhooks Message I, Message U, Order I; the emulator has ${kinds.join(', ') || 'none'}`);
		const url = hooks[0] && hooks[0].WebhookURL;
		if (hooks.some((w) => w.WebhookURL !== url)) fail('the webhooks call different URLs');
		await emu.webhooks.settle();
		const confirmations = emu.webhooks.deliveries({ confirmations: true }).filter((d) => d.confirmation);
		log(
			`the service's confirmation at create: ${confirmations.length} calls answered ${confirmations.map((d) => d.attempts.map((a) => a.status).join('+')).join(', ')}`,
		);
		if (confirmations.length !== 3 || confirmations.some((d) => d.state !== 'delivered'))
			fail(`the confirmations were not all answered 2xx: ${confirmations.map((d) => d.state).join(', ')}`);
		if ((await listExecutions(rest, id)).length) fail('a confirmation started an execution');

		// 2. N events -> N executions, in the service's published shapes.
		emu.webhooks.clearDeliveries();
		const before = (await listExecutions(rest, id)).length;
		const order = await sendInvoice(emu); // Order I, Message I, Message U (Sent)
		emu.delivery.set(order, 'Delivered', { info: 'Delivered to the AP (e2e)' }); // Message I Delivered
		emu.delivery.set(order, 'Refused', { reason: 'REF', info: 'Unknown purchase order (e2e)' }); // Message I Refused
		const expected = [
			['created', '', ''],
			['deliveryStatusChanged', '', ''],
			['deliveryStatusChanged', 'Sent', ''],
			['deliveryStatusChanged', 'Delivered', ''],
			['deliveryStatusChanged', 'Refused', 'Unknown purchase order (e2e)'],
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
				got.push([item.event, item.deliveryStatus || '', item.refusedReason || '']);
				if (item.OrderID !== order) fail(`execution ${row.id}: OrderID ${item.OrderID}, expected ${order}`);
				if (!item.payload || typeof item.payload !== 'object' || !item.receivedAt) fail(`execution ${row.id}: item without payload or receivedAt`);
				if (item.event === 'deliveryStatusChanged' && item.payload.UpdatedEntityType !== 'Message')
					fail(`execution ${row.id}: payload not in the published wrapper`);
			}
		}
		const sort = (list) => list.map((x) => x.join(':')).sort();
		log(`${rows.length} executions (mode webhook): ${sort(got).join(', ')}`);
		// Include Files (Main PDF): each item carries the order's PDF as binary data, read in webhook()
		// (in queue mode: by the webhook process, stored in n8n's binary data store, passed on by a worker).
		const pdf = emu.files.get(emu.files.refs(order).OrderPDF.FileID);
		const binaries = [];
		for (const row of rows) binaries.push(...triggerItems(await readExecution(rest, row.id, parse), 'binary'));
		const withPdf = binaries.filter(
			(b) =>
				b &&
				b.pdf &&
				b.pdf.fileName === pdf.FileName &&
				b.pdf.mimeType === 'application/pdf' &&
				(b.pdf.bytes === undefined || b.pdf.bytes === pdf.content.length),
		);
		figures.itemsWithPdf = withPdf.length;
		const sample = withPdf[0] && withPdf[0].pdf;
		log(
			`Include Files: ${withPdf.length} of ${binaries.length} item(s) carry the order's PDF (${pdf.FileName}, ${pdf.content.length} bytes${sample ? `; n8n shows ${sample.fileSize}${sample.id ? `, stored as ${String(sample.id).split(':')[0]}` : ''}` : ''})`,
		);
		if (withPdf.length !== n) fail(`${withPdf.length} of ${n} items carry the order's PDF ${pdf.FileName}`);
		if (JSON.stringify(sort(got)) !== JSON.stringify(sort(expected))) fail(`items ${sort(got).join(', ')}; expected ${sort(expected).join(', ')}`);

		// 3. the published "Refused" example (the page's older form), signed with the Message U webhook's secret.
		const secretOf = (w) => emu.webhooks.hub.hooks.get(w.WebhookID).secret;
		const messageU = ours().find((w) => w.EntityType === 'Message' && w.EntityUpdateType === 'U');
		const exampleBody = JSON.stringify({
			...FIXTURES.messageRefusedOlderForm,
			EntityDetail: { ...FIXTURES.messageRefusedOlderForm.EntityDetail, OrderID: order },
		});
		const sign = (secret, body, t = Math.floor(Date.now() / 1000)) => `t=${t},s=${crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
		const post = async (body, signature) => {
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...(signature ? { 'billit-signature': signature } : {}) },
				body,
			});
			return { status: res.status, text: (await res.text()).slice(0, 200) };
		};
		const beforeExample = (await listExecutions(rest, id)).length;
		const example = await post(exampleBody, sign(secretOf(messageU), exampleBody));
		await until(
			"the published example's execution",
			async () =>
				(await listExecutions(rest, id)).length > beforeExample && (await listExecutions(rest, id)).every((r) => !['running', 'new'].includes(r.status)),
		);
		const [exampleRow] = await listExecutions(rest, id);
		const exampleItems = triggerItems(await readExecution(rest, exampleRow.id, parse));
		const ex = exampleItems[0] || {};
		figures.publishedExample = `${ex.flowState}: ${ex.refusedReason}`;
		log(
			`the published Refused example -> HTTP ${example.status}, ${exampleItems.length} item: flowState ${ex.flowState}, refusedReason "${ex.refusedReason}", OrderID ${ex.OrderID}`,
		);
		if (exampleItems.length !== 1 || ex.flowState !== 'Refused' || ex.refusedReason !== 'No Valid VAT' || ex.OrderID !== order)
			fail(`the published example gave ${JSON.stringify(exampleItems).slice(0, 300)}`);

		// 4. forged and replayed calls pass nothing on.
		const seen = new Set((await listExecutions(rest, id)).map((row) => row.id));
		const delivered = deliveries.find((d) => d.EntityType === 'Message' && d.state === 'delivered');
		const attempt = delivered.attempts[delivered.attempts.length - 1];
		const forgedBody = JSON.stringify({ ...JSON.parse(delivered.body), UpdatedEntityID: 987654321 });
		const forged = await post(forgedBody, sign('not-the-secret', forgedBody));
		const replayed = await post(delivered.body, attempt.signature);
		log(`forged call -> HTTP ${forged.status} ${forged.text}; replayed call -> HTTP ${replayed.status} ${replayed.text}`);
		if (forged.status !== 401) fail(`a forged call was answered ${forged.status}`);
		if (replayed.status !== 200) fail(`a replayed call was answered ${replayed.status} ${replayed.text}`);
		await sleep(3000);
		const fresh = (await listExecutions(rest, id)).filter((row) => !seen.has(row.id));
		// A replay starts an execution; the trigger passes nothing on in it (n8n's deduplication store).
		let replayPassedOn = 0;
		for (const row of fresh) replayPassedOn += triggerItems(await readExecution(rest, row.id, parse)).length;
		figures.afterForgedAndReplayed = `${fresh.length} execution(s), ${replayPassedOn} item(s) passed on`;
		log(`after the forged and replayed calls: ${figures.afterForgedAndReplayed}`);
		if (fresh.length > 1) fail(`forged and replayed calls started ${fresh.length} executions`);
		if (replayPassedOn) fail(`the replayed event was passed on again (${replayPassedOn} item(s))`);

		// The emulator's duplicate fault sends the same body again right after the 2xx, usually while
		// the first execution still runs (see nodes/AccessPointTrigger/receive.ts).
		const beforeDuplicate = (await listExecutions(rest, id)).length;
		emu.webhooks.clearDeliveries();
		emu.webhooks.failNext(1, 'duplicate');
		await api(emu, 'POST', '/v1/orders', {
			OrderType: 'Invoice',
			OrderDirection: 'Income',
			OrderDate: '2024-03-02',
			Customer: { Name: 'Duplicate NV' },
			OrderLines: [{ Quantity: 1, Description: 'dup', UnitPriceExcl: 1, VATPercentage: 21 }],
		});
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
		// The steps after the trigger run once per event even then (n8n's deduplication store, receive.ts).
		if (passedOn !== 1 || summaries !== 1) fail(`a duplicated event reached the steps after the trigger ${summaries} time(s)`);

		// 5. restart with a webhook deleted at the service while n8n was down.
		if (restart) {
			const beforeRestart = ours();
			const gone = beforeRestart.find((w) => w.EntityType === 'Message' && w.EntityUpdateType === 'I');
			emu.clearRequests();
			rest = await restart(async () => emu.webhooks.hub.remove(gone.WebhookID));
			await until('n8n to make the deleted webhook again at start-up', () => ours().length === beforeRestart.length, { timeoutMs: 90000, everyMs: 500 }).catch(
				(e) => fail(e.message),
			);
			const after = ours();
			const atStart = emu.requests.filter((r) => /\/webhooks/.test(r.path)).map((r) => `${r.method} ${r.path} ${r.status}`);
			figures.restart = `${after.length} webhooks after start-up (was ${beforeRestart.length}, 1 deleted while down); requests ${atStart.join(', ')}`;
			log(`restart with Message I deleted at the service: ${figures.restart}`);
			if (after.some((w) => beforeRestart.some((b) => b.WebhookID === w.WebhookID)))
				fail('the webhooks left after the restart were not replaced by a complete new set');
			const beforeEvents = (await listExecutions(rest, id)).length;
			await sendInvoice(emu); // Order I, Message I, Message U again
			await emu.webhooks.settle();
			await until('3 executions after the restart', async () => (await listExecutions(rest, id)).length - beforeEvents >= 3).catch((e) => fail(e.message));
		} else {
			log('restart: not checked (the caller gave no way to restart n8n)');
		}

		// 6. unpublish: the webhooks are gone at the emulator.
		await unpublishWorkflow(rest, id);
		published = false;
		await until('the webhooks to be deleted at the emulator', () => ours().length === 0).catch((e) => fail(e.message));
		figures.webhooksAfterUnpublish = ours().length;
		log(`unpublished: ${ours().length} webhooks left at the emulator`);

		// 7. refused before any webhook is made, as n8n shows it after its background publication.
		const refusedPublish = async (label, events, setUp) => {
			const wf = await rest.post('/rest/workflows', workflowJson(credential, events));
			const made = await setUp();
			// Earlier steps' executions (Include Files reads the order and its files) may still be running: wait until the emulator is quiet.
			await emu.webhooks.settle();
			await quiet(emu);
			emu.clearRequests();
			try {
				await publishWorkflow(rest, wf.id).catch(() => undefined);
				const st = await settledPublication(rest, wf.id);
				const message = ((st.triggers || []).find((t) => t.errorMessage) || {}).errorMessage || '';
				const creates = emu.requests.filter((r) => r.method === 'POST' && /\/webhooks$/.test(r.path)).length;
				// Other steps' published poll triggers (Order Trigger, Peppol Inbox Trigger) share this emulator: their polls are not this trigger's,
				// nor are reads of an order or its files (only an execution makes those; publication talks to /v1/webhooks alone).
				const polls = emu.requests.filter((r) => r.method === 'GET' && /^\/v1\/(orders|order|files|peppol\/inbox)(\/|$|\?)/.test(r.path));
				const ours = emu.requests.filter((r) => !polls.includes(r));
				log(
					`${label}: publication ${st.status}, ${creates} webhook(s) created, ${ours.length} request(s) (${ours.map((r) => `${r.method} ${r.path}`).join(', ') || 'none'}; other workflows' polls beside: ${polls.length}); n8n shows: ${message}`,
				);
				return { status: st.status, message, creates, requests: ours.length };
			} finally {
				await unpublishWorkflow(rest, wf.id).catch(() => {});
				for (const w of made) emu.webhooks.hub.remove(w);
			}
		};
		const legacy = await refusedPublish(
			'every event, Order Deleted included (5 webhooks, 4 allowed)',
			['orderCreated', 'orderUpdated', 'orderDeleted', 'deliveryStatusChanged'],
			async () => [],
		);
		figures.orderDeletedRefusal = legacy.message;
		if (legacy.status !== 'failed' || !/^"Events" needs 5 webhooks; the service allows 4 per party/.test(legacy.message) || legacy.requests !== 0)
			fail(`Order Deleted: ${JSON.stringify(legacy)}`);
		const noRoom = await refusedPublish('a party with 3 webhooks of other tools', ['deliveryStatusChanged'], async () => {
			const ids = [];
			for (const suffix of ['a', 'b', 'c']) {
				const w = await api(emu, 'POST', '/v1/webhooks', { EntityType: 'Order', EntityUpdateType: 'U', WebhookURL: `https://erp.example.test/${suffix}` });
				ids.push(w.WebhookID);
			}
			return ids;
		});
		figures.limitMessage = noRoom.message;
		if (
			noRoom.status !== 'failed' ||
			noRoom.creates !== 0 ||
			!/already has 3 webhooks .*erp\.example\.test\/a.*which allows 4 per party; this trigger needs 2 \(Message I, Message U\)\. Delete webhooks no longer used/.test(
				noRoom.message,
			)
		) {
			fail(`the limit: ${JSON.stringify(noRoom)}`);
		}
	} finally {
		if (published) await unpublishWorkflow(rest, id).catch(() => {});
	}
	if (problems.length) throw new Error(problems.join('; '));
	return figures;
}

module.exports = { checkWebhookTrigger, workflowJson, TRIGGER };
