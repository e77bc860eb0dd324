import {
	andFilters,
	assertPropertyPath,
	buildCondition,
	buildFilter,
	buildOrderBy,
	formatLiteral,
	isValidPropertyPath,
	normalizeDate,
	normalizeRawFilter,
	ODataError,
	scanFilter,
} from '../../nodes/shared/query/odata';
import { encodeQueryValue, toQueryString } from '../../nodes/shared/http/url';
import type { FilterCondition } from '../../nodes/shared/query/odata';
// The emulator's OData parser: proof that what we build is read back as intended.
import { parseFilter, evaluate, parseOrderBy } from '../../emulator/odata';
// Over every field the emulator stores: these prove the parser's grammar (the published filterable list is narrower).
import { ORDER_ALL as ORDER } from '../../emulator/schemas';

describe('formatLiteral', () => {
	it('quotes strings and doubles embedded single quotes; backslash is not an escape', () => {
		expect(formatLiteral('Invoice', 'string')).toBe("'Invoice'");
		expect(formatLiteral("O'Brien", 'string')).toBe("'O''Brien'");
		expect(formatLiteral("''", 'string')).toBe("''''''");
		expect(formatLiteral('a\\b', 'string')).toBe("'a\\b'");
		expect(formatLiteral('', 'string')).toBe("''");
		expect(formatLiteral(42, 'string')).toBe("'42'");
	});

	it('rejects objects and missing text', () => {
		expect(() => formatLiteral(undefined, 'string')).toThrow(ODataError);
		expect(() => formatLiteral({ a: 1 }, 'string')).toThrow(/must be text/);
	});

	it('writes numbers bare and validates them', () => {
		expect(formatLiteral(12, 'number')).toBe('12');
		expect(formatLiteral(' 12.50 ', 'number')).toBe('12.50');
		expect(formatLiteral('-3', 'number')).toBe('-3');
		expect(formatLiteral('007', 'number')).toBe('7');
		expect(formatLiteral(0, 'number')).toBe('0');
		expect(formatLiteral(1e-7, 'number')).toBe('0.0000001');
		expect(() => formatLiteral('12,5', 'number')).toThrow(/not a number/);
		expect(() => formatLiteral('12 or 1 eq 1', 'number')).toThrow(ODataError);
		expect(() => formatLiteral(NaN, 'number')).toThrow(/finite/);
		expect(() => formatLiteral(Infinity, 'number')).toThrow(/finite/);
		expect(() => formatLiteral('', 'number')).toThrow(ODataError);
		expect(() => formatLiteral(true, 'number')).toThrow(ODataError);
	});

	it('writes booleans bare', () => {
		expect(formatLiteral(true, 'boolean')).toBe('true');
		expect(formatLiteral('FALSE', 'boolean')).toBe('false');
		expect(() => formatLiteral('yes', 'boolean')).toThrow(/true or false/);
	});

	it('writes dates as DateTime literals and validates the calendar', () => {
		expect(formatLiteral('2024-01-31', 'date')).toBe("DateTime'2024-01-31'");
		expect(formatLiteral('2024-01-31T10:05', 'datetime')).toBe("DateTime'2024-01-31T10:05:00'");
		expect(formatLiteral('2024-01-31 10:05:07.123', 'datetime')).toBe("DateTime'2024-01-31T10:05:07'");
		expect(formatLiteral('2024-01-31T10:00:00+02:00', 'datetime')).toBe("DateTime'2024-01-31T08:00:00'");
		expect(formatLiteral('2024-01-01T01:00:00Z', 'date')).toBe("DateTime'2024-01-01T01:00:00'");
		expect(formatLiteral(new Date(Date.UTC(2024, 1, 29, 12, 0, 0)), 'datetime')).toBe("DateTime'2024-02-29T12:00:00'");
		expect(formatLiteral({ toISO: () => '2024-03-01T00:00:00.000+01:00' }, 'datetime')).toBe("DateTime'2024-02-29T23:00:00'");
		expect(() => formatLiteral('2023-02-29', 'date')).toThrow(/not a valid date/);
		expect(() => formatLiteral('31/01/2024', 'date')).toThrow(/YYYY-MM-DD/);
		expect(() => formatLiteral('2024-01-31T25:00:00', 'datetime')).toThrow(/date and time/);
		expect(() => formatLiteral("2024-01-31' or 1 eq 1", 'date')).toThrow(ODataError);
		expect(() => formatLiteral(new Date('nope'), 'date')).toThrow(ODataError);
	});

	it('writes null', () => {
		expect(formatLiteral('anything', 'null')).toBe('null');
	});

	it('normalizeDate returns undefined for non-dates', () => {
		expect(normalizeDate(12)).toBeUndefined();
		expect(normalizeDate('2024-13-01')).toBeUndefined();
		expect(normalizeDate('2024-12-01')).toBe('2024-12-01');
	});
});

