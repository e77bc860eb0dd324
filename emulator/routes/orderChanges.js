'use strict';

/**
 * Changes after sending (emulator/README.md "Changes after sending", "Delivery status"): PATCH, DELETE and
 * payments of an order, and the access-point read of a registered entity's order.
 * Refusals are 400 GenericError with a Description that says why and what to do instead.
 * @module emulator/routes/orderChanges
 */

const { ApiError, badRequest, round2 } = require('../util');
const { unauthorized } = require('./auth');
const { ownRegistration } = require('./registrations');
const { idempotencyKey, checkIdempotency, dateOf } = require('./orders');
const { fullOrder } = require('./files');
const { filesOf } = require('../files');
const { deliveryOf, wentOverNetwork } = require('../delivery');

/** @typedef {import('../server').Ctx} Ctx */

/** The page "Patchable Properties": what an order PATCH may change (OrderStatus is not among them). */
const PATCHABLE = ['Paid', 'PaidDate', 'IsSent', 'ApprovalStatus', 'AccountCode', 'InternalInfo', 'Invoiced', 'AccountantVerificationNeeded'];
const FLAGS = ['Paid', 'IsSent', 'Invoiced', 'AccountantVerificationNeeded'];
const MAX_ACCOUNT_CODE = 50;
const APPROVAL = ['Approved', 'Pending', 'Rejected'];
const PAYABLE_TYPES = ['Invoice', 'CreditNote'];
const MAX_INTERNAL_INFO = 2000;
const MAX_DESCRIPTION = 500;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** @param {unknown} v */
const isDate = (v) => typeof v === 'string' && DATE_ONLY.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

/**
 * The caller's live order, or 404 (unknown) / 401 (another party's), as single reads answer.
 * @param {Ctx} ctx @param {string} id
 */
function ownOrder(ctx, id) {
	const hit = /^\d+$/.test(id) ? ctx.emu.store.findOrder(id) : undefined;
	if (!hit) throw new ApiError(404, 'GenericError', `Order ${id} not found`);
	if (hit.partyId !== ctx.partyId) throw unauthorized(`Order ${id} does not belong to party ${ctx.partyId}`);
	return hit;
}

/** @param {Record<string, any>} o */
const label = (o) => `Order ${o.OrderID} (${o.OrderNumber})`;

/** @param {Ctx} ctx @param {() => any} body */
const answer = (ctx, body) => (ctx.emu.config.changeAnswer === 'empty' ? { status: 200, raw: '' } : { status: 200, body: body() });

/** PATCH /v1/orders/{id}: the patchable properties only (PATCHABLE); cancelling is a credit note, not a PATCH. @param {Ctx} ctx */
function patch(ctx) {
	const { partyId, order } = ownOrder(ctx, ctx.params.id);
	const b = ctx.json();
	if (!b || typeof b !== 'object' || Array.isArray(b))
		throw badRequest(`The request body must be an object with the fields to change: ${PATCHABLE.join(', ')}`);
	const keys = Object.keys(b);
	if (!keys.length) throw badRequest(`Nothing to change: send at least one of ${PATCHABLE.join(', ')}`);
	const other = keys.filter((k) => !PATCHABLE.includes(k));
	if (other.length)
		throw badRequest(
			`${other.join(', ')} cannot be changed on an existing order; PATCH takes only ${PATCHABLE.join(', ')}. Create a credit note to correct amounts or lines, or to cancel`,
		);
	/** @type {Record<string, any>} */
	const change = {};
	for (const flag of FLAGS.filter((f) => f in b)) {
		if (typeof b[flag] !== 'boolean') throw badRequest(`${flag} must be true or false`);
		change[flag] = b[flag];
	}
	if ('PaidDate' in b) {
		if (b.PaidDate !== null && !dateOf(b.PaidDate)) throw badRequest('PaidDate must be a date (YYYY-MM-DD or a date-time), or null');
		change.PaidDate = b.PaidDate === null ? null : dateOf(b.PaidDate);
	}
	if (change.Paid === true && !order.Paid) Object.assign(change, { ToPay: 0, OrderStatus: 'Paid', Overdue: false, DaysOverdue: 0 });
	if ('AccountCode' in b) {
		if (b.AccountCode !== null && (typeof b.AccountCode !== 'string' || b.AccountCode.length > MAX_ACCOUNT_CODE))
			throw badRequest(`AccountCode must be a string of at most ${MAX_ACCOUNT_CODE} characters (or null to clear it)`);
		change.AccountCode = b.AccountCode;
	}
	if ('InternalInfo' in b) {
		if (b.InternalInfo !== null && typeof b.InternalInfo !== 'string') throw badRequest('InternalInfo must be a string (or null to clear it)');
		if (typeof b.InternalInfo === 'string' && b.InternalInfo.length > MAX_INTERNAL_INFO)
			throw badRequest(`InternalInfo is longer than ${MAX_INTERNAL_INFO} characters`);
		change.InternalInfo = b.InternalInfo;
	}
	if ('ApprovalStatus' in b) {
		if (!APPROVAL.includes(b.ApprovalStatus)) throw badRequest(`ApprovalStatus must be one of ${APPROVAL.join(', ')}`);
		const approvalOn = order.OrderStatus === 'ApprovalNeeded' || (order.ApprovalStatus !== undefined && order.ApprovalStatus !== null);
		if (!approvalOn)
			throw badRequest(
				`Approval is not enabled for ${label(order)}: ApprovalStatus applies only to an order that awaits approval (OrderStatus ApprovalNeeded)`,
			);
		change.ApprovalStatus = b.ApprovalStatus;
		const open = !order.Paid && ['ApprovalNeeded', 'ToPay', 'Refused'].includes(order.OrderStatus);
		if (open) change.OrderStatus = { Approved: 'ToPay', Rejected: 'Refused', Pending: 'ApprovalNeeded' }[/** @type {'Approved'} */ (b.ApprovalStatus)];
	}
	const changed = Object.keys(change).some((k) => order[k] !== change[k]);
	if (changed) ctx.emu.store.updateOrder(partyId, order.OrderID, change);
	return answer(ctx, () => fullOrder(ctx.emu, partyId, order));
}

