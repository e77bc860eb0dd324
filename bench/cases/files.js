'use strict';
/**
 * Measure 6: peak memory of Order › Download Files reading one 20 MB PDF (a 27 MB JSON
 * answer, the file base64 inside), in a fresh process per run, in n8n's two local binary
 * modes (argv[2]):
 *  - 'memory': no binary data manager, the file stays in the item as base64 (n8n 1.x's
 *    default mode, N8N_DEFAULT_BINARY_DATA_MODE=default);
 *  - 'filesystem': n8n-core's BinaryDataService initialised with mode 'filesystem' on a temp
 *    folder (n8n 2.x's default): prepareBinaryData writes the file out.
 * Method as measure 2 (memory.js): warm-up run on a small order, two full GCs, baseline
 * process.memoryUsage(); memoryUsage() sampled every millisecond and when execute()
 * returns; "peak" = heapUsed + external above the baseline, garbage not yet collected
 * included. "retained" = the same after a forced GC at the node's end.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ROOT, ctl, worker, settle, instrument, harnessFor } = require('../lib/common');
const { level, sampler } = require('../lib/memory');

/** n8n-core's BinaryDataService in filesystem mode, as `N8N_DEFAULT_BINARY_DATA_MODE=filesystem` gives it. */
async function filesystemMode() {
	const { boot } = require(path.join(ROOT, 'test', 'harness'));
	const { core, Container } = boot();
	const service = Container.get(core.BinaryDataService);
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-bench-binary-'));
	service.config.localStoragePath = dir;
	service.config.mode = 'filesystem';
	await service.init();
	return { service, dir };
}

worker(async () => {
	const mode = process.argv[2];
	const emu = JSON.parse(process.env.BENCH_EMU);
	const control = process.env.BENCH_CONTROL;
	const big = JSON.parse(process.env.BENCH_LARGE_PDF);
	const small = JSON.parse(process.env.BENCH_SMALL_ORDER);
	const creds = emu.credentials;
	const fsMode = mode === 'filesystem' ? await filesystemMode() : undefined;

	const step = (orderId) => ({
		type: 'accessPointOrder',
		name: 'Download Files',
		parameters: {
			resource: 'order',
			operation: 'downloadFiles',
			orderId: { __rl: true, mode: 'id', value: String(orderId) },
			files: ['pdf'],
			options: { maxFileSizeMb: 25 },
		},
	});

	// 1. Load everything, warm the code path on a small order.
	let h = await harnessFor(creds);
	(await h.run(h.chain([step(small)]))).assertSuccess();
	const typeName = 'n8n-nodes-access-point.accessPointOrder';
	const nodeType = h.nodeTypes.getByNameAndVersion(typeName, h.nodeTypes.latestVersion(typeName));
	await h.close();
	h = await harnessFor(creds);
	const wf = h.chain([step(big.orderId)]);
	await ctl(control, 'files', 'clear');

	// 2. Baseline.
	settle();
	const base = process.memoryUsage();
	const s = sampler(base);
	let retained;
	instrument(nodeType, 'execute', {
		onStart: () => s.start(),
		onEnd: () => {
			s.stop();
			settle();
			retained = level(process.memoryUsage()) - level(base);
		},
	});

	// 3. The run.
	const result = await h.run(wf);
	s.stop();
	result.assertSuccess();
	const [item] = result.items('Download Files');
	const pdf = item.binary.pdf;
	if (pdf.bytes !== big.size) throw new Error(`${mode}: the output PDF has ${pdf.bytes} bytes, not ${big.size}`);
	if (mode === 'filesystem' && !pdf.id) throw new Error('filesystem mode: the PDF was not written out');
	if (mode === 'memory' && pdf.id) throw new Error('memory mode: the PDF went to a binary data manager');
	const answer = (await ctl(control, 'files', 'requests', { method: 'GET', pathPrefix: '/v1/files/' })).length;
	await h.close();
	if (fsMode) fs.rmSync(fsMode.dir, { recursive: true, force: true });
	return {
		mode,
		size: big.size,
		fileReads: answer,
		peak: s.peak.level - level(base),
		peakHeap: s.peak.heap - base.heapUsed,
		peakRss: s.peak.rss - base.rss,
		retained,
	};
});
