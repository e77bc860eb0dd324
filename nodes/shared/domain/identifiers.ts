/**
 * Peppol participant identifiers and VAT numbers: scheme codes, the three lookup forms
 * (docs/api.md "Peppol lookup and identifiers") and the checks that run before any request.
 * This is the one identifier check: Peppol Lookup, the order's customer VAT number, the
 * registration's TaxIdentifier and Identifiers all read it, so one value gets one verdict
 * and one message everywhere. Pure; no n8n imports.
 */
/** ISO 3166-1 alpha-2 (all officially assigned codes) plus XK, which banks and tax offices use for Kosovo. */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
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

export interface PeppolScheme {
	/** ISO 6523 ICD code, the part before the colon. */
	code: string;
	/** Short Peppol scheme ID, e.g. BE:VAT. */
	id: string;
	/** Readable name for pickers and messages. */
	name: string;
}

/** The Peppol code list's participant identifier schemes as "code id name"; the VAT schemes follow as "prefix code country". */
const SCHEMES = `0002 FR:SIRENE France – SIREN number; 0007 SE:ORGNR Sweden – organisation number; 0009 FR:SIRET France – SIRET number;
	0060 DUNS International – D-U-N-S number; 0088 GLN International – GLN (Global Location Number); 0096 DK:P Denmark – P-number;
	0097 IT:FTI Italy – FTI Ediforum; 0106 NL:KVK Netherlands – KvK (Chamber of Commerce) number; 0130 EU:NAL EU – European Commission directorates;
	0135 IT:SIA Italy – SIA object identifier; 0142 IT:SECETI Italy – SECETI object identifier; 0147 JP:SCC Japan – Standard Company Code;
	0151 AU:ABN Australia – ABN (Australian Business Number); 0158 SK:ICO Slovakia – IČO; 0170 JP:TCC Japan – Teikoku Company Code;
	0183 CH:UIDB Switzerland – UID business number; 0184 DK:DIGST Denmark – CVR number; 0188 JP:SST Japan – Corporate Number;
	0190 NL:OINO Netherlands – OIN (government organisation number); 0191 EE:CC Estonia – company code; 0192 NO:ORG Norway – organisation number;
	0193 UBLBE Belgium – UBL.BE party identifier; 0195 SG:UEN Singapore – UEN; 0196 IS:KTNR Iceland – kennitala; 0198 DK:ERST Denmark – SE number;
	0199 LEI International – LEI (Legal Entity Identifier); 0200 LT:LEC Lithuania – legal entity code; 0201 IT:CUUO Italy – IPA office code;
	0204 DE:LWID Germany – Leitweg-ID; 0205 IT:COD Italy – CODDEST; 0208 BE:EN Belgium – enterprise (company) number;
	0209 GS1 International – GS1 identification key; 0210 IT:CFI Italy – codice fiscale; 0211 IT:IVA Italy – partita IVA;
	0216 FI:OVT2 Finland – OVT code; 0218 LV:URN Latvia – unified registration number; 0221 JP:IIN Japan – qualified invoice issuer number;
	0225 FR:CTC France – CTC electronic address; 0230 MY:EIF Malaysia – e-invoicing framework ID; 0235 AE:TIN United Arab Emirates – TIN;
	0240 LU:MAT Luxembourg – register of legal persons; 0242 SPIS International – Peppol service provider ID; 0244 NG:TID Nigeria – tax ID;
	0245 SK:DIC Slovakia – DIČ tax number; 0246 DE:GEBA Germany – electronic business address; 0248 OM:VAT Oman – VAT number;
	9906 IT:VAT Italy – VAT number (old scheme); 9913 EU:REID EU – business registers network; 9915 AT:GOV Austria – government organisation code;
	9918 IBAN International – IBAN; 9919 AT:KUR Austria – company register number; 9959 US:EIN United States – EIN`;
