/** Pure input checks (IBAN, BIC, e-mail, phone, ISO codes, IDs, numbers, text): the normalised value, or a problem and a hint. */

import { COUNTRY_CODES, nonTextKind } from './identifiers';
import { text } from './values';

export { checkVatNumber } from './identifiers';

/** A checked value: the normalised value, or what is wrong with it and how to fix it. */
export type Check<T = string> = { ok: true; value: T } | { ok: false; problem: string; hint: string };

/** What is wrong with one field of a form or a mapped object, for the message that names it. */
export interface FieldProblem {
	/** The field as the user sees it, e.g. "Invoice Address → City". */
	field: string;
	value?: unknown;
	/** Words that follow the field and value, e.g. "is not a valid IBAN (checksum failed)". */
	problem: string;
	hint: string;
}

const ok = (value: string): Check => ({ ok: true, value });
const fail = (problem: string, hint: string): Check<never> => ({ ok: false, problem, hint });

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

/** IBAN lengths per country (SWIFT IBAN registry) as country + length. Unlisted countries get the generic 15–34 check. */
const IBAN_LENGTHS: Record<string, number> = Object.fromEntries(
	`AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23
	GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18
	NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30`
		.split(/\s+/)
		.map((entry) => [entry.slice(0, 2), Number(entry.slice(2))]),
);

const ADDRESS_TYPES = ['InvoiceAddress', 'DeliveryAddress'] as const;

/** JSON of an object for messages; one nested too deep (or cyclic) to write is described instead. */
function jsonText(value: object): string {
	try {
		return JSON.stringify(value) ?? '';
	} catch {
		return Array.isArray(value) ? '(a list)' : '(an object)';
	}
}

/** Text of a value for messages: trimmed, shortened, never "[object Object]". */
export function showValue(value: unknown): string {
	if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return '(empty)';
	const text = typeof value === 'object' ? jsonText(value) : String(value);
	// Control characters are shown escaped: a line break in a value must not break the message.
	const escape = (c: string) => ((c < ' ' && c !== '\t') || c === '\u007f' ? JSON.stringify(c).slice(1, -1) : c);
	const trimmed = Array.from(text.trimStart().slice(0, 200), escape).join('').trim();
	if (!trimmed) return '(empty)';
	return trimmed.length > 60 ? `${trimmed.slice(0, 60)}…` : trimmed;
}

/**
 * The one wording for input errors: `Item 1: "IBAN" BE12 3456 is not a valid IBAN (checksum failed)`, items numbered from 0 as
 * n8n's "[item 1]"; no item prefix without an item (a poll); a problem starting with ":" follows the field directly.
 */
export function fieldMessage(itemIndex: number | undefined, field: string, value: unknown, problem: string): string {
	const shown = showValue(value);
	const separator = problem.startsWith(':') ? '' : ' ';
	return itemMessage(itemIndex, `"${field}"${shown === '(empty)' ? '' : ` ${shown}`}${separator}${problem}`);
}

/** A message about one item that names no single field (e.g. "order 12 has no PDF file"). */
export function itemMessage(itemIndex: number | undefined, text: string): string {
	return itemIndex === undefined ? text : `Item ${itemIndex}: ${text}`;
}

/** An object, a list or a boolean where text is expected: an error, never sent as "[object Object]". */
function notText(value: unknown): Check<never> | undefined {
	const kind = nonTextKind(value);
	if (!kind) return undefined;
	return fail(`is ${kind}, not text`, 'Map a single text value, e.g. {{ $json.name }}.');
}

/** A check of text: an object, a list or a boolean is refused first; `raw` is the trimmed text. */
function onText(check: (raw: string) => Check): (value: unknown) => Check {
	return (value) => notText(value) ?? check(text(value));
}

/** Remainder of a long digit string modulo 97, computed in chunks to stay within safe integers. */
export function mod97(digits: string): number {
	let remainder = 0;
	for (let i = 0; i < digits.length; i += 7) remainder = Number(`${remainder}${digits.slice(i, i + 7)}`) % 97;
	return remainder;
}

/** Two-letter ISO 3166-1 country code; returned upper-case. */
export const checkCountryCode = onText((raw) => {
	const code = raw.toUpperCase();
	if (!code) return fail('is empty', 'Enter a country code, e.g. BE.');
	if (!COUNTRY_CODES.has(code)) {
		return fail('is not an ISO 3166-1 country code', 'Use the ISO 3166-1 alpha-2 code, e.g. BE (Greece is GR, the UK GB).');
	}
	return ok(code);
});

/** Two-letter ISO 639-1 language code; returned upper-case, as the API's samples write it. */
export const checkLanguageCode = onText((raw) => {
	const code = raw.toLowerCase();
	const hint = 'Use the ISO 639-1 code, e.g. NL or FR (not "nl-BE" or "Dutch").';
	if (!code) return fail('is empty', hint);
	if (!LANGUAGE_CODES.has(code)) return fail('is not an ISO 639-1 language code', hint);
	return ok(code.toUpperCase());
});

