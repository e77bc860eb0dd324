'use strict';

/**
 * HTTP dispatch: routing, request context, auth, fault application, response writing and the request log.
 * @module emulator/server
 */

const { ApiError, badRequest, clone } = require('./util');
const { ODataError } = require('./odata');
const { pickFault, faultResponse } = require('./faults');
const { authenticate } = require('./routes/auth');
const reg = require('./routes/registrations');
const ident = require('./routes/identification');
const lists = require('./routes/lists');
const orders = require('./routes/orders');
const webhooks = require('./routes/webhooks');
const oauth = require('./routes/oauth');
const account = require('./routes/account');
const control = require('./routes/control');
const files = require('./routes/files');
const orderChanges = require('./routes/orderChanges');
const parties = require('./routes/parties');
const incoming = require('./routes/incoming');
const inbox = require('./routes/inbox');
const { tick: deliveryTick } = require('./delivery');

/**
 * @typedef {{ status: number, body?: any, html?: string, raw?: string, headers?: Record<string, string> }} Result
 * @typedef {object} Internal shared emulator state seen by handlers
 * @property {import('./store').Store} store
 * @property {Record<string, any>} config
 * @property {import('./util').Clock} clock
 * @property {string} url
 * @property {Array<Record<string, any>>} requests
 * @property {import('./faults').QueuedFault[]} queue
 * @property {() => number} faultRnd
 * @property {Set<NodeJS.Timeout>} timers
 * @property {boolean} closing
 * @property {import('./webhooks').WebhookHub} webhooks
 * @property {import('./oauth').OAuthServer} oauth
 * @typedef {object} Ctx
 * @property {Internal} emu
 * @property {string} method
 * @property {string} path
 * @property {URLSearchParams} query
 * @property {Record<string, string>} params
 * @property {(name: string) => string | undefined} header lower-case header name
 * @property {() => any} json parsed request body (undefined when empty; 400 when not JSON)
 * @property {string} raw the request body as text
 * @property {import('./store').Account} account
 * @property {string} partyId
 * @property {{ kind: 'master' } | { kind: 'entity', registration: import('./store').Registration }} party
 */

const R = '/v1/einvoices/registrations';
/** @type {Array<[string, RegExp, (ctx: Ctx) => Result, boolean]>} method, path, handler, needs auth */
const ROUTES = [
	...webhooks.ROUTES,
	...oauth.ROUTES,
	...account.ROUTES,
	...control.ROUTES,
	...incoming.ROUTES,
	['GET', new RegExp(`^${R}/?$`, 'i'), reg.list, true],
	['POST', new RegExp(`^${R}/?$`, 'i'), reg.create, true],
	['GET', new RegExp(`^${R}/(?<id>[^/]+)/?$`, 'i'), reg.getOne, true],
	['DELETE', new RegExp(`^${R}/(?<id>[^/]+)/?$`, 'i'), reg.deactivate, true],
	['POST', new RegExp(`^${R}/(?<id>[^/]+)/integrations/?$`, 'i'), reg.addIntegration, true],
	['DELETE', new RegExp(`^${R}/(?<id>[^/]+)/integrations/(?<iid>[^/]+)/?$`, 'i'), reg.removeIntegration, true],
	['POST', new RegExp(`^${R}/(?<id>[^/]+)/identification/?$`, 'i'), ident.start, true],
	['GET', /^\/v1\/peppol\/participantInformation\/(?<identifier>[^/]+)\/?$/i, lists.participantInformation, true],
	['GET', /^\/v1\/orders\/?$/i, lists.orders, true],
	['POST', /^\/v1\/orders\/?$/i, orders.create, true],
	['POST', /^\/v1\/orders\/commands\/send\/?$/i, orders.send, true],
	['GET', /^\/v1\/orders\/(?<id>[^/]+)\/?$/i, orders.getOne, true],
	['GET', /^\/v1\/parties\/?$/i, lists.parties, true],
	['GET', /^\/v1\/parties\/(?<id>[^/]+)\/?$/i, lists.party, true],
	['GET', /^\/v1\/products\/?$/i, lists.products, true],
	['GET', /^\/v1\/products\/(?<id>[^/]+)\/?$/i, lists.product, true],
	...parties.ROUTES,
	...files.ROUTES,
	...orderChanges.ROUTES,
	...inbox.ROUTES,
	['GET', /^\/provider\/error\/?$/, ident.providerError, false],
	['GET', /^\/provider\/(?<token>[^/]+)\/?$/, ident.providerPage, false],
	['GET', /^\/provider\/(?<token>[^/]+)\/complete\/?$/, ident.providerComplete, false],
	['GET', /^\/sign\/(?<token>[^/]+)(?:\/(?<action>complete))?\/?$/, reg.signPage, false],
	['GET', /^\/$/, (ctx) => ({ status: 200, body: { service: 'access-point API emulator', baseUrl: ctx.emu.url, docs: 'emulator/README.md' } }), false],
];

