// @ts-check
'use strict';
/**
 * A bare HTTP server on 127.0.0.1 and a bare GET, for tests that watch when a
 * request really reaches the socket (kept in JS: the lint rules for node code
 * forbid node:http in TypeScript files).
 */
const http = require('node:http');

/**
 * Serves `answer(url)` as JSON on 127.0.0.1, port 0.
 * @param {(url: string) => string} answer
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
async function serveJson(answer) {
	const server = http.createServer((req, res) => {
		res.setHeader('content-type', 'application/json');
		res.end(answer(req.url || '/'));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${address.port}`,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

/**
 * GET on a new connection (as n8n's client makes); `onWritten` when the request is flushed to the socket.
 * @param {string} url
 * @param {() => void} onWritten
 * @returns {Promise<string>}
 */
function getText(url, onWritten) {
	return new Promise((resolve, reject) => {
		const request = http.get(url, { agent: false }, (res) => {
			let text = '';
			res.setEncoding('utf8');
			res.on('data', (chunk) => (text += chunk));
			res.on('end', () => resolve(text));
			res.on('error', reject);
		});
		request.on('finish', onWritten);
		request.on('error', reject);
	});
}

module.exports = { serveJson, getText };
