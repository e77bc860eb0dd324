/**
 * Pure input checks (no n8n, no HTTP): VAT numbers, IBAN, BIC, e-mail, phone,
 * ISO language and country codes, address types and numeric IDs. Each check
 * returns the normalised value or a problem plus a hint the user can act on.
 * About 300 lines because of the reference tables (ISO countries and languages, VAT
 * shapes, IBAN lengths) that the checks read; the checks themselves are short.
 */

import { isValidBelgianEnterpriseNumber } from './identifiers';

/** A checked value: the normalised value, or what is wrong with it and how to fix it. */
export type Check<T = string> = { ok: true; value: T } | { ok: false; problem: string; hint: string };

/** What is wrong with one field of a form or a mapped object, for the message that names it. */
export interface FieldProblem {
	/** The field as the user sees it, e.g. "Invoice Address → City". */
	field: string;
	value?: unknown;
	/** Words that follow the field and value, e.g. "is not a valid IBAN (checksum failed)". */
	problem: string;
	/** How to fix it. */
	hint: string;
}

const ok = (value: string): Check => ({ ok: true, value });
const fail = (problem: string, hint: string): Check => ({ ok: false, problem, hint });

/** ISO 3166-1 alpha-2 (all officially assigned codes) plus XK, which banks and tax offices use for Kosovo. */
const COUNTRY_CODES = new Set(
	(
		'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
		'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET ' +
		'FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ' +
		'ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY ' +
		'MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ ' +
		'OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
		'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ ' +
		'UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW XK'
	).split(' '),
);

/** ISO 639-1 two-letter language codes. */
const LANGUAGE_CODES = new Set(
	(
		'aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy ' +
		'da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ' +
		'ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv ' +
		'mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu ' +
		'rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ' +
		'ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'
	).split(' '),
);

/** VAT prefixes that are not ISO country codes: Greece (EL) and Northern Ireland (XI). */
const EXTRA_VAT_PREFIXES = new Set(['EL', 'XI']);

/**
 * National part of EU (and a few neighbouring) VAT numbers after the prefix.
 * Countries not listed only get the generic shape check.
 */
const VAT_PATTERNS: Record<string, { pattern: RegExp; example: string }> = {
	AT: { pattern: /^U\d{8}$/, example: 'ATU12345678' },
	BE: { pattern: /^[01]\d{9}$/, example: 'BE0123456749' },
	BG: { pattern: /^\d{9,10}$/, example: 'BG123456789' },
	CY: { pattern: /^\d{8}[A-Z]$/, example: 'CY12345678X' },
	CZ: { pattern: /^\d{8,10}$/, example: 'CZ12345678' },
	DE: { pattern: /^\d{9}$/, example: 'DE123456789' },
	DK: { pattern: /^\d{8}$/, example: 'DK12345678' },
	EE: { pattern: /^\d{9}$/, example: 'EE123456789' },
	EL: { pattern: /^\d{9}$/, example: 'EL123456789' },
	ES: { pattern: /^[0-9A-Z]\d{7}[0-9A-Z]$/, example: 'ESX1234567X' },
	FI: { pattern: /^\d{8}$/, example: 'FI12345678' },
	FR: { pattern: /^[0-9A-Z]{2}\d{9}$/, example: 'FR12345678901' },
	HR: { pattern: /^\d{11}$/, example: 'HR12345678901' },
	HU: { pattern: /^\d{8}$/, example: 'HU12345678' },
	IE: { pattern: /^\d[0-9A-Z+*]\d{5}[A-Z]{1,2}$/, example: 'IE1234567T' },
	IT: { pattern: /^\d{11}$/, example: 'IT12345678901' },
	LT: { pattern: /^(\d{9}|\d{12})$/, example: 'LT123456789' },
	LU: { pattern: /^\d{8}$/, example: 'LU12345678' },
	LV: { pattern: /^\d{11}$/, example: 'LV12345678901' },
	MT: { pattern: /^\d{8}$/, example: 'MT12345678' },
	NL: { pattern: /^\d{9}B\d{2}$/, example: 'NL123456789B01' },
	PL: { pattern: /^\d{10}$/, example: 'PL1234567890' },
	PT: { pattern: /^\d{9}$/, example: 'PT123456789' },
	RO: { pattern: /^\d{2,10}$/, example: 'RO1234567890' },
	SE: { pattern: /^\d{10}01$/, example: 'SE123456789001' },
	SI: { pattern: /^\d{8}$/, example: 'SI12345678' },
	SK: { pattern: /^\d{10}$/, example: 'SK1234567890' },
	XI: { pattern: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/, example: 'XI123456789' },
};

