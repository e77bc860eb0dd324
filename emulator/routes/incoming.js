'use strict';

/**
 * Control endpoint (not part of the service; no auth, loopback only, never faulted):
 *
 *  POST /_emulator/incoming  { partyId?, supplier?, type?, orderNumber?, orderDate?, lines? }
 *       a supplier's invoice (or credit note) arrives for `partyId` (default: the master party) as a
 *       Cost order, not exported yet (emulator/incoming.js). Answers the new order.
 * @module emulator/routes/incoming
 */

const { badRequest } = require('../util');
const { receiveInvoice } = require('../incoming');

/** @typedef {import('../server').Ctx} Ctx */

/** @param {Ctx} ctx */
function incoming(ctx) {
	const b = ctx.json() === undefined ? {} : ctx.json();
	if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The request body must be a JSON object');
	const store = ctx.emu.store;
	const partyId = b.partyId === undefined ? [...store.accounts.values()][0].partyId : String(b.partyId);
	const known = [...store.accounts.values()].some((a) => a.partyId === partyId) || store.registrations.has(Number(partyId));
	if (!known) throw badRequest(`Unknown party ${partyId}`);
	try {
		return { status: 200, body: receiveInvoice(store, partyId, b, ctx.emu.config) };
	} catch (e) {
		throw badRequest(e instanceof Error ? e.message : String(e));
	}
}

/** @type {Array<[string, RegExp, (ctx: Ctx) => any, boolean]>} */
const ROUTES = [['POST', /^\/_emulator\/incoming\/?$/, incoming, false]];

module.exports = { ROUTES };
