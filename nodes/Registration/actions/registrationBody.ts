/**
 * Turns the Create form's values into the registration request body (docs/api.md "Registrations"),
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

type AddressInput = Partial<Record<'addressType' | 'name' | 'street' | 'streetNumber' | 'box' | 'zipcode' | 'city' | 'countryCode' | 'phone', string>>;

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
		accountSettings?: { settings?: { processUBLPrepaidAmount?: boolean } };
	};
}

const text = (max: number) => (v: unknown) => checkText(v, max);

/** Keeps the first problem; later checks still run but are not reported. */
class Problems {
	first?: FieldProblem;

	need<T = string>(field: string, value: unknown, check: (v: unknown) => Check<T>, fallback?: T): T {
		const result = check(value);
		if (result.ok) return result.value;
		this.first ??= { field, value, problem: result.problem, hint: result.hint };
		return fallback ?? ('' as T);
	}

	optional(field: string, value: unknown, check: (v: unknown) => Check): string | undefined {
		if (value === undefined || value === null || String(value).trim() === '') return undefined;
		return this.need(field, value, check) || undefined;
	}

	bool(field: string, value: unknown, fallback: boolean): boolean {
		if (value === undefined || value === null || value === '') return fallback;
		return this.need(field, value, checkBoolean, fallback);
	}
}

/** The object without its undefined entries, in the same key order. */
function defined(record: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

function buildAddress(p: Problems, input: AddressInput, defaultType: string): Record<string, unknown> {
	const type = p.need('Address Type', input.addressType ?? defaultType, checkAddressType);
	const label = { InvoiceAddress: 'Invoice Address', DeliveryAddress: 'Delivery Address' }[type] ?? 'Address';
	return defined({
		AddressType: type,
		Name: p.optional(`${label} → Name`, input.name, text(255)),
		Street: p.need(`${label} → Street`, input.street, text(255)),
		StreetNumber: p.optional(`${label} → Street Number`, input.streetNumber, text(20)),
		Box: p.optional(`${label} → Box`, input.box, text(20)),
		Zipcode: p.need(`${label} → Zipcode`, input.zipcode, text(20)),
		City: p.need(`${label} → City`, input.city, text(255)),
		CountryCode: p.need(`${label} → Country Code`, input.countryCode, checkCountryCode),
		Phone: p.optional(`${label} → Phone`, input.phone, checkPhone),
	});
}

const isFilled = (address?: AddressInput): address is AddressInput =>
	!!address && Object.values(address).some((v) => v !== undefined && v !== null && String(v).trim() !== '');

function collectAddresses(p: Problems, addresses: RegistrationInput['addresses']): Array<Record<string, unknown>> {
	const invoice = addresses?.invoiceAddress;
	if (!isFilled(invoice)) {
		const hint = 'Under "Addresses", add an Invoice Address with Street, Zipcode, City and Country Code.';
		p.first ??= { field: 'Addresses → Invoice Address', value: undefined, problem: 'is required', hint };
		return [];
	}
	const delivery = addresses?.deliveryAddress;
	return [buildAddress(p, invoice, 'InvoiceAddress'), ...(isFilled(delivery) ? [buildAddress(p, delivery, 'DeliveryAddress')] : [])];
}

function collectIdentifiers(p: Problems, identifiers: NonNullable<RegistrationInput['additionalFields']>['identifiers']) {
	const entries = identifiers?.identifier ?? [];
	if (!entries.length) return undefined;
	return entries.map((entry, index) => {
		const label = entries.length > 1 ? `Identifiers #${index + 1}` : 'Identifiers';
		const type = p.need(`${label} → Identifier Type`, entry.identifierType, text(100));
		// A type that names a known kind (VAT, KBO, GLN, a scheme code) gets the check Peppol Lookup uses.
		const identifier = p.need(`${label} → Identifier`, entry.identifier, (v) => {
			const given = checkText(v, 100);
			return given.ok ? (checkTypedIdentifier(type, given.value) ?? given) : given;
		});
		return { IdentifierType: type, Identifier: identifier };
	});
}

/** Validates the form and builds the body in the service's field order; the first problem wins. */
export function buildRegistrationBody(input: RegistrationInput): { body: Record<string, unknown> } | { problem: FieldProblem } {
	const p = new Problems();
	const extra = input.additionalFields ?? {};
	const settings = extra.accountSettings?.settings;
	const body = defined({
		TaxIdentifier: p.need('VAT Number', input.taxIdentifier, checkVatNumber),
		CompanyName: p.need('Company Name', input.companyName, text(255)),
		CommercialName: p.optional('Commercial Name', extra.commercialName, text(255)),
		TaxDeductable: p.bool('Tax Deductible', input.taxDeductable, true),
		TaxLiable: p.bool('Tax Liable', input.taxLiable, true),
		IBAN: p.optional('IBAN', extra.iban, checkIban),
		BIC: p.optional('BIC', extra.bic, checkBic),
		Mobile: p.optional('Mobile', extra.mobile, checkPhone),
		Phone: p.optional('Phone', extra.phone, checkPhone),
		Email: p.need('Email', input.email, checkEmail),
		ContactFirstName: p.need('Contact First Name', input.contactFirstName, text(100)),
		ContactLastName: p.need('Contact Last Name', input.contactLastName, text(100)),
		Language: p.need('Language', input.language, checkLanguageCode),
		Identifiers: collectIdentifiers(p, extra.identifiers),
		// The published EinvoiceAccountSettings holds only this (openapi.json).
		AccountSettings: settings && { ProcessUBLPrePaidAmount: p.bool('Account Settings → Process UBL Prepaid Amount', settings.processUBLPrepaidAmount, false) },
		Addresses: collectAddresses(p, input.addresses),
	});
	return p.first ? { problem: p.first } : { body };
}
