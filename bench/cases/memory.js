'use strict';
/**
 * Measure 2: peak memory of one Return All over the 12,000 orders, in a fresh
 * process per run (argv[2]: 'order' for the AccessPoint Order node, 'http' for
 * the HTTP Request node with pagination + Split Out, 'bare' for a plain fetch loop
 * keeping the 12,000 orders in an array: the reference).
 *
 * Method (node --expose-gc):
 *  1. load the harness and run the node once on a one-record request, so every
 *     module it needs is loaded; drop that harness;
 *  2. two full GCs, then the baseline: process.memoryUsage() heapUsed + external
 *     (external includes ArrayBuffers such as socket Buffers), and rss;
 *  3. sample process.memoryUsage() every millisecond (setInterval) and once more
 *     when the node's execute() returns, keeping the maxima ("peak" = garbage
 *     not yet collected included, as the process really holds it);
 *  4. at that moment also force a GC: "retained" = what the node's output keeps.
 * Only the node's execution is measured, not the harness's JSON copy of the
 * finished execution (n8n persists executions its own way).
 */
const { worker, settle, instrument, harnessFor, bareList } = require('../lib/common');
const { level, sampler } = require('../lib/memory');

/** The same measurement around a bare fetch loop (same harness loaded, so the same baseline kind). */
async function bare(emu, expected) {
	const creds = emu.credentials;
	const headers = { apikey: creds.apiKey, partyID: creds.partyId, accept: 'application/json' };
	const h = await harnessFor(creds);
	await bareList(emu.url, '/v1/orders?$top=1&$skip=11999', headers);
	settle();
	const base = process.memoryUsage();
	const s = sampler(base);
	s.start();
	const r = await bareList(emu.url, '/v1/orders', headers);
	s.stop();
	settle();
	const retained = level(process.memoryUsage()) - level(base);
	if (r.items.length !== expected) throw new Error(`bare: ${r.items.length} orders`);
	await h.close();
	return {
		variant: 'bare',
		items: r.items.length,
		peak: s.peak.level - level(base),
		peakHeap: s.peak.heap - base.heapUsed,
		peakRss: s.peak.rss - base.rss,
		retained,
		base: level(base),
		baseRss: base.rss,
	};
}

worker(async () => {
	const variant = process.argv[2];
	const emu = JSON.parse(process.env.BENCH_EMU);
	const expected = Number(process.env.BENCH_ORDERS);
	const creds = emu.credentials;

	const orderStep = (parameters) => ({
		type: 'accessPointOrder',
		name: 'Orders',
		parameters: { resource: 'order', operation: 'getAll', simplify: false, ...parameters },
	});
	const httpStep = (url, pagination) => ({
		type: 'httpRequest',
		name: 'HTTP Request',
		parameters: {
			method: 'GET',
			url,
			sendHeaders: true,
			headerParameters: {
				parameters: [
					{ name: 'apikey', value: creds.apiKey },
					{ name: 'partyID', value: creds.partyId },
				],
			},
			options: pagination
				? {
						pagination: {
							pagination: {
								paginationMode: 'responseContainsNextURL',
								nextURL: '={{ $response.body.NextpageLink }}',
								paginationCompleteWhen: 'other',
								completeExpression: '={{ !$response.body.NextpageLink }}',
							},
						},
					}
				: {},
		},
	});
	const split = { type: 'splitOut', name: 'Split Out', parameters: { fieldToSplitOut: 'Items' } };

	if (variant === 'bare') return await bare(emu, expected);

	// 1. Load everything, warm the code path with a one-record request.
	let h = await harnessFor(creds);
	const warm = variant === 'order' ? h.chain([orderStep({ returnAll: false, limit: 1 })]) : h.chain([httpStep(`${emu.url}/v1/orders?$top=1`, false), split]);
	(await h.run(warm)).assertSuccess();
	const full = variant === 'order' ? h.chain([orderStep({ returnAll: true })]) : h.chain([httpStep(`${emu.url}/v1/orders`, true), split]);
	const typeName = variant === 'order' ? 'n8n-nodes-access-point.accessPointOrder' : 'n8n-nodes-base.httpRequest';
	const nodeType = h.nodeTypes.getByNameAndVersion(typeName, h.nodeTypes.latestVersion(typeName));
	await h.close();
	h = await harnessFor(creds);

	// 2. Baseline.
	settle();
	const base = process.memoryUsage();
	const s = sampler(base);
	const peak = s.peak;
	let retained;
	let items = 0;
	instrument(nodeType, 'execute', {
		onStart: () => s.start(),
		onEnd: (call, output) => {
			s.stop();
			items = output && output[0] ? output[0].length : 0;
			settle();
			retained = level(process.memoryUsage()) - level(base);
		},
	});

	// 3. The run.
	const result = await h.run(full);
	s.stop();
	result.assertSuccess();
	const out = result.items(variant === 'order' ? 'Orders' : 'Split Out').length;
	if (out !== expected) throw new Error(`${variant}: ${out} items`);
	await h.close();
	return {
		variant,
		items,
		peak: peak.level - level(base),
		peakHeap: peak.heap - base.heapUsed,
		peakRss: peak.rss - base.rss,
		retained,
		base: level(base),
		baseRss: base.rss,
	};
});
