import {
	belgianCheckDigits,
	buildParticipantIdentifier,
	checkVatNumber,
	COMMON_SCHEME_CODES,
	compactBelgianEnterpriseNumber,
	describeScheme,
	gs1CheckDigit,
	gs1CheckDigitValid,
	isKnownSchemeCode,
	isValidBelgianEnterpriseNumber,
	isValidGln,
	isValidLei,
	looksLikeVatNumber,
	parseParticipantIdentifier,
	PEPPOL_SCHEMES,
	VAT_PREFIX_SCHEMES,
} from '../../nodes/shared/domain/identifiers';

describe('Belgian enterprise number (mod 97)', () => {
	// Published numbers from the Crossroads Bank for Enterprises (KBO/BCE).
	it.each(['0403.170.701', '0202.239.951', '0417.497.106', '0403.199.702', '0403.053.608', '0403170701'])('accepts %s', (number) =>
		expect(isValidBelgianEnterpriseNumber(number)).toBe(true),
	);
	it('accepts old 9-digit numbers by adding the leading 0', () => {
		expect(compactBelgianEnterpriseNumber('403.170.701')).toBe('0403170701');
		expect(isValidBelgianEnterpriseNumber('403170701')).toBe(true);
		expect(isValidBelgianEnterpriseNumber('202 239 951')).toBe(true);
	});
	it.each([
		['0403.170.702', 'last digit changed'],
		['0403.710.701', 'digits swapped'],
		['0202.239.915', 'check digits swapped'],
		['2403170743', 'mod 97 holds but the first digit is 2'],
		['0000000000', 'check digits 00 never occur'],
		['040317070', 'nine digits that are not an old number'],
		['04031707011', 'eleven digits'],
		['', 'empty'],
		['BE0403170701X', 'trailing letter'],
	])('rejects %s (%s)', (number) => expect(isValidBelgianEnterpriseNumber(number)).toBe(false));
	it('computes the check digits as 97 - (first eight mod 97)', () => {
		expect(belgianCheckDigits('04031707')).toBe(1);
		expect(belgianCheckDigits('02022399')).toBe(51);
		expect(belgianCheckDigits('00000000')).toBe(97);
	});
});

describe('Belgian VAT number (the one VAT check)', () => {
	it.each(['BE0403170701', 'BE 0403.170.701', 'be0202239951', 'BE403170701'])('accepts %s', (vat) => expect(checkVatNumber(vat).ok).toBe(true));
	it.each(['BE0403170702', 'NL0403170701', '0403170701', 'BE 0403.170.70'])('rejects %s', (vat) => expect(checkVatNumber(vat).ok).toBe(false));
});

describe('Dutch VAT number (the one VAT check)', () => {
	it.each(['NL123456789B01', 'NL000099998B57', 'nl 123456789 b01'])('accepts %s', (vat) => expect(checkVatNumber(vat).ok).toBe(true));
	it.each(['NL123456789B1', 'NL12345678B01', 'NL123456789X01', 'NL1234567890B01', 'BE123456789B01'])('rejects %s', (vat) =>
		expect(checkVatNumber(vat).ok).toBe(false),
	);
});

describe('GS1 check digit', () => {
	// GS1's own examples and well-known barcodes.
	it.each([
		['4006381333931', 'EAN-13 from GS1 / Wikipedia'],
		['5901234123457', 'EAN-13 sample'],
		['9501101530003', 'GS1 sample GTIN'],
		['0614141000012', 'GS1 US sample GLN'],
		['96385074', 'GTIN-8'],
		['012345678905', 'UPC-A / GTIN-12'],
		['00012345600012', 'GTIN-14'],
		['5400000000010', 'emulator seed GLN'],
	])('accepts %s (%s)', (digits) => expect(gs1CheckDigitValid(digits)).toBe(true));
	it.each(['4006381333932', '4006381333913', '5901234123458', '96385075', '1234567', 'ABCDEFGHIJKLM', ''])('rejects %s', (digits) =>
		expect(gs1CheckDigitValid(digits)).toBe(false),
	);
	it('computes the digit from the weights 3,1,3,... counted from the right', () => {
		expect(gs1CheckDigit('400638133393')).toBe(1);
		expect(gs1CheckDigit('590123412345')).toBe(7);
		expect(gs1CheckDigit('540000000001')).toBe(0);
	});
	it('a GLN is 13 digits', () => {
		expect(isValidGln('4006381333931')).toBe(true);
		expect(isValidGln('96385074')).toBe(false);
	});
});