/** @param {string} v keeps the scheme (Bearer, Basic) of an Authorization header, never its credential */
const maskAuth = (v) => (/^\S+\s/.test(v) ? `${v.split(/\s/)[0]} ***` : '***');
const SECRET_FIELDS = new Set(['client_secret', 'code', 'refresh_token', 'access_token', 'password', 'code_verifier']);
/** @param {string} raw */
const maskForm = (raw) => {
	const p = new URLSearchParams(raw);
	for (const k of new Set(p.keys())) if (SECRET_FIELDS.has(k)) p.set(k, '***');
	return Object.fromEntries(p);
};

/**
 * @param {import('node:http').IncomingMessage} req @param {number} limit bytes
 * @returns {Promise<string | null>} null when the body is larger than the limit (read to the end, not kept)
 */
function readBody(req, limit) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		req.on('data', (c) => {
			size += c.length;
			if (size <= limit) chunks.push(c);
		});
		req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

/**
 * @param {import('node:http').ServerResponse} res @param {Result} r @param {Record<string, any>} entry
 * @param {((s: string) => string)} [mangle] alters the serialised payload (truncation)
 */
function write(res, r, entry, mangle) {
	if (res.writableEnded || res.destroyed) return;
	/** @type {Record<string, string | number>} */
	const headers = { ...(r.headers || {}) };
	let payload = '';
	if (r.html !== undefined) {
		payload = r.html;
		headers['content-type'] = 'text/html; charset=utf-8';
	} else if (r.raw !== undefined) payload = r.raw;
	else if (r.body !== undefined) {
		payload = JSON.stringify(r.body);
		headers['content-type'] = 'application/json; charset=utf-8';
	}
	if (mangle) payload = mangle(payload);
	headers['content-length'] = Buffer.byteLength(payload);
	res.writeHead(r.status, headers);
	res.end(payload);
	entry.status = r.status;
}

/**
 * The 'cut' fault: the real answer's headers (its full content-length) and half its
 * body, then the connection is destroyed, as when a link drops mid-transfer.
 * @param {import('node:http').ServerResponse} res @param {Result} r @param {any} entry
 */
