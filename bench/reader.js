'use strict';
/**
 * The UBL reader's cost per MB (issue 37 item 1): `readDocument` (dist/nodes/shared/domain/ubl.js) on a plain invoice
 * and on the hostile shapes of emulator/documents.js `hostileUbl` (10,000 unused xmlns declarations, 250-deep nesting,
 * 5,000 attributes per element, huge text), each size in a fresh process (`node --expose-gc`), the median of
 * BENCH_RUNS runs (default 3). Prints wall and CPU ms per MB, the heap the read took (growth of V8's total heap over a
 * collected baseline: the peak is at most this) per MB, and hostile ÷ plain at the same size (the figure that matters
 * on a shared machine). The read is synchronous: its wall time is how long it blocks the event loop; the first read in
 * a process (after a 64 KB warm-up) and a warm one (V8 has optimised the reader) are both given.
 *
 * Each shape twice: as sent (the shape fills the whole size: most are refused by the reader's limits) and "at the
 * limits" (`≤lim`): as many blocks of the shape as the limits allow (50,000 elements, 10,000 in the parts read,
 * 50,000 attributes, 1,000 namespace declarations, 10,000 references, 100 attributes per element), the rest of the size a base64 attachment:
 * the costliest documents that are read. 'attachment' is the usual large invoice (one base64 PDF).
 *
 *   npm run build && node bench/reader.js                 # 1, 5 and 20 MB
 *   BENCH_SIZES_MB=0.6,2 BENCH_RUNS=5 node bench/reader.js
 *   BENCH_PACKAGE_ROOT=/tmp/old node bench/reader.js      # another built copy (e.g. the reader before the change)
 *
 * A case that takes longer than BENCH_TIMEOUT_S (default 120) is printed as such.
 */
const path = require('node:path');
const os = require('node:os');
const { execFileSync } = require('node:child_process');

const SHAPES = ['plain', 'xmlns', 'deep', 'attrs', 'text', 'flat', 'attachment'];
/** The reader's limits (nodes/shared/domain/ubl.ts), with a margin for the invoice's own fields. */
const LIMITS = { elements: 50_000 - 100, read: 10_000 - 100, attributes: 50_000 - 100, declarations: 1_000 - 10, references: 10_000 - 100, perElement: 99 };

