'use strict';

/**
 * Authentication of /v1 calls: the apikey header names the account, partyID the party the call acts for.
 * @module emulator/routes/auth
 */

const { ApiError } = require('../util');

/** @param {string} description */
const unauthorized = (description) => new ApiError(401, 'Unauthorized', description);

/**
 * Check apikey and partyID; sets ctx.account, ctx.partyId and ctx.party. Never echoes the key.
 * @param {import('../server').Ctx} ctx
 */
function authenticate(ctx) {
	const { store } = ctx.emu;
	const key = ctx.header('apikey');
	if (!key) throw unauthorized('Missing apikey header: send the API key of the account in the "apikey" header');
	const account = store.accounts.get(key);
	if (!account) throw unauthorized('The apikey is not valid: no account has this API key');
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

module.exports = { authenticate, unauthorized };