function cut(res, r, entry) {
	const payload = r.raw !== undefined ? r.raw : r.body === undefined ? '' : JSON.stringify(r.body);
	res.writeHead(r.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
	res.write(payload.slice(0, Math.max(1, Math.floor(payload.length / 2))), () => res.socket && res.socket.destroy());
	entry.status = r.status;
}

/** @param {unknown} err @returns {Result} */
function errorResult(err) {
	if (err instanceof ApiError)
		return { status: err.status, body: { errors: err.errors }, .../** @type {any} */ (err.headers ? { headers: /** @type {any} */ (err).headers } : {}) };
	if (err instanceof ODataError) return { status: 400, body: { errors: [{ Code: 'GenericError', Description: err.message }] } };
	return { status: 500, body: { errors: [{ Code: 'InternalError', Description: `Emulator error: ${err instanceof Error ? err.message : String(err)}` }] } };
}

/** @param {Internal} s @param {number} ms */
const delay = (s, ms) =>
	new Promise((resolve) => {
		const t = setTimeout(() => {
			s.timers.delete(t);
			resolve(undefined);
		}, ms);
		s.timers.add(t);
	});

/**
 * Handle one HTTP request.
 * @param {Internal} s @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
 */
async function handle(s, req, res) {
	const method = String(req.method || 'GET').toUpperCase();
	const url = new URL(req.url || '/', 'http://127.0.0.1');
	const path = url.pathname;
	/** @type {Record<string, string>} */
	const headers = {};
	for (const [k, v] of Object.entries(req.headers))
		headers[k.toLowerCase()] = k.toLowerCase() === 'apikey' ? '***' : k.toLowerCase() === 'authorization' ? maskAuth(String(v)) : String(v);
	/** @type {Record<string, any>} */
	const entry = { method, path, query: Object.fromEntries(url.searchParams), headers, status: null, at: s.clock.now().toISOString() };
	s.requests.push(entry);
	const limit = Number(s.config.maxRequestBytes) || Infinity;
	const raw = await readBody(req, limit);
	if (raw === null) {
		const description = `The request body is larger than ${limit} bytes (files travel base64-encoded, a third larger than the files)`;
		return write(res, { status: 413, body: { errors: [{ Code: 'RequestTooLarge', Description: description }] } }, entry);
	}
	try {
		entry.body = raw ? JSON.parse(raw) : undefined;
	} catch {
		entry.body = raw;
	}
	// OAuth forms carry secrets (client secret, code, tokens, password): the log keeps their names only.
	if (/x-www-form-urlencoded/i.test(headers['content-type'] || '')) entry.body = maskForm(raw);
	const isApi = /^\/v1(\/|$)/i.test(path);
	let fault = null;
	if (isApi) {
		if (Number(s.config.latencyMs) > 0) await delay(s, Number(s.config.latencyMs));
		if (s.closing) return;
		fault = pickFault({ queue: s.queue, rnd: s.faultRnd, config: /** @type {any} */ (s.config) }, method, path);
	}
	if (fault) entry.fault = fault;
	if (fault === 'timeout') return;
	if (fault === 'reset') {
		req.socket.destroy();
		return;
	}
	if (fault && fault !== 'truncated' && fault !== 'cut' && fault !== 'after-commit')
		return write(res, faultResponse(fault, /** @type {any} */ (s.config)), entry);
	const half = (/** @type {string} */ p) => p.slice(0, Math.max(1, Math.floor(p.length / 2)));
	if (fault === 'truncated' && method !== 'GET' && method !== 'HEAD') {
		return write(res, { status: 200, body: { errors: [{ Code: 'Truncated', Description: 'This answer was cut off in transit' }] } }, entry, half);
	}
	if (fault === 'cut' && method !== 'GET' && method !== 'HEAD') {
		return cut(res, { status: 200, body: { errors: [{ Code: 'Cut', Description: 'The connection dropped mid-answer' }] } }, entry);
	}
	const result = run(s, method, path, url, req, raw);
	if (fault === 'after-commit') return write(res, faultResponse(503, /** @type {any} */ (s.config)), entry);
	if (fault === 'truncated') return write(res, { ...result, status: 200 }, entry, half);
	if (fault === 'cut') return cut(res, result, entry);
	write(res, result, entry);
}

/**
 * Route and run a handler; errors become error results.
 * @param {Internal} s @param {string} method @param {string} path @param {URL} url
 * @param {import('node:http').IncomingMessage} req @param {string} raw
 * @returns {Result}
 */
function run(s, method, path, url, req, raw) {
	try {
		if (/^\/v1(\/|$)/i.test(path)) deliveryTick(s);
		const matches = ROUTES.filter(([, re]) => re.test(path));
		const route = matches.find(([m]) => m === method);
		if (!route) {
			if (matches.length) throw new ApiError(405, 'MethodNotAllowed', `${method} is not allowed on ${path}`);
			throw new ApiError(404, 'NotFound', `No endpoint ${method} ${path}`);
		}
		const [, re, handler, needsAuth] = route;
		/** @type {Record<string, string>} */
		const params = {};
		for (const [k, v] of Object.entries((re.exec(path) || { groups: {} }).groups || {})) {
			if (v === undefined) continue;
			try {
				params[k] = decodeURIComponent(v);
			} catch {
				throw badRequest(`Malformed percent-encoding in path segment '${v}'`);
			}
		}
		/** @type {Ctx} */
		const ctx = /** @type {any} */ ({
			emu: s,
			method,
			path,
			raw,
			query: url.searchParams,
			params,
			header: (/** @type {string} */ n) => {
				const v = req.headers[n.toLowerCase()];
				return Array.isArray(v) ? v[0] : v;
			},
			json: () => {
				if (!raw.trim()) return undefined;
				try {
					return JSON.parse(raw);
				} catch (e) {
					throw badRequest(`The request body is not valid JSON: ${e instanceof Error ? e.message : e}`);
				}
			},
		});
		if (needsAuth) authenticate(ctx);
		const r = handler(ctx);
		return r.body !== undefined ? { ...r, body: clone(r.body) } : r;
	} catch (err) {
		return errorResult(err);
	}
}

module.exports = { handle, ROUTES };
