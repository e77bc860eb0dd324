'use strict';
/**
 * Hostile HTTP servers for the reliability tests, on 127.0.0.1 port 0 (plain JS: the lint
 * rules for TypeScript files forbid node:http, timers and process).
 *
 * - serveHostile(handler): every request is recorded ({ method, url, headers, body }) and
 *   answered by `handler(req, res, request)`; the server counts connections opened and
 *   closed, and close() destroys any still open (stalled answers).
 * - gzipBomb(inflatedBytes): a gzip body that inflates to `inflatedBytes` zero bytes,
 *   built from repeated gzip members of 16 MB each (valid gzip, about 1:1000).
 * - trickle(res, chunks, everyMs): writes one chunk every `everyMs` until done or the
 *   client goes away; resolves with the number of chunks written.
 * - endless(res, head, filler): an answer that never ends (as fast as the client reads).
 * - rssMb(): the process's resident set size in MB (after a GC when exposed);
 *   sampleRss(): its peak while a test runs (the servers run in the test's process).
 */
const http = require('node:http');
const zlib = require('node:zlib');
const { Readable } = require('node:stream');

/** @param {(req: import('http').IncomingMessage, res: import('http').ServerResponse, request: object) => void} handler */
async function serveHostile(handler) {
	const requests = [];
	const sockets = new Set();
	const counts = { opened: 0, closed: 0 };
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const request = { method: req.method, url: req.url || '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
			requests.push(request);
			try {
				handler(req, res, request);
			} catch (error) {
				res.statusCode = 500;
				res.end(String(error && error.message));
			}
		});
	});
	server.on('connection', (socket) => {
		counts.opened++;
		sockets.add(socket);
		socket.on('close', () => {
			counts.closed++;
			sockets.delete(socket);
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}`,
		host: `127.0.0.1:${port}`,
		requests,
		counts,
		close: () =>
			new Promise((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

/** @param {string} text gzip of a text (an honest compressed answer). */
function gzip(text) {
	return zlib.gzipSync(Buffer.from(text));
}

let member;
/** @param {number} inflatedBytes */
function gzipBomb(inflatedBytes) {
	const size = 16 * 1024 * 1024;
	member = member || zlib.gzipSync(Buffer.alloc(size), { level: 9 });
	const count = Math.ceil(inflatedBytes / size);
	return Buffer.concat(Array.from({ length: count }, () => member));
}

/**
 * @param {import('http').ServerResponse} res @param {string[]} chunks @param {number} everyMs
 * @returns {Promise<number>}
 */
function trickle(res, chunks, everyMs) {
	return new Promise((resolve) => {
		let written = 0;
		const timer = setInterval(() => {
			if (res.destroyed || res.writableEnded || res.socket === null || res.socket.destroyed) {
				clearInterval(timer);
				resolve(written);
				return;
			}
			if (written >= chunks.length) {
				clearInterval(timer);
				res.end();
				resolve(written);
				return;
			}
			res.write(chunks[written++]);
		}, everyMs);
		res.on('close', () => {
			clearInterval(timer);
			resolve(written);
		});
	});
}

function rssMb() {
	if (typeof global.gc === 'function') global.gc();
	return process.memoryUsage().rss / (1024 * 1024);
}

/** Samples the RSS every 10 ms until stop(), which returns the peak in MB. */
function sampleRss() {
	let peak = process.memoryUsage().rss;
	const timer = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().rss);
	}, 10);
	return {
		stop() {
			clearInterval(timer);
			peak = Math.max(peak, process.memoryUsage().rss);
			return peak / (1024 * 1024);
		},
	};
}

/**
 * Streams `head`, then `filler` chunks as fast as the client reads them, until the client
 * goes away or `maxBytes` were written; resolves with the bytes written.
 */
function endless(res, head, filler, maxBytes = Infinity) {
	return new Promise((resolve) => {
		let written = 0;
		let done = false;
		const finish = () => {
			if (done) return;
			done = true;
			resolve(written);
		};
		res.on('close', finish);
		const pump = () => {
			while (!done && !res.destroyed && written < maxBytes) {
				written += filler.length;
				if (!res.write(filler)) {
					res.once('drain', pump);
					return;
				}
			}
			if (!done && written >= maxBytes) res.end();
		};
		written += Buffer.byteLength(head);
		res.write(head);
		pump();
	});
}

/** Node streams for unit tests of body reading: given parts, endless (counting reads), or stalled after a first part. */
const streams = {
	of: (parts) => Readable.from(parts.map((p) => Buffer.from(p))),
	endless(counter) {
		return new Readable({
			read() {
				counter.pulled++;
				this.push(Buffer.alloc(100, 'x'));
			},
		});
	},
	stalled(first) {
		const stream = new Readable({ read() {} });
		stream.push(first);
		return stream;
	},
};

/** Resolves after `ms` (test pacing only). */
function pause(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

module.exports = { serveHostile, gzip, gzipBomb, trickle, endless, rssMb, sampleRss, pause, streams };
