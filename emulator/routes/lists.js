'use strict';

/**
 * OData list endpoints (emulator/README.md "OData lists"): orders, parties, products, plus Peppol lookup.
 * @module emulator/routes/lists
 */

const { runQuery } = require('../odata');
const { clone, ApiError } = require('../util');
const schemas = require('../schemas');

/** @typedef {import('../server').Ctx} Ctx */

/**
 * Run the query options of the request over items and shape the list answer per config.
 * @param {Ctx} ctx @param {any[]} items @param {import('../odata').EntitySchema} schema @param {string} basePath
 */
function listResponse(ctx, items, schema, basePath) {
	const q = ctx.query;
	const cfg = ctx.emu.config;
	const r = runQuery(
		items,
		{ filter: q.get('$filter'), orderby: q.get('$orderby'), top: q.get('$top'), skip: q.get('$skip') },
		schema,
		Number(cfg.pageSize) || 120,
	);
	let link = null;
	if (r.nextSkip !== null) {
		const parts = [];
		for (const k of ['$filter', '$orderby']) if (q.has(k)) parts.push(`${k}=${encodeURIComponent(/** @type {string} */ (q.get(k)))}`);
		const search = queryParam(q, 'fullTextSearch');
		if (search !== null) parts.push(`fullTextSearch=${encodeURIComponent(search)}`);
		if (r.topGiven) parts.push(`$top=${r.top}`);
		parts.push(`$skip=${r.nextSkip}`);
		const rel = `${basePath}?${parts.join('&')}`;
		link = cfg.linkForm === 'absolute' ? ctx.emu.url + rel : cfg.linkForm === 'foreign' ? `http://foreign.example.invalid${rel}` : rel;
	}
	const page = clone(r.page);
	if (cfg.listWrapper === 'bare') return { status: 200, body: page };
	/** @type {Record<string, any>} */
	const body = { [cfg.listWrapper === 'value' ? 'value' : 'Items']: page };
	if (cfg.includeCount) body.Count = r.total;
	if (link) body[cfg.linkSpelling === 'NextPageLink' ? 'NextPageLink' : 'NextpageLink'] = link;
	return { status: 200, body };
}

/**
 * A query parameter by name, matched case-insensitively (ASP.NET binds query parameters so).
 * @param {URLSearchParams} q @param {string} name @returns {string | null}
 */
function queryParam(q, name) {
	for (const [k, v] of q) if (k.toLowerCase() === name.toLowerCase()) return v;
	return null;
}

/**
 * `fullTextSearch` (openapi.json, GET /v1/orders): how the service matches is not published. Assumed here: every
 * word of the text (case-insensitive) occurs in one of the order's number, reference, payment reference, title,
 * external provider id, or the counterparty's / customer's / supplier's name, display name or VAT number.
 * @param {any[]} items @param {string | null} text
 */
function searchOrders(items, text) {
	if (text === null || !text.trim()) return items;
	const words = text.toLowerCase().split(/\s+/).filter(Boolean);
	const party = (/** @type {any} */ p) => (p ? [p.Name, p.DisplayName, p.CommercialName, p.VATNumber] : []);
	return items.filter((o) => {
		const hay = [
			o.OrderNumber,
			o.Reference,
			o.PaymentReference,
			o.OrderTitle,
			o.ExternalProviderID,
			...party(o.CounterParty),
			...party(o.Customer),
			...party(o.Supplier),
		]
			.filter((v) => v !== null && v !== undefined)
			.map((v) => String(v).toLowerCase())
			.join('\n');
		return words.every((w) => hay.includes(w));
	});
}

/** @param {Ctx} ctx */
const orders = (ctx) =>
	listResponse(
		ctx,
		searchOrders([...ctx.emu.store.book(ctx.partyId).values()], queryParam(ctx.query, 'fullTextSearch')),
		ctx.emu.config.orderFilter === 'all' ? schemas.ORDER_ALL : schemas.ORDER,
		'/v1/orders',
	);
/** @param {Ctx} ctx */
const parties = (ctx) => listResponse(ctx, ctx.emu.store.listParties(ctx.partyId), schemas.PARTY, '/v1/parties');
/** @param {Ctx} ctx */
const products = (ctx) => listResponse(ctx, ctx.emu.store.listProducts(ctx.partyId), schemas.PRODUCT, '/v1/products');

/**
 * Single party or product read.
 * @param {'listParties'|'listProducts'} which @param {string} key @param {string} label
 * @returns {(ctx: Ctx) => { status: number, body: any }}
 */
const single = (which, key, label) => (ctx) => {
	const hit = ctx.emu.store[which](ctx.partyId).find((p) => String(p[key]) === ctx.params.id);
	if (!hit) throw new ApiError(404, 'GenericError', `${label} ${ctx.params.id} not found`);
	return { status: 200, body: clone(hit) };
};

/** GET /v1/peppol/participantInformation/{identifier} @param {Ctx} ctx */
function participantInformation(ctx) {
	return { status: 200, body: ctx.emu.store.participants.lookup(ctx.params.identifier, `${ctx.emu.url}/as4`) };
}

module.exports = {
	listResponse,
	searchOrders,
	orders,
	parties,
	products,
	party: single('listParties', 'PartyID', 'Party'),
	product: single('listProducts', 'ProductID', 'Product'),
	participantInformation,
};
