/**
 * Amounts and quantities as typed (issue 28.2, 33.5): every form read one way only or
 * refused, never rounded, never in exponent form.
 */
import { AMOUNT, checkDecimal, PERCENT, QUANTITY, UNIT_PRICE } from '../../nodes/Order/actions/decimal';

describe('checkDecimal', () => {
	it.each([
		['12,50', 12.5],
		['12.50', 12.5],
		['1.250,00', 1250],
		['1,250.00', 1250],
		['1 250,50', 1250.5],
		['1\u00a0250,50', 1250.5],
		["1'250.50", 1250.5],
		['1.250.000', 1250000],
		['1,250,000.10', 1250000.1],
		['0,125', 0.125],
		['1250,125', 1250.125],
		['12.5000', 12.5],
		['  7 ', 7],
		['-3,5', -3.5],
		['007', 7],
		[12.5, 12.5],
		[-0, 0],
	])('%j is %d', (typed, value) => {
		expect(checkDecimal(typed, QUANTITY)).toEqual({ ok: true, value });
	});

	it('an ambiguous value is never offered back in a reading the field refuses (12.345 is no Amount)', () => {
		expect(checkDecimal('12.345', AMOUNT)).toEqual({
			ok: false,
			problem: 'is ambiguous ("." may separate thousands or decimals)',
			hint: 'Write 12345 for thousands; this field takes at most 2 decimals.',
		});
		expect(checkDecimal('1,250', AMOUNT)).toMatchObject({ hint: 'Write 1250 for thousands or 1.25 for decimals.' });
	});

	it.each([
		['1,250', 'is ambiguous ("," may separate thousands or decimals)', 'Write 1250 for thousands or 1.25 for decimals'],
		['1.250', 'is ambiguous ("." may separate thousands or decimals)', 'Write 1250 for thousands or 1.25 for decimals'],
		['12.345', 'is ambiguous ("." may separate thousands or decimals)', 'Write 12345 for thousands or 12.345 for decimals'],
		['1,25,000.00', 'is not a number (its thousands are not grouped by three)', ''],
		['1.250,000.5', 'is not a number', ''],
		['1 2', 'is not a number (its thousands are not grouped by three)', ''],
		['12.', 'is not a number', ''],
		['.5', 'is not a number', ''],
		['1..5', 'is not a number', ''],
		['+5', 'is not a number', ''],
		['€ 12,50', 'is not a number', ''],
		['12,50 EUR', 'is not a number', ''],
		['1e21', 'is not a number', 'no exponent'],
		['0x10', 'is not a number', ''],
		['', 'is empty', ''],
		[null, 'is empty', ''],
		[true, 'is not a number', ''],
		[{ amount: 1 }, 'is not a number', ''],
		[Number.NaN, 'is not a number', ''],
		[Infinity, 'is not a number', ''],
	])('%j is refused: %s', (typed, problem, hint) => {
		const checked = checkDecimal(typed, QUANTITY);
		expect(checked).toEqual({ ok: false, problem, hint: expect.stringContaining(hint) });
	});

	describe('issue 33.5: amounts never rounded, never in exponent form', () => {
		it.each([
			[1e21, 'is too large (at most 999999999999.99)'],
			[1e300, 'is too large (at most 999999999999.99)'],
			[-1e300, 'is too large (at most 999999999999.99)'],
			['12345678901234567.89', 'is too large (at most 999999999999.99)'],
			['90071992547409.93', 'is too large (at most 999999999999.99)'],
			['1000000000000', 'is too large (at most 999999999999.99)'],
			[12.345, 'has more than 2 decimals'],
			[0.1 + 0.2, 'has more than 2 decimals'],
			[1e-7, 'has more than 2 decimals'],
			['0,001', 'has more than 2 decimals'],
			[0, 'is not more than 0'],
			['-12,50', 'is not more than 0'],
		])('Amount %j: %s', (typed, problem) => {
			expect(checkDecimal(typed, AMOUNT)).toMatchObject({ ok: false, problem });
		});

		it.each([
			['999999999999.99', '999999999999.99'],
			['999.999.999.999,99', '999999999999.99'],
			['90071992547,41', '90071992547.41'],
			['18.559,78', '18559.78'],
			['0,01', '0.01'],
		])('%s is sent exactly as %s (held exactly, never in exponent form)', (typed, sent) => {
			const checked = checkDecimal(typed, AMOUNT);
			expect(checked.ok).toBe(true);
			expect(JSON.stringify({ Amount: checked.ok ? checked.value : undefined })).toBe(`{"Amount":${sent}}`);
		});
	});

	it('each kind has its own decimals and range', () => {
		expect(checkDecimal('0,0125', UNIT_PRICE)).toEqual({ ok: true, value: 0.0125 });
		expect(checkDecimal('0,00125', UNIT_PRICE)).toMatchObject({ problem: 'has more than 4 decimals' });
		expect(checkDecimal('-20', UNIT_PRICE)).toEqual({ ok: true, value: -20 });
		expect(checkDecimal('5,5', PERCENT)).toEqual({ ok: true, value: 5.5 });
		expect(checkDecimal('-1', PERCENT)).toMatchObject({ problem: 'is negative' });
		expect(checkDecimal('1000', PERCENT)).toMatchObject({ problem: 'is too large (at most 999.99)' });
	});
});
