'use strict';

/**
 * Orders (docs/api.md "Orders", "Sending", the OpenAPI `Order` and `SendRequest`): single read, create with
 * idempotency keys, and the send command.
 * @module emulator/routes/orders
 */

const { ApiError, badRequest } = require('../util');
const { ORDER_TYPES, ORDER_DIRECTIONS } = require('../model');
const { unauthorized } = require('./auth');
const { intake, storeIntake, fullOrder } = require('./files');
const { send: deliverySend } = require('../delivery');

/** @typedef {import('../server').Ctx} Ctx */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** @param {unknown} v */
const isDate = (v) => typeof v === 'string' && DATE_ONLY.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;
/** @param {unknown} v */
const isNum = (v) => typeof v === 'number' && Number.isFinite(v);

/** @param {Ctx} ctx */
function getOne(ctx) {
	const id = ctx.params.id;
	const hit = /^\d+$/.test(id) ? ctx.emu.store.findOrder(id) : undefined;
	if (!hit) throw new ApiError(404, 'GenericError', `Order ${id} not found`);
	if (hit.partyId !== ctx.partyId) throw unauthorized(`Order ${id} does not belong to party ${ctx.partyId}`);
	return { status: 200, body: fullOrder(ctx.emu, hit.partyId, hit.order) };
}

/** @param {Ctx} ctx */
const idempotencyKey = (ctx) => ctx.header('idempotency-key') || ctx.header('idempotent-key');

/** @param {Ctx} ctx @param {string | undefined} key */
function checkIdempotency(ctx, key) {
	const used = key && ctx.emu.store.idempotencyUse(ctx.partyId, key);
	if (used) throw new ApiError(409, 'Conflict', `Idempotency key already used for ${used}`);
}

/** YYYY-MM-DD, or a date-time (the OpenAPI types dates as date-time): its date. @param {unknown} v */
const dateOf = (v) => {
	const m = typeof v === 'string' ? /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(v.trim()) : null;
	return m && isDate(m[1]) ? m[1] : undefined;
};

/**
 * The documented Order fields (OpenAPI `Order`) a create may set; the ones the service computes or
 * keeps for itself (ids, totals, status, messages, delivery details, stamps) are not among them.
 * Others are ignored, as the service's model binding ignores unknown properties.
 */
const CREATE_FIELDS = [
	'OrderNumber',
	'CustomerID',
	'SupplierID',
	'CounterPartyID',
	'Customer',
	'Supplier',
	'CounterParty',
	'OrderDate',
	'ExpiryDate',
	'OrderType',
	'OrderDirection',
	'OrderLines',
	'Journal',
	'OrderTitle',
	'PaymentDiscountPercentage',
	'PaymentDiscountAmount',
	'PaymentReductionDays',
	'PaymentDiscountDate',
	'VentilationCode',
	'Reference',
	'Tags',
	'DepartmentID',
	'PaymentReference',
	'AboutInvoiceNumber',
	'Paid',
	'PaidDate',
	'ExternalProviderID',
	'ExternalProvider',
	'ProjectID',
	'ProjectName',
	'ExternalProviderReferences',
	'Comments',
	'Currency',
	'VatDeduction',
	'MixedUseProfessionalPercentage',
	'InternalInfo',
	'Invoiced',
	'CustomFields',
	'PeriodFrom',
	'PeriodTill',
	'CostCategoryCode',
	'AccountCode',
	'AccountingCostTypeTC',
	'ApprovalStatus',
	'FXRateToForeign',
	'PaymentMethod',
	'DeliveryDate',
	'TemplateID',
	'MessageTemplateID',
	'AnalyticCostBearer',
	'AnalyticCostCenter',
	'AccountantVerificationNeeded',
	'AdditionalDocumentReference',
	'PaymentTerms',
	'ContractDocumentReference',
	'TaxPointDate',
	'CategoryFieldItems',
];

/**
 * A party of a create: the object as given, or the party an ID names in the book's party list.
 * @param {Ctx} ctx @param {Record<string, any>} b @param {string} role Customer, Supplier or CounterParty
 */
