'use strict';
/**
 * A loopback HTTP receiver for emulator tests: webhook deliveries and OAuth redirects. Kept in JS: the
 * lint rules for node code forbid node:http in TypeScript files.
 */
const http = require('node:http');

/**
 * Records every request (raw body bytes as text, headers, arrival time) and answers the next status of
 * `statuses` (the last one repeats; default 200).
 * @param {{ statuses?: number[] }} [o]
 */
async function startReceiver(o = {}) {
	const statuses = [...(o.statuses || [200])];
	/** @type {Array<{ method: string, url: string, headers: Record<string, string | string[] | undefined>, body: string, at: number, status: number }>} */
	const hits = [];
	/** @type {Array<() => void>} */
	const waiters = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const status = statuses.length > 1 ? statuses.shift() : statuses[0];
			hits.push({ method: req.method || '', url: req.url || '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), status });
			res.writeHead(status, { 'content-type': 'text/plain' });
			res.end('ok');
			for (const w of waiters.splice(0)) w();
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${server.address().port}`;
	return {
		url,
		hits,
		/** @param {number[]} next */
		answer(next) {
			statuses.splice(0, statuses.length, ...next);
		},
		/** Resolves once at least n requests arrived. */
		async waitFor(n, timeoutMs = 10000) {
			const end = Date.now() + timeoutMs;
			while (hits.length < n) {
				if (Date.now() > end) throw new Error(`receiver: ${hits.length} of ${n} requests after ${timeoutMs} ms`);
				await new Promise((resolve) => {
					const t = setTimeout(resolve, 20);
					waiters.push(() => {
						clearTimeout(t);
						resolve(undefined);
					});
				});
			}
			return hits;
		},
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve(undefined));
				server.closeAllConnections();
			}),
	};
}

module.exports = { startReceiver };