describe('LEI (ISO 17442)', () => {
	it.each(['5493001KJTIIGC8Y1R12', 'HWUPKR0MPOU8FGXBT394', '7LTWFZYICNSX8D621K86', '529900T8BM49AURSDO55'])('accepts %s', (lei) =>
		expect(isValidLei(lei)).toBe(true),
	);
	it.each(['5493001KJTIIGC8Y1R13', 'HWUPKR0MPOU8FGXBT349', '5493001KJTIIGC8Y1R1'])('rejects %s', (lei) => expect(isValidLei(lei)).toBe(false));
});

describe('scheme table', () => {
	it('knows every scheme docs/api.md names, with readable names', () => {
		for (const code of ['9925', '9944', '9930', '0106', '0190', '0088', '0208']) expect(isKnownSchemeCode(code)).toBe(true);
		for (const code of COMMON_SCHEME_CODES) expect(isKnownSchemeCode(code)).toBe(true);
		expect(describeScheme('0208')).toBe('0208 (Belgium – enterprise (company) number)');
		expect(describeScheme('1234')).toBe('1234');
	});
	it('has unique codes and maps VAT prefixes to VAT schemes', () => {
		expect(new Set(PEPPOL_SCHEMES.map((s) => s.code)).size).toBe(PEPPOL_SCHEMES.length);
		for (const [country, code] of Object.entries(VAT_PREFIX_SCHEMES)) {
			expect(isKnownSchemeCode(code)).toBe(true);
			expect(code.startsWith('99')).toBe(true);
			expect(country).toMatch(/^[A-Z]{2}$/);
		}
		expect(VAT_PREFIX_SCHEMES.BE).toBe('9925');
		expect(VAT_PREFIX_SCHEMES.NL).toBe('9944');
		expect(VAT_PREFIX_SCHEMES.DE).toBe('9930');
	});
	it('tells a VAT number from other values', () => {
		expect(looksLikeVatNumber('BE0403170701')).toBe(true);
		expect(looksLikeVatNumber('5400000000010')).toBe(false);
		expect(looksLikeVatNumber('ABC')).toBe(false);
	});
});

describe('parseParticipantIdentifier: the three forms, normalised', () => {
	it.each([
		['BE0123456749', 'vat', '9925', 'BE0123456749'],
		['be 0123.456.749', 'vat', '9925', 'BE0123456749'],
		['BE 403.170.701', 'vat', '9925', 'BE0403170701'],
		['  BE0403-170-701 ', 'vat', '9925', 'BE0403170701'],
		['NL123456789B01', 'vat', '9944', 'NL123456789B01'],
		['nl 123456789 b01', 'vat', '9944', 'NL123456789B01'],
		['DE123456789', 'vat', '9930', 'DE123456789'],
		['SE556677889901', 'vat', '9955', 'SE556677889901'],
		['0123456749', 'enterprise', '0208', '0123456749'],
		['0403.170.701', 'enterprise', '0208', '0403170701'],
		['403 170 701', 'enterprise', '0208', '0403170701'],
		['9925:BE0123456749', 'scheme', '9925', '9925:BE0123456749'],
		['9925:be 0123.456.749', 'scheme', '9925', '9925:BE0123456749'],
		['9925:0123456749', 'scheme', '9925', '9925:BE0123456749'],
		['0208:0123456749', 'scheme', '0208', '0208:0123456749'],
		['0208:BE0123456749', 'scheme', '0208', '0208:0123456749'],
		['0208 : 0123.456.749', 'scheme', '0208', '0208:0123456749'],
		['iso6523-actorid-upis::0208:0123456749', 'scheme', '0208', '0208:0123456749'],
		['0088:5400000000010', 'scheme', '0088', '0088:5400000000010'],
		['9944:123456789B01', 'scheme', '9944', '9944:NL123456789B01'],
		['0106:12345678', 'scheme', '0106', '0106:12345678'],
		['0190:00000001234567890000', 'scheme', '0190', '0190:00000001234567890000'],
		['0204:991-12345-67', 'scheme', '0204', '0204:991-12345-67'],
		['0230:C2584563200', 'scheme', '0230', '0230:C2584563200'],
		['0199:5493001kjtiigc8y1r12', 'scheme', '0199', '0199:5493001KJTIIGC8Y1R12'],
	])('%s → %s %s %s', (input, form, scheme, lookup) => {
		const parsed = parseParticipantIdentifier(input);
		expect(parsed).toMatchObject({ ok: true, form, scheme, lookup, key: lookup.toUpperCase() });
	});

	it('accepts a number typed into an expression', () => {
		expect(parseParticipantIdentifier(403170701)).toMatchObject({ ok: true, lookup: '0403170701' });
	});

	it('gives the same key to spellings of one identifier', () => {
		const keys = ['BE0123456749', 'be 0123.456.749', 'BE 123.456.749'].map((i) => {
			const parsed = parseParticipantIdentifier(i);
			return parsed.ok ? parsed.key : parsed.problem;
		});
		expect(new Set(keys)).toEqual(new Set(['BE0123456749']));
	});
});