function partyOf(ctx, b, role) {
	const id = b[`${role}ID`];
	if (id !== undefined && id !== null) {
		const hit = ctx.emu.store.listParties(ctx.partyId).find((p) => String(p.PartyID) === String(id));
		if (!hit) throw badRequest(`${role}ID ${id} is not a party of this company`);
		return hit;
	}
	const p = b[role];
	if (p === undefined || p === null) return undefined;
	if (typeof p !== 'object' || Array.isArray(p) || typeof p.Name !== 'string' || !p.Name.trim()) throw badRequest(`${role} must be a party object with a Name`);
	return p;
}

/**
 * What the service's page "Order" names as the minimum of a create: OrderType, OrderDirection,
 * OrderDate, order lines, and who it is for (CustomerID or a Customer object; CounterParty and, for a
 * purchase, Supplier are taken too). A line is a ProductID, or a price and VAT rate (Quantity 1 when left out).
 * @param {Record<string, any>} b @param {Ctx} [ctx] resolves party and product IDs
 * @returns {Record<string, any>} the order's input
 */
function validateOrder(b, ctx) {
	if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The request body must be an order object');
	if (!ORDER_TYPES.includes(b.OrderType)) throw badRequest(`OrderType is required and must be one of ${ORDER_TYPES.join(', ')}`);
	if (!ORDER_DIRECTIONS.includes(b.OrderDirection)) throw badRequest(`OrderDirection is required and must be one of ${ORDER_DIRECTIONS.join(', ')}`);
	if (!dateOf(b.OrderDate)) throw badRequest('OrderDate is required and must be a date (YYYY-MM-DD or a date-time)');
	for (const f of ['ExpiryDate', 'DeliveryDate'])
		if (b[f] !== undefined && b[f] !== null && !dateOf(b[f])) throw badRequest(`${f} must be a date (YYYY-MM-DD or a date-time)`);
	if (!Array.isArray(b.OrderLines) || b.OrderLines.length === 0) throw badRequest('OrderLines must contain at least one order line');
	const products = ctx ? ctx.emu.store.listProducts(ctx.partyId) : [];
	const lines = b.OrderLines.map((/** @type {any} */ l, /** @type {number} */ i) => {
		if (!l || typeof l !== 'object' || Array.isArray(l)) throw badRequest(`OrderLines[${i}] must be an object`);
		const product = l.ProductID === undefined || l.ProductID === null ? undefined : products.find((p) => String(p.ProductID) === String(l.ProductID));
		if (l.ProductID !== undefined && l.ProductID !== null && ctx && !product)
			throw badRequest(`OrderLines[${i}].ProductID ${l.ProductID} is not a product of this company`);
		const line = { ...(product ? { Description: product.Description, UnitPriceExcl: product.UnitPriceExcl, VATPercentage: product.VATPercentage } : {}), ...l };
		if (line.Quantity === undefined || line.Quantity === null) line.Quantity = 1;
		for (const f of ['Quantity', 'UnitPriceExcl', 'VATPercentage'])
			if (!isNum(line[f])) throw badRequest(`OrderLines[${i}].${f} is required (or a ProductID) and must be a number`);
		if (line.Description !== undefined && line.Description !== null && typeof line.Description !== 'string')
			throw badRequest(`OrderLines[${i}].Description must be a string`);
		return { ...line, Description: line.Description || '' };
	});
	const input = /** @type {Record<string, any>} */ ({});
	for (const f of CREATE_FIELDS) if (b[f] !== undefined && b[f] !== null) input[f] = b[f];
	for (const role of ['Customer', 'Supplier', 'CounterParty']) {
		delete input[`${role}ID`];
		const party = ctx ? partyOf(ctx, b, role) : b[role];
		if (party) input[role] = party;
	}
	const other = b.OrderDirection === 'Cost' ? input.Supplier || input.CounterParty : input.Customer || input.CounterParty;
	if (!other || typeof other !== 'object' || typeof other.Name !== 'string' || !other.Name.trim())
		throw badRequest(`${b.OrderDirection === 'Cost' ? 'Supplier' : 'Customer'} (or CounterParty, or its ID) is required`);
	if (b.ExternalProviderID !== undefined && b.ExternalProviderID !== null && typeof b.ExternalProviderID !== 'string' && !isNum(b.ExternalProviderID))
		throw badRequest('ExternalProviderID must be a string');
	if (b.AboutInvoiceNumber !== undefined && b.AboutInvoiceNumber !== null) {
		if (typeof b.AboutInvoiceNumber !== 'string' || !b.AboutInvoiceNumber.trim())
			throw badRequest('AboutInvoiceNumber must be the number of the invoice a credit note is about');
		if (b.OrderType !== 'CreditNote') throw badRequest('AboutInvoiceNumber is only for credit notes (OrderType CreditNote)');
	}
	for (const f of ['OrderDate', 'ExpiryDate', 'DeliveryDate']) if (input[f] !== undefined) input[f] = dateOf(input[f]);
	input.OrderLines = lines;
	input.ExternalProviderID = b.ExternalProviderID === undefined || b.ExternalProviderID === null ? null : String(b.ExternalProviderID);
	return input;
}

