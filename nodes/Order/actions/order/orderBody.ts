/**
 * The order create body (README "Create"): built from the node's fields, validated (also when mapped as JSON), and the create
 * answer read; and the credit note of an invoice (README "Create Credit Note"): its parties and lines, all or picked, never
 * more than it holds. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { buildFilter } from '../../../shared/query/odata';
import { ORDER_DIRECTIONS, ORDER_TYPES } from '../../../shared/domain/orderTypes';
import { checkVatNumber } from '../../../shared/domain/identifiers';
import { type Check, type FieldProblem, checkJsonDepth, checkLine, checkText } from '../../../shared/domain/validation';
import { checkDecimal, PERCENT, QUANTITY, UNIT_PRICE } from '../decimal';
import { answeredId } from '../writes';
import { isRecord, text } from '../../../shared/domain/values';

/** Text fields, refused (never cut) past 255 characters: a longer one is a mapping mistake, not an invoice. All but Reference are one line. */
const TEXT_FIELDS = ['OrderNumber', 'ExternalProviderID', 'Currency', 'Reference', 'PaymentReference'];
/** Order line numbers (README "Amounts and quantities"). */
const LINE_NUMBERS = { Quantity: QUANTITY, UnitPriceExcl: UNIT_PRICE, VATPercentage: PERCENT } as const;
const MAX_TEXT_LENGTH = 255;
const MAX_DESCRIPTION_LENGTH = 2000;

/** The Create operation's field values in API names; `extra` holds further API fields (Reference, Currency, DeliveryDate …). */
export type OrderFieldsInput = IDataObject & { Customer?: IDataObject; OrderLines?: IDataObject[]; extra?: IDataObject };

/** The checked body, or the first thing wrong with it (its field is the API path, e.g. OrderLines[0].Quantity). */
export type OrderCheck = { body: IDataObject } | { problem: FieldProblem };

function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

const DATE_FIX = 'Enter the date as YYYY-MM-DD, e.g. 2026-01-31, or pick it.';

/** `YYYY-MM-DD` from a date or date-and-time string (its own calendar date, no zone shift), a JS Date or a Luxon DateTime; undefined if not a real date. */
export function toOrderDate(value: unknown): string | undefined {
	let raw: string;
	if (value instanceof Date) {
		if (Number.isNaN(value.getTime())) return undefined;
		raw = value.toISOString();
	} else if (value && typeof value === 'object' && typeof (value as { toISODate?: unknown }).toISODate === 'function') {
		raw = String((value as { toISODate: () => string | null }).toISODate() ?? '');
	} else if (typeof value === 'string') {
		raw = value.trim();
	} else {
		return undefined;
	}
	const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/i.exec(raw);
	if (!match) return undefined;
	const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const check = new Date(Date.UTC(y, m - 1, d));
	if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return undefined;
	return `${match[1]}-${match[2]}-${match[3]}`;
}

/** A finite number from a number or a numeric string ("12.5"); undefined otherwise. */
export function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string') return undefined;
	const trimmed = value.trim();
	if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) return undefined;
	return Number(trimmed);
}

/** The create body from field values (not yet validated; see checkOrder): optional fields left empty are left out. */
export function buildOrderBody(input: OrderFieldsInput): IDataObject {
	const { Customer = {}, OrderLines = [], extra = {}, ...head } = input;
	// Values go in as given: checkOrder refuses an object rather than sending "[object Object]".
	const keep = (values: IDataObject, always: string[]) =>
		Object.fromEntries(Object.entries(values).filter(([key, value]) => always.includes(key) || !isBlank(value)));
	return {
		...keep(extra, []),
		...keep(head, ['OrderType', 'OrderDirection', 'OrderDate']),
		Customer: { ...keep(Customer, ['Name']), PartyType: isBlank(Customer.PartyType) ? 'Customer' : Customer.PartyType },
		OrderLines: OrderLines.map((line) => keep(line, ['Quantity', 'UnitPriceExcl', 'VATPercentage'])),
	};
}

/** The first thing wrong, as the field problem both bodies answer. */
function problem(field: string, value: unknown, what: string, hint: string): { problem: FieldProblem } {
	return { problem: { field, value, problem: what, hint } };
}

/** A date as YYYY-MM-DD (toOrderDate), or what is wrong with it. */
export function checkDate(value: unknown): Check {
	const date = toOrderDate(value);
	if (date) return { ok: true, value: date };
	return { ok: false, problem: isBlank(value) ? 'is empty' : 'is not a real date in the form YYYY-MM-DD', hint: DATE_FIX };
}

/** A blank optional field is left out; a set one becomes its checked value, or its problem is returned (named `where`). */
function tidy(target: IDataObject, field: string, check: (value: unknown) => Check, where = field): { problem: FieldProblem } | undefined {
	const value = target[field];
	if (isBlank(value)) delete target[field];
	else {
		const checked = check(value);
		if (!checked.ok) return problem(where, value, checked.problem, checked.hint);
		target[field] = checked.value;
	}
	return undefined;
}