/** DELETE /v1/orders/{id}: refused for an order that went over Peppol. @param {Ctx} ctx */
function remove(ctx) {
	const { partyId, order } = ownOrder(ctx, ctx.params.id);
	if (wentOverNetwork(order))
		throw badRequest(`${label(order)} was sent over Peppol and cannot be deleted: the receiver has it. Create a credit note for it instead`);
	const id = Number(order.OrderID);
	ctx.emu.store.deleteOrder(partyId, id);
	filesOf(ctx.emu.store).dropOrder(id);
	deliveryOf(ctx.emu.store).records.delete(id);
	return { status: 200, raw: '' };
}

/**
 * POST /v1/orders/{id}/payments with the OpenAPI `PostPaymentRequest` {Amount, Description, Date}: all the service
 * keeps of a payment (a payment type or bank reference travels in Description). @param {Ctx} ctx
 */
function pay(ctx) {
	const { partyId, order } = ownOrder(ctx, ctx.params.id);
	const b = ctx.json();
	const key = idempotencyKey(ctx);
	checkIdempotency(ctx, key);
	if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The request body must be a payment {Amount, Description, Date}');
	const amount = b.Amount;
	if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) throw badRequest('Amount is required and must be a positive number');
	if (Math.abs(Math.round(amount * 100) - amount * 100) > 1e-6) throw badRequest(`Amount ${amount} has more than two decimals`);
	const date = b.Date === undefined || b.Date === null ? undefined : dateOf(b.Date);
	if (b.Date !== undefined && b.Date !== null && !date) throw badRequest('Date must be a date (YYYY-MM-DD or a date-time)');
	const text = b.Description;
	if (text !== undefined && text !== null && (typeof text !== 'string' || text.length > MAX_DESCRIPTION))
		throw badRequest(`Description must be a string of at most ${MAX_DESCRIPTION} characters`);
	if (!PAYABLE_TYPES.includes(order.OrderType)) throw badRequest(`${label(order)} is of type ${order.OrderType}; only invoices and credit notes take payments`);
	if (order.OrderStatus === 'Canceled') throw badRequest(`${label(order)} is canceled; it takes no payments`);
	const owed = round2(Number(order.ToPay) || 0);
	if (order.Paid || owed <= 0) throw badRequest(`${label(order)} is already fully paid`);
	if (amount > owed + 0.001) throw badRequest(`Amount ${amount.toFixed(2)} is more than ${label(order)} still owes (ToPay ${owed.toFixed(2)})`);
	const ids = /** @type {Record<string, number>} */ (ctx.emu.store.ids);
	ids.payment = (ids.payment || 4000000) + 1;
	// A payment without a Date is dated today (a guess: the service's default is not published).
	const payment = { PaymentID: ids.payment, Amount: amount, Date: date || new Date().toISOString().slice(0, 10), Description: text || null };
	const toPay = round2(owed - amount);
	/** @type {Record<string, any>} */
	const change = { ToPay: toPay, Payments: [...(Array.isArray(order.Payments) ? order.Payments : []), payment] };
	if (toPay <= 0) Object.assign(change, { ToPay: 0, Paid: true, PaidDate: payment.Date, OrderStatus: 'Paid', Overdue: false, DaysOverdue: 0 });
	const after = ctx.emu.store.updateOrder(partyId, order.OrderID, change);
	if (key) ctx.emu.store.idempotencyRecord(partyId, key, `payment ${payment.PaymentID} of order ${order.OrderID}`);
	return answer(ctx, () => ({ ...payment, OrderID: after.OrderID, ToPay: after.ToPay, Paid: after.Paid, OrderStatus: after.OrderStatus }));
}

/** GET /v1/einvoices/registrations/{id}/orders/{orderId}: a registered entity's full order. @param {Ctx} ctx */
function registrationOrder(ctx) {
	const reg = ownRegistration(ctx, ctx.params.id);
	const id = ctx.params.orderId;
	const hit = /^\d+$/.test(id) ? ctx.emu.store.findOrder(id) : undefined;
	if (!hit) throw new ApiError(404, 'GenericError', `Order ${id} not found`);
	if (hit.partyId !== String(reg.PartyID)) throw unauthorized(`Order ${id} does not belong to registration ${reg.RegistrationID}`);
	return { status: 200, body: fullOrder(ctx.emu, hit.partyId, hit.order) };
}

const ORDER = /^\/v1\/orders\/(?<id>[^/]+)\/?$/i;
/** @type {Array<[string, RegExp, (ctx: Ctx) => any, boolean]>} */
const ROUTES = [
	['PATCH', ORDER, patch, true],
	['DELETE', ORDER, remove, true],
	['POST', /^\/v1\/orders\/(?<id>[^/]+)\/payments\/?$/i, pay, true],
	['GET', /^\/v1\/einvoices\/registrations\/(?<id>[^/]+)\/orders\/(?<orderId>[^/]+)\/?$/i, registrationOrder, true],
];

module.exports = { ROUTES, patch, remove, pay, registrationOrder };