/** POST /v1/orders: answers the new OrderID as a bare integer. @param {Ctx} ctx */
function create(ctx) {
	const b = ctx.json();
	const key = idempotencyKey(ctx);
	checkIdempotency(ctx, key);
	const input = validateOrder(b, ctx);
	const files = intake(b);
	input.OrderStatus = 'Draft';
	input.IsSent = false;
	const order = ctx.emu.store.addOrder(ctx.partyId, input);
	storeIntake(ctx, order, files, b);
	if (key) ctx.emu.store.idempotencyRecord(ctx.partyId, key, `order ${order.OrderID}`);
	return { status: 200, body: order.OrderID };
}

/** The published transport types (page "Party types": e-mail is `SMTP`); others are refused. */
const TRANSPORTS = { peppol: 'Peppol', smtp: 'SMTP', letter: 'Letter' };
/** The 2026 refusal of a Peppol send to a customer not on Peppol (page "Send via Email"). */
const NOT_ON_PEPPOL = { Code: 'TheCustomerIsNotActiveOnPeppol', Description: 'The customer is not active on Peppol.' };

/**
 * Can this order go over Peppol? Returns the participant id or a reason.
 * @param {Ctx} ctx @param {Record<string, any>} order
 * @returns {{ ok: true, id: string } | { ok: false, reason: string, receiver: string }}
 */
function peppolRoute(ctx, order) {
	const vat = order.Customer && order.Customer.VATNumber;
	const receiver = vat ? String(vat) : '(no VAT number)';
	let lookup = null;
	try {
		lookup = vat ? ctx.emu.store.participants.lookup(String(vat), '') : null;
	} catch {
		lookup = null;
	}
	if (!lookup || !lookup.Registered) return { ok: false, receiver, reason: `receiver ${receiver} is not registered on Peppol` };
	const wanted = order.OrderType === 'CreditNote' ? 'CreditNote' : 'Invoice';
	if (!lookup.DocumentTypes.some((/** @type {string} */ t) => t.endsWith(wanted)))
		return { ok: false, receiver, reason: `receiver ${receiver} is on Peppol (${lookup.Identifier}) but does not accept ${wanted} documents` };
	return { ok: true, id: lookup.Identifier };
}

/**
 * POST /v1/orders/commands/send: `{TransportType, OrderIds}` (the OpenAPI `SendRequest`) or
 * `{Transporttype, OrderIDs}` (the spelling of the service's guides), with the rules since February 2026
 * (page "Send via Email"): a named TransportType never falls back (Peppol to a customer not on Peppol is
 * refused with TheCustomerIsNotActiveOnPeppol); without one, Peppol when the customer is on it, else e-mail
 * when the customer has an address, else the same refusal. `StrictTransportType: true` forbids the e-mail.
 * A refused order refuses the whole call (nothing is sent), one error entry per refused order. @param {Ctx} ctx
 */
