import {
	checkAddressType,
	checkBic,
	checkCountryCode,
	checkEmail,
	checkIban,
	checkLanguageCode,
	checkNumericId,
	checkPhone,
	checkText,
	checkVatNumber,
	fieldMessage,
	mod97,
	showValue,
} from '../../nodes/shared/domain/validation';
import type { Check } from '../../nodes/shared/domain/validation';
import { nodeSources } from './helpers/nodeSources';

function value(result: Check): string {
	if (!result.ok) throw new Error(`expected ok, got: ${result.problem}`);
	return result.value;
}

function problem(result: Check): string {
	if (result.ok) throw new Error(`expected a problem, got ok: ${result.value}`);
	expect(result.hint.length).toBeGreaterThan(5);
	return result.problem;
}

describe('mod97 / Belgian check', () => {
	it('computes remainders of long numbers', () => {
		expect(mod97('3214282912345698765432161182')).toBe(1); // GB82WEST12345698765432 rearranged
		expect(mod97('97')).toBe(0);
		expect(mod97('123456789012345678901234567890')).toBe(Number(BigInt('123456789012345678901234567890') % 97n));
	});
	it('accepts a valid enterprise number and rejects a changed check digit', () => {
		expect(checkVatNumber('BE0123456749').ok).toBe(true);
		expect(checkVatNumber('BE0123456748').ok).toBe(false);
		expect(checkVatNumber('BE2123456749').ok).toBe(false);
	});
});

describe('checkVatNumber', () => {
	it.each([
		['BE0123456749', 'BE0123456749'],
		['be 0123.456.749', 'BE0123456749'],
		['BE123456749', 'BE0123456749'], // old 9-digit form takes a leading 0
		['NL123456789B01', 'NL123456789B01'],
		['DE123456789', 'DE123456789'],
		['FR12345678901', 'FR12345678901'],
		['EL123456789', 'EL123456789'],
		['CHE123456789', 'CHE123456789'],
		['NO123456789MVA', 'NO123456789MVA'],
	])('accepts %s', (input, expected) => {
		expect(value(checkVatNumber(input))).toBe(expected);
	});

	it.each([
		['', /empty/],
		['0123456749', /country prefix/],
		['ZZ123456789', /known country prefix/],
		['GR123456789', /EL/],
		['BE0123456748', /mod-97/],
		['BE2123456789', /not a Belgian VAT number \(the 10 digits must start with 0 or 1\)/],
		['NL123456789', /not a Dutch VAT number \(expected NL \+ 9 digits \+ B \+ 2 digits\)/],
		['DE12345678', /not a German VAT number \(expected DE \+ 9 digits\)/],
		['FR123', /shape of a FR VAT/],
		['BE', /2 to 13/],
		[{ vat: 'BE0123456749' }, /is an object, not a VAT number/],
		[['BE0123456749'], /is a list, not a VAT number/],
	])('rejects %j', (input: unknown, pattern) => {
		expect(problem(checkVatNumber(input))).toMatch(pattern);
	});
});

