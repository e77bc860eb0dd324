'use strict';

/**
 * Order model: line amounts, totals, numbering and the full order shape (docs/api.md "Orders").
 * @module emulator/model
 */

const { round2, isoDate, serviceTime } = require('./util');

const ORDER_TYPES = ['Invoice', 'CreditNote', 'Offer', 'DeliveryNote', 'OrderForm'];
const ORDER_DIRECTIONS = ['Income', 'Cost'];
const ORDER_STATUSES = ['Draft', 'ToSend', 'ToPay', 'Sent', 'Paid', 'Credited', 'Refused', 'Canceled', 'ApprovalNeeded'];
const NUMBER_PREFIX = { Invoice: 'INV', CreditNote: 'CN', Offer: 'OFF', DeliveryNote: 'DN', OrderForm: 'OF' };

/**
 * @typedef {{ Quantity: number, Description: string, UnitPriceExcl: number, VATPercentage: number, [k: string]: any }} OrderLine
 * @typedef {Record<string, any>} Order
 */

/**
 * Add AmountExcl/AmountVAT/AmountIncl to lines and compute order totals.
 * @param {OrderLine[]} lines
 */
function computeTotals(lines) {
	let excl = 0;
	let vat = 0;
	const out = lines.map((l, i) => {
		const amountExcl = round2(Number(l.Quantity) * Number(l.UnitPriceExcl));
		const amountVat = round2((amountExcl * Number(l.VATPercentage || 0)) / 100);
		excl += amountExcl;
		vat += amountVat;
		return { OrderLineID: l.OrderLineID || i + 1, ...l, AmountExcl: amountExcl, AmountVAT: amountVat, AmountIncl: round2(amountExcl + amountVat) };
	});
	return { lines: out, TotalExcl: round2(excl), TotalVAT: round2(vat), TotalIncl: round2(excl + vat) };
}

/**
 * Belgian structured payment reference (+++ddd/dddd/ddddd+++) derived from a number.
 * @param {number} n
 */
function paymentReference(n) {
	const base = String(n % 1e10).padStart(10, '0');
	const check = Number(BigInt(base) % 97n) || 97;
	const d = base + String(check).padStart(2, '0');
	return `+++${d.slice(0, 3)}/${d.slice(3, 7)}/${d.slice(7)}+++`;
}

/**
 * Party reference as embedded in orders.
 * @param {Record<string, any>} p party record or { Name, VATNumber, ... }
 * @param {string} partyType
 */
function partyRef(p, partyType) {
	const name = p.DisplayName || p.Name || '';
	return {
		PartyID: p.PartyID === undefined ? null : p.PartyID,
		Name: name,
		DisplayName: name,
		PartyType: partyType,
		VATNumber: p.VATNumber === undefined ? null : p.VATNumber,
		Email: p.Email === undefined ? null : p.Email,
		CountryCode: p.CountryCode === undefined ? null : p.CountryCode,
	};
}

/**
 * Build a full order from (partial) input. Totals are computed from the lines unless given.
 * @param {object} ctx
 * @param {number} ctx.orderId
 * @param {string} ctx.partyId
 * @param {Record<string, any>} ctx.self the acting party's own company (Name, VATNumber, ...)
 * @param {number} ctx.seq order number sequence value
 * @param {Date} ctx.now
 * @param {Order} input
 * @returns {Order}
 */
function buildOrder(ctx, input) {
	const type = input.OrderType || 'Invoice';
	const direction = input.OrderDirection || 'Income';
	const orderDate = input.OrderDate || isoDate(ctx.now);
	const expiry = input.ExpiryDate || isoDate(new Date(Date.parse(`${orderDate}T00:00:00Z`) + 30 * 86400000));
	const { lines, TotalExcl, TotalVAT, TotalIncl } = computeTotals(
		input.OrderLines && input.OrderLines.length ? input.OrderLines : [{ Quantity: 1, Description: 'Item', UnitPriceExcl: 100, VATPercentage: 21 }],
	);
	const given = input.Customer || input.CounterParty || { Name: 'Test Customer' };
	const other = direction === 'Cost' && input.Supplier ? input.Supplier : given;
	const otherType = direction === 'Cost' ? 'Supplier' : 'Customer';
	const customer = direction === 'Cost' ? partyRef(input.Customer || ctx.self, 'Customer') : partyRef(given, 'Customer');
	const supplier = direction === 'Cost' ? partyRef(other, 'Supplier') : partyRef(input.Supplier || ctx.self, 'Supplier');
	const stamp = serviceTime(ctx.now);
	const prefix = NUMBER_PREFIX[/** @type {keyof typeof NUMBER_PREFIX} */ (type)] || 'ORD';
	const totalIncl = input.TotalIncl === undefined ? TotalIncl : input.TotalIncl;
	/** @type {Order} */
	const order = {
		OrderID: ctx.orderId,
		CompanyID: Number(ctx.partyId),
		OrderNumber: `${prefix}-${orderDate.slice(0, 4)}-${String(ctx.seq).padStart(5, '0')}`,
		OrderType: type,
		OrderDirection: direction,
		OrderDate: orderDate,
		ExpiryDate: expiry,
		DeliveryDate: null,
		Created: stamp,
		LastModified: stamp,
		Currency: 'EUR',
		TotalExcl,
		TotalVAT,
		TotalIncl,
		ToPay: totalIncl,
		Paid: false,
		PaidDate: null,
		PaymentReference: paymentReference(ctx.orderId),
		OrderStatus: 'Draft',
		IsSent: false,
		Overdue: false,
		DaysOverdue: 0,
		ExternalProviderID: null,
		Reference: null,
		Customer: customer,
		Supplier: supplier,
		CounterParty: { ...partyRef(other, otherType), Name: undefined },
		OrderLines: lines,
		Attachments: [],
		OrderPDF: null,
		Messages: [],
	};
	delete order.CounterParty.Name;
	const passthrough = { ...input };
	for (const k of ['OrderID', 'CompanyID', 'Customer', 'Supplier', 'CounterParty', 'OrderLines']) delete passthrough[k];
	Object.assign(order, passthrough, { OrderLines: lines });
	if (input.ToPay === undefined) order.ToPay = order.Paid ? 0 : order.TotalIncl;
	return order;
}

module.exports = { ORDER_TYPES, ORDER_DIRECTIONS, ORDER_STATUSES, computeTotals, buildOrder, partyRef, paymentReference };