/** IBAN: country code, check digits, per-country length and the ISO 7064 mod-97 checksum. Returned without spaces. */
export const checkIban = onText((raw) => {
	const hint = 'Enter the IBAN, e.g. BE68 5390 0754 7034, not a local account number.';
	if (!raw) return fail('is empty', hint);
	const iban = raw.replace(/[\s-]/g, '').toUpperCase();
	if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) {
		return fail('is not a valid IBAN (expected country code, check digits, account number)', hint);
	}
	const country = iban.slice(0, 2);
	if (!COUNTRY_CODES.has(country)) return fail(`is not a valid IBAN (unknown country "${country}")`, hint);
	const expected = IBAN_LENGTHS[country];
	if (expected !== undefined && iban.length !== expected) {
		return fail(`is not a valid IBAN (a ${country} IBAN has ${expected} characters, this has ${iban.length})`, 'Check for missing or extra digits.');
	}
	if (iban.length < 15 || iban.length > 34) return fail('is not a valid IBAN (wrong length)', 'Check for missing or extra digits.');
	const rearranged = iban.slice(4) + iban.slice(0, 4);
	const digits = rearranged.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
	if (mod97(digits) !== 1) return fail('is not a valid IBAN (checksum failed)', 'Check the IBAN for typos.');
	return ok(iban);
});

/** BIC/SWIFT: 4 letters bank, 2 letters country, 2 letters/digits location, optional 3 letters/digits branch. */
export const checkBic = onText((raw) => {
	const hint = "Enter the bank's BIC/SWIFT code, e.g. GEBABEBB.";
	if (!raw) return fail('is empty', hint);
	const bic = raw.replace(/\s/g, '').toUpperCase();
	if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) return fail('is not a valid BIC (expected 8 or 11 characters)', hint);
	if (!COUNTRY_CODES.has(bic.slice(4, 6))) return fail(`is not a valid BIC (characters 5-6 "${bic.slice(4, 6)}" are not a country code)`, hint);
	return ok(bic);
});

/** A practical e-mail syntax check (one @, dotted domain with a TLD, no spaces or double dots). */
export const checkEmail = onText((email) => {
	const hint = 'Enter an e-mail address, e.g. finance@example.com.';
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
});

/** International phone number (spaces, dots, dashes, slashes, brackets; 00 counts as +), returned as + and 8 to 15 digits. */
export const checkPhone = onText((raw) => {
	const hint = 'Use the international format with country code, e.g. +32 470 12 34 56.';
	if (!raw) return fail('is empty', hint);
	if (/[^\d+\s().\-/]/.test(raw)) return fail('is not a phone number (only digits, spaces and + allowed)', hint);
	let compact = raw.replace(/[\s().\-/]/g, '');
	if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
	if (!compact.startsWith('+')) return fail('is not in international format (+ or 00 and the country code)', hint);
	if (!/^\+[1-9]\d{7,14}$/.test(compact)) return fail('is not a valid international phone number (expected + and 8 to 15 digits)', hint);
	return ok(compact);
});

/** InvoiceAddress or DeliveryAddress, case-insensitive; returned in the API's spelling. */
export const checkAddressType = onText((raw) => {
	const match = ADDRESS_TYPES.find((type) => type.toLowerCase() === raw.replace(/\s/g, '').toLowerCase());
	if (!match) return fail(`is not an address type (allowed: ${ADDRESS_TYPES.join(', ')})`, 'Use one of them.');
	return ok(match);
});