describe('checkIban', () => {
	it.each([
		['BE68539007547034', 'BE68539007547034'],
		['be68 5390 0754 7034', 'BE68539007547034'],
		['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
		['NL91ABNA0417164300', 'NL91ABNA0417164300'],
		['GB82WEST12345698765432', 'GB82WEST12345698765432'],
		['FR1420041010050500013M02606', 'FR1420041010050500013M02606'],
	])('accepts %s', (input, expected) => {
		expect(value(checkIban(input))).toBe(expected);
	});

	it.each([
		['BE68539007547035', /checksum failed/],
		['BE12 3456', /16 characters/],
		['ZZ68539007547034', /unknown country/],
		['539007547034', /country code/],
		['BE6853900754703!', /country code/],
	])('rejects %s', (input, pattern) => {
		expect(problem(checkIban(input))).toMatch(pattern);
	});
});

describe('checkBic', () => {
	it('accepts 8 and 11 character codes', () => {
		expect(value(checkBic('gebabebb'))).toBe('GEBABEBB');
		expect(value(checkBic('KRED BE BB XXX'))).toBe('KREDBEBBXXX');
	});
	it.each(['GEBABEB', 'GEBA1EBB', 'GEBAZZBB', 'GEBABEBBX'])('rejects %s', (input) => {
		expect(problem(checkBic(input))).toMatch(/not a valid BIC/);
	});
});

describe('checkEmail', () => {
	it.each(['finance@example.com', "o'brien+inv@sub.example.co.uk"])('accepts %s', (input) => {
		expect(value(checkEmail(` ${input} `))).toBe(input);
	});
	it.each(['plain', 'a@b', 'a@@b.com', 'a b@c.com', '.a@b.com', 'a..b@c.com', 'a@-b.com', 'a@b.c'])('rejects %s', (input) => {
		expect(problem(checkEmail(input))).toMatch(/e-mail/);
	});
});

describe('checkPhone', () => {
	it.each([
		['+32 470 12 34 56', '+32470123456'],
		['0032 (9) 123.45.67', '+3291234567'],
		['+1-202-555-0143', '+12025550143'],
	])('accepts %s', (input, expected) => {
		expect(value(checkPhone(input))).toBe(expected);
	});
	it.each([
		['0470 12 34 56', /international format/],
		['+32 47', /8 to 15 digits/],
		['+0 470 12 34 56', /8 to 15 digits/],
		['+32 470 CALL ME', /only digits/],
		['+1234567890123456', /8 to 15 digits/],
	])('rejects %s', (input, pattern) => {
		expect(problem(checkPhone(input))).toMatch(pattern);
	});
});

describe('language, country, address type, ids, text', () => {
	it('normalises valid codes', () => {
		expect(value(checkLanguageCode('nl'))).toBe('NL');
		expect(value(checkLanguageCode(' FR '))).toBe('FR');
		expect(value(checkCountryCode('be'))).toBe('BE');
		expect(value(checkCountryCode('XK'))).toBe('XK');
		expect(value(checkAddressType('deliveryaddress'))).toBe('DeliveryAddress');
		expect(value(checkAddressType('InvoiceAddress'))).toBe('InvoiceAddress');
		expect(value(checkNumericId(42, 'RegistrationID'))).toBe('42');
		expect(value(checkNumericId(' 0042 ', 'RegistrationID'))).toBe('42');
	});
	it('rejects bad codes with the reason', () => {
		expect(problem(checkLanguageCode('nl-BE'))).toMatch(/ISO 639-1/);
		expect(problem(checkLanguageCode('xx'))).toMatch(/ISO 639-1/);
		expect(problem(checkLanguageCode('Dutch'))).toMatch(/ISO 639-1/);
		expect(problem(checkCountryCode('BEL'))).toMatch(/ISO 3166-1/);
		expect(problem(checkCountryCode('UK'))).toMatch(/ISO 3166-1/);
		expect(problem(checkAddressType('HomeAddress'))).toMatch(/InvoiceAddress, DeliveryAddress/);
		expect(problem(checkNumericId('abc', 'RegistrationID'))).toMatch(/positive whole number/);
		expect(problem(checkNumericId('0', 'RegistrationID'))).toMatch(/positive whole number/);
		expect(problem(checkNumericId('', 'RegistrationID'))).toMatch(/empty/);
		// Issue 37 item 6: beyond 2^53 - 1 a number is rounded to another record's: refused, never rounded.
		expect(value(checkNumericId('9007199254740991', 'ProductID'))).toBe('9007199254740991');
		expect(problem(checkNumericId('9007199254740993', 'ProductID'))).toBe('is larger than any ProductID (at most 9007199254740991)');
		expect(problem(checkNumericId(2 ** 53, 'InboxItemID'))).toMatch(/larger than any InboxItemID/);
		expect(problem(checkNumericId('9'.repeat(300), 'InboxItemID'))).toMatch(/larger than any InboxItemID/);
		expect(problem(checkText('   '))).toMatch(/empty/);
		expect(problem(checkText('x'.repeat(11), 10))).toMatch(/too long/);
	});
});

describe('messages', () => {
	it('names item (1-based), field and value', () => {
		expect(fieldMessage(1, 'IBAN', 'BE12 3456', 'is not a valid IBAN (checksum failed)')).toBe(
			'Item 1: "IBAN" BE12 3456 is not a valid IBAN (checksum failed)',
		);
		expect(fieldMessage(0, 'Email', '  ', 'is empty')).toBe('Item 0: "Email" is empty');
		expect(showValue({ a: 1 })).toBe('{"a":1}');
		expect(showValue('x'.repeat(100))).toHaveLength(61);
	});

	it('is the one wording for every node: no item in a poll, an empty list shows nothing, ":" follows the field', () => {
		expect(fieldMessage(undefined, 'Filters', undefined, 'condition 2 (OrderDate): not a date')).toBe('"Filters" condition 2 (OrderDate): not a date');
		expect(fieldMessage(0, 'Order Lines', [], 'needs at least one line')).toBe('Item 0: "Order Lines" needs at least one line');
		expect(fieldMessage(0, 'OData Filter (Raw)', undefined, ': unbalanced quotes')).toBe('Item 0: "OData Filter (Raw)": unbalanced quotes');
	});

	it('is built in one place: no node hand-builds "Item N:"', () => {
		const sources = nodeSources();
		const handBuilt = sources.filter(({ file, text }) => file !== 'shared/domain/validation.ts' && /`Item \$\{/.test(text)).map(({ file }) => file);
		expect(sources.length).toBeGreaterThan(30);
		expect(handBuilt).toEqual([]);
	});
});