describe('property paths', () => {
	it('accepts names and sub-properties', () => {
		expect(isValidPropertyPath('OrderDate')).toBe(true);
		expect(isValidPropertyPath('CounterParty/DisplayName')).toBe(true);
		expect(isValidPropertyPath('_a1/b_2/C')).toBe(true);
		expect(assertPropertyPath('  OrderNumber ')).toBe('OrderNumber');
	});

	it.each([
		'',
		'Order Date',
		"OrderType eq 'x' or 1",
		'OrderType)',
		'1Field',
		'CounterParty/',
		'/DisplayName',
		'a//b',
		"Name'",
		'Field&$top=1',
		'or',
		'CounterParty/and',
	])('rejects %j', (path) => {
		expect(isValidPropertyPath(path)).toBe(false);
		expect(() => assertPropertyPath(path)).toThrow(ODataError);
	});
});

describe('buildFilter', () => {
	const conditions: FilterCondition[] = [
		{ field: 'OrderType', operator: 'eq', value: 'Invoice', type: 'string' },
		{ field: 'OrderDate', operator: 'ge', value: '2024-01-01', type: 'date' },
		{ field: 'CounterParty/DisplayName', operator: 'ne', value: "O'Brien & Co", type: 'string' },
	];

	it('joins conditions with and / or', () => {
		expect(buildFilter(conditions, 'and')).toBe("OrderType eq 'Invoice' and OrderDate ge DateTime'2024-01-01' and CounterParty/DisplayName ne 'O''Brien & Co'");
		expect(buildFilter(conditions.slice(0, 2), 'or')).toBe("OrderType eq 'Invoice' or OrderDate ge DateTime'2024-01-01'");
		expect(buildFilter([], 'and')).toBe('');
	});

	it('names the field and the condition index in errors', () => {
		const bad: FilterCondition[] = [conditions[0], { field: 'TotalIncl', operator: 'gt', value: 'ten', type: 'number' }];
		try {
			buildFilter(bad, 'and');
			throw new Error('should have thrown');
		} catch (error) {
			expect(error).toBeInstanceOf(ODataError);
			expect((error as ODataError).field).toBe('TotalIncl');
			expect((error as ODataError).index).toBe(1);
			expect((error as ODataError).message).toMatch(/^TotalIncl: "ten" is not a number/);
		}
	});

	it('rejects unknown operators and ordered comparisons with null', () => {
		expect(() => buildCondition({ field: 'A', operator: 'like' as unknown as 'eq', value: 'x', type: 'string' })).toThrow(/Unknown operator/);
		expect(() => buildCondition({ field: 'A', operator: 'gt', value: null, type: 'null' })).toThrow(/null/);
		expect(buildCondition({ field: 'PaidDate', operator: 'eq', value: null, type: 'null' })).toBe('PaidDate eq null');
		expect(() => buildFilter(conditions, 'xor' as unknown as 'and')).toThrow(/Unknown combination/);
	});

	it('is read back by the emulator parser as the same conditions (quotes, sub-properties, dates)', () => {
		const filter = buildFilter(conditions, 'and');
		const ast = parseFilter(filter, ORDER);
		const match = {
			OrderType: 'Invoice',
			OrderDate: '2024-02-01',
			CounterParty: { DisplayName: 'Other' },
		};
		expect(evaluate(ast, match)).toBe(true);
		expect(evaluate(ast, { ...match, CounterParty: { DisplayName: "O'Brien & Co" } })).toBe(false);
		expect(evaluate(ast, { ...match, OrderDate: '2023-12-31' })).toBe(false);
	});
});

