'use strict';

/**
 * Webhook API, as the service publishes it (its webhooks pages; its OpenAPI's Webhook
 * `{WebhookID, CompanyID, UserID, EntityType, EntityUpdateType, WebhookURL, Secret}`; see README.md):
 *  - POST   /v1/einvoices/registrations/{id}/webhooks   create for a registered entity (answers the Secret, once)
 *  - GET    /v1/einvoices/registrations/{id}/webhooks   list that entity's webhooks (emulator addition)
 *  - DELETE /v1/einvoices/registrations/{id}/webhooks/{webhookID}                    (emulator addition)
 *  - POST   /v1/webhooks                                create for the party of the partyID header
 *  - GET    /v1/webhooks                                the webhooks of the partyID header's party: a bare list
 *  - GET    /v1/webhooks/{webhookID}                    one webhook (emulator addition)
 *  - DELETE /v1/webhooks/{webhookID}                    delete any webhook of the account: answers true
 *  - POST   /v1/webhooks/refresh/{webhookID}            a new secret, answered as a JSON string (the method is not published)
 * Secrets are answered by create and refresh only, never by a list or read.
 * @module emulator/routes/webhooks
 */

const { ApiError, badRequest } = require('../util');
const { ownRegistration } = require('./registrations');
const { unauthorized } = require('./auth');
const { WebhookHub, apiView } = require('../webhooks');

/** @typedef {import('../server').Ctx} Ctx */

/** @param {Ctx} ctx @param {number | string} partyId */
function createFor(ctx, partyId) {
	let input;
	try {
		input = WebhookHub.parseCreate(ctx.json());
	} catch (e) {
		if (e instanceof ApiError) throw e;
		throw badRequest(e instanceof Error ? e.message : String(e));
	}
	try {
		return { status: 200, body: ctx.emu.webhooks.create({ ...input, partyId, apiKey: ctx.account.apiKey }) };
	} catch (e) {
		// The limit is a business error: 400 in the service's error shape.
		throw badRequest(e instanceof Error ? e.message : String(e));
	}
}

/** @param {Ctx} ctx */
function activeRegistration(ctx) {
	const reg = ownRegistration(ctx, ctx.params.id);
	if (!reg.Active) throw badRequest(`Registration ${reg.RegistrationID} is deactivated; it cannot have webhooks`);
	return reg;
}

/**
 * A webhook of the caller's account: 404 when unknown, 401 when another account's (as orders do).
 * @param {Ctx} ctx @param {string} id
 */
function ownWebhook(ctx, id) {
	const hook = /^\d+$/.test(id) ? ctx.emu.webhooks.hooks.get(Number(id)) : undefined;
	if (!hook) throw new ApiError(404, 'GenericError', `Webhook ${id} not found`);
	if (hook.apiKey !== ctx.account.apiKey) throw unauthorized(`Webhook ${id} does not belong to this account`);
	return hook;
}

/** @param {Ctx} ctx */
const createForRegistration = (ctx) => createFor(ctx, activeRegistration(ctx).PartyID);
/** @param {Ctx} ctx */
const createForParty = (ctx) => createFor(ctx, ctx.partyId);
/** @param {Ctx} ctx */
const listForRegistration = (ctx) => ({ status: 200, body: ctx.emu.webhooks.ofParty(ownRegistration(ctx, ctx.params.id).PartyID).map(apiView) });
/** @param {Ctx} ctx */
const listForParty = (ctx) => ({ status: 200, body: ctx.emu.webhooks.ofParty(ctx.partyId).map(apiView) });
/** @param {Ctx} ctx */
const getOne = (ctx) => ({ status: 200, body: apiView(ownWebhook(ctx, ctx.params.wid)) });

/** @param {Ctx} ctx */
function remove(ctx) {
	const hook = ownWebhook(ctx, ctx.params.wid);
	if (ctx.params.id !== undefined && String(hook.PartyID) !== String(ownRegistration(ctx, ctx.params.id).PartyID))
		throw new ApiError(404, 'GenericError', `Webhook ${ctx.params.wid} not found on registration ${ctx.params.id}`);
	ctx.emu.webhooks.remove(hook.WebhookID);
	return { status: 200, body: true };
}

/** @param {Ctx} ctx */
function refreshSecret(ctx) {
	const hook = ownWebhook(ctx, ctx.params.wid);
	return { status: 200, body: ctx.emu.webhooks.refreshSecret(hook.WebhookID) };
}

const REG = '/v1/einvoices/registrations/(?<id>[^/]+)/webhooks';
/** @type {Array<[string, RegExp, (ctx: Ctx) => any, boolean]>} */
const ROUTES = [
	['POST', new RegExp(`^${REG}/?$`, 'i'), createForRegistration, true],
	['GET', new RegExp(`^${REG}/?$`, 'i'), listForRegistration, true],
	['DELETE', new RegExp(`^${REG}/(?<wid>[^/]+)/?$`, 'i'), remove, true],
	['POST', /^\/v1\/webhooks\/?$/i, createForParty, true],
	['GET', /^\/v1\/webhooks\/?$/i, listForParty, true],
	['GET', /^\/v1\/webhooks\/(?<wid>[^/]+)\/?$/i, getOne, true],
	['DELETE', /^\/v1\/webhooks\/(?<wid>[^/]+)\/?$/i, remove, true],
	['POST', /^\/v1\/webhooks\/refresh\/(?<wid>[^/]+)\/?$/i, refreshSecret, true],
];

module.exports = { ROUTES };
