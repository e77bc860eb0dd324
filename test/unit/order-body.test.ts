import { buildOrderBody, checkOrder, externalIdFilter, readOrderId, toNumber, toOrderDate } from '../../nodes/Order/actions/order/orderBody';
import { checkOrderId } from '../../nodes/Order/actions/order/orderId';
import type { FieldProblem } from '../../nodes/shared/domain/validation';

const valid = () => ({
	OrderType: 'Invoice',
	OrderDirection: 'Income',
	OrderDate: '2024-01-31',
	ExpiryDate: '2024-02-29',
	OrderNumber: ' INV-1 ',
	ExternalProviderID: ' ERP-1 ',
	Customer: { Name: ' ACME NV ', VATNumber: 'be 0123.456.749' },
	OrderLines: [{ Quantity: '2', Description: 'Work', VATPercentage: 21, UnitPriceExcl: '12.50' }],
});

function problemOf(input: unknown): FieldProblem {
	const result = checkOrder(input);
	if (!('problem' in result)) throw new Error(`expected a problem, got ${JSON.stringify(result.body)}`);
	return result.problem;
}

describe('toOrderDate', () => {
	it('accepts dates, date-times (own calendar day), Dates and Luxon-like values', () => {
		expect(toOrderDate('2024-01-31')).toBe('2024-01-31');
		expect(toOrderDate('2024-01-31T23:30:00+01:00')).toBe('2024-01-31');
		expect(toOrderDate('2024-01-31T00:00:00')).toBe('2024-01-31');
		expect(toOrderDate(new Date(Date.UTC(2024, 1, 29)))).toBe('2024-02-29');
		expect(toOrderDate({ toISODate: () => '2024-03-01' })).toBe('2024-03-01');
	});

	it.each([
		'2023-02-29',
		'31/01/2024',
		'2024-1-31',
		'',
		'tomorrow',
		20240131,
		'2026-02-28T99:99',
		'2026-02-28T24:00',
		'2026-02-28T23:60:00',
		'2026-02-28T10:00:61',
		'2026-02-28T10:00+25:00',
	])('rejects %j', (value) => {
		expect(toOrderDate(value)).toBeUndefined();
	});
});

describe('toNumber', () => {
	it('reads numbers and numeric text only', () => {
		expect(toNumber(3)).toBe(3);
		expect(toNumber(' 12.5 ')).toBe(12.5);
		expect(toNumber('-1')).toBe(-1);
		expect(toNumber('12,5')).toBeUndefined();
		expect(toNumber('1e3')).toBeUndefined();
		expect(toNumber('')).toBeUndefined();
		expect(toNumber(NaN)).toBeUndefined();
		expect(toNumber(true)).toBeUndefined();
	});
});