describe('andFilters (precedence)', () => {
	it('wraps a part with a top-level or', () => {
		expect(andFilters("A eq 'x' or B eq 'y'", "C eq 'z'")).toBe("(A eq 'x' or B eq 'y') and C eq 'z'");
		expect(andFilters("A eq 'x'", "C eq 'z'")).toBe("A eq 'x' and C eq 'z'");
		expect(andFilters("(A eq 'x' or B eq 'y')", "C eq 'z'")).toBe("(A eq 'x' or B eq 'y') and C eq 'z'");
		expect(andFilters("(A eq 'x') or (B eq 'y')", "C eq 'z'")).toBe("((A eq 'x') or (B eq 'y')) and C eq 'z'");
	});

	it('does not mistake "or" inside text values or names', () => {
		expect(andFilters("A eq 'x or y'", 'B eq 1')).toBe("A eq 'x or y' and B eq 1");
		expect(andFilters("Color eq 'red' and Origin eq 'BE'", 'B eq 1')).toBe("Color eq 'red' and Origin eq 'BE' and B eq 1");
		expect(andFilters("A eq 'it''s' or B eq 2", 'C eq 3')).toBe("(A eq 'it''s' or B eq 2) and C eq 3");
	});

	it('skips empty parts and returns undefined when nothing is left', () => {
		expect(andFilters(undefined, '', '  ', null)).toBeUndefined();
		expect(andFilters(undefined, "A eq 'x' or B eq 'y'")).toBe("A eq 'x' or B eq 'y'");
	});

	it('refuses unbalanced parentheses and unterminated text (no way to escape the wrapping)', () => {
		expect(() => andFilters("A eq 'x') or (B eq 'y'", 'C eq 1')).toThrow(/never opened/);
		expect(() => andFilters("(A eq 'x'", 'C eq 1')).toThrow(/never closes/);
		expect(() => andFilters("A eq 'x", 'C eq 1')).toThrow(/unterminated/);
		expect(() => scanFilter("A eq ')'")).not.toThrow();
	});

	it('gives the intended result when evaluated by the emulator parser', () => {
		const combined = andFilters(
			buildFilter(
				[
					{ field: 'OrderType', operator: 'eq', value: 'Invoice', type: 'string' },
					{ field: 'OrderType', operator: 'eq', value: 'CreditNote', type: 'string' },
				],
				'or',
			),
			buildFilter([{ field: 'ExternalProviderID', operator: 'eq', value: 'ext-1', type: 'string' }], 'and'),
		) as string;
		const ast = parseFilter(combined, ORDER);
		// Without parentheses `Invoice or (CreditNote and ext-1)` would match this record.
		expect(evaluate(ast, { OrderType: 'Invoice', ExternalProviderID: 'other' })).toBe(false);
		expect(evaluate(ast, { OrderType: 'CreditNote', ExternalProviderID: 'ext-1' })).toBe(true);
	});
});

describe('buildOrderBy', () => {
	it('joins keys; asc is the default and not written', () => {
		expect(
			buildOrderBy([
				{ field: 'OrderDate', direction: 'desc' },
				{ field: 'CounterParty/DisplayName', direction: 'asc' },
			]),
		).toBe('OrderDate desc,CounterParty/DisplayName');
		expect(buildOrderBy([])).toBe('');
		const parsed = parseOrderBy('OrderDate desc,CounterParty/DisplayName', ORDER);
		expect(parsed.map((p: { path: string[]; desc: boolean }) => [p.path.join('/'), p.desc])).toEqual([
			['OrderDate', true],
			['CounterParty/DisplayName', false],
		]);
	});

	it('rejects bad paths, directions and duplicates', () => {
		expect(() => buildOrderBy([{ field: 'OrderDate desc', direction: 'asc' }])).toThrow(/not a valid property path/);
		expect(() => buildOrderBy([{ field: 'A', direction: 'up' as 'asc' }])).toThrow(/direction/);
		expect(() =>
			buildOrderBy([
				{ field: 'A', direction: 'asc' },
				{ field: 'A', direction: 'desc' },
			]),
		).toThrow(/twice/);
	});
});

describe('normalizeRawFilter', () => {
	it('turns + between words into spaces but keeps + inside text values', () => {
		expect(normalizeRawFilter("OrderType+eq+'Invoice'+and+OrderNumber+eq+'A+B'")).toBe("OrderType eq 'Invoice' and OrderNumber eq 'A+B'");
		expect(normalizeRawFilter("  Name eq 'it''s + ok'  ")).toBe("Name eq 'it''s + ok'");
		expect(normalizeRawFilter('')).toBe('');
	});

	it('refuses unbalanced input', () => {
		expect(() => normalizeRawFilter("Name eq 'x")).toThrow(ODataError);
		expect(() => normalizeRawFilter('(A eq 1')).toThrow(ODataError);
	});
});

describe('encoding', () => {
	it('percent-encodes the characters that would otherwise change the query', () => {
		expect(encodeQueryValue("A+B & C#1 100% é'(x)!*~")).toBe('A%2BB%20%26%20C%231%20100%25%20%C3%A9%27%28x%29%21%2A~');
		expect(toQueryString({ $filter: "X eq 'a+b'", $top: 5, $skip: undefined })).toBe('$filter=X%20eq%20%27a%2Bb%27&$top=5');
		expect(() => toQueryString({ $filter: { a: 1 } })).toThrow(TypeError);
	});

	it('a value survives the round trip through URLSearchParams (how the emulator reads queries)', () => {
		const value = 'Ünïcødé ✓ + & # % = ? / \'q\' "d" 東京';
		const filter = buildFilter([{ field: 'OrderNumber', operator: 'eq', value, type: 'string' }], 'and');
		const query = toQueryString({ $filter: filter, $orderby: 'OrderDate desc,OrderNumber' });
		const read = new URLSearchParams(query);
		expect(read.get('$filter')).toBe(filter);
		expect(read.get('$orderby')).toBe('OrderDate desc,OrderNumber');
		expect([...read.keys()]).toEqual(['$filter', '$orderby']);
		const ast = parseFilter(read.get('$filter') as string, ORDER);
		expect(evaluate(ast, { OrderNumber: value })).toBe(true);
		expect(evaluate(ast, { OrderNumber: value.replace('+', ' ') })).toBe(false);
	});
});