const VAT_SCHEMES = `NO 9909 Norway; HU 9910 Hungary; AT 9914 Austria; ES 9920 Spain; AD 9922 Andorra; AL 9923 Albania; BA 9924 Bosnia and Herzegovina; BE 9925 Belgium;
	BG 9926 Bulgaria; CH 9927 Switzerland; CY 9928 Cyprus; CZ 9929 Czechia; DE 9930 Germany; EE 9931 Estonia; GB 9932 United Kingdom; GR 9933 Greece;
	HR 9934 Croatia; IE 9935 Ireland; LI 9936 Liechtenstein; LT 9937 Lithuania; LU 9938 Luxembourg; LV 9939 Latvia; MC 9940 Monaco; ME 9941 Montenegro;
	MK 9942 North Macedonia; MT 9943 Malta; NL 9944 Netherlands; PL 9945 Poland; PT 9946 Portugal; RO 9947 Romania; RS 9948 Serbia; SI 9949 Slovenia;
	SK 9950 Slovakia; SM 9951 San Marino; TR 9952 Türkiye; VA 9953 Vatican City; SE 9955 Sweden; FR 9957 France`;

/** Entries of a "a; b; c" table, each split into its first two words and the rest. */
function rows(table: string): Array<[string, string, string]> {
	return table.split(/;\s*/).map((row) => {
		const [first, second, ...rest] = row.trim().split(' ');
		return [first, second, rest.join(' ')];
	});
}

/** Known Peppol participant identifier schemes (Peppol code list), readable names. */
export const PEPPOL_SCHEMES: readonly PeppolScheme[] = [
	...rows(SCHEMES).map(([code, id, name]) => ({ code, id, name })),
	...rows(VAT_SCHEMES).map(([country, code, name]) => ({ code, id: `${country}:VAT`, name: `${name} – VAT number` })),
];

/** The schemes docs/api.md "Peppol lookup and identifiers" names: offered first in pickers. */
export const COMMON_SCHEME_CODES = '9925 0208 9944 0106 0190 9930 0204 0088 0007 9955 0009 0002 9957 0192 0060 0199 9938 9914 9906'.split(' ');

/** Withdrawn scheme codes and the code that replaced them. */
const WITHDRAWN_SCHEMES: Readonly<Record<string, string>> = { '9956': '0208', '9958': '0204', '9954': '0190', '9902': '0184', '9908': '0192', '9907': '0210' };

/** VAT country prefix → the Peppol VAT scheme the lookup resolves it to (Greece's EL and GR both 9933). */
export const VAT_PREFIX_SCHEMES: Readonly<Record<string, string>> = {
	EL: '9933',
	...Object.fromEntries(PEPPOL_SCHEMES.filter((s) => /^99/.test(s.code) && /^[A-Z]{2}:VAT$/.test(s.id)).map((s) => [s.id.slice(0, 2), s.code])),
};

const MAX_IDENTIFIER_VALUE_LENGTH = 130;

const SCHEMES_BY_CODE: ReadonlyMap<string, PeppolScheme> = new Map(PEPPOL_SCHEMES.map((s) => [s.code, s]));

export function findScheme(code: string): PeppolScheme | undefined {
	return SCHEMES_BY_CODE.get(code);
}

export function isKnownSchemeCode(code: string): boolean {
	return SCHEMES_BY_CODE.has(code);
}

/** "9925 (Belgium – VAT number)", or the bare code when unknown. */
export function describeScheme(code: string): string {
	const scheme = findScheme(code);
	return scheme ? `${code} (${scheme.name})` : code;
}

/** Check digits of a Belgian enterprise number: 97 - (first 8 digits mod 97). */
export function belgianCheckDigits(firstEightDigits: string): number {
	return 97 - (Number(firstEightDigits) % 97);
}

/** "0403.170.701", "403 170 701" or "BE0403170701" as 10 digits (an old 9-digit number takes a leading 0); undefined for others. */
export function compactBelgianEnterpriseNumber(value: string): string | undefined {
	const compact = String(value).replace(/[\s.\-/]/g, '');
	const digits = compact.replace(/^BE/i, '');
	return /^\d{9,10}$/.test(digits) ? digits.padStart(10, '0') : undefined;
}

