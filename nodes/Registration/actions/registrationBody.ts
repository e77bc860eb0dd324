/**
 * Turns the Create form's values into the registration request body (contract 2.1),
 * validating every field first. Pure: no n8n, no HTTP.
 */
import { checkTypedIdentifier } from '../../shared/domain/identifiers';
import type { Check, FieldProblem } from '../../shared/domain/validation';
import {
	checkAddressType,
	checkBic,
	checkBoolean,
	checkCountryCode,
	checkEmail,
	checkIban,
	checkLanguageCode,
	checkPhone,
	checkText,
	checkVatNumber,
} from '../../shared/domain/validation';

export interface AddressInput {
	addressType?: string;
	name?: string;
	street?: string;
	streetNumber?: string;
	box?: string;
	zipcode?: string;
	city?: string;
	countryCode?: string;
	phone?: string;
}

export interface RegistrationInput {
	taxIdentifier?: unknown;
	companyName?: unknown;
	email?: unknown;
	language?: unknown;
	contactFirstName?: unknown;
	contactLastName?: unknown;
	taxLiable?: unknown;
	taxDeductable?: unknown;
	addresses?: { invoiceAddress?: AddressInput; deliveryAddress?: AddressInput };
	additionalFields?: {
		commercialName?: string;
		iban?: string;
		bic?: string;
		mobile?: string;
		phone?: string;
		identifiers?: { identifier?: Array<{ identifierType?: string; identifier?: string }> };
		accountSettings?: {
			settings?: { bulkInputCostUBLFastForward?: boolean; processUBLPrepaidAmount?: boolean };
		};
	};
}

export type RegistrationBody = Record<string, unknown>;

/** Keeps the first problem; later checks still run but are not reported. */
class Problems {
	first?: FieldProblem;

	need(field: string, value: unknown, check: (v: unknown) => Check): string {
		const result = check(value);
		if (result.ok) return result.value;
		this.first ??= { field, value, problem: result.problem, hint: result.hint };
		return '';
	}

	optional(field: string, value: unknown, check: (v: unknown) => Check): string | undefined {
		if (value === undefined || value === null || String(value).trim() === '') return undefined;
		return this.need(field, value, check) || undefined;
	}

	bool(field: string, value: unknown, fallback: boolean): boolean {
		if (value === undefined || value === null || value === '') return fallback;
		const result = checkBoolean(value);
		if (result.ok) return result.value;
		this.first ??= { field, value, problem: result.problem, hint: result.hint };
		return fallback;
	}
}

const ADDRESS_LABELS: Record<string, string> = {
	InvoiceAddress: 'Invoice Address',
	DeliveryAddress: 'Delivery Address',
};

function buildAddress(p: Problems, input: AddressInput, defaultType: string): Record<string, unknown> {
	const type = p.need('Address Type', input.addressType ?? defaultType, checkAddressType);
	const label = ADDRESS_LABELS[type] ?? 'Address';
	const address: Record<string, unknown> = { AddressType: type };
	const name = p.optional(`${label} → Name`, input.name, (v) => checkText(v, 255));
	if (name) address.Name = name;
	address.Street = p.need(`${label} → Street`, input.street, (v) => checkText(v, 255));
	const streetNumber = p.optional(`${label} → Street Number`, input.streetNumber, (v) => checkText(v, 20));
	if (streetNumber) address.StreetNumber = streetNumber;
	const box = p.optional(`${label} → Box`, input.box, (v) => checkText(v, 20));
	if (box) address.Box = box;
	address.Zipcode = p.need(`${label} → Zipcode`, input.zipcode, (v) => checkText(v, 20));
	address.City = p.need(`${label} → City`, input.city, (v) => checkText(v, 255));
	address.CountryCode = p.need(`${label} → Country Code`, input.countryCode, checkCountryCode);
	const phone = p.optional(`${label} → Phone`, input.phone, checkPhone);
	if (phone) address.Phone = phone;
	return address;
}

