'use strict';

/**
 * Supplier invoices arriving (docs/api.md "Receiving and the Peppol inbox", the service's pages "Get List of Incoming
 * Invoices" and "Status of export"): each received invoice or credit note becomes an order with
 * `OrderDirection: "Cost"`, `IsSent: false` (not exported yet), the supplier as Supplier and
 * CounterParty, and its files on a full read: the PDF and the received UBL (`.xml`, the first of
 * `Attachments`, as files.js serves every invoice and credit note). Stamped now by the emulator clock;
 * it is an Order insert for webhooks like any other new order.
 *
 *   receiveInvoice(store, partyId, { supplier?, type?, orderNumber?, orderDate?, lines? })
 *   POST /_emulator/incoming  { partyId?, supplier?, type?, orderNumber?, orderDate?, lines? }  (routes/incoming.js)
 *
 * As at the service, the same document also arrives in the Peppol inbox (emulator/inbox.js
 * `receiveDocument`: an inbox item whose file is the document's UBL), unless `inbox: false`.
 * @module emulator/incoming
 */

const { isoDate } = require('./util');
const { receiveDocument } = require('./inbox');

/** A simulated supplier on Peppol, with a valid Belgian VAT number. */
const DEFAULT_SUPPLIER = { Name: 'Office Supplies NV', VATNumber: 'BE0403170701', Email: 'invoices@office-supplies.example', CountryCode: 'BE' };
const TYPES = ['Invoice', 'CreditNote'];

/**
 * @param {import('./store').Store} store @param {string} partyId the receiving company
 * @param {{ supplier?: Record<string, any>, type?: string, orderNumber?: string, orderDate?: string, lines?: Record<string, any>[], inbox?: boolean }} [o]
 * @param {Record<string, any>} [config] the emulator switches (the inbox envelope)
 * @returns {Record<string, any>} a copy of the new order
 */
function receiveInvoice(store, partyId, o = {}, config = {}) {
	const type = o.type === undefined ? 'Invoice' : o.type;
	if (!TYPES.includes(type)) throw new TypeError(`type must be Invoice or CreditNote, not ${JSON.stringify(type)}`);
	if (o.supplier !== undefined && (!o.supplier || typeof o.supplier !== 'object' || typeof o.supplier.Name !== 'string'))
		throw new TypeError('supplier must be an object with a Name');
	if (o.lines !== undefined && (!Array.isArray(o.lines) || !o.lines.length)) throw new TypeError('lines must be a non-empty list');
	const supplier = o.supplier || DEFAULT_SUPPLIER;
	const count = [...store.book(String(partyId)).values()].filter((x) => x.OrderDirection === 'Cost').length;
	const order = store.addOrder(String(partyId), {
		OrderType: type,
		OrderDirection: 'Cost',
		OrderNumber: o.orderNumber || `${type === 'Invoice' ? 'SUP' : 'SUPCN'}-${String(count + 1).padStart(5, '0')}`,
		OrderDate: o.orderDate || isoDate(store.clock.now()),
		Supplier: supplier,
		OrderLines: o.lines || [{ Quantity: 2, Description: 'Printer paper A4, box', UnitPriceExcl: 24.5, VATPercentage: 21 }],
		OrderStatus: 'ToPay',
		IsSent: false,
	});
	if (o.inbox !== false) receiveDocument(store, String(partyId), { order }, config);
	return order;
}

module.exports = { receiveInvoice, DEFAULT_SUPPLIER };
