'use strict';

/**
 * The Peppol inbox routes (emulator/inbox.js holds the queue): the list answers the 10 oldest items
 * of the party (no OData, no paging), confirm and refuse remove one, and `POST /v1/peppol/sendxml`
 * checks and records a ready UBL document. Control routes for an emulator in another process:
 *
 *  GET  /_emulator/inbox            { items, sent, refused, confirmed } of the master (?partyId=)
 *  POST /_emulator/inbox            ReceiveOptions + partyId? -> the new item (a document arrives)
 * @module emulator/routes/inbox
 */

const { ApiError, badRequest } = require('../util');
const { controls, inboxOf, itemsOf, UBL } = require('../inbox');

/** @typedef {import('../server').Ctx} Ctx */

/** Items the list answers at most (the service's pages: "max. 10 documents, the oldest"). */
const WINDOW = 10;
/** OpenPEPPOL OPStatusReason codes, the values of RefusalReason (OpenAPI, default OTH). */
const REFUSAL_CODES = ['NON', 'REF', 'LEG', 'REC', 'QUA', 'DEL', 'PRI', 'QTY', 'ITM', 'PAY', 'UNR', 'FIN', 'PPD', 'OTH'];

/**
 * The entry an id names for this party: 400 when the id is not a number or not in the queue (the
 * OpenAPI lists 400 and 401 only), 401 when it is another party's.
 * @param {Ctx} ctx @param {string} what
 */
function entryFor(ctx, what) {
	const raw = ctx.params.id;
	if (!/^\d{1,15}$/.test(raw)) throw badRequest(`The inbox item id '${raw.slice(0, 40)}' is not a number`);
	const entry = inboxOf(ctx.emu.store).entries.get(Number(raw));
	if (!entry) throw badRequest(`Inbox item ${raw} is not in the inbox (already confirmed or refused, or unknown); it cannot be ${what}`);
	if (entry.partyId !== ctx.partyId) throw new ApiError(401, 'Unauthorized', `Inbox item ${raw} does not belong to party ${ctx.partyId}`);
	return entry;
}

/** A ready UBL document: the checks the emulator makes before "sending" it. @param {string} xml */
function checkUbl(xml) {
	const root = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:([\w.-]+):)?([\w.-]+)([^>]*)>/.exec(xml.replace(/^\uFEFF/, ''));
	if (!root) throw badRequest('XML is not an XML document');
	const [, prefix, name, attrs] = root;
	const decl = new RegExp(`xmlns${prefix ? `:${prefix}` : ''}\\s*=\\s*["']([^"']*)["']`).exec(attrs);
	const ns = decl ? decl[1] : '';
	if ((name !== 'Invoice' && name !== 'CreditNote') || ns !== `${UBL}${name}-2`)
		throw badRequest(`The document is not a UBL Invoice or CreditNote (root ${name} in namespace '${ns}')`);
	if (!/<(?:[\w.-]+:)?CustomizationID>[^<]+</.test(xml)) throw badRequest('[BR-01] An Invoice shall have a Specification identifier (CustomizationID)');
	if (!new RegExp(`</${prefix ? `${prefix}:` : ''}${name}>\\s*$`).test(xml))
		throw badRequest(`The document does not end with </${prefix ? `${prefix}:` : ''}${name}>`);
	const customer = /<(?:[\w.-]+:)?AccountingCustomerParty\b[\s\S]*?<(?:[\w.-]+:)?EndpointID\b[^>]*?schemeID\s*=\s*["']([^"']+)["'][^>]*>([^<]+)</.exec(xml);
	if (!customer) throw badRequest("[PEPPOL-EN16931-R010] The buyer's electronic address (AccountingCustomerParty/Party/EndpointID with schemeID) is required");
	return { kind: name, receiver: `${customer[1]}:${customer[2].trim()}` };
}

/**
 * POST /v1/peppol/sendxml {XML}: checked, then "sent" (recorded; Peppol only, no e-mail fallback, no order
 * in the book). Answers the new InboxItemID (config sendXmlAnswer: 'number' bare, 'object' {InboxItemID}).
 * @param {Ctx} ctx
 */
function sendXml(ctx) {
	const b = ctx.json();
	if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The request body must be a JSON object {"XML": "<Invoice ...>"}');
	if (typeof b.XML !== 'string' || !b.XML.trim()) throw badRequest('XML is required: the UBL document as text');
	const { kind, receiver } = checkUbl(b.XML);
	const participant = ctx.emu.store.participants.find(receiver);
	const needed = kind === 'Invoice' ? 'BISv3Invoice' : 'BISv3CreditNote';
	if (!participant || !participant.documentTypes.includes(needed)) {
		throw badRequest(`The receiver ${receiver} is not registered on Peppol for ${needed}; a document sent as XML goes over Peppol only (no e-mail fallback)`);
	}
	// The same Idempotency-Key as the order send command (assumed for this path): a reused key answers 409.
	const key = ctx.header('idempotency-key') || ctx.header('idempotent-key');
	const used = key && ctx.emu.store.idempotencyUse(ctx.partyId, key);
	if (used) throw new ApiError(409, 'Conflict', `Idempotency key already used for ${used}`);
	const inbox = inboxOf(ctx.emu.store);
	const id = ++inbox.nextId;
	if (key) ctx.emu.store.idempotencyRecord(ctx.partyId, key, `UBL document ${id}`);
	inbox.sent.push({ InboxItemID: id, partyId: ctx.partyId, XML: b.XML, at: ctx.emu.clock.now().toISOString(), receiver });
	return { status: 200, body: ctx.emu.config.sendXmlAnswer === 'object' ? { InboxItemID: id } : id };
}

