// @ts-check
'use strict';
/**
 * The Inbox Trigger's poll through n8n's poller (PollTriggerExecutor, the harness against the emulator) in a child
 * process with a heap limit (`node --max-old-space-size`), over hostile documents (emulator/documents.js `hostileUbl`
 * shapes, each of `docMb`, one queue item each in an SBDH envelope, between two good invoices): issue 37 item 1 (a
 * 6.5 MB invoice with 10,000 unused namespace declarations exhausted a 1 GB heap, a 19 MB one a 4 GB heap). Also
 * prints the longest the event loop was blocked during the poll (`maxBlockMs`, perf_hooks; the whole poll: the file
 * answer's JSON and base64 too, not only the reader). Kept in JS: the lint rules for TypeScript files forbid
 * child_process and the process global.
 *
 *   runLimited({ heapMb: 512, docMb: 6.5, shapes: ['xmlns'] }) → { code, signal, result?: { ids, numbers, problems, ms, maxBlockMs }, stderr }
 *   node test/workflows/heapLimitedPoll.js xmlns,deep 6.5      (the child: prints the result as JSON)
 */
const path = require('node:path');
const { execFile } = require('node:child_process');

/** @param {{ heapMb: number, docMb: number, shapes: string[], timeoutMs?: number }} o */
function runLimited(o) {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[`--max-old-space-size=${o.heapMb}`, __filename, o.shapes.join(','), String(o.docMb)],
			{ timeout: o.timeoutMs ?? 240_000, maxBuffer: 16 * 1024 * 1024, cwd: path.join(__dirname, '../..') },
			(error, stdout, stderr) => {
				const line = stdout.split('\n').find((l) => l.startsWith('{'));
				resolve({
					code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
					signal: error ? error.signal : null,
					result: line ? JSON.parse(line) : undefined,
					stderr: stderr.slice(-2000),
				});
			},
		);
	});
}

async function child(shapes, docMb) {
	const { createHarness } = require('../harness');
	const { hostileUbl } = require('../../emulator/documents');
	const { monitorEventLoopDelay } = require('node:perf_hooks');
	const h = await createHarness({ emulator: { orders: 1 }, quiet: true });
	try {
		const emu = /** @type {any} */ (h.emulator);
		const queued = [
			emu.inbox.receive({ orderNumber: 'GOOD-BEFORE' }),
			...shapes.map((shape) => emu.inbox.receive({ xml: hostileUbl(shape, Math.round(docMb * 1024 * 1024), { number: `HOSTILE-${shape}` }), envelope: true })),
			emu.inbox.receive({ orderNumber: 'GOOD-AFTER' }),
		];
		const delay = monitorEventLoopDelay({ resolution: 10 });
		delay.enable();
		const t0 = Date.now();
		const polled = await h.poller({ type: 'accessPointInboxTrigger', parameters: { options: { maxRetries: 0 } } }).poll();
		delay.disable();
		const items = polled.items || [];
		process.stdout.write(
			`${JSON.stringify({
				queued: queued.map((i) => i.InboxItemID),
				ids: items.map((i) => i.InboxItemID),
				numbers: items.map((i) => i.Invoice && i.Invoice.Number),
				problems: items.map((i) => i.DocumentProblem || null),
				ms: Date.now() - t0,
				maxBlockMs: Math.round(delay.max / 1e6),
			})}\n`,
		);
	} finally {
		await h.close();
	}
}

if (require.main === module) {
	child(process.argv[2].split(','), Number(process.argv[3])).then(
		() => process.exit(0),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
}

module.exports = { runLimited };