/** At least 20 invalid identifiers, each with the words its message must carry. */
export const INVALID_IDENTIFIERS: Array<[string, RegExp]> = [
	['', /is empty/],
	['   ', /is empty/],
	['BE0123456748', /not a valid Belgian VAT number \(mod-97 check digits 48 do not match 49\)/],
	['BE2403170743', /must start with 0 or 1/],
	['BE01234567', /not a Belgian VAT number/],
	['0123456748', /not a valid Belgian enterprise number/],
	['0403.170.702', /not a valid Belgian enterprise number/],
	['12345', /5-digit number/],
	['4006381333931', /looks like a GLN.*bare number/],
	['NL12345678B01', /not a Dutch VAT number \(expected NL \+ 9 digits \+ B \+ 2 digits\)/],
	['NL123456789X01', /not a Dutch VAT number/],
	['DE12345678', /not a German VAT number/],
	['DK12345678', /country prefix DK, for which no Peppol VAT scheme exists/],
	['XX123', /country prefix XX/],
	['1234:abc', /unknown scheme code 1234/],
	['0000:0123456749', /unknown scheme code 0000/],
	['9956:0123456749', /withdrawn scheme 9956/],
	['ABCD:0123456749', /scheme "ABCD", but a Peppol scheme code is 4 digits/],
	['0208:', /no value after the scheme 0208/],
	['0208:0123456748', /not a valid Belgian enterprise number/],
	['9925:NL123456789B01', /not a Belgian VAT number/],
	['0088:BE0123456749', /a GLN cannot be derived from a VAT number/],
	['0088:4006381333932', /not a valid GLN \(the GS1 check digit should be 1, not 2\)/],
	['0088:540000000001', /not a GLN \(expected 13 digits\)/],
	['0106:1234567', /not a KvK number/],
	['0190:123', /not an OIN/],
	['0199:5493001KJTIIGC8Y1R13', /not a valid LEI/],
	[`0007:${'9'.repeat(131)}`, /131 characters long after the scheme; Peppol allows at most 130/],
	['BE0123456749é', /character "é" \(U\+00E9\)/],
	['0204:991\u200b12345', /character U\+200B/],
	['BE', /not a VAT number/],
	['hello world', /not a VAT number/],
	['@@@', /not a recognised Peppol identifier/],
];

describe('parseParticipantIdentifier: rejections', () => {
	it('has at least 20 cases', () => expect(INVALID_IDENTIFIERS.length).toBeGreaterThanOrEqual(20));
	it.each(INVALID_IDENTIFIERS)('rejects %j', (input, message) => {
		const parsed = parseParticipantIdentifier(input);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) {
			expect(parsed.problem).toMatch(message);
			expect(parsed.hint.length).toBeGreaterThan(10);
		}
	});
	it('rejects values that are not text', () => {
		expect(parseParticipantIdentifier(undefined).ok).toBe(false);
		expect(parseParticipantIdentifier({})).toMatchObject({ ok: false, problem: 'is an object, not an identifier' });
		expect(parseParticipantIdentifier(['BE0123456749'])).toMatchObject({ ok: false, problem: 'is a list, not an identifier' });
	});
});

describe('buildParticipantIdentifier: scheme picker + value', () => {
	it('normalises the value for the scheme', () => {
		expect(buildParticipantIdentifier('9925', 'BE 0123.456.749')).toMatchObject({ ok: true, lookup: '9925:BE0123456749' });
		expect(buildParticipantIdentifier('0208', '123.456.749')).toMatchObject({ ok: true, lookup: '0208:0123456749' });
		expect(buildParticipantIdentifier('0088', '5400000000010')).toMatchObject({ ok: true, lookup: '0088:5400000000010' });
	});
	it('says a GLN cannot be derived from a VAT number when 0088 gets a VAT number', () => {
		const built = buildParticipantIdentifier('0088', 'BE0123456749');
		expect(built).toMatchObject({ ok: false, problem: expect.stringContaining('a GLN cannot be derived from a VAT number') });
		if (!built.ok) {
			expect(built.hint).toMatch(/Get the GLN from the receiver/);
			expect(built.inScheme).toBeUndefined();
		}
	});
	it("marks a wrong scheme code as the scheme's fault", () => {
		expect(buildParticipantIdentifier('12', '1')).toMatchObject({ ok: false, inScheme: true });
		expect(buildParticipantIdentifier('', '1')).toMatchObject({ ok: false, inScheme: true, problem: 'has no scheme code' });
		expect(buildParticipantIdentifier('1234', '1')).toMatchObject({ ok: false, inScheme: true });
	});
});
