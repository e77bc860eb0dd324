'use strict';
/**
 * Measure 6: the AccessPoint Trigger (webhooks), event to execution, on loopback. In the
 * harness (test/harness/webhookTrigger.js plays n8n's live-webhooks service: webhook() in
 * n8n-core's WebhookContext, then WorkflowExecute), with the emulator in the host process
 * delivering signed calls as the service does. Per event: an order is created through the
 * emulator's API; the emulator POSTs the signed event to the trigger's URL; the trigger
 * verifies it and the execution starts. Times (Date.now(), one machine clock):
 *  - sent -> started: the emulator's POST began (its delivery log) -> the execution started;
 *  - change -> started: the API call that created the order was sent -> the execution started.
 * One event at a time, after 5 warm-up events. The Order Trigger's reference is its poll
 * interval: n8n's shortest is every minute, so a change waits up to 60 s (30 s on average)
 * plus the poll itself.
 */
const path = require('node:path');
const { ROOT, worker, harnessFor, runsWanted } = require('../lib/common');

const WARM_UP = 5;

worker(async () => {
	const emu = JSON.parse(process.env.BENCH_EMU);
	const events = Math.max(40, runsWanted() * 5);
	const h = await harnessFor(emu.credentials);
	const { webhookTrigger } = require(path.join(ROOT, 'test', 'harness', 'webhookTrigger'));
	const t = await webhookTrigger(h, { type: 'accessPointTrigger', parameters: { events: ['orderCreated'], options: {} } });
	await t.activate();
	const headers = { apikey: emu.credentials.apiKey, partyID: emu.credentials.partyId, 'content-type': 'application/json' };
	const order = (i) => ({
		OrderType: 'Invoice',
		OrderDirection: 'Income',
		OrderDate: '2024-03-01',
		Customer: { Name: `Bench ${i}` },
		OrderLines: [{ Quantity: 1, Description: 'bench', UnitPriceExcl: 1, VATPercentage: 21 }],
	});

	const samples = [];
	for (let i = 0; i < WARM_UP + events; i++) {
		const before = t.executions.length;
		const changeAt = Date.now();
		const res = await fetch(`${emu.url}/v1/orders`, { method: 'POST', headers, body: JSON.stringify(order(i)) });
		if (!res.ok) throw new Error(`create order: HTTP ${res.status}`);
		await res.text();
		const runs = await t.waitForExecutions(before + 1, { timeoutMs: 10000 });
		const run = runs[before];
		const item = run.output(t.nodeName)[0];
		if (i >= WARM_UP) samples.push({ changeAt, startedAt: run.startedAt, receivedAt: run.receivedAt, orderId: item.payload.UpdatedEntityID });
	}
	const log = await (await fetch(`${emu.url}/_emulator/webhooks/deliveries`)).json();
	const deliveries = Array.isArray(log) ? log : log.Items || log.deliveries || [];
	const sentAt = new Map(deliveries.filter((d) => d.EntityType === 'Order').map((d) => [d.OrderID, Date.parse(d.attempts[0].at)]));
	const rows = samples.map((s) => ({
		sentToStarted: s.startedAt - sentAt.get(s.orderId),
		changeToStarted: s.startedAt - s.changeAt,
		receivedToStarted: s.startedAt - s.receivedAt,
	}));
	if (rows.some((r) => !Number.isFinite(r.sentToStarted))) throw new Error('an execution without its delivery in the emulator log');
	await t.deactivate();
	await t.close();
	await h.close();
	return { events: rows.length, rows, executions: t.executions.length - WARM_UP };
});
