/**
 * Amounts, prices, quantities and percentages as typed or mapped (README "Amounts and quantities"): read one
 * way only or refused ("1,250" could be either, so it is never guessed), checked on the digits as given, so
 * a valid value has at most 15 significant digits and is sent exactly. Pure.
 */
import type { Check } from '../../shared/domain/validation';

/** Most decimals (trailing zeros dropped), most digits before the separator, and the sign allowed. */
export interface DecimalSpec {
	decimals: number;
	digits: number;
	sign: 'positive' | 'zeroOrMore' | 'any';
}

export const AMOUNT: DecimalSpec = { decimals: 2, digits: 12, sign: 'positive' };
/** Negative for a discount or correction line. */
export const UNIT_PRICE: DecimalSpec = { decimals: 4, digits: 10, sign: 'any' };
export const QUANTITY: DecimalSpec = { decimals: 4, digits: 10, sign: 'any' };
/** A VAT rate (0 to 100 is checked with the order). */
export const PERCENT: DecimalSpec = { decimals: 2, digits: 3, sign: 'zeroOrMore' };

export const DECIMAL_FORMS = 'e.g. 1250.5, 1250,5, 1,250.50, 1.250,50 or 1 250,50';

const fail = (problem: string, hint: string): Check<number> => ({ ok: false, problem, hint });
const GROUP_SPACE = /[ \u00a0\u202f']/;

/** A valid thousands grouping: 1 to 3 digits, then groups of exactly 3. */
const grouped = (parts: string[]) => /^\d{1,3}$/.test(parts[0]) && parts.slice(1).every((part) => /^\d{3}$/.test(part));

/** The digits as `-?int(.frac)?`, or a problem: one decimal separator; the other, spaces or "'" group thousands; "1,250" is ambiguous. */
function canonical(text: string, decimals: number): { value: string } | { problem: string; hint: string } {
	const notNumber = { problem: 'is not a number', hint: `Enter digits, ${DECIMAL_FORMS} (no currency sign, no exponent).` };
	const match = /^(-?)(\d[\d.,' \u00a0\u202f]*)$/.exec(text);
	if (!match || /[.,' \u00a0\u202f]{2}|[.,' \u00a0\u202f]$/.test(match[2])) return notNumber;
	const [, sign, body] = match;
	const [dot, comma] = [body.lastIndexOf('.'), body.lastIndexOf(',')];
	let decimal = '';
	if (dot >= 0 && comma >= 0) decimal = dot > comma ? '.' : ',';
	else if (dot >= 0 || comma >= 0) {
		const separator = dot >= 0 ? '.' : ',';
		const [head, ...rest] = body.split(separator);
		if (rest.length === 1) {
			const intDigits = head.replace(/\D/g, '');
			if (rest[0].length === 3 && !GROUP_SPACE.test(head) && intDigits.length <= 3 && !/^0+$/.test(intDigits)) {
				// The decimal reading is offered only where the field takes that many decimals (12.345 is no Amount).
				const fraction = rest[0].replace(/0+$/, '');
				const other = fraction.length > decimals ? `; this field takes at most ${decimals} decimals` : ` or ${head}.${fraction || '0'} for decimals`;
				return { problem: `is ambiguous ("${separator}" may separate thousands or decimals)`, hint: `Write ${head}${rest[0]} for thousands${other}.` };
			}
			decimal = separator;
		}
	}
	const at = decimal ? body.lastIndexOf(decimal) : body.length;
	const [integer, fraction] = [body.slice(0, at), body.slice(at + 1)];
	if (/\D/.test(fraction)) return notNumber;
	const groupSeparators = new Set(integer.replace(/\d/g, ''));
	if (groupSeparators.size > 1 || groupSeparators.has(decimal)) return notNumber;
	const [groupSeparator] = [...groupSeparators];
	if (groupSeparator !== undefined && !grouped(integer.split(groupSeparator))) {
		return { problem: 'is not a number (its thousands are not grouped by three)', hint: `Enter it without thousands separators, or ${DECIMAL_FORMS}.` };
	}
	const digits = integer.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
	return { value: `${sign}${digits}${fraction ? `.${fraction}` : ''}` };
}

/** A number typed or mapped, checked against `spec`; a JS number is taken as it prints (0.1 + 0.2 has 17 decimals and is refused). */
export function checkDecimal(value: unknown, spec: DecimalSpec): Check<number> {
	if (value === undefined || value === null || (typeof value === 'string' && !value.trim())) return fail('is empty', `Enter a number, ${DECIMAL_FORMS}.`);
	let text: string;
	if (typeof value === 'number' && Number.isFinite(value)) {
		// Exponent forms print only for values of 1e21 and more or below 1e-6: too large, or too many decimals.
		text = String(value).replace(/^(-?)\d(?:\.\d+)?e\+?(-?)\d+$/i, (_all, sign: string, tiny: string) =>
			tiny ? `${sign}0.0000001` : `${sign}1${'0'.repeat(21)}`,
		);
	} else if (typeof value === 'string') {
		const read = canonical(value.trim(), spec.decimals);
		if ('problem' in read) return fail(read.problem, read.hint);
		text = read.value;
	} else {
		return fail('is not a number', `Enter a number, ${DECIMAL_FORMS}, or map a number.`);
	}
	const [integer, fraction = ''] = text.replace('-', '').split('.');
	const decimals = fraction.replace(/0+$/, '').length;
	const max = `${'9'.repeat(spec.digits)}${spec.decimals ? `.${'9'.repeat(spec.decimals)}` : ''}`;
	if (integer.replace(/^0+/, '').length > spec.digits) return fail(`is too large (at most ${max})`, 'Check the value; no order amount is this large.');
	if (decimals > spec.decimals) {
		return fail(`has more than ${spec.decimals} decimals`, `Round it to ${spec.decimals} decimals first, e.g. {{ $json.amount.toFixed(${spec.decimals}) }}.`);
	}
	const number = Number(text);
	if (spec.sign === 'positive' && !(number > 0)) return fail('is not more than 0', 'Enter a positive number.');
	if (spec.sign === 'zeroOrMore' && number < 0) return fail('is negative', 'Enter 0 or a positive number.');
	return { ok: true, value: number === 0 ? 0 : number };
}