/** 10 digits (or 9 old-style), first digit 0 or 1, last two digits = 97 - (first eight mod 97). */
export function isValidBelgianEnterpriseNumber(value: string): boolean {
	const digits = compactBelgianEnterpriseNumber(value);
	if (!digits || !/^[01]/.test(digits)) return false;
	return belgianCheckDigits(digits.slice(0, 8)) === Number(digits.slice(8));
}

/** GS1 check digit for the digits before it (weights 3,1,3,... from the right). */
export function gs1CheckDigit(digitsWithoutCheck: string): number {
	let sum = 0;
	for (let i = digitsWithoutCheck.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) sum += Number(digitsWithoutCheck[i]) * weight;
	return (10 - (sum % 10)) % 10;
}

/** Whether a GS1 key (GLN, GTIN-8/12/13/14, SSCC) ends with its correct check digit. */
export function gs1CheckDigitValid(digits: string): boolean {
	if (!/^\d{8,18}$/.test(digits)) return false;
	return gs1CheckDigit(digits.slice(0, -1)) === Number(digits[digits.length - 1]);
}

/** A GLN: 13 digits with a valid GS1 check digit. */
export function isValidGln(value: string): boolean {
	return /^\d{13}$/.test(value) && gs1CheckDigitValid(value);
}

/** ISO 17442 LEI: 18 alphanumerics + 2 check digits, ISO 7064 mod 97-10 remainder 1. */
export function isValidLei(value: string): boolean {
	const lei = String(value).toUpperCase();
	if (!/^[A-Z0-9]{18}\d{2}$/.test(lei)) return false;
	let remainder = 0;
	for (const char of lei) {
		const n = parseInt(char, 36);
		remainder = n > 9 ? (remainder * 100 + n) % 97 : (remainder * 10 + n) % 97;
	}
	return remainder === 1;
}

/** Two letters then something with digits: a VAT number, not a GLN or company number. */
export function looksLikeVatNumber(value: string): boolean {
	const compact = String(value).replace(/[\s.-]/g, '');
	return /^[A-Za-z]{2}[A-Za-z0-9+*]{2,13}$/.test(compact) && /\d/.test(compact);
}

export type IdentifierForm = 'vat' | 'enterprise' | 'scheme';

export interface ParsedIdentifier {
	ok: true;
	form: IdentifierForm;
	/** Scheme the identifier belongs to (derived for the VAT and bare forms). */
	scheme: string;
	/** Normalised value (what follows the scheme for the scheme form). */
	value: string;
	/** The normalised identifier, in the form given, as sent in the lookup path. */
	lookup: string;
	/** Upper-cased lookup: Peppol compares identifiers case-insensitively. */
	key: string;
}

export interface IdentifierProblem {
	ok: false;
	/** Words that follow the field and value, e.g. "is not a valid GLN (...)". */
	problem: string;
	hint: string;
	/** Whether the scheme code (rather than the value) is wrong. */
	inScheme?: boolean;
}

export type IdentifierCheck = ParsedIdentifier | IdentifierProblem;

type ValueCheck = { ok: true; value: string } | IdentifierProblem;

const FORMS_HINT =
	'Use a VAT number with country prefix (BE0123456749), a Belgian company number (0123.456.749) or <scheme>:<identifier> (0088:5400000000010).';

function problem(text: string, hint: string = FORMS_HINT): IdentifierProblem {
	return { ok: false, problem: text, hint };
}

function nonAsciiProblem(value: string): IdentifierProblem | undefined {
	const bad = /[^\x21-\x7e]/u.exec(value);
	if (!bad) return undefined;
	const char = bad[0];
	const codePoint = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
	const shown = /[\p{L}\p{N}\p{P}\p{S}]/u.test(char) ? `"${char}" (${codePoint})` : codePoint;
	return problem(
		`contains the character ${shown}, which is not allowed (only printable ASCII)`,
		'Retype it without accents, special spaces or look-alike letters.',
	);
}