/** IBAN lengths per country (SWIFT IBAN registry). Unlisted countries get the generic 15–34 check. */
const IBAN_LENGTHS: Record<string, number> = {
	AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28,
	CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18,
	FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22,
	IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20,
	LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28, NL: 18,
	NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24, SC: 31,
	SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29,
	VA: 22, VG: 24, XK: 20, YE: 30,
};

export const ADDRESS_TYPES = ['InvoiceAddress', 'DeliveryAddress'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

/** Text of a value for messages: trimmed, shortened, never "[object Object]". */
export function showValue(value: unknown): string {
	if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return '(empty)';
	const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
	const trimmed = text.trim();
	if (!trimmed) return '(empty)';
	return trimmed.length > 60 ? `${trimmed.slice(0, 60)}…` : trimmed;
}

/**
 * The one wording for input errors: `Item 2: "IBAN" BE12 3456 is not a valid IBAN (checksum failed)`.
 * No item prefix where there is no item (a poll); a problem starting with ":" follows the field directly.
 */
export function fieldMessage(itemIndex: number | undefined, field: string, value: unknown, problem: string): string {
	const shown = showValue(value);
	const separator = problem.startsWith(':') ? '' : ' ';
	return itemMessage(itemIndex, `"${field}"${shown === '(empty)' ? '' : ` ${shown}`}${separator}${problem}`);
}

/** A message about one item that names no single field (e.g. "order 12 has no PDF file"). */
export function itemMessage(itemIndex: number | undefined, text: string): string {
	return itemIndex === undefined ? text : `Item ${itemIndex + 1}: ${text}`;
}

function text(value: unknown): string {
	if (value === undefined || value === null) return '';
	return String(value).trim();
}

/** Remainder of a long digit string modulo 97, computed in chunks to stay within safe integers. */
export function mod97(digits: string): number {
	let remainder = 0;
	for (let i = 0; i < digits.length; i += 7) {
		remainder = Number(`${remainder}${digits.slice(i, i + 7)}`) % 97;
	}
	return remainder;
}

/** Two-letter ISO 3166-1 country code; returned upper-case. */
export function checkCountryCode(value: unknown): Check {
	const code = text(value).toUpperCase();
	if (!code) return fail('is empty', 'Enter a two-letter ISO 3166-1 country code, e.g. BE, NL, FR.');
	if (!/^[A-Z]{2}$/.test(code)) {
		return fail('is not a two-letter country code', 'Use the ISO 3166-1 alpha-2 code, e.g. BE for Belgium, NL for the Netherlands.');
	}
	if (!COUNTRY_CODES.has(code)) {
		return fail('is not an ISO 3166-1 country code', 'Use the ISO 3166-1 alpha-2 code, e.g. BE, NL, DE, FR (Greece is GR, the United Kingdom is GB).');
	}
	return ok(code);
}

/** Two-letter ISO 639-1 language code; returned upper-case, as the API's samples write it. */
export function checkLanguageCode(value: unknown): Check {
	const code = text(value).toLowerCase();
	if (!code) return fail('is empty', 'Enter a two-letter ISO 639-1 language code, e.g. NL, FR, EN, DE.');
	if (!/^[a-z]{2}$/.test(code)) {
		return fail('is not a two-letter language code', 'Use the ISO 639-1 code, e.g. NL, FR, EN or DE (not "nl-BE" or "Dutch").');
	}
	if (!LANGUAGE_CODES.has(code)) {
		return fail('is not an ISO 639-1 language code', 'Use the ISO 639-1 code, e.g. NL, FR, EN or DE.');
	}
	return ok(code.toUpperCase());
}

/**
 * VAT number with a country prefix. Spaces, dots and dashes are removed and letters
 * upper-cased; Belgian numbers must pass the mod-97 check (an old 9-digit number takes a leading 0).
 */
export function checkVatNumber(value: unknown): Check {
	const raw = text(value);
	if (!raw) return fail('is empty', 'Enter the VAT number with its country prefix, e.g. BE0123456749.');
	const compact = raw.replace(/[\s.\-/]/g, '').toUpperCase();
	const prefix = compact.slice(0, 2);
	if (!/^[A-Z]{2}$/.test(prefix)) {
		return fail(
			'has no country prefix',
			'Start the VAT number with its two-letter country prefix, e.g. BE0123456749 or NL123456789B01.',
		);
	}
	if (!COUNTRY_CODES.has(prefix) && !EXTRA_VAT_PREFIXES.has(prefix)) {
		return fail(`does not start with a known country prefix ("${prefix}")`, 'Use the two-letter country prefix, e.g. BE, NL, DE, FR (Greece uses EL).');
	}
	if (prefix === 'GR') {
		return fail('uses GR as prefix (Greek VAT numbers start with EL)', 'Greek VAT numbers use the prefix EL, e.g. EL123456789.');
	}
	let national = compact.slice(2);
	if (!/^[0-9A-Z+*]{2,13}$/.test(national)) {
		return fail('is not a VAT number (expected 2 to 13 letters or digits after the prefix)', 'Enter the VAT number with its country prefix, e.g. BE0123456749.');
	}
	if (prefix === 'BE' && /^\d{9}$/.test(national)) national = `0${national}`;
	const rule = VAT_PATTERNS[prefix];
	if (rule && !rule.pattern.test(national)) {
		return fail(`does not have the shape of a ${prefix} VAT number`, `Expected something like ${rule.example}.`);
	}
	if (prefix === 'BE' && !isValidBelgianEnterpriseNumber(national)) {
		return fail(
			'is not a valid Belgian VAT number (mod-97 check failed)',
			'Check the digits against the Crossroads Bank for Enterprises (KBO/BCE); the last two digits are a check number.',
		);
	}
	return ok(`${prefix}${national}`);
}

/** IBAN: country code, check digits, per-country length and the ISO 7064 mod-97 checksum. Returned without spaces. */
export function checkIban(value: unknown): Check {
	const raw = text(value);
	if (!raw) return fail('is empty', 'Enter the IBAN, e.g. BE68 5390 0754 7034.');
	const iban = raw.replace(/[\s-]/g, '').toUpperCase();
	if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) {
		return fail(
			'is not a valid IBAN (expected a country code, two check digits and the account number)',
			'Enter the IBAN, e.g. BE68 5390 0754 7034; a local account number is not accepted.',
		);
	}
	const country = iban.slice(0, 2);
	if (!COUNTRY_CODES.has(country)) return fail(`is not a valid IBAN (unknown country "${country}")`, 'Check the first two letters of the IBAN.');
	const expected = IBAN_LENGTHS[country];
	if (expected !== undefined && iban.length !== expected) {
		return fail(`is not a valid IBAN (a ${country} IBAN has ${expected} characters, this has ${iban.length})`, 'Check for missing or extra digits.');
	}
	if (iban.length < 15 || iban.length > 34) return fail('is not a valid IBAN (wrong length)', 'An IBAN has 15 to 34 characters.');
	const rearranged = iban.slice(4) + iban.slice(0, 4);
	const digits = rearranged.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
	if (mod97(digits) !== 1) return fail('is not a valid IBAN (checksum failed)', 'Check for a typing error in the IBAN.');
	return ok(iban);
}

