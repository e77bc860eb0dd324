'use strict';

/**
 * Parties and products: create and update (docs/api.md "Parties and products"; the OpenAPI `Party` and
 * `Product` types, the service's pages "Party" and "Products"). Reads and lists are in lists.js.
 *
 *  POST  /v1/parties            a Party; with a known PartyID it updates that party. Answers the PartyID.
 *  PATCH /v1/parties/{id}       a partial Party. Answers the party (changeAnswer 'empty': an empty 200).
 *  POST  /v1/products           a Product, or {Items: [Product, ...]} as the Products page shows it; with a
 *                               known ProductID it updates that product. Answers the ProductID (a list for Items).
 *
 * Published: the paths, the bodies' field names, the id answers. Assumed: a create without an id always
 * creates (the service does not say it matches an existing party or product), the checks below, 400 for
 * an unknown id. Fields the emulator does not know are stored as sent.
 * @module emulator/routes/parties
 */

const { ApiError, badRequest, clone, isoSeconds } = require('../util');

/** @typedef {import('../server').Ctx} Ctx */

const PARTY_TYPES = ['Customer', 'Supplier'];
/** Set by the service, never by a client. */
const READ_ONLY = ['Created', 'LastModified', 'DisplayName'];
const TEXT =
	/^(Name|CommercialName|VATNumber|Email|Street|StreetNumber|Box|Zipcode|City|CountryCode|Phone|Mobile|Language|IBAN|BIC|Nr|Reference|Description|Unit)$/;

/** @param {unknown} b @param {string} what */
function objectBody(b, what) {
	if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest(`The request body must be a ${what} object`);
	return /** @type {Record<string, any>} */ (b);
}

/** Type checks of the fields both kinds share; returns the fields to store. @param {Record<string, any>} b */
function fields(b) {
	const out = { ...b };
	for (const k of READ_ONLY) delete out[k];
	for (const [k, v] of Object.entries(out)) {
		if (TEXT.test(k) && v !== null && typeof v !== 'string') throw badRequest(`${k} must be a string`);
		if (k.length > 100) throw badRequest('A field name is longer than 100 characters');
	}
	if ('PartyType' in out && !PARTY_TYPES.includes(out.PartyType))
		throw badRequest(`PartyType must be Customer or Supplier, not ${JSON.stringify(out.PartyType)}`);
	for (const k of ['AmountExcl', 'AmountIncl', 'VAT', 'BuyExcl', 'StockQuantity', 'MinimumBilledQuantity']) {
		if (k in out && out[k] !== null && (typeof out[k] !== 'number' || !Number.isFinite(out[k]))) throw badRequest(`${k} must be a number`);
	}
	return out;
}

/** The list a party's records live in (created on first write). @param {Ctx} ctx @param {'parties'|'products'} kind */
function records(ctx, kind) {
	const map = ctx.emu.store[kind];
	let list = map.get(String(ctx.partyId));
	if (!list) map.set(String(ctx.partyId), (list = []));
	return list;
}

/** @param {Record<string, any>[]} list @param {string} key @param {number} floor */
const nextId = (list, key, floor) => list.reduce((max, r) => Math.max(max, Number(r[key]) || 0), floor) + 1;

/**
 * Creates a record, or updates the one the body names by its id.
 * @param {Ctx} ctx @param {'parties'|'products'} kind @param {Record<string, any>} body
 * @returns {Record<string, any>} the stored record
 */
function upsert(ctx, kind, body) {
	const key = kind === 'parties' ? 'PartyID' : 'ProductID';
	const label = kind === 'parties' ? 'Party' : 'Product';
	const list = records(ctx, kind);
	const now = isoSeconds(ctx.emu.clock.now());
	const given = fields(body);
	const id = given[key];
	delete given[key];
	if (id !== undefined && id !== null && id !== 0) {
		const hit = list.find((r) => String(r[key]) === String(id));
		if (!hit) throw badRequest(`${label} ${id} does not exist; leave ${key} out to create one`);
		Object.assign(hit, given, { LastModified: now });
		if (kind === 'parties') hit.DisplayName = hit.Name || hit.CommercialName || hit.DisplayName;
		return hit;
	}
	if (kind === 'parties') {
		if (!given.Name && !given.CommercialName) throw badRequest('A party needs a Name (or CommercialName)');
		given.PartyType = given.PartyType || 'Customer';
		given.DisplayName = given.Name || given.CommercialName;
	} else if (!given.Reference && !given.Description) throw badRequest('A product needs a Reference or a Description');
	const record = { [key]: nextId(list, key, kind === 'parties' ? 5900000 : 8900000), ...given, Created: now, LastModified: now };
	list.push(record);
	return record;
}

/** POST /v1/parties @param {Ctx} ctx */
function createParty(ctx) {
	return { status: 200, body: upsert(ctx, 'parties', objectBody(ctx.json(), 'Party')).PartyID };
}

/** PATCH /v1/parties/{id} @param {Ctx} ctx */
function patchParty(ctx) {
	const hit = records(ctx, 'parties').find((r) => String(r.PartyID) === ctx.params.id);
	if (!hit) throw new ApiError(404, 'GenericError', `Party ${ctx.params.id} not found`);
	const b = objectBody(ctx.json(), 'Party');
	if (!Object.keys(b).length) throw badRequest('Nothing to update: the body is empty');
	if ('PartyID' in b && String(b.PartyID) !== ctx.params.id) throw badRequest('PartyID cannot be changed');
	const updated = upsert(ctx, 'parties', { ...b, PartyID: hit.PartyID });
	return ctx.emu.config.changeAnswer === 'empty' ? { status: 200, raw: '' } : { status: 200, body: clone(updated) };
}

/** POST /v1/products: one Product, or {Items: [...]} @param {Ctx} ctx */
function saveProducts(ctx) {
	const b = objectBody(ctx.json(), 'Product');
	if (!('Items' in b)) return { status: 200, body: upsert(ctx, 'products', b).ProductID };
	if (!Array.isArray(b.Items) || !b.Items.length) throw badRequest('Items must be a non-empty list of products');
	const checked = b.Items.map((p) => objectBody(p, 'Product'));
	// All or nothing: every item is checked before the first is stored.
	for (const p of checked) {
		fields(p);
		if (p.ProductID && !records(ctx, 'products').some((r) => String(r.ProductID) === String(p.ProductID)))
			throw badRequest(`Product ${p.ProductID} does not exist`);
	}
	return { status: 200, body: checked.map((p) => upsert(ctx, 'products', p).ProductID) };
}

/** @type {Array<[string, RegExp, (ctx: Ctx) => any, boolean]>} */
const ROUTES = [
	['POST', /^\/v1\/parties\/?$/i, createParty, true],
	['PATCH', /^\/v1\/parties\/(?<id>[^/]+)\/?$/i, patchParty, true],
	['POST', /^\/v1\/products\/?$/i, saveProducts, true],
];

module.exports = { ROUTES };
