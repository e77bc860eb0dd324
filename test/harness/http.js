'use strict';
/**
 * A tiny express-compatible request/response pair over node:http, enough for
 * what n8n-core's WebhookContext hands to a node (`getRequestObject()`,
 * `getResponseObject()`, `getQueryData()`, ...), plus a small HTTP client.
 */
const http = require('node:http');

function parseQuery(searchParams) {
	const query = {};
	for (const [key, value] of searchParams) {
		if (key in query) query[key] = Array.isArray(query[key]) ? [...query[key], value] : [query[key], value];
		else query[key] = value;
	}
	return query;
}

async function readBody(req) {
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

/** Decorates node's IncomingMessage like express does (the parts n8n nodes use). */
async function expressRequest(req) {
	const url = new URL(req.url, `http://${req.headers.host || '127.0.0.1'}`);
	const { raw, body } = await readBody(req);
	Object.assign(req, {
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
		get(name) {
			return req.headers[String(name).toLowerCase()];
		},
		header(name) {
			return req.headers[String(name).toLowerCase()];
		},
	});
	return req;
}

/** Decorates node's ServerResponse with express's response helpers. */
function expressResponse(res) {
	Object.assign(res, {
		status(code) {
			res.statusCode = code;
			return res;
		},
		set(field, value) {
			if (typeof field === 'object') for (const [k, v] of Object.entries(field)) res.setHeader(k, v);
			else res.setHeader(field, value);
			return res;
		},
		header(field, value) {
			return res.set(field, value);
		},
		get(field) {
			return res.getHeader(field);
		},
		type(contentType) {
			res.setHeader('Content-Type', contentType.includes('/') ? contentType : `text/${contentType}`);
			return res;
		},
		json(obj) {
			if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
			res.end(JSON.stringify(obj));
			return res;
		},
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
		sendStatus(code) {
			res.statusCode = code;
			res.end(String(code));
			return res;
		},
		redirect(a, b) {
			const [code, location] = typeof a === 'number' ? [a, b] : [302, a];
			res.statusCode = code;
			res.setHeader('Location', location);
			res.end();
			return res;
		},
		render(view) {
			res.setHeader('Content-Type', 'text/html; charset=utf-8');
			res.end(`<html><body>${view}</body></html>`);
			return res;
		},
	});
	return res;
}

/** Sends n8n-style webhook response data. */
function respond(res, { responseCode = 200, data, headers } = {}) {
	if (res.writableEnded || res.headersSent) return;
	for (const [k, v] of Object.entries(headers || {})) res.setHeader(k, v);
	res.statusCode = responseCode;
	if (data === undefined) return res.end();
	if (Buffer.isBuffer(data) || typeof data === 'string') return res.send(data);
	return res.json(data);
}

/** Minimal HTTP client (no redirects followed). Resolves { status, headers, body, text }. */
function request(url, { method = 'GET', headers = {}, body } = {}) {
	return new Promise((resolve, reject) => {
		const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
		const h = { ...headers };
		if (payload !== undefined && typeof body === 'object' && !Buffer.isBuffer(body) && !h['content-type']) h['content-type'] = 'application/json';
		const req = http.request(url, { method, headers: h }, (res) => {
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
				resolve({ status: res.statusCode, headers: res.headers, body: parsed, text });
			});
		});
		req.on('error', reject);
		if (payload !== undefined) req.write(payload);
		req.end();
	});
}

module.exports = { expressRequest, expressResponse, respond, request, parseQuery };
