'use strict';

/**
 * Control endpoints for tests and local runs of the emulator in another process (`npm run emulator`).
 * Not part of the service. No authentication (the emulator listens on 127.0.0.1 only), never faulted.
 * The same operations exist in-process on `emu.webhooks`, `emu.oauth`, `emu.delivery` and `emu.config`.
 *
 *  GET    /_emulator/webhooks                   every webhook (no secrets)
 *  GET    /_emulator/webhooks/deliveries        delivery log with attempts (?webhookId=&state=)
 *  DELETE /_emulator/webhooks/deliveries        forget finished deliveries
 *  POST   /_emulator/webhooks/faults            { kind, count?, webhookId? } queue a delivery fault
 *  DELETE /_emulator/webhooks/faults            drop queued delivery faults
 *  POST   /_emulator/orders/{id}/status         { status: Delivered|Error|Refused|Accepted, info?, reason?, at? } = emu.delivery.set
 *  GET    /_emulator/oauth/stats                grant/error/consent/Bearer counters
 *  DELETE /_emulator/oauth/stats                reset the counters
 *  GET    /_emulator/oauth/clients              registered clients (ids and redirect URIs, no secrets)
 *  POST   /_emulator/oauth/clients              { client_id, client_secret, redirect_uris } register/replace
 *  POST   /_emulator/oauth/revoke               { refresh_token? , client_id?, keep_access_tokens? } revoke
 *  GET    /_emulator/config                     the switches
 *  PATCH  /_emulator/config                     { switch: value } change switches (known names, same type)
 * @module emulator/routes/control
 */

const { ApiError, badRequest } = require('../util');
const delivery = require('../delivery');
const { view } = require('../webhooks');

/** @typedef {import('../server').Ctx} Ctx */

/** @param {Ctx} ctx */
const body = (ctx) => {
	const b = ctx.json();
	if (b === undefined) return {};
	if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The request body must be a JSON object');
	return b;
};

/** @param {() => any} fn */
function attempt(fn) {
	try {
		return fn();
	} catch (e) {
		if (e instanceof ApiError) throw e;
		if (e instanceof RangeError) throw new ApiError(404, 'NotFound', e.message);
		throw badRequest(e instanceof Error ? e.message : String(e));
	}
}

/** @param {Ctx} ctx */
function deliveries(ctx) {
	const id = ctx.query.get('webhookId');
	return { status: 200, body: ctx.emu.webhooks.deliveries({ webhookId: id === null ? undefined : Number(id), state: ctx.query.get('state') || undefined }) };
}

/** @param {Ctx} ctx */
function webhookFault(ctx) {
	const b = body(ctx);
	const count = b.count === undefined ? 1 : Number(b.count);
	attempt(() => ctx.emu.webhooks.failNext(count, String(b.kind), b.webhookId === undefined ? {} : { webhookId: Number(b.webhookId) }));
	return { status: 200, body: { queued: ctx.emu.webhooks.faults.map((f) => ({ ...f })) } };
}

/** @param {Ctx} ctx */
function orderStatus(ctx) {
	const b = body(ctx);
	const outcome = /** @type {any} */ (String(b.status));
	if (b.at !== undefined && Number.isNaN(new Date(b.at).getTime())) throw badRequest(`'at' is not a date: ${JSON.stringify(b.at)}`);
	const details = attempt(() => delivery.controls(ctx.emu).set(ctx.params.id, outcome, { info: b.info, reason: b.reason, at: b.at }));
	return { status: 200, body: { OrderID: Number(ctx.params.id), CurrentDocumentDeliveryDetails: details } };
}

/** @param {Ctx} ctx */
function addClient(ctx) {
	return { status: 200, body: attempt(() => ctx.emu.oauth.addClient(body(ctx))) };
}

/** @param {Ctx} ctx */
function revoke(ctx) {
	const b = body(ctx);
	const n = ctx.emu.oauth.revoke({ refreshToken: b.refresh_token, clientId: b.client_id, keepAccessTokens: b.keep_access_tokens === true });
	return { status: 200, body: { revoked: n } };
}

/** @param {Ctx} ctx */
function patchConfig(ctx) {
	const b = body(ctx);
	const cfg = ctx.emu.config;
	for (const [k, v] of Object.entries(b)) {
		if (!(k in cfg)) throw badRequest(`Unknown switch '${k}'`);
		const want = Array.isArray(cfg[k]) ? 'array' : typeof cfg[k];
		const got = Array.isArray(v) ? 'array' : typeof v;
		if (want !== got) throw badRequest(`Switch '${k}' takes a ${want}, got ${got}`);
	}
	Object.assign(cfg, b);
	return { status: 200, body: cfg };
}

/** @type {Array<[string, RegExp, (ctx: Ctx) => any, boolean]>} */
const ROUTES = [
	['GET', /^\/_emulator\/webhooks\/?$/, (ctx) => ({ status: 200, body: [...ctx.emu.webhooks.hooks.values()].map(view) }), false],
	['GET', /^\/_emulator\/webhooks\/deliveries\/?$/, deliveries, false],
	['DELETE', /^\/_emulator\/webhooks\/deliveries\/?$/, (ctx) => (ctx.emu.webhooks.clearDeliveries(), { status: 200, body: {} }), false],
	['POST', /^\/_emulator\/webhooks\/faults\/?$/, webhookFault, false],
	['DELETE', /^\/_emulator\/webhooks\/faults\/?$/, (ctx) => ((ctx.emu.webhooks.faults.length = 0), { status: 200, body: {} }), false],
	['POST', /^\/_emulator\/orders\/(?<id>\d+)\/status\/?$/, orderStatus, false],
	['GET', /^\/_emulator\/oauth\/stats\/?$/, (ctx) => ({ status: 200, body: ctx.emu.oauth.stats() }), false],
	['DELETE', /^\/_emulator\/oauth\/stats\/?$/, (ctx) => (ctx.emu.oauth.resetStats(), { status: 200, body: {} }), false],
	[
		'GET',
		/^\/_emulator\/oauth\/clients\/?$/,
		(ctx) => ({ status: 200, body: [...ctx.emu.oauth.clients.values()].map((c) => ({ client_id: c.clientId, redirect_uris: [...c.redirectUris] })) }),
		false,
	],
	['POST', /^\/_emulator\/oauth\/clients\/?$/, addClient, false],
	['POST', /^\/_emulator\/oauth\/revoke\/?$/, revoke, false],
	['GET', /^\/_emulator\/config\/?$/, (ctx) => ({ status: 200, body: ctx.emu.config }), false],
	['PATCH', /^\/_emulator\/config\/?$/, patchConfig, false],
];

module.exports = { ROUTES };
