'use strict';

/**
 * GET /v1/account/accountInformation (beyond-contract.md "OAuth 2.0"): the account behind the
 * credential, for an apikey or a Bearer token, with no partyID header needed (this is where a client
 * learns its PartyID). The service does not publish the shape; this one answers the account's own
 * company at the top (PartyID, CompanyName) and every company it may act for under `Companies`.
 * @module emulator/routes/account
 */

const { authenticateAccount } = require('./auth');

/** @typedef {import('../server').Ctx} Ctx */

/** @param {Ctx} ctx */
function accountInformation(ctx) {
	const account = authenticateAccount(ctx);
	const self = account.self || {};
	const own = { PartyID: Number(account.partyId), CompanyName: account.name, VATNumber: self.VATNumber || null, Email: self.Email || null };
	const registrations = ctx.emu.store
		.registrationsOf(account.apiKey)
		.filter((r) => r.Active)
		.map((r) => ({ PartyID: Number(r.PartyID), CompanyName: r.details.CompanyName, VATNumber: r.details.TaxIdentifier || null, Email: r.details.Email || null }));
	return { status: 200, body: { ...own, Companies: [own, ...registrations] } };
}

/** @type {Array<[string, RegExp, (ctx: Ctx) => any, boolean]>} */
const ROUTES = [['GET', /^\/v1\/account\/accountInformation\/?$/i, accountInformation, false]];

module.exports = { ROUTES };
