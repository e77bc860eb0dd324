'use strict';

/**
 * Fault injection: deterministic queue (failNext) and seeded random faults (faultRate/faultKinds).
 * Faults apply to /v1 calls only, never to the provider or signature pages.
 * @module emulator/faults
 */

/**
 * @typedef {500|502|503|504|429|'html'|'empty'|'truncated'|'cut'|'timeout'|'reset'|'after-commit'} FaultKind
 * @typedef {{ method?: string, pathPrefix?: string }} FaultMatch
 * @typedef {{ remaining: number, kind: FaultKind, match: FaultMatch }} QueuedFault
 */

const KINDS = new Set([500, 502, 503, 504, 429, 'html', 'empty', 'truncated', 'cut', 'timeout', 'reset', 'after-commit']);

/** @param {unknown} kind */
function assertKind(kind) {
	const ok = KINDS.has(/** @type {any} */ (kind)) || (typeof kind === 'number' && kind >= 500 && kind <= 599);
	if (!ok) throw new TypeError(`Unknown fault kind ${JSON.stringify(kind)}; use one of ${[...KINDS].join(', ')}`);
}

/**
 * Pick the fault for a request, consuming the queue first, then the random rate.
 * @param {{ queue: QueuedFault[], rnd: () => number, config: { faultRate: number, faultKinds: FaultKind[] } }} s
 * @param {string} method @param {string} path
 * @returns {FaultKind | null}
 */
function pickFault(s, method, path) {
	const i = s.queue.findIndex(
		(q) => (!q.match.method || q.match.method.toUpperCase() === method) && (!q.match.pathPrefix || path.startsWith(q.match.pathPrefix)),
	);
	if (i >= 0) {
		const q = s.queue[i];
		if (--q.remaining <= 0) s.queue.splice(i, 1);
		return q.kind;
	}
	const rate = Number(s.config.faultRate) || 0;
	const kinds = s.config.faultKinds || [];
	if (rate > 0 && kinds.length && s.rnd() < rate) return kinds[Math.floor(s.rnd() * kinds.length)];
	return null;
}

const STATUS_CODES = { 500: 'InternalServerError', 502: 'BadGateway', 503: 'ServiceUnavailable', 504: 'GatewayTimeout' };

/**
 * The response of a fault that answers without acting (not timeout/reset/truncated/after-commit).
 * @param {FaultKind} kind @param {{ retryAfterSeconds: number }} config
 * @returns {{ status: number, body?: any, html?: string, raw?: string, headers?: Record<string, string> }}
 */
function faultResponse(kind, config) {
	if (kind === 429) {
		return {
			status: 429,
			headers: { 'retry-after': String(config.retryAfterSeconds) },
			body: { errors: [{ Code: 'TooManyRequests', Description: 'Rate limit exceeded; retry later (injected fault)' }] },
		};
	}
	if (kind === 'html') {
		return {
			status: 502,
			html: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
		};
	}
	if (kind === 'empty') return { status: 500, raw: '' };
	const status = typeof kind === 'number' ? kind : 503;
	const code = STATUS_CODES[/** @type {500} */ (status)] || 'ServerError';
	return { status, body: { errors: [{ Code: code, Description: `Injected fault: HTTP ${status}` }] } };
}

module.exports = { pickFault, faultResponse, assertKind, KINDS };