function isFilled(address: AddressInput | undefined): address is AddressInput {
	return !!address && Object.values(address).some((v) => v !== undefined && v !== null && String(v).trim() !== '');
}

function collectAddresses(p: Problems, addresses: RegistrationInput['addresses']): Array<Record<string, unknown>> {
	const invoice = addresses?.invoiceAddress;
	if (!isFilled(invoice)) {
		p.first ??= {
			field: 'Addresses → Invoice Address',
			value: undefined,
			problem: 'is required',
			hint: 'Under "Addresses", add an Invoice Address with at least Street, Zipcode, City and Country Code.',
		};
		return [];
	}
	const list = [buildAddress(p, invoice, 'InvoiceAddress')];
	const delivery = addresses?.deliveryAddress;
	if (isFilled(delivery)) list.push(buildAddress(p, delivery, 'DeliveryAddress'));
	return list;
}

function collectIdentifiers(p: Problems, identifiers: NonNullable<RegistrationInput['additionalFields']>['identifiers']): Array<Record<string, string>> {
	const entries = identifiers?.identifier ?? [];
	return entries.map((entry, index) => {
		const label = entries.length > 1 ? `Identifiers #${index + 1}` : 'Identifiers';
		const type = p.need(`${label} → Identifier Type`, entry.identifierType, (v) => checkText(v, 100));
		// A type that names a known kind (VAT, KBO, GLN, a scheme code) gets the check Peppol Lookup uses.
		const identifier = p.need(`${label} → Identifier`, entry.identifier, (v) => {
			const given = checkText(v, 100);
			return given.ok ? (checkTypedIdentifier(type, given.value) ?? given) : given;
		});
		return { IdentifierType: type, Identifier: identifier };
	});
}

/** Validates the form and builds the body in the contract's field order; the first problem wins. */
export function buildRegistrationBody(input: RegistrationInput): { body: RegistrationBody } | { problem: FieldProblem } {
	const p = new Problems();
	const extra = input.additionalFields ?? {};
	const body: RegistrationBody = {};
	body.TaxIdentifier = p.need('VAT Number', input.taxIdentifier, checkVatNumber);
	body.CompanyName = p.need('Company Name', input.companyName, (v) => checkText(v, 255));
	const commercialName = p.optional('Commercial Name', extra.commercialName, (v) => checkText(v, 255));
	if (commercialName) body.CommercialName = commercialName;
	body.TaxDeductable = p.bool('Tax Deductible', input.taxDeductable, true);
	body.TaxLiable = p.bool('Tax Liable', input.taxLiable, true);
	const iban = p.optional('IBAN', extra.iban, checkIban);
	if (iban) body.IBAN = iban;
	const bic = p.optional('BIC', extra.bic, checkBic);
	if (bic) body.BIC = bic;
	const mobile = p.optional('Mobile', extra.mobile, checkPhone);
	if (mobile) body.Mobile = mobile;
	const phone = p.optional('Phone', extra.phone, checkPhone);
	if (phone) body.Phone = phone;
	body.Email = p.need('Email', input.email, checkEmail);
	body.ContactFirstName = p.need('Contact First Name', input.contactFirstName, (v) => checkText(v, 100));
	body.ContactLastName = p.need('Contact Last Name', input.contactLastName, (v) => checkText(v, 100));
	body.Language = p.need('Language', input.language, checkLanguageCode);
	const identifiers = collectIdentifiers(p, extra.identifiers);
	if (identifiers.length) body.Identifiers = identifiers;
	const settings = extra.accountSettings?.settings;
	if (settings) {
		body.AccountSettings = {
			BulkInputCostUBLFastForward: p.bool('Account Settings → Bulk Input Cost UBL Fast Forward', settings.bulkInputCostUBLFastForward, false),
			ProcessUBLPrepaidAmount: p.bool('Account Settings → Process UBL Prepaid Amount', settings.processUBLPrepaidAmount, false),
		};
	}
	body.Addresses = collectAddresses(p, input.addresses);
	return p.first ? { problem: p.first } : { body };
}