function checkBelgianEnterprise(raw: string, vatPrefix: boolean): ValueCheck {
	const digits = compactBelgianEnterpriseNumber(raw);
	const label = vatPrefix ? 'Belgian VAT number' : 'Belgian enterprise number';
	const example = vatPrefix ? 'BE0123456749' : '0123456749 or 0123.456.749';
	if (!digits) return problem(`is not a ${label} (expected ${vatPrefix ? 'BE + ' : ''}10 digits)`, `A ${label} looks like ${example}.`);
	if (!/^[01]/.test(digits)) return problem(`is not a ${label} (the 10 digits must start with 0 or 1)`, `A ${label} looks like ${example}.`);
	if (!isValidBelgianEnterpriseNumber(digits)) {
		return problem(
			`is not a valid ${label} (mod-97 check digits ${digits.slice(8)} do not match ${String(belgianCheckDigits(digits.slice(0, 8))).padStart(2, '0')})`,
			'Check the number for typos (KBO/BCE).',
		);
	}
	return { ok: true, value: vatPrefix ? `BE${digits}` : digits };
}

/** A scheme's value without spaces (`compact`) and, since dots only group digits, without dots (`digits`). */
interface SchemeValue {
	compact: string;
	digits: string;
}

type SchemeValidator = (value: SchemeValue) => ValueCheck;

/** VAT prefixes that are not ISO country codes: Greece (EL) and Northern Ireland (XI). */
const EXTRA_VAT_PREFIXES = new Set(['EL', 'XI']);

interface VatRule {
	/** The national part after the prefix. */
	pattern: RegExp;
	example: string;
	/** For BE, DE and NL, the commonest prefixes: "is not a <label> (expected <prefix> + <shape>)". */
	label?: string;
	shape?: string;
}

/** National part of EU (and neighbouring) VAT numbers as "prefix pattern example"; Belgium also mod 97; others: generic shape. */
const VAT_SHAPES = String.raw`AT U\d{8} ATU12345678; BE [01]\d{9} BE0123456749; BG \d{9,10} BG123456789; CY \d{8}[A-Z] CY12345678X; CZ \d{8,10} CZ12345678;
	DE \d{9} DE123456789; DK \d{8} DK12345678; EE \d{9} EE123456789; EL \d{9} EL123456789; ES [0-9A-Z]\d{7}[0-9A-Z] ESX1234567X; FI \d{8} FI12345678;
	FR [0-9A-Z]{2}\d{9} FR12345678901; HR \d{11} HR12345678901; HU \d{8} HU12345678; IE \d[0-9A-Z+*]\d{5}[A-Z]{1,2} IE1234567T; IT \d{11} IT12345678901;
	LT \d{9}|\d{12} LT123456789; LU \d{8} LU12345678; LV \d{11} LV12345678901; MT \d{8} MT12345678; NL \d{9}B\d{2} NL123456789B01; PL \d{10} PL1234567890;
	PT \d{9} PT123456789; RO \d{2,10} RO1234567890; SE \d{10}01 SE123456789001; SI \d{8} SI12345678; SK \d{10} SK1234567890;
	XI \d{9}|\d{12}|GD\d{3}|HA\d{3} XI123456789`;
const VAT_LABELS: Readonly<Record<string, Partial<VatRule>>> = {
	BE: { label: 'Belgian VAT number', shape: '10 digits' },
	DE: { label: 'German VAT number', shape: '9 digits' },
	NL: { label: 'Dutch VAT number', shape: '9 digits + B + 2 digits' },
};
const VAT_RULES: Readonly<Record<string, VatRule>> = Object.fromEntries(
	rows(VAT_SHAPES).map(([country, pattern, example]) => [country, { pattern: new RegExp(`^(?:${pattern})$`), example, ...VAT_LABELS[country] }]),
);

const VAT_HINT = 'Start the VAT number with its two-letter country prefix, e.g. BE0123456749 or NL123456789B01.';
const NOT_A_VAT_NUMBER = 'is not a VAT number (expected a country prefix and 2 to 13 letters or digits)';

