'use strict';
/**
 * Measure 1: Return All over the 12,000 orders of the emulator.
 *
 * Each round runs, in rotating order, with a full GC before each:
 *  - bare:    a plain fetch loop over the pages, following NextpageLink (the physical limit);
 *  - helper:  the same loop through n8n's own outbound HTTP client (what every node's
 *             this.helpers.httpRequest* ends in: axios, a new agent per request), outside
 *             any node: the floor for a node that must use n8n's helpers;
 *  - order:   the AccessPoint Order node, Order › Get Many › Return All, in the engine;
 *  - http:    n8n's HTTP Request node (latest 4.x) with pagination as a user sets it up for
 *             this API (next URL = {{ $response.body.NextpageLink }}, complete when it is
 *             missing, headers apikey/partyID), followed by a Split Out on Items so the
 *             workflow yields the same 12,000 items.
 * A node's time is its execute() call in the engine (what n8n shows as the node's
 * execution time), wall clock and CPU of this process; the emulator runs in another.
 */
const path = require('node:path');
const { createRequire } = require('node:module');

const { ctl, worker, settle, instrument, harnessFor, rotation, bareList, runsWanted } = require('../lib/common');

worker(async () => {
	const control = process.env.BENCH_CONTROL;
	const emu = JSON.parse(process.env.BENCH_EMU);
	const expected = Number(process.env.BENCH_ORDERS);
	const runs = runsWanted();
	const creds = emu.credentials;
	const headers = { apikey: creds.apiKey, partyID: creds.partyId, accept: 'application/json' };

	// The harness keeps every execution it ran; a fresh one per run keeps the heap flat.
	// Node types are loaded once per process, so the timers below stay in place.
	const h = await harnessFor(creds);
	const orderType = h.nodeTypes.getByNameAndVersion('n8n-nodes-access-point.accessPointOrder');
	const httpVersion = h.nodeTypes.latestVersion('n8n-nodes-base.httpRequest');
	const httpType = h.nodeTypes.getByNameAndVersion('n8n-nodes-base.httpRequest', httpVersion);
	const splitType = h.nodeTypes.getByNameAndVersion('n8n-nodes-base.splitOut', h.nodeTypes.latestVersion('n8n-nodes-base.splitOut'));
	const orderTimer = instrument(orderType, 'execute');
	const httpTimer = instrument(httpType, 'execute');
	const splitTimer = instrument(splitType, 'execute');

	const orderWorkflow = h.chain([
		{ type: 'accessPointOrder', name: 'Orders', parameters: { resource: 'order', operation: 'getAll', returnAll: true, simplify: false } },
	]);
	const httpWorkflow = h.chain([
		{
			type: 'httpRequest',
			name: 'HTTP Request',
			typeVersion: httpVersion,
			parameters: {
				method: 'GET',
				url: `${emu.url}/v1/orders`,
				sendHeaders: true,
				headerParameters: {
					parameters: [
						{ name: 'apikey', value: creds.apiKey },
						{ name: 'partyID', value: creds.partyId },
					],
				},
				options: {
					pagination: {
						pagination: {
							paginationMode: 'responseContainsNextURL',
							nextURL: '={{ $response.body.NextpageLink }}',
							paginationCompleteWhen: 'other',
							completeExpression: '={{ !$response.body.NextpageLink }}',
						},
					},
				},
			},
		},
		{ type: 'splitOut', name: 'Split Out', parameters: { fieldToSplitOut: 'Items' } },
	]);

	// n8n's outbound HTTP client, from the same Container n8n-core uses.
	const coreRequire = createRequire(require.resolve('n8n-core/package.json', { paths: [path.join(__dirname, '..', '..')] }));
	const { Container } = coreRequire('@n8n/di');
	const { OutboundHttp } = coreRequire('@n8n/backend-network');
	const outbound = Container.get(OutboundHttp).requests();

	const count = () => ctl(control, 'orders', 'count', { method: 'GET', pathPrefix: '/v1/orders' });
	const variants = {
		async bare() {
			const cpu0 = process.cpuUsage();
			const t0 = performance.now();
			const r = await bareList(emu.url, '/v1/orders', headers);
			const ms = performance.now() - t0;
			const cpu = process.cpuUsage(cpu0);
			if (r.items.length !== expected) throw new Error(`bare loop got ${r.items.length} orders`);
			return { ms, cpuMs: (cpu.user + cpu.system) / 1000, requests: r.requests, bytes: r.bytes };
		},
		async helper() {
			const cpu0 = process.cpuUsage();
			const t0 = performance.now();
			let url = `${emu.url}/v1/orders`;
			const items = [];
			while (url) {
				const res = await outbound.request({
					method: 'GET',
					url,
					headers: { ...headers },
					json: true,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				});
				if (res.statusCode !== 200) throw new Error(`helper loop: HTTP ${res.statusCode}`);
				for (const item of res.body.Items) items.push(item); // kept, like the bare loop and the nodes
				url = res.body.NextpageLink;
			}
			const ms = performance.now() - t0;
			const cpu = process.cpuUsage(cpu0);
			if (items.length !== expected) throw new Error(`helper loop got ${items.length} orders`);
			return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
		},
		async order() {
			const run = await harnessFor(creds);
			const t0 = performance.now();
			const result = await run.run(orderWorkflow);
			const runMs = performance.now() - t0;
			result.assertSuccess();
			const n = result.items('Orders').length;
			await run.close();
			if (n !== expected) throw new Error(`Order node output ${n} items`);
			const call = orderTimer.last();
			return { ms: call.ms, cpuMs: call.cpuMs, runMs };
		},
		async http() {
			const run = await harnessFor(creds);
			const t0 = performance.now();
			const result = await run.run(httpWorkflow);
			const runMs = performance.now() - t0;
			result.assertSuccess();
			const pages = result.items('HTTP Request').length;
			const n = result.items('Split Out').length;
			await run.close();
			if (n !== expected) throw new Error(`HTTP Request + Split Out output ${n} items (${pages} pages)`);
			const call = httpTimer.last();
			const split = splitTimer.last();
			return { ms: call.ms, cpuMs: call.cpuMs, withSplitMs: call.ms + split.ms, withSplitCpuMs: call.cpuMs + split.cpuMs, runMs, pages };
		},
	};
	const names = Object.keys(variants);

	const rounds = [];
	for (let i = 0; i <= runs; i++) {
		const round = {};
		for (const k of rotation(i, names.length)) {
			const name = names[k];
			settle();
			await ctl(control, 'orders', 'clear');
			round[name] = await variants[name]();
			round[name].requests = await count();
		}
		if (i > 0) rounds.push(round); // round 0 is the warm-up
	}
	// A slow server: every page answered after 20 ms (the emulator's latency), bare loop against the node (pages in parallel).
	await ctl(control, 'orders', 'config', { latencyMs: 20 });
	const slow = [];
	for (let i = 0; i <= Math.min(runs, 5); i++) {
		const round = {};
		for (const k of rotation(i, 2)) {
			const name = ['bare', 'order'][k];
			settle();
			await ctl(control, 'orders', 'clear');
			round[name] = await variants[name]();
			round[name].requests = await count();
		}
		if (i > 0) slow.push(round);
	}
	await ctl(control, 'orders', 'config', { latencyMs: 0 });
	await h.close();
	return { rounds, slow, httpVersion };
});
