// @ts-check
'use strict';
/**
 * A tiny express-compatible request/response pair over node:http, enough for
 * what n8n-core's WebhookContext hands to a node (`getRequestObject()`,
 * `getResponseObject()`, `getQueryData()`, ...), plus a small HTTP client.
 */
const http = require('node:http');

/**
 * @typedef {object} HttpResponse
 * @property {number} status
 * @property {http.IncomingHttpHeaders} headers
 * @property {unknown} body parsed when the content type says JSON, else the text
 * @property {string} text
 */

/**
 * Express's query object: a repeated key gives an array.
 * @param {Iterable<[string, string]>} searchParams
 */
function parseQuery(searchParams) {
	/** @type {Record<string, string | string[]>} */
	const query = {};
	for (const [key, value] of searchParams) {
		const seen = query[key];
		if (seen !== undefined) query[key] = Array.isArray(seen) ? [...seen, value] : [seen, value];
		else query[key] = value;
	}
	return query;
}

/** @param {http.IncomingMessage} req */
async function readBody(req) {
	/** @type {Buffer[]} */
	const chunks = [];
	for await (const chunk of req) chunks.push(chunk);
	const raw = Buffer.concat(chunks);
	if (raw.length === 0) return { raw, body: {} };
	const type = String(req.headers['content-type'] || '');
	const text = raw.toString('utf8');
	if (type.includes('application/json')) {
		try {
			return { raw, body: JSON.parse(text) };
		} catch {
			return { raw, body: text };
		}
	}
	if (type.includes('application/x-www-form-urlencoded')) return { raw, body: parseQuery(new URLSearchParams(text)) };
	return { raw, body: text };
}

/**
 * Decorates node's IncomingMessage like express does (the parts n8n nodes use).
 * @param {http.IncomingMessage} req
 */
async function expressRequest(req) {
	const url = new URL(String(req.url), `http://${req.headers.host || '127.0.0.1'}`);
	const { raw, body } = await readBody(req);
	return Object.assign(req, {
		path: url.pathname,
		originalUrl: req.url,
		query: parseQuery(url.searchParams),
		params: {},
		body,
		rawBody: raw,
		hostname: url.hostname,
		host: url.host,
		protocol: 'http',
		ip: req.socket.remoteAddress,
		/** @param {string} name */
		get(name) {
			return req.headers[String(name).toLowerCase()];
		},
		/** @param {string} name */
		header(name) {
			return req.headers[String(name).toLowerCase()];
		},
	});
}

/**
 * Decorates node's ServerResponse with express's response helpers.
 * @param {http.ServerResponse} raw
 */
function expressResponse(raw) {
	/** @type {any} the helpers call each other through res */
	const res = raw;
	Object.assign(res, {
		/** @param {number} code */
		status(code) {
			res.statusCode = code;
			return res;
		},
		/** @param {string | Record<string, string>} field @param {string} [value] */
		set(field, value) {
			if (typeof field === 'object') for (const [k, v] of Object.entries(field)) res.setHeader(k, v);
			else res.setHeader(field, value);
			return res;
		},
		/** @param {string} field @param {string} value */
		header(field, value) {
			return res.set(field, value);
		},
		/** @param {string} field */
		get(field) {
			return res.getHeader(field);
		},
		/** @param {string} contentType */
		type(contentType) {
			res.setHeader('Content-Type', contentType.includes('/') ? contentType : `text/${contentType}`);
			return res;
		},
		/** @param {unknown} obj */
		json(obj) {
			if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
			res.end(JSON.stringify(obj));
			return res;
		},
		/** @param {unknown} body */
		send(body) {
			if (body === undefined || body === null) {
				res.end();
			} else if (Buffer.isBuffer(body)) {
				if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', 'application/octet-stream');
				res.end(body);
			} else if (typeof body === 'object') {
				return res.json(body);
			} else {
				if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', 'text/html; charset=utf-8');
				res.end(String(body));
			}
			return res;
		},
		/** @param {number} code */
		sendStatus(code) {
			res.statusCode = code;
			res.end(String(code));
			return res;
		},
		/** @param {number | string} a status, or the location @param {string} [b] the location after a status */
		redirect(a, b) {
			const [code, location] = typeof a === 'number' ? [a, b] : [302, a];
			res.statusCode = code;
			res.setHeader('Location', location);
			res.end();
			return res;
		},
		/** @param {string} view */
		render(view) {
			res.setHeader('Content-Type', 'text/html; charset=utf-8');
			res.end(`<html><body>${view}</body></html>`);
			return res;
		},
	});
	return res;
}

/**
 * Sends n8n-style webhook response data.
 * @param {any} res from expressResponse()
 * @param {{ responseCode?: number, data?: unknown, headers?: Record<string, string> }} [response]
 */
function respond(res, { responseCode = 200, data, headers } = {}) {
	if (res.writableEnded || res.headersSent) return;
	for (const [k, v] of Object.entries(headers || {})) res.setHeader(k, v);
	res.statusCode = responseCode;
	if (data === undefined) return res.end();
	if (Buffer.isBuffer(data) || typeof data === 'string') return res.send(data);
	return res.json(data);
}

/**
 * Minimal HTTP client (no redirects followed).
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: unknown }} [options]
 * @returns {Promise<HttpResponse>}
 */
function request(url, { method = 'GET', headers = {}, body } = {}) {
	return new Promise((resolve, reject) => {
		const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
		const h = { ...headers };
		if (payload !== undefined && typeof body === 'object' && !Buffer.isBuffer(body) && !h['content-type']) h['content-type'] = 'application/json';
		const req = http.request(url, { method, headers: h }, (res) => {
			/** @type {Buffer[]} */
			const chunks = [];
			res.on('data', (c) => chunks.push(c));
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				let parsed = text;
				if (String(res.headers['content-type'] || '').includes('json')) {
					try {
						parsed = JSON.parse(text);
					} catch {
						/* keep text */
					}
				}
				resolve({ status: Number(res.statusCode), headers: res.headers, body: parsed, text });
			});
		});
		req.on('error', reject);
		if (payload !== undefined) req.write(payload);
		req.end();
	});
}

module.exports = { expressRequest, expressResponse, respond, request, parseQuery };