function send(ctx) {
	const b = ctx.json();
	if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The request body must be an object with OrderIDs (and an optional TransportType)');
	const rawType = b.Transporttype !== undefined ? b.Transporttype : b.TransportType;
	if (rawType !== undefined && rawType !== null && (typeof rawType !== 'string' || !rawType.trim()))
		throw badRequest('TransportType must be a transport type (e.g. Peppol, SMTP) or left out');
	const named = typeof rawType === 'string' ? rawType.trim() : '';
	const transport = named ? TRANSPORTS[/** @type {keyof typeof TRANSPORTS} */ (named.toLowerCase())] : null;
	if (named && !transport) throw badRequest(`Unknown TransportType '${rawType}'; supported: ${Object.values(TRANSPORTS).join(', ')}`);
	const rawIds = b.OrderIDs !== undefined ? b.OrderIDs : b.OrderIds;
	const ids = Array.isArray(rawIds) ? rawIds : null;
	if (!ids || ids.length === 0 || ids.some((/** @type {any} */ x) => !/^\d+$/.test(String(x))))
		throw badRequest('OrderIDs must be a non-empty array of order IDs');
	const key = idempotencyKey(ctx);
	checkIdempotency(ctx, key);
	const unique = [...new Set(ids.map(Number))];
	const store = ctx.emu.store;
	const foreign = unique.filter((id) => {
		const hit = store.findOrder(id);
		return hit && hit.partyId !== ctx.partyId;
	});
	if (foreign.length) throw unauthorized(`Orders ${foreign.join(', ')} do not belong to party ${ctx.partyId}`);
	const unknown = unique.filter((id) => !store.findOrder(id));
	if (unknown.length)
		throw new ApiError(
			400,
			'GenericError',
			'',
			unknown.map((id) => ({ Code: 'GenericError', Description: `Order ${id} not found` })),
		);
	const book = store.book(ctx.partyId);
	const orders = unique.map((id) => /** @type {Record<string, any>} */ (book.get(id)));
	const strict = String(ctx.header('stricttransporttype') || '').toLowerCase() === 'true';
	/** @type {{ Code: string, Description: string }[]} */
	const errors = [];
	const plans = orders.map((o) => {
		if (o.IsSent) errors.push({ Code: 'AlreadySent', Description: `Order ${o.OrderID} has already been sent` });
		const email = (o.Customer && o.Customer.Email) || '';
		const route = !transport || transport === 'Peppol' ? peppolRoute(ctx, o) : null;
		/** @type {{ transport: string, destination: string, description?: string } | null} */
		let how = null;
		if (route && route.ok) how = { transport: 'Peppol', destination: route.id };
		else if (!transport && email && !strict)
			how = { transport: 'SMTP', destination: email, description: `${route ? route.reason : 'not on Peppol'}; sent by e-mail to ${email}` };
		else if (transport === 'SMTP' && email) how = { transport, destination: email, description: `Sent by e-mail to ${email}` };
		else if (transport === 'SMTP') errors.push({ Code: 'GenericError', Description: `Order ${o.OrderID}: the customer has no e-mail address` });
		else if (transport === 'Letter') how = { transport, destination: o.Customer?.Name || '', description: 'Sent by letter' };
		if (!how && transport !== 'SMTP' && !o.IsSent) errors.push({ ...NOT_ON_PEPPOL });
		return { o, how };
	});
	if (errors.length) throw new ApiError(400, errors[0].Code, errors[0].Description, errors);
	for (const { o, how } of plans) if (how) deliverySend(ctx.emu, ctx.partyId, o, how);
	if (key) store.idempotencyRecord(ctx.partyId, key, `send of orders ${unique.join(', ')}`);
	return { status: 200, body: 'OK' };
}

module.exports = { getOne, create, send, validateOrder, peppolRoute, idempotencyKey, checkIdempotency, dateOf };