/** GET /v1/peppol/inbox[?ReceiverCompanyID=]: the 10 oldest items. @param {Ctx} ctx */
function list(ctx) {
	const receiver = (ctx.query.get('ReceiverCompanyID') || '').trim().toUpperCase();
	const items = itemsOf(ctx.emu.store, ctx.partyId).filter((i) => !receiver || String(i.ReceiverCompanyID || '').toUpperCase() === receiver);
	return { status: 200, body: { InboxItems: items.slice(0, WINDOW) } };
}

/** POST /v1/peppol/inbox/{id}/confirm (no body). @param {Ctx} ctx */
function confirm(ctx) {
	const entry = entryFor(ctx, 'confirmed');
	const inbox = inboxOf(ctx.emu.store);
	inbox.entries.delete(entry.item.InboxItemID);
	inbox.confirmed.push({ InboxItemID: entry.item.InboxItemID, partyId: ctx.partyId, at: ctx.emu.clock.now().toISOString() });
	return { status: 200, body: {} };
}

/**
 * POST /v1/peppol/inbox/{id}/refuse {RefusalReason}: an OPStatusReason code, OTH when absent (OpenAPI default).
 * Only an invoice or credit note is refused (assumed: a refusal answers the sender with an IMR RE).
 * @param {Ctx} ctx
 */
function refuse(ctx) {
	const entry = entryFor(ctx, 'refused');
	const b = ctx.json();
	if (b !== undefined && (!b || typeof b !== 'object' || Array.isArray(b))) throw badRequest('The request body must be a JSON object {"RefusalReason": "OTH"}');
	const reason = b && b.RefusalReason !== undefined && b.RefusalReason !== null ? b.RefusalReason : 'OTH';
	if (typeof reason !== 'string' || !REFUSAL_CODES.includes(reason))
		throw badRequest(`RefusalReason must be an OPStatusReason code (${REFUSAL_CODES.join(', ')}), not ${JSON.stringify(reason)}`);
	if (entry.kind === 'IMR' || entry.kind === 'MLR')
		throw badRequest(`Inbox item ${entry.item.InboxItemID} is an ${entry.kind}, a response to a document you sent; confirm it instead of refusing it`);
	const inbox = inboxOf(ctx.emu.store);
	inbox.entries.delete(entry.item.InboxItemID);
	inbox.refused.push({ InboxItemID: entry.item.InboxItemID, partyId: ctx.partyId, RefusalReason: reason, at: ctx.emu.clock.now().toISOString() });
	return { status: 200, body: {} };
}

/** @param {Ctx} ctx */
function controlList(ctx) {
	const partyId = ctx.query.get('partyId') || masterOf(ctx);
	const c = controls(ctx.emu, partyId);
	return { status: 200, body: { items: c.items(), sent: c.sent(), refused: c.refused(), confirmed: c.confirmed() } };
}

/** @param {Ctx} ctx */
function controlReceive(ctx) {
	const b = ctx.json();
	if (b !== undefined && (!b || typeof b !== 'object' || Array.isArray(b))) throw badRequest('The request body must be a JSON object');
	try {
		return { status: 200, body: controls(ctx.emu, masterOf(ctx)).receive(b || {}) };
	} catch (e) {
		throw badRequest(e instanceof Error ? e.message : String(e));
	}
}

/** The first account's PartyID (the master the CLI prints). @param {Ctx} ctx */
const masterOf = (ctx) => ctx.emu.store.accounts.values().next().value.partyId;

/** @type {Array<[string, RegExp, (ctx: Ctx) => any, boolean]>} */
const ROUTES = [
	['GET', /^\/v1\/peppol\/inbox\/?$/i, list, true],
	['POST', /^\/v1\/peppol\/inbox\/(?<id>[^/]+)\/confirm\/?$/i, confirm, true],
	['POST', /^\/v1\/peppol\/inbox\/(?<id>[^/]+)\/refuse\/?$/i, refuse, true],
	['POST', /^\/v1\/peppol\/sendxml\/?$/i, sendXml, true],
	['GET', /^\/_emulator\/inbox\/?$/, controlList, false],
	['POST', /^\/_emulator\/inbox\/?$/, controlReceive, false],
];

module.exports = { ROUTES, WINDOW, REFUSAL_CODES };
