'use strict';

/**
 * Authentication of /v1 calls: the apikey header (or an OAuth Bearer token) names the account, partyID the party the call acts for.
 * @module emulator/routes/auth
 */

const { ApiError } = require('../util');
const { bearerAccount } = require('./oauth');

/** @param {string} description */
const unauthorized = (description) => new ApiError(401, 'Unauthorized', description);

/**
 * The account of a call: an `Authorization: Bearer` token (OAuth) when present, else the apikey header.
 * Sets ctx.account. Never echoes the key or token.
 * @param {import('../server').Ctx} ctx
 */
function authenticateAccount(ctx) {
	const bearer = bearerAccount(ctx);
	if (bearer) return (ctx.account = bearer);
	const key = ctx.header('apikey');
	if (!key) throw unauthorized('Missing apikey header: send the API key of the account in the "apikey" header');
	const account = ctx.emu.store.accounts.get(key);
	if (!account) throw unauthorized('The apikey is not valid: no account has this API key');
	return (ctx.account = account);
}

/**
 * Check the account (apikey or Bearer) and partyID; sets ctx.account, ctx.partyId and ctx.party.
 * @param {import('../server').Ctx} ctx
 */
function authenticate(ctx) {
	const { store } = ctx.emu;
	const account = authenticateAccount(ctx);
	const partyId = ctx.header('partyid');
	if (!partyId) throw unauthorized('Missing partyID header: send the PartyID the call acts for in the "partyID" header');
	const party = store.resolveParty(account, partyId);
	if (!party) {
		const reg = /^\d+$/.test(partyId) ? store.registrations.get(Number(partyId)) : undefined;
		if (reg && reg.apiKey === account.apiKey && !reg.Active)
			throw unauthorized(`The partyID '${partyId}' belongs to a deactivated registration and can no longer be used`);
		throw unauthorized(`The partyID '${partyId}' is not valid for this apikey: use the master PartyID or the PartyID of an active registration`);
	}
	ctx.account = account;
	ctx.partyId = partyId;
	ctx.party = party;
}

module.exports = { authenticate, authenticateAccount, unauthorized };