/** Checks an order body (fields or JSON): a normalised copy (dates YYYY-MM-DD, numbers, trimmed texts), or the first problem. */
export function checkOrder(input: unknown): OrderCheck {
	if (!isRecord(input)) {
		return problem('Order', input, 'is not an object', 'Map an object with OrderType, OrderDirection, OrderDate, Customer and OrderLines.');
	}
	const deep = checkJsonDepth(input);
	if (!deep.ok) return problem('Order', undefined, deep.problem, deep.hint);
	const body: IDataObject = { ...input };

	const orderType = text(body.OrderType);
	if (!(ORDER_TYPES as readonly string[]).includes(orderType)) {
		return problem('OrderType', body.OrderType, 'is not an order type', `Use one of ${ORDER_TYPES.join(', ')}.`);
	}
	body.OrderType = orderType;
	const direction = text(body.OrderDirection);
	if (!(ORDER_DIRECTIONS as readonly string[]).includes(direction)) {
		return problem('OrderDirection', body.OrderDirection, 'is not an order direction', 'Use Income (a sale) or Cost (a purchase).');
	}
	body.OrderDirection = direction;

	if (isBlank(body.OrderDate)) return problem('OrderDate', body.OrderDate, 'is required', DATE_FIX);
	for (const field of ['OrderDate', 'ExpiryDate', 'DeliveryDate']) {
		const wrong = tidy(body, field, checkDate);
		if (wrong) return wrong;
	}
	const orderDate = body.OrderDate as string;
	if (typeof body.ExpiryDate === 'string' && body.ExpiryDate < orderDate) {
		return problem('ExpiryDate', body.ExpiryDate, `is before the order date ${orderDate}`, 'Set it on or after the order date.');
	}

	for (const field of TEXT_FIELDS) {
		const wrong = tidy(body, field, (value) => (field === 'Reference' ? checkText : checkLine)(value, MAX_TEXT_LENGTH));
		if (wrong) return wrong;
	}

	const customer = body.Customer;
	if (!isRecord(customer)) return problem('Customer', customer, 'is required', 'Give the customer at least a Name.');
	const cleanCustomer: IDataObject = { ...customer };
	if (isBlank(cleanCustomer.Name)) return problem('Customer.Name', cleanCustomer.Name, 'is required', "Enter the customer's name.");
	for (const field of ['Name', 'PartyType', 'VATNumber']) {
		// The one VAT check, as Peppol Lookup and Registration use it.
		const check = field === 'VATNumber' ? checkVatNumber : (value: unknown) => checkText(value, MAX_TEXT_LENGTH);
		const wrong = tidy(cleanCustomer, field, check, `Customer.${field}`);
		if (wrong) return wrong;
	}
	if (isBlank(cleanCustomer.PartyType)) cleanCustomer.PartyType = 'Customer';
	body.Customer = cleanCustomer;

	const lines = body.OrderLines;
	if (!Array.isArray(lines) || lines.length === 0) {
		return problem('OrderLines', lines, 'needs at least one line', 'Add at least one order line.');
	}
	const cleanLines: IDataObject[] = [];
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i] as IDataObject;
		const where = `OrderLines[${i}]`;
		if (!isRecord(line)) {
			return problem(where, line, 'is not an order line', 'Each line is an object with Quantity, VATPercentage and UnitPriceExcl.');
		}
		const clean: IDataObject = { ...line };
		for (const [field, spec] of Object.entries(LINE_NUMBERS)) {
			const number = checkDecimal(line[field], spec);
			if (!number.ok) return problem(`${where}.${field}`, line[field], number.problem === 'is empty' ? 'is required' : number.problem, number.hint);
			clean[field] = number.value;
		}
		if ((clean.VATPercentage as number) < 0 || (clean.VATPercentage as number) > 100) {
			return problem(`${where}.VATPercentage`, line.VATPercentage, 'is not a percentage between 0 and 100', 'Enter the VAT rate as a percentage, e.g. 21.');
		}
		if (clean.Quantity === 0) {
			return problem(`${where}.Quantity`, line.Quantity, 'is zero', 'Enter the quantity invoiced (negative for a correction).');
		}
		const wrong = tidy(clean, 'Description', (value) => checkText(value, MAX_DESCRIPTION_LENGTH), `${where}.Description`);
		if (wrong) return wrong;
		cleanLines.push(clean);
	}
	body.OrderLines = cleanLines;
	return { body };
}

/** The `$filter` that finds an order by its ExternalProviderID. */
export function externalIdFilter(externalProviderId: string): string {
	return buildFilter([{ field: 'ExternalProviderID', operator: 'eq', value: externalProviderId, type: 'string' }], 'and');
}

/** The new OrderID from the create answer (`{ OrderID }`, `{ OrderId }` …). */
export const readOrderId = (body: unknown) => answeredId(body, 'OrderID');

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