/** A positive whole number given as number or text (RegistrationID, IntegrationID), carried exactly (at most 2^53 - 1). */
export function checkNumericId(value: unknown, what: string): Check {
	const kind = nonTextKind(value);
	if (kind) return fail(`is ${kind}, not a ${what}`, `Enter the ${what} or map its number, e.g. {{ $json.${what} }}.`);
	const raw = typeof value === 'number' ? String(value) : text(value).replace(/^#/, '');
	if (!raw) return fail('is empty', `Enter the ${what} or map it, e.g. {{ $json.${what} }}.`);
	if (!/^\d+$/.test(raw) || /^0+$/.test(raw))
		return fail(`is not a valid ${what} (a positive whole number)`, `Enter the ${what} (digits only) or map it, e.g. {{ $json.${what} }}.`);
	// Beyond 2^53 a number is rounded (…993 becomes …992, another record): refused, never rounded.
	if (!Number.isSafeInteger(Number(raw)))
		return fail(`is larger than any ${what} (at most ${Number.MAX_SAFE_INTEGER})`, `Check the ${what}: it would be rounded.`);
	return ok(raw.replace(/^0+/, ''));
}

/** Non-empty text, at most `max` characters. */
export function checkText(value: unknown, max = 255): Check {
	const wrong = notText(value);
	if (wrong) return wrong;
	const raw = text(value);
	if (!raw) return fail('is empty', 'Enter a value.');
	if (raw.length > max) return fail(`is too long (${raw.length} characters; at most ${max})`, 'Shorten it.');
	return ok(raw);
}

/** Non-empty text on one line: a control character is refused, never stripped, as it would split a header or a filter. */
export function checkLine(value: unknown, max = 255): Check {
	const checked = checkText(value, max);
	if (checked.ok && /\p{Cc}|[\u2028\u2029]/u.test(String(value))) return fail('contains a line break or another control character', 'Enter it on one line.');
	return checked;
}

/** Optional text: empty gives '', otherwise as checkText (as checkLine when `line`). */
export function checkOptionalText(value: unknown, max = 255, line = false): Check {
	const wrong = notText(value);
	if (wrong) return wrong;
	return text(value) ? (line ? checkLine : checkText)(value, max) : ok('');
}

/** The range of a number parameter; `unit` follows the range in messages (" seconds"). */
export interface NumberRange {
	min: number;
	/** None: any number from `min` up. */
	max?: number;
	whole?: boolean;
	unit?: string;
}

/** A number parameter within its range. Text ("5") is refused, not converted: in a number field it means a mapping went wrong. */
export function checkNumber(value: unknown, range: NumberRange): Check<number> {
	const inRange =
		typeof value === 'number' && Number.isFinite(value) && value >= range.min && value <= (range.max ?? Infinity) && (!range.whole || Number.isInteger(value));
	if (inRange) return { ok: true, value };
	const what = range.whole ? 'a whole number' : 'a number';
	const span = range.max === undefined ? `of ${range.min} or more` : `from ${range.min} to ${range.max}`;
	const asText = typeof value === 'string' ? ' (not text: map it with Number(...))' : '';
	return fail(`is not ${what} ${span}${range.unit ?? ''}`, `Enter ${what} ${span}${range.unit ?? ''}${asText}.`);
}

/** A switch: true or false, also as the text "true" or "false" an expression may return. */
export function checkBoolean(value: unknown): Check<boolean> {
	if (typeof value === 'boolean') return { ok: true, value };
	const word = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (word === 'true' || word === 'false') return { ok: true, value: word === 'true' };
	return fail('is not true or false', 'Switch it on or off.');
}

/** One of the values an options parameter offers (an expression can return anything). */
export function checkChoice(value: unknown, allowed: readonly string[]): Check {
	if (typeof value === 'string' && allowed.includes(value)) return ok(value);
	return fail(`is not one of ${allowed.join(', ')}`, 'Choose one of them.');
}

/** A PartyID for the partyID header: a line break is refused, not stripped, as it would act for another party or split the header. */
export function checkPartyId(value: unknown): Check {
	const wrong = notText(value);
	if (wrong) return wrong;
	const given = value === undefined || value === null ? '' : String(value);
	const hint = "Enter the PartyID to act for, e.g. 300001, or leave it empty for the credential's.";
	// Checked before trimming: a trailing line break is refused too, not quietly dropped.
	if (/[^\x20-\x7e]/.test(given)) return fail('contains a line break or another control or non-ASCII character', hint);
	const raw = given.trim();
	if (raw.length > 100) return fail(`is too long (${raw.length} characters; at most 100)`, hint);
	return ok(raw);
}

/** How deep mapped JSON may nest: an order is 4 levels deep; anything near this is a mistake. */
const MAX_JSON_DEPTH = 32;

/** Mapped JSON nested at most MAX_JSON_DEPTH levels, walked without recursion: 10,000 deep is named here, not a stack overflow later. */
export function checkJsonDepth(value: unknown, maxDepth = MAX_JSON_DEPTH): Check<unknown> {
	const stack: Array<[unknown, number]> = [[value, 1]];
	// An object met twice (shared, or a cycle) is walked once.
	const seen = new Set<object>();
	const hint = 'Map the object the API expects, not a whole document.';
	while (stack.length) {
		const [node, depth] = stack.pop() as [unknown, number];
		if (!node || typeof node !== 'object' || seen.has(node)) continue;
		seen.add(node);
		if (depth > maxDepth) return fail(`is nested more than ${maxDepth} levels deep`, hint);
		for (const child of Object.values(node as Record<string, unknown>)) stack.push([child, depth + 1]);
	}
	return { ok: true, value };
}

const hintProperty = 'Enter a name such as data or pdf: letters, digits, "_" and "-".';

/** A binary field name (letters, digits, "_" and "-"); File › Get, Send UBL Document and the Peppol inbox. */
export function checkPropertyName(value: unknown): Check {
	if (typeof value !== 'string' || !value.trim()) return fail('is empty', hintProperty);
	const name = value.trim();
	if (name in {} || name === 'prototype') return fail('is a name JavaScript reserves, not a binary field name', hintProperty);
	return /^[A-Za-z0-9_-]{1,100}$/.test(name) ? ok(name) : fail('is not a binary field name', hintProperty);
}