/** "an object", "a list", "a boolean" for a value that is not text or a number; undefined otherwise. */
export function nonTextKind(value: unknown): string | undefined {
	if (value === undefined || value === null || typeof value === 'string' || typeof value === 'number') return undefined;
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function checkNationalVat(country: string, national: string): ValueCheck {
	if (country === 'BE') return checkBelgianEnterprise(national, true);
	const rule = VAT_RULES[country];
	if (rule && !rule.pattern.test(national)) {
		return rule.label
			? problem(`is not a ${rule.label} (expected ${country} + ${rule.shape})`, `Expected something like ${rule.example}.`)
			: problem(`does not have the shape of a ${country} VAT number`, `Expected something like ${rule.example}.`);
	}
	return { ok: true, value: `${country}${national}` };
}

/** The one VAT number check: prefix and national number in its country's shape (Belgian mod 97); separators removed, upper-cased. */
export function checkVatNumber(input: unknown): ValueCheck {
	const kind = nonTextKind(input);
	if (kind) return problem(`is ${kind}, not a VAT number`, 'Map the field to a single text value, e.g. {{ $json.vatNumber }}.');
	const text = input === undefined || input === null ? '' : String(input).trim();
	if (!text) return problem('is empty', VAT_HINT);
	const nonAscii = nonAsciiProblem(text.replace(/\s/g, ''));
	if (nonAscii) return nonAscii;
	const compact = text.replace(/[\s.\-/]/g, '').toUpperCase();
	if (!/^[A-Z]{2}/.test(compact)) {
		return problem('has no country prefix', VAT_HINT);
	}
	if (!looksLikeVatNumber(compact)) return problem(NOT_A_VAT_NUMBER, VAT_HINT);
	const country = compact.slice(0, 2);
	if (!COUNTRY_CODES.has(country) && !EXTRA_VAT_PREFIXES.has(country)) {
		return problem(`does not start with a known country prefix ("${country}")`, 'Use the country prefix, e.g. BE or NL (Greece uses EL).');
	}
	if (country === 'GR') return problem('uses GR as prefix (Greek VAT numbers start with EL)', 'Replace GR with EL, e.g. EL123456789.');
	return checkNationalVat(country, compact.slice(2));
}

/** A Peppol VAT scheme's value: the one VAT check, the scheme's country prefix added when missing. */
function vatScheme(scheme: string, country: string): SchemeValidator {
	return ({ digits }) => {
		const upper = digits.toUpperCase();
		const prefix = /^[A-Z]{2}/.test(upper) ? upper.slice(0, 2) : undefined;
		if (prefix && prefix !== country && !(country === 'EL' && prefix === 'GR')) {
			const rule = VAT_RULES[country];
			return problem(
				`is not a ${rule?.label ?? `${country} VAT number`} (${scheme} takes ${country} + ${rule?.shape ?? 'the national number'})`,
				'Choose the VAT scheme of its country, or send the VAT number alone.',
			);
		}
		return checkVatNumber(prefix ? upper : `${country}${upper}`);
	};
}

/** A value of exactly `count` digits (dots and spaces removed). */
function fixedDigits(count: number, text: string, hint: string): SchemeValidator {
	const pattern = new RegExp(`^\\d{${count}}$`);
	return ({ digits }) => (pattern.test(digits) ? { ok: true, value: digits } : problem(text, hint));
}

/** Checks by scheme code: every VAT scheme (Greece's 9933 takes EL) and the others docs/api.md "Peppol lookup and identifiers" names. */
const SCHEME_VALIDATORS: Readonly<Record<string, SchemeValidator>> = {
	...Object.fromEntries(Object.entries(VAT_PREFIX_SCHEMES).flatMap(([country, scheme]) => (country === 'GR' ? [] : [[scheme, vatScheme(scheme, country)]]))),
	'0208': ({ digits }) => {
		if (/^[A-Z]{2}/i.test(digits) && !/^BE/i.test(digits)) {
			return problem('is not a Belgian enterprise number (0208 takes 10 digits)', 'For a VAT number choose the VAT scheme of its country.');
		}
		return checkBelgianEnterprise(digits, false);
	},
	'0088': ({ digits }) => {
		if (looksLikeVatNumber(digits)) {
			return problem(
				'is a VAT number, not a GLN: a GLN cannot be derived from a VAT number',
				'Get the GLN from the receiver, or look up the VAT number alone.',
			);
		}
		const gln = digits.replace(/-/g, '');
		if (!/^\d{13}$/.test(gln)) return problem('is not a GLN (expected 13 digits)', 'A GLN looks like 5400000000010.');
		if (!isValidGln(gln)) {
			return problem(`is not a valid GLN (the GS1 check digit should be ${gs1CheckDigit(gln.slice(0, 12))}, not ${gln[12]})`, 'Check the GLN for typos.');
		}
		return { ok: true, value: gln };
	},
	'0106': fixedDigits(8, 'is not a KvK number (expected 8 digits)', 'A KvK number looks like 12345678.'),
	'0190': fixedDigits(20, 'is not an OIN (expected 20 digits)', 'Enter the 20-digit OIN.'),
	'0199': ({ digits }) =>
		isValidLei(digits)
			? { ok: true, value: digits.toUpperCase() }
			: problem('is not a valid LEI (20 characters with ISO 17442 check digits)', 'A Legal Entity Identifier looks like 5493001KJTIIGC8Y1R12.'),
};

/** Schemes without their own check keep the value as typed (a VAT scheme without a country upper-cases it). */
function otherSchemeValue(scheme: string): SchemeValidator {
	return /^99\d\d$/.test(scheme) ? ({ digits }) => ({ ok: true, value: digits.toUpperCase() }) : ({ compact }) => ({ ok: true, value: compact });
}

/** Checks and normalises the value for a scheme; the scheme must be known. */
function checkSchemeValue(scheme: string, rawValue: string): ValueCheck {
	const trimmed = String(rawValue ?? '').trim();
	if (!trimmed) return problem(`has no value after the scheme ${scheme}`, `Enter ${scheme}:<identifier>.`);
	const compact = trimmed.replace(/\s/g, '');
	const nonAscii = nonAsciiProblem(compact);
	if (nonAscii) return nonAscii;
	const validate = SCHEME_VALIDATORS[scheme] ?? otherSchemeValue(scheme);
	const result = validate({ compact, digits: compact.replace(/\./g, '') });
	if (result.ok && result.value.length > MAX_IDENTIFIER_VALUE_LENGTH) {
		return problem(
			`is ${result.value.length} characters long after the scheme; Peppol allows at most ${MAX_IDENTIFIER_VALUE_LENGTH}`,
			'Map a single identifier.',
		);
	}
	return result;
}

/** Identifier type labels a registration may carry, and the scheme whose check applies to them. */
const TYPE_SCHEMES: Record<string, string> = { KBO: '0208', BCE: '0208', CBE: '0208', 'KBO-BCE': '0208', GLN: '0088', KVK: '0106', OIN: '0190', LEI: '0199' };

/**
 * An identifier's type picks its check: "VAT" the VAT check, a scheme code (0208), scheme ID (BE:EN) or label (KBO, GLN)
 * that scheme's; undefined when the type names nothing known (the value is then free text).
 */
export function checkTypedIdentifier(type: string, value: string): ValueCheck | undefined {
	const label = type.trim().toUpperCase();
	if (label === 'VAT' || label === 'TAXIDENTIFIER') return checkVatNumber(value);
	const scheme = TYPE_SCHEMES[label] ?? (isKnownSchemeCode(label) ? label : PEPPOL_SCHEMES.find((s) => s.id === label)?.code);
	return scheme ? checkSchemeValue(scheme, value) : undefined;
}

function schemeCodeProblem(code: string): IdentifierProblem | undefined {
	const wrong = (text: string, hint: string): IdentifierProblem => ({ ...problem(text, hint), inScheme: true });
	const use = 'Use a Peppol scheme code, e.g. 9925 (Belgian VAT), 0208 (Belgian company number), 0088 (GLN).';
	if (!code) return wrong('has no scheme code', use);
	if (!/^\d{4}$/.test(code)) return wrong(`has the scheme "${code}", but a Peppol scheme code is 4 digits`, use);
	const replacement = WITHDRAWN_SCHEMES[code];
	if (replacement) {
		return wrong(`uses the withdrawn scheme ${code}`, `Peppol replaced it with ${describeScheme(replacement)}; use ${replacement}:<identifier>.`);
	}
	return isKnownSchemeCode(code) ? undefined : wrong(`uses the unknown scheme code ${code}`, use);
}

/** The value checked for the scheme, as an identifier of the given form (the scheme form's lookup is `<scheme>:<value>`). */
function parseInScheme(form: IdentifierForm, scheme: string, raw: string): IdentifierCheck {
	const checked = checkSchemeValue(scheme, raw);
	if (!checked.ok) return checked;
	const lookup = form === 'scheme' ? `${scheme}:${checked.value}` : checked.value;
	return { ok: true, form, scheme, value: checked.value, lookup, key: lookup.toUpperCase() };
}

/** A scheme (picked) and a value (typed): always the `<scheme>:<value>` form. */
export function buildParticipantIdentifier(schemeCode: string, value: unknown): IdentifierCheck {
	const code = String(schemeCode ?? '').trim();
	const kind = nonTextKind(value);
	if (kind && !schemeCodeProblem(code)) return problem(`is ${kind}, not an identifier`, 'Map the field to a single text value, e.g. {{ $json.gln }}.');
	return schemeCodeProblem(code) ?? parseInScheme('scheme', code, String(value ?? ''));
}

/**
 * One identifier in any of the three forms of docs/api.md "Peppol lookup and identifiers" (VAT number, bare Belgian company
 * number, `<scheme>:<identifier>` without `iso6523-actorid-upis::`), normalised within its form.
 */
export function parseParticipantIdentifier(input: unknown): IdentifierCheck {
	if (input === undefined || input === null) return problem('is empty');
	const kind = nonTextKind(input);
	if (kind) return problem(`is ${kind}, not an identifier`, 'Map the field to a single text value, e.g. {{ $json.vatNumber }}.');
	const text = String(input)
		.replace(/^\s*iso6523-actorid-upis::/i, '')
		.trim();
	if (!text) return problem('is empty');
	const schemeForm = /^([^:]*?)\s*:\s*([\s\S]*)$/.exec(text);
	const code = schemeForm?.[1].trim() ?? '';
	if (schemeForm) return schemeCodeProblem(code) ?? parseInScheme('scheme', code, schemeForm[2]);

	const nonAscii = nonAsciiProblem(text.replace(/\s/g, ''));
	if (nonAscii) return nonAscii;
	const compact = text.replace(/[\s.-]/g, '');

	if (/^[A-Za-z]{2}/.test(compact)) {
		const country = compact.slice(0, 2).toUpperCase();
		if (!looksLikeVatNumber(compact)) return problem(NOT_A_VAT_NUMBER);
		const scheme = VAT_PREFIX_SCHEMES[country];
		if (!scheme) {
			return problem(
				`has the country prefix ${country}, for which no Peppol VAT scheme exists`,
				'Use <scheme>:<identifier> with a scheme of that country (e.g. 0184:<CVR> for Denmark).',
			);
		}
		return parseInScheme('vat', scheme, `${country}${compact.slice(2)}`);
	}

	if (/^\d+$/.test(compact)) {
		if (compact.length === 9 || compact.length === 10) return parseInScheme('enterprise', '0208', compact);
		if (compact.length === 13 && isValidGln(compact)) {
			return problem('looks like a GLN, but a bare number is read as a Belgian company number', `Enter it as 0088:${compact}.`);
		}
		return problem(`is a ${compact.length}-digit number, but a bare number must be a Belgian company number (10 digits)`);
	}
	return problem('is not a recognised Peppol identifier');
}
