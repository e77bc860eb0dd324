// @ts-check
'use strict';
/**
 * The harness's own HTTP server on 127.0.0.1 (port 0). The base URLs handed to
 * the engine point at it, so `$execution.resumeUrl` is reachable; webhooks.js
 * serves what arrives.
 */
const http = require('node:http');

/** Where n8n serves waiting executions (`webhookWaitingBaseUrl`). */
const WAITING_PATH = '/webhook-waiting';

/**
 * The base URLs n8n puts on additionalData.
 * @param {string} baseUrl
 */
function urlsFor(baseUrl) {
	return {
		instanceBaseUrl: baseUrl,
		restApiUrl: `${baseUrl}/rest`,
		webhookBaseUrl: `${baseUrl}/webhook`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test`,
		webhookWaitingBaseUrl: `${baseUrl}${WAITING_PATH}`,
		formBaseUrl: `${baseUrl}/form`,
		formTestBaseUrl: `${baseUrl}/form-test`,
		formWaitingBaseUrl: `${baseUrl}/form-waiting`,
		mcpBaseUrl: `${baseUrl}/mcp`,
		mcpTestBaseUrl: `${baseUrl}/mcp-test`,
	};
}

/** @typedef {ReturnType<typeof urlsFor>} HarnessUrls */

/**
 * Listens on 127.0.0.1, port 0. A handler that rejects answers 500.
 * @param {(req: http.IncomingMessage, res: http.ServerResponse) => Promise<unknown>} handle
 * @returns {Promise<{ urls: HarnessUrls, close(): Promise<void> }>}
 */
async function startServer(handle) {
	const server = http.createServer((req, res) => {
		handle(req, res).catch((error) => {
			if (!res.headersSent) {
				res.statusCode = 500;
				res.setHeader('Content-Type', 'application/json');
			}
			if (!res.writableEnded) res.end(JSON.stringify({ code: 500, message: error.message }));
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	// A test that fails before close() must not keep jest (or a script) alive.
	server.unref();
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		urls: urlsFor(`http://127.0.0.1:${address.port}`),
		async close() {
			await new Promise((resolve) => server.close(() => resolve(undefined)));
			if (typeof server.closeAllConnections === 'function') server.closeAllConnections();
		},
	};
}

module.exports = { startServer, WAITING_PATH };