describe('checkOrder', () => {
	it('normalises a valid order: trimmed texts, numbers, dates, default PartyType', () => {
		const result = checkOrder(valid());
		expect(result).toEqual({
			body: {
				OrderType: 'Invoice',
				OrderDirection: 'Income',
				OrderDate: '2024-01-31',
				ExpiryDate: '2024-02-29',
				OrderNumber: 'INV-1',
				ExternalProviderID: 'ERP-1',
				Customer: { Name: 'ACME NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
				OrderLines: [{ Quantity: 2, Description: 'Work', VATPercentage: 21, UnitPriceExcl: 12.5 }],
			},
		});
	});

	it('reads line numbers one way only: decimal comma or point, grouped thousands (docs/nodes.md "Amounts and quantities")', () => {
		const lines = [
			{ Quantity: '1,5', UnitPriceExcl: '1.250,00', VATPercentage: '5,5' },
			{ Quantity: '-2', UnitPriceExcl: '1,250.0025', VATPercentage: 21 },
		];
		const result = checkOrder({ ...valid(), OrderLines: lines });
		if ('problem' in result) throw new Error(JSON.stringify(result.problem));
		expect(result.body.OrderLines).toEqual([
			{ Quantity: 1.5, UnitPriceExcl: 1250, VATPercentage: 5.5 },
			{ Quantity: -2, UnitPriceExcl: 1250.0025, VATPercentage: 21 },
		]);
	});

	it('drops empty optional fields', () => {
		const result = checkOrder({ ...valid(), ExpiryDate: '', OrderNumber: null, ExternalProviderID: '  ' });
		expect('body' in result && Object.keys(result.body)).toEqual(['OrderType', 'OrderDirection', 'OrderDate', 'Customer', 'OrderLines']);
	});

	it.each<[string, unknown, string, RegExp]>([
		['OrderType', { ...valid(), OrderType: 'Bill' }, 'OrderType', /not an order type/],
		['OrderDirection', { ...valid(), OrderDirection: 'Out' }, 'OrderDirection', /not an order direction/],
		['missing OrderDate', { ...valid(), OrderDate: '' }, 'OrderDate', /is required/],
		['bad OrderDate', { ...valid(), OrderDate: '2024-02-30' }, 'OrderDate', /YYYY-MM-DD/],
		['bad ExpiryDate', { ...valid(), ExpiryDate: 'soon' }, 'ExpiryDate', /YYYY-MM-DD/],
		['expiry before order date', { ...valid(), ExpiryDate: '2024-01-30' }, 'ExpiryDate', /before the order date 2024-01-31/],
		['no customer', { ...valid(), Customer: undefined }, 'Customer', /required/],
		['no customer name', { ...valid(), Customer: { Name: ' ' } }, 'Customer.Name', /required/],
		['no lines', { ...valid(), OrderLines: [] }, 'OrderLines', /at least one line/],
		['lines not a list', { ...valid(), OrderLines: 'x' }, 'OrderLines', /at least one line/],
		['text quantity', { ...valid(), OrderLines: [{ ...valid().OrderLines[0], Quantity: 'two' }] }, 'OrderLines[0].Quantity', /not a number/],
		['missing price', { ...valid(), OrderLines: [valid().OrderLines[0], { Quantity: 1, VATPercentage: 21 }] }, 'OrderLines[1].UnitPriceExcl', /required/],
		[
			'a price that may be thousands or decimals',
			{ ...valid(), OrderLines: [{ ...valid().OrderLines[0], UnitPriceExcl: '1,250' }] },
			'OrderLines[0].UnitPriceExcl',
			/ambiguous/,
		],
		[
			'a price of 5 decimals',
			{ ...valid(), OrderLines: [{ ...valid().OrderLines[0], UnitPriceExcl: 0.12345 }] },
			'OrderLines[0].UnitPriceExcl',
			/more than 4 decimals/,
		],
		['a quantity in exponent form', { ...valid(), OrderLines: [{ ...valid().OrderLines[0], Quantity: '1e3' }] }, 'OrderLines[0].Quantity', /not a number/],
		['an External Provider ID on two lines', { ...valid(), ExternalProviderID: 'ERP-1\nERP-2' }, 'ExternalProviderID', /line break/],
		['VAT over 100', { ...valid(), OrderLines: [{ ...valid().OrderLines[0], VATPercentage: 121 }] }, 'OrderLines[0].VATPercentage', /between 0 and 100/],
		['zero quantity', { ...valid(), OrderLines: [{ ...valid().OrderLines[0], Quantity: 0 }] }, 'OrderLines[0].Quantity', /zero/],
		['object ExternalProviderID', { ...valid(), ExternalProviderID: { id: 1 } }, 'ExternalProviderID', /text/],
		['not an object', [1, 2], 'Order', /not an object/],
	])('%s', (_name, input, field, message) => {
		const problem = problemOf(input);
		expect(problem.field).toBe(field);
		expect(problem.problem).toMatch(message);
		expect(problem.hint.length).toBeGreaterThan(10);
	});
});

describe('buildOrderBody', () => {
	it('maps field values to the API body, extras included', () => {
		expect(
			buildOrderBody({
				OrderType: 'CreditNote',
				OrderDirection: 'Cost',
				OrderDate: '2024-01-31T00:00:00',
				ExpiryDate: '',
				OrderNumber: 'CN-1',
				ExternalProviderID: '',
				Customer: { Name: 'ACME', VATNumber: '', PartyType: '' },
				OrderLines: [{ Quantity: 1, Description: '', VATPercentage: 6, UnitPriceExcl: 10 }],
				extra: { Currency: 'EUR' },
			}),
		).toEqual({
			Currency: 'EUR',
			OrderType: 'CreditNote',
			OrderDirection: 'Cost',
			OrderDate: '2024-01-31T00:00:00',
			OrderNumber: 'CN-1',
			Customer: { Name: 'ACME', PartyType: 'Customer' },
			OrderLines: [{ Quantity: 1, VATPercentage: 6, UnitPriceExcl: 10 }],
		});
	});
});

describe('answers and IDs', () => {
	it('reads the new OrderID from a bare integer, text or object', () => {
		expect(readOrderId(123)).toBe(123);
		expect(readOrderId(' 456 ')).toBe(456);
		expect(readOrderId('"789"')).toBe(789);
		expect(readOrderId({ OrderID: 5 })).toBe(5);
		expect(readOrderId({ OrderId: '6' })).toBe(6);
		expect(readOrderId('OK')).toBeUndefined();
		expect(readOrderId(0)).toBeUndefined();
		expect(readOrderId(null)).toBeUndefined();
		// One reading of every create answer (records' answeredId): an ID past 15 digits is refused, never rounded to another order.
		expect(readOrderId('12345678901234567890')).toBeUndefined();
		expect(readOrderId([{ orderId: 7 }])).toBe(7);
	});

	it('checks an Order ID parameter', () => {
		expect(checkOrderId(' 12 ')).toEqual({ ok: true, value: '12' });
		expect(checkOrderId(12)).toEqual({ ok: true, value: '12' });
		expect(checkOrderId('12a').ok).toBe(false);
		expect(checkOrderId(0).ok).toBe(false);
		expect(checkOrderId(1.5).ok).toBe(false);
	});

	it('builds the ExternalProviderID lookup filter with quotes escaped', () => {
		expect(externalIdFilter("ERP-'7")).toBe("ExternalProviderID eq 'ERP-''7'");
	});
});
