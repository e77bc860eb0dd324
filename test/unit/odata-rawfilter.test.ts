/**
 * normalizeRawFilter: `+` and whitespace runs are normalised only outside quoted text
 * values; inside single or double quotes (with doubled-quote escaping) every character,
 * whitespace and `+` included, is kept exactly.
 */
import { normalizeRawFilter, ODataError } from '../../nodes/shared/query/odata';

describe('normalizeRawFilter keeps quoted literals exact', () => {
	it.each([
		["OrderNumber eq 'a  b'", "OrderNumber eq 'a  b'"],
		["OrderNumber eq 'a\tb'", "OrderNumber eq 'a\tb'"],
		["OrderNumber eq 'line1\nline2\r\n'", "OrderNumber eq 'line1\nline2\r\n'"],
		["OrderNumber eq '  padded  '", "OrderNumber eq '  padded  '"],
		["OrderNumber eq 'a + b'", "OrderNumber eq 'a + b'"],
		["Name eq 'it''s   two  '' quotes'", "Name eq 'it''s   two  '' quotes'"],
		['Name eq "say  ""hi""\tthere"', 'Name eq "say  ""hi""\tthere"'],
		['Name eq \'has "double  quote" inside\'', 'Name eq \'has "double  quote" inside\''],
		["Name eq 'x\u00a0\u00a0y\u3000z'", "Name eq 'x\u00a0\u00a0y\u3000z'"],
	])('%j stays %j', (raw, expected) => {
		expect(normalizeRawFilter(raw)).toBe(expected);
	});

	it('still collapses whitespace and + outside quotes, around and between literals', () => {
		expect(normalizeRawFilter("  OrderType \t eq\n'In  voice'   and+OrderNumber+eq+'A+B'  ")).toBe("OrderType eq 'In  voice' and OrderNumber eq 'A+B'");
		expect(normalizeRawFilter("\n(A eq 'x  y')\t\tor\u00a0(B eq '  ')\n")).toBe("(A eq 'x  y') or (B eq '  ')");
		expect(normalizeRawFilter(' \t\n+ ')).toBe('');
	});

	it('still rejects unbalanced quotes and parentheses', () => {
		expect(() => normalizeRawFilter("Name eq 'a  b")).toThrow(ODataError);
		expect(() => normalizeRawFilter("(Name eq 'a  b'")).toThrow(ODataError);
	});
});