/** BIC/SWIFT: 4 letters bank, 2 letters country, 2 letters/digits location, optional 3 letters/digits branch. */
export function checkBic(value: unknown): Check {
	const raw = text(value);
	if (!raw) return fail('is empty', 'Enter the BIC, e.g. GEBABEBB.');
	const bic = raw.replace(/\s/g, '').toUpperCase();
	if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) {
		return fail('is not a valid BIC (expected 8 or 11 characters such as GEBABEBB)', 'Enter the BIC/SWIFT code of the bank, e.g. GEBABEBB or KREDBEBB.');
	}
	if (!COUNTRY_CODES.has(bic.slice(4, 6))) {
		return fail(`is not a valid BIC (characters 5-6 "${bic.slice(4, 6)}" are not a country code)`, 'Enter the BIC/SWIFT code of the bank, e.g. GEBABEBB.');
	}
	return ok(bic);
}

/** A practical e-mail syntax check (one @, dotted domain with a TLD, no spaces or double dots). */
export function checkEmail(value: unknown): Check {
	const email = text(value);
	const hint = 'Enter a real e-mail address, e.g. finance@example.com.';
	if (!email) return fail('is empty', hint);
	if (email.length > 254) return fail('is not a valid e-mail address (too long)', hint);
	const at = email.lastIndexOf('@');
	if (at <= 0 || email.indexOf('@') !== at) return fail('is not a valid e-mail address (it needs exactly one @)', hint);
	const local = email.slice(0, at);
	const domain = email.slice(at + 1);
	if (local.length > 64 || !/^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+$/.test(local) || /^\.|\.$|\.\./.test(local)) {
		return fail('is not a valid e-mail address (the part before @ is not valid)', hint);
	}
	if (!/^([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/.test(domain)) {
		return fail('is not a valid e-mail address (the domain is not valid)', hint);
	}
	return ok(email);
}

/**
 * International phone number: optional spaces, dots, dashes, slashes and brackets; a leading 00
 * counts as +. Returned as + followed by 8 to 15 digits.
 */
export function checkPhone(value: unknown): Check {
	const raw = text(value);
	const hint = 'Use the international format with country code, e.g. +32 470 12 34 56.';
	if (!raw) return fail('is empty', hint);
	if (/[^\d+\s().\-/]/.test(raw)) return fail('is not a phone number (only digits, spaces and + allowed)', hint);
	let compact = raw.replace(/[\s().\-/]/g, '');
	if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
	if (!compact.startsWith('+')) return fail('is not in international format (it must start with + or 00 and the country code)', hint);
	if (!/^\+[1-9]\d{7,14}$/.test(compact)) {
		return fail('is not a valid international phone number (expected + and 8 to 15 digits)', hint);
	}
	return ok(compact);
}

/** InvoiceAddress or DeliveryAddress, case-insensitive; returned in the API's spelling. */
export function checkAddressType(value: unknown): Check {
	const raw = text(value);
	const match = ADDRESS_TYPES.find((type) => type.toLowerCase() === raw.replace(/\s/g, '').toLowerCase());
	if (!match) return fail(`is not an address type (allowed: ${ADDRESS_TYPES.join(', ')})`, 'Use InvoiceAddress or DeliveryAddress.');
	return ok(match);
}

/** A positive whole number given as number or text (RegistrationID, IntegrationID). */
export function checkNumericId(value: unknown, what: string): Check {
	const raw = typeof value === 'number' ? String(value) : text(value).replace(/^#/, '');
	if (!raw) return fail('is empty', `Select or enter the ${what}.`);
	if (!/^\d+$/.test(raw) || /^0+$/.test(raw)) return fail(`is not a valid ${what} (a positive whole number)`, `Select the ${what} from the list, or enter its number, e.g. 123456.`);
	return ok(raw.replace(/^0+/, ''));
}

/** Non-empty text, at most `max` characters. */
export function checkText(value: unknown, max = 255): Check {
	const raw = text(value);
	if (!raw) return fail('is empty', 'Enter a value.');
	if (raw.length > max) return fail(`is too long (at most ${max} characters)`, 'Shorten the value.');
	return ok(raw);
}
