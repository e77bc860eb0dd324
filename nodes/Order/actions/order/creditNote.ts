/** The credit note of an invoice (README "Create Credit Note"): its parties and lines, all or picked, never more than it holds. Pure. */
import type { IDataObject } from 'n8n-workflow';

import type { FieldProblem } from '../../../shared/domain/validation';
import { toNumber } from './orderBody';
import { isRecord } from '../../../shared/domain/values';

/** One picked line: its position on the invoice (1 = first) and, optionally, part of its quantity. */
export interface LinePick {
	line: number;
	quantity?: number;
}

export interface CreditNoteInput {
	/** 'all' copies every line as it is. */
	lines: 'all' | LinePick[];
	orderDate: string;
	externalProviderId?: string;
	orderNumber?: string;
	reference?: string;
}

export type CreditNoteResult = { body: IDataObject; aboutInvoiceNumber: string } | { problem: FieldProblem };

/** The fields of an invoice line a new order takes; computed amounts and ids stay behind. */
const LINE_FIELDS = ['Quantity', 'Description', 'UnitPriceExcl', 'VATPercentage', 'ProductID', 'Unit'];
/** The party fields worth carrying to the credit note (the rest is derived by the service). */
const PARTY_FIELDS = ['Name', 'VATNumber', 'PartyType', 'Email', 'CountryCode', 'Addresses', 'Identifiers'];
/** Rounding slack when comparing amounts computed here with the invoice's own totals. */
const CENT = 0.005;

const cents = (value: number) => Math.round(value * 100) / 100;

function problem(field: string, value: unknown, what: string, fix: string): CreditNoteResult {
	return { problem: { field, value, problem: what, hint: fix } };
}

/** The fields of `source` that are set (not undefined or null). */
const copyOf = (source: IDataObject, fields: string[]): IDataObject =>
	Object.fromEntries(fields.filter((f) => source[f] !== undefined && source[f] !== null).map((f) => [f, source[f]]));

function copyParty(party: unknown): IDataObject | undefined {
	if (!isRecord(party)) return undefined;
	const copy = copyOf(party, PARTY_FIELDS);
	if (copy.Name === undefined && typeof party.DisplayName === 'string') copy.Name = party.DisplayName;
	return Object.keys(copy).length ? copy : undefined;
}

const copyLine = (line: IDataObject, quantity?: number): IDataObject => ({
	...copyOf(line, LINE_FIELDS),
	...(quantity === undefined ? {} : { Quantity: quantity }),
});

/** Incl. VAT amount of lines, from quantity, unit price and VAT rate (what the service computes). */
function linesTotal(lines: IDataObject[]): number {
	let total = 0;
	for (const line of lines) {
		const excl = (toNumber(line.Quantity) ?? 0) * (toNumber(line.UnitPriceExcl) ?? 0);
		total += cents(excl) + cents((excl * (toNumber(line.VATPercentage) ?? 0)) / 100);
	}
	return cents(total);
}

/** The create body of the credit note for `invoice` (a full order as read), or the first problem with it. */
export function buildCreditNote(invoice: IDataObject, input: CreditNoteInput): CreditNoteResult {
	const orderId = invoice.OrderID;
	const type = String(invoice.OrderType ?? 'order of unknown type');
	if (invoice.OrderType !== 'Invoice') return problem('Invoice', orderId, `is a ${type}, not an invoice`, 'Pick the invoice the credit note is for.');
	const number = typeof invoice.OrderNumber === 'string' ? invoice.OrderNumber.trim() : '';
	if (!number) return problem('Invoice', orderId, 'has no invoice number to refer to', 'Give the invoice a number in the web app first.');
	const invoiceLines = Array.isArray(invoice.OrderLines) ? (invoice.OrderLines as IDataObject[]).filter((l) => l && typeof l === 'object') : [];
	if (!invoiceLines.length) return problem('Invoice', orderId, 'has no lines to credit', 'Check the invoice in the web app.');

	let lines: IDataObject[];
	if (input.lines === 'all') {
		lines = invoiceLines.map((line) => copyLine(line));
	} else {
		if (!input.lines.length) return problem('Picked Lines', undefined, 'is empty', 'Add the lines to credit, or choose All Lines.');
		const left = invoiceLines.map((line) => Math.abs(toNumber(line.Quantity) ?? 0));
		lines = [];
		for (let i = 0; i < input.lines.length; i++) {
			const pick = input.lines[i];
			const where = `Picked Lines › Line ${i + 1}`;
			const source = invoiceLines[pick.line - 1];
			const notALine = `is not a line of invoice ${number} (it has ${invoiceLines.length})`;
			if (!source) return problem(`${where} › Line Number`, pick.line, notALine, 'Line 1 is the first line of the invoice.');
			const invoiced = toNumber(source.Quantity) ?? 0;
			const quantity = pick.quantity === undefined ? Math.abs(invoiced) : Math.abs(pick.quantity);
			if (quantity > left[pick.line - 1] + 1e-9) {
				const what = left[pick.line - 1] < Math.abs(invoiced) ? `${left[pick.line - 1]} left after the lines above` : `${Math.abs(invoiced)} invoiced`;
				const tooMuch = `is more than line ${pick.line} of invoice ${number} holds (${what})`;
				return problem(`${where} › Quantity`, pick.quantity ?? quantity, tooMuch, 'Credit at most the quantity invoiced.');
			}
			left[pick.line - 1] -= quantity;
			lines.push(copyLine(source, invoiced < 0 ? -quantity : quantity));
		}
	}

	const credited = linesTotal(lines);
	const invoiceTotal = typeof invoice.TotalIncl === 'number' ? invoice.TotalIncl : linesTotal(invoiceLines);
	if (Math.abs(credited) > Math.abs(invoiceTotal) + CENT) {
		return problem('Credit Note Lines', credited, `exceed invoice ${number} (total ${invoiceTotal.toFixed(2)} incl. VAT)`, 'Credit at most what was invoiced.');
	}

	const body: IDataObject = {
		OrderType: 'CreditNote',
		OrderDirection: invoice.OrderDirection,
		OrderDate: input.orderDate,
		AboutInvoiceNumber: number,
		Customer: copyParty(invoice.Customer) ?? copyParty(invoice.CounterParty),
		OrderLines: lines,
	};
	const supplier = copyParty(invoice.Supplier);
	if (supplier && invoice.OrderDirection === 'Cost') body.Supplier = supplier;
	if (typeof invoice.Currency === 'string' && invoice.Currency) body.Currency = invoice.Currency;
	if (input.externalProviderId) body.ExternalProviderID = input.externalProviderId;
	if (input.orderNumber) body.OrderNumber = input.orderNumber;
	if (input.reference) body.Reference = input.reference;
	return { body, aboutInvoiceNumber: number };
}