/** hostileUbl's options for the largest document of `shape` within the limits. */
function atLimits(shape) {
	const { hostileUbl } = require('../emulator/documents');
	const o = { perElement: shape === 'attrs' || shape === 'xmlns' ? LIMITS.perElement : undefined };
	const count = (blocks) => {
		const xml = hostileUbl(shape, 2 * MB, { ...o, blocks });
		return {
			elements: xml.match(/<[^/!?]/g).length,
			read: blocks, // each block is one element under the root, read (then its content skipped)
			attributes: xml.match(/="/g).length,
			declarations: xml.match(/xmlns/g).length,
			references: (xml.match(/&/g) || []).length,
		};
	};
	const [one, two] = [count(1), count(2)];
	const blocks = Math.min(
		...['elements', 'read', 'attributes', 'declarations', 'references'].map((k) =>
			two[k] > one[k] ? Math.floor((LIMITS[k] - one[k]) / (two[k] - one[k])) + 1 : Infinity,
		),
	);
	return { ...o, blocks };
}
const MB = 1024 * 1024;

function child(shape, bytes, root, limited) {
	const v8 = require('node:v8');
	const { hostileUbl } = require('../emulator/documents');
	const { readDocument } = require(path.join(root, 'dist/nodes/shared/domain/ubl.js'));
	const o = limited ? atLimits(shape) : {};
	const xml = Buffer.from(hostileUbl(shape, bytes, o), 'utf8');
	// Warm-up on a small document of the same shape (JIT), then a collected baseline.
	readDocument(Buffer.from(hostileUbl(shape, 64 * 1024, o)), { maxChars: 256 * MB });
	global.gc();
	global.gc();
	const heap0 = v8.getHeapStatistics().total_heap_size;
	const used0 = process.memoryUsage().heapUsed;
	const cpu0 = process.cpuUsage();
	const t0 = performance.now();
	const read = readDocument(xml, { maxChars: 256 * MB });
	const ms = performance.now() - t0;
	const cpu = process.cpuUsage(cpu0);
	const heapGrowth = v8.getHeapStatistics().total_heap_size - heap0;
	const retained = process.memoryUsage().heapUsed - used0;
	// Warm: the best of two more reads of the same document (the first read above runs partly before V8 optimises).
	const warmMs = Math.min(
		...[0, 1].map(() => {
			const t = performance.now();
			readDocument(xml, { maxChars: 256 * MB });
			return performance.now() - t;
		}),
	);
	process.stdout.write(
		JSON.stringify({
			bytes: xml.length,
			ms,
			warmMs,
			cpuMs: (cpu.user + cpu.system) / 1000,
			heapGrowth,
			retained,
			ok: read.ok,
			number: read.ok ? read.doc.invoice?.Number : read.problem,
		}),
	);
}

function run(shape, bytes, root, timeoutS, limited) {
	try {
		const out = execFileSync(process.execPath, ['--expose-gc', __filename, '--child', shape, String(bytes), root, limited ? 'limited' : ''], {
			timeout: timeoutS * 1000,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		return JSON.parse(out);
	} catch (error) {
		return {
			failed:
				error.signal === 'SIGTERM'
					? `over ${timeoutS} s`
					: String(error.stderr || error.message)
							.split('\n')
							.find((l) => /Error|heap/.test(l)) || 'failed',
		};
	}
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function main() {
	const root = path.resolve(process.env.BENCH_PACKAGE_ROOT || path.join(__dirname, '..'));
	const sizes = (process.env.BENCH_SIZES_MB || '1,5,20').split(',').map(Number);
	const runs = Math.max(1, Number(process.env.BENCH_RUNS) || 3);
	const timeoutS = Number(process.env.BENCH_TIMEOUT_S) || 120;
	console.log(
		`UBL reader bench: ${os.cpus()[0]?.model} × ${os.cpus().length}, Node ${process.version}, load ${os
			.loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}`,
	);
	console.log(`package: ${root}; median of ${runs} run(s), each in a fresh process`);
	console.log('size MB | shape | wall ms (first read) | wall ms (warm) | CPU ms/MB | heap MB/MB (peak ≤) | retained MB/MB | × plain (wall) | read');
	for (const mb of sizes) {
		let plainMs;
		for (const [shape, limited] of SHAPES.flatMap((s) => [
			[s, false],
			[s, true],
		])) {
			if (limited && (shape === 'attachment' || process.env.BENCH_AS_SENT_ONLY)) continue;
			const name = limited ? `${shape} ≤lim` : shape;
			const results = Array.from({ length: runs }, () => run(shape, Math.round(mb * MB), root, timeoutS, limited));
			const failed = results.find((r) => r.failed);
			if (failed) {
				console.log(`${mb} | ${name} | ${failed.failed}`);
				continue;
			}
			const actualMb = results[0].bytes / MB;
			const ms = median(results.map((r) => r.ms));
			if (shape === 'plain' && !limited) plainMs = ms;
			const cells = [
				actualMb.toFixed(2),
				name,
				ms.toFixed(0),
				median(results.map((r) => r.warmMs)).toFixed(0),
				(median(results.map((r) => r.cpuMs)) / actualMb).toFixed(0),
				(median(results.map((r) => r.heapGrowth)) / MB / actualMb).toFixed(1),
				(median(results.map((r) => r.retained)) / MB / actualMb).toFixed(2),
				plainMs ? (ms / plainMs).toFixed(2) : '-',
				results[0].ok ? `ok (${results[0].number})` : `refused: ${String(results[0].number).slice(0, 90)}`,
			];
			console.log(cells.join(' | '));
		}
	}
	console.log(
		`load at end ${os
			.loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}`,
	);
}

if (process.argv[2] === '--child') child(process.argv[3], Number(process.argv[4]), process.argv[5], process.argv[6] === 'limited');
else main();
