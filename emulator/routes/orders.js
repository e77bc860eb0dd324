'use strict';

/**
 * Orders (contract 4.9, field notes): single read, create with idempotency keys, and the send command.
 * @module emulator/routes/orders
 */

const { ApiError, badRequest, isoSeconds } = require('../util');
const { ORDER_TYPES, ORDER_DIRECTIONS } = require('../model');
const { unauthorized } = require('./auth');
const { intake, storeIntake, fullOrder } = require('./files');
const { afterSend } = require('../delivery');

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

/** @param {Record<string, any>} b */
function validateOrder(b) {
	if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The request body must be an order object');
	if (!ORDER_TYPES.includes(b.OrderType)) throw badRequest(`OrderType is required and must be one of ${ORDER_TYPES.join(', ')}`);
	if (!ORDER_DIRECTIONS.includes(b.OrderDirection)) throw badRequest(`OrderDirection is required and must be one of ${ORDER_DIRECTIONS.join(', ')}`);
	if (!isDate(b.OrderDate)) throw badRequest('OrderDate is required and must be a date in the form YYYY-MM-DD');
	for (const f of ['ExpiryDate', 'DeliveryDate'])
		if (b[f] !== undefined && b[f] !== null && !isDate(b[f])) throw badRequest(`${f} must be a date in the form YYYY-MM-DD`);
	if (!Array.isArray(b.OrderLines) || b.OrderLines.length === 0) throw badRequest('OrderLines must contain at least one order line');
	b.OrderLines.forEach((/** @type {any} */ l, /** @type {number} */ i) => {
		if (!l || typeof l !== 'object') throw badRequest(`OrderLines[${i}] must be an object`);
		for (const f of ['Quantity', 'UnitPriceExcl', 'VATPercentage']) if (!isNum(l[f])) throw badRequest(`OrderLines[${i}].${f} is required and must be a number`);
		if (l.Description !== undefined && typeof l.Description !== 'string') throw badRequest(`OrderLines[${i}].Description must be a string`);
	});
	if (!b.Customer || typeof b.Customer !== 'object' || typeof b.Customer.Name !== 'string' || !b.Customer.Name.trim())
		throw badRequest('Customer.Name is required');
	if (b.ExternalProviderID !== undefined && b.ExternalProviderID !== null && typeof b.ExternalProviderID !== 'string' && !isNum(b.ExternalProviderID))
		throw badRequest('ExternalProviderID must be a string');
	if (b.AboutInvoiceNumber !== undefined && b.AboutInvoiceNumber !== null) {
		if (typeof b.AboutInvoiceNumber !== 'string' || !b.AboutInvoiceNumber.trim()) throw badRequest('AboutInvoiceNumber must be the number of the invoice a credit note is about');
		if (b.OrderType !== 'CreditNote') throw badRequest('AboutInvoiceNumber is only for credit notes (OrderType CreditNote)');
	}
}

const CREATE_FIELDS = ['OrderType', 'OrderDirection', 'OrderDate', 'ExpiryDate', 'DeliveryDate', 'OrderNumber', 'Reference', 'Currency', 'PaymentReference', 'Customer', 'Supplier', 'OrderLines', 'Comments', 'AboutInvoiceNumber'];

/** POST /v1/orders: answers the new OrderID as a bare integer. @param {Ctx} ctx */
function create(ctx) {
	const b = ctx.json();
	const key = idempotencyKey(ctx);
	checkIdempotency(ctx, key);
	validateOrder(b);
	const files = intake(b);
	/** @type {Record<string, any>} */
	const input = {};
	for (const f of CREATE_FIELDS) if (b[f] !== undefined && b[f] !== null) input[f] = b[f];
	input.OrderLines = b.OrderLines.map((/** @type {any} */ l) => ({ ...l, Description: l.Description || '' }));
	input.ExternalProviderID = b.ExternalProviderID === undefined || b.ExternalProviderID === null ? null : String(b.ExternalProviderID);
	input.OrderStatus = 'Draft';
	input.IsSent = false;
	const order = ctx.emu.store.addOrder(ctx.partyId, input);
	storeIntake(ctx, order.OrderID, files);
	if (key) ctx.emu.store.idempotencyRecord(ctx.partyId, key, `order ${order.OrderID}`);
	return { status: 200, body: order.OrderID };
}

const TRANSPORTS = { peppol: 'Peppol', email: 'Email', letter: 'Letter' };

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

/** POST /v1/orders/commands/send @param {Ctx} ctx */
function send(ctx) {
	const b = ctx.json();
	if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The request body must be an object with Transporttype and OrderIDs');
	const rawType = b.Transporttype !== undefined ? b.Transporttype : b.TransportType;
	if (typeof rawType !== 'string' || !rawType.trim()) throw badRequest('Transporttype is required (e.g. Peppol)');
	const transport = TRANSPORTS[/** @type {keyof typeof TRANSPORTS} */ (rawType.trim().toLowerCase())];
	if (!transport) throw badRequest(`Unknown Transporttype '${rawType}'; supported: ${Object.values(TRANSPORTS).join(', ')}`);
	const ids = Array.isArray(b.OrderIDs) ? b.OrderIDs : null;
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
	if (unknown.length) throw new ApiError(400, 'GenericError', '', unknown.map((id) => ({ Code: 'GenericError', Description: `Order ${id} not found` })));
	const book = store.book(ctx.partyId);
	const orders = unique.map((id) => /** @type {Record<string, any>} */ (book.get(id)));
	const strict = String(ctx.header('stricttransporttype') || '').toLowerCase() === 'true';
	/** @type {{ Code: string, Description: string }[]} */
	const errors = [];
	const plans = orders.map((o) => {
		if (o.IsSent) errors.push({ Code: 'AlreadySent', Description: `Order ${o.OrderID} has already been sent` });
		const route = transport === 'Peppol' ? peppolRoute(ctx, o) : null;
		if (route && !route.ok && strict)
			errors.push({ Code: 'ReceiverNotOnPeppol', Description: `Order ${o.OrderID}: ${route.reason}; StrictTransportType forbids a fallback to e-mail` });
		return { o, route };
	});
	if (errors.length) throw new ApiError(400, errors[0].Code, errors[0].Description, errors);
	const now = ctx.emu.clock.now();
	for (const { o, route } of plans) {
		const email = (o.Customer && o.Customer.Email) || 'the customer';
		let msg;
		if (!route) msg = { TransportType: transport, Description: `Sent by ${transport}${transport === 'Email' ? ` to ${email}` : ''}` };
		else if (route.ok) msg = { TransportType: 'Peppol', Description: `Sent over Peppol to ${route.id}`, Receiver: route.id };
		else msg = { TransportType: 'Email', Description: `Fallback: ${route.reason}; sent by e-mail to ${email} instead of Peppol`, Receiver: route.receiver };
		const message = { MessageID: ++store.ids.message, ...msg, Date: isoSeconds(now), Status: 'Sent' };
		o.Messages = [...(o.Messages || []), message];
		o.IsSent = true;
		o.OrderStatus = 'Sent';
		o.LastModified = isoSeconds(now);
		afterSend(ctx.emu, ctx.partyId, o);
	}
	if (key) store.idempotencyRecord(ctx.partyId, key, `send of orders ${unique.join(', ')}`);
	return { status: 200, body: 'OK' };
}

module.exports = { getOne, create, send, validateOrder, peppolRoute, idempotencyKey, checkIdempotency };
