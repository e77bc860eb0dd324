'use strict';
/** Helpers shared by the bench orchestrator and its worker processes. */
const path = require('node:path');
const { fork } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs per measure after the warm-up (BENCH_RUNS, default 9, at least 5). */
function runsWanted() {
	const n = Number(process.env.BENCH_RUNS || 9);
	return Math.max(5, Number.isFinite(n) ? Math.floor(n) : 9);
}

/** Control call to the emulator host: POST <control>/<emulator>/<command>. */
async function ctl(control, emulator, command, body) {
	const send = () =>
		fetch(`${control}/${emulator}/${command}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body === undefined ? {} : body),
		});
	let res;
	try {
		res = await send();
	} catch (error) {
		// A pooled connection the host closed meanwhile: once more on a new one.
		if (process.env.BENCH_DEBUG) console.error('[bench] control call retried:', error.cause || error);
		res = await send();
	}
	const data = await res.json();
	if (!res.ok) throw new Error(`emulator control ${emulator}/${command}: ${data.error}`);
	return data;
}

/**
 * Forks a worker (a file in bench/cases) and resolves with the message it sends
 * back ({ ok, result } or { ok: false, error }).
 */
function runWorker(file, { env = {}, execArgv = ['--expose-gc'], args = [] } = {}) {
	return new Promise((resolve, reject) => {
		const child = fork(path.join(__dirname, '..', 'cases', file), args, {
			cwd: ROOT,
			execArgv,
			env: { ...process.env, ...env },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let answer;
		child.on('message', (m) => {
			answer = m;
		});
		child.on('error', reject);
		child.on('exit', (code) => {
			if (answer && answer.ok) resolve(answer.result);
			else reject(new Error(`${file} failed (exit ${code}): ${answer ? answer.error : 'no result'}`));
		});
	});
}

/** Worker side: run main(), send its result to the parent, exit. */
function worker(main) {
	main()
		.then((result) => {
			process.send({ ok: true, result }, () => process.exit(0));
		})
		.catch((error) => {
			process.send({ ok: false, error: error && error.stack ? error.stack : String(error) }, () => process.exit(1));
		});
}

/** Settled heap: two full collections (the worker runs with --expose-gc). */
function settle() {
	if (typeof global.gc === 'function') {
		global.gc();
		global.gc();
	}
}

/**
 * Times every call of a node type's method (execute or poll) on the instance the
 * engine uses: wall time with performance.now() and CPU time of this process.
 */
function instrument(nodeType, method, { onStart, onEnd } = {}) {
	const original = nodeType[method];
	const calls = [];
	nodeType[method] = async function (...args) {
		if (onStart) onStart();
		const cpu0 = process.cpuUsage();
		const t0 = performance.now();
		const call = { start: t0 };
		calls.push(call);
		let output;
		try {
			output = await original.apply(this, args);
			return output;
		} finally {
			call.ms = performance.now() - t0;
			const cpu = process.cpuUsage(cpu0);
			call.cpuMs = (cpu.user + cpu.system) / 1000;
			// Called while the node's output is still only held by this frame.
			if (onEnd) onEnd(call, output);
		}
	};
	return {
		calls,
		last: () => calls[calls.length - 1],
		restore: () => {
			nodeType[method] = original;
		},
	};
}

/** Loads the harness against emulators living in another process. */
async function harnessFor(credentials) {
	const { createHarness } = require(path.join(ROOT, 'test', 'harness'));
	const root = process.env.BENCH_PACKAGE_ROOT || ROOT;
	return await createHarness({ root, emulator: false, credentials, quiet: true, waitTracker: false });
}

/** Interleaving order for round i over n variants (rotates which one runs first). */
function rotation(i, n) {
	return Array.from({ length: n }, (_, k) => (k + i) % n);
}

/** Bare fetch loop over an OData list, following next links; the physical limit. */
async function bareList(baseUrl, firstPath, headers) {
	let url = new URL(firstPath, baseUrl).toString();
	const items = [];
	let requests = 0;
	let bytes = 0;
	while (url) {
		const res = await fetch(url, { headers });
		const text = await res.text();
		requests++;
		bytes += Buffer.byteLength(text);
		if (!res.ok) throw new Error(`bare loop: HTTP ${res.status} on ${url}`);
		const body = JSON.parse(text);
		for (const item of body.Items) items.push(item);
		const link = body.NextpageLink || body.NextPageLink;
		url = link ? new URL(link, baseUrl).toString() : undefined;
	}
	return { items, requests, bytes };
}

module.exports = { ROOT, runsWanted, ctl, runWorker, worker, settle, instrument, harnessFor, rotation, bareList };
