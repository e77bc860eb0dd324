'use strict';
/**
 * Measure 3: the Order Trigger's scheduled poll (n8n-core's PollTriggerExecutor
 * through the harness poller, one poller kept alive as n8n keeps an active workflow).
 * Each round: a poll with nothing new, then 1,000 new orders (7 per second of
 * LastModified) and a poll that emits them. Requests are counted by the emulator;
 * time is the node's poll() call, set against a bare fetch of the very same
 * request URLs (taken from the emulator's log) right after.
 */
const { ctl, worker, settle, instrument, harnessFor, runsWanted } = require('../lib/common');

worker(async () => {
	const control = process.env.BENCH_CONTROL;
	const emu = JSON.parse(process.env.BENCH_EMU);
	const runs = runsWanted();
	const creds = emu.credentials;
	const headers = { apikey: creds.apiKey, partyID: creds.partyId, accept: 'application/json' };
	const NEW = 1000;

	const h = await harnessFor(creds);
	const nodeType = h.nodeTypes.getByNameAndVersion('n8n-nodes-access-point.accessPointOrderTrigger');
	const timer = instrument(nodeType, 'poll');
	const poller = h.poller({
		type: 'accessPointOrderTrigger',
		parameters: { event: 'newOrUpdatedOrder', orderType: '', direction: '', options: {} },
	});

	const logged = () => ctl(control, 'trigger', 'requests', { method: 'GET', pathPrefix: '/v1/orders' });
	/** Fetches the same URLs the node asked for, one after the other. */
	async function replay(list) {
		const t0 = performance.now();
		for (const r of list) {
			const url = new URL(r.path, emu.url);
			for (const [k, v] of Object.entries(r.query)) url.searchParams.set(k, v);
			const res = await fetch(url, { headers });
			JSON.parse(await res.text());
			if (!res.ok) throw new Error(`replay: HTTP ${res.status}`);
		}
		return performance.now() - t0;
	}

	// Activation: the first poll sets the cursor at the newest change.
	await poller.poll();
	// New orders after the newest seeded one, in the emulator's clock (a month back, see run.js): a
	// change newer than the API's Date minus 60 s would be read again by every poll until it is older.
	let second = Math.floor((await ctl(control, 'trigger', 'now')) / 1000) + 3600;

	const rounds = [];
	for (let i = 0; i <= runs; i++) {
		settle();
		await ctl(control, 'trigger', 'clear');
		const idle = await poller.poll();
		if (idle.items !== null) throw new Error(`idle poll emitted ${idle.items.length} items`);
		const idleRequests = await logged();
		const idleMs = timer.last().ms;
		const idleBare = await replay(idleRequests);

		await ctl(control, 'trigger', 'addOrders', { count: NEW, firstSecond: second, perSecond: 7 });
		second += Math.ceil(NEW / 7) + 10;
		settle();
		await ctl(control, 'trigger', 'clear');
		const busy = await poller.poll();
		const emitted = busy.items ? busy.items.length : 0;
		if (emitted !== NEW) throw new Error(`poll after ${NEW} new orders emitted ${emitted}`);
		const busyRequests = await logged();
		const busyMs = timer.last().ms;
		const busyBare = await replay(busyRequests);
		if (i > 0) {
			rounds.push({
				idle: { requests: idleRequests.length, ms: idleMs, bareMs: idleBare },
				busy: { requests: busyRequests.length, ms: busyMs, bareMs: busyBare, emitted },
			});
		}
	}
	await h.close();
	return { rounds };
});
