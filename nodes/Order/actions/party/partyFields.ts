/** A party's fields as the service's OpenAPI `Party` type names them (flat address fields, as its page "Party" allows), with their checks. */
import type { INodeProperties } from 'n8n-workflow';

import { PARTY_TYPES } from '../../../shared/domain/orderTypes';
import type { Check } from '../../../shared/domain/validation';
import {
	checkBic,
	checkChoice,
	checkCountryCode,
	checkEmail,
	checkIban,
	checkLanguageCode,
	checkPhone,
	checkText,
	checkVatNumber,
} from '../../../shared/domain/validation';
import type { RecordField } from './records';

const text = (max: number) => (value: unknown) => checkText(value, max);

/** Name, VAT Number and Party Type: the fields Create shows up front. */
export const MAIN_PARTY_FIELDS: RecordField[] = [
	{ name: 'name', api: 'Name', displayName: 'Name', description: 'The company or person name' },
	{
		name: 'vatNumber',
		api: 'VATNumber',
		displayName: 'VAT Number',
		check: checkVatNumber as (value: unknown) => Check,
		description: 'With its country prefix, e.g. BE0123456749',
	},
	{
		name: 'partyType',
		api: 'PartyType',
		displayName: 'Party Type',
		check: (value) => checkChoice(value, PARTY_TYPES),
		description: 'Customer (you invoice it) or Supplier (it invoices you)',
	},
];

export const PARTY_FIELDS: RecordField[] = [
	{ name: 'bic', api: 'BIC', displayName: 'BIC', check: checkBic },
	{ name: 'box', api: 'Box', displayName: 'Box', check: text(20) },
	{ name: 'city', api: 'City', displayName: 'City' },
	{ name: 'commercialName', api: 'CommercialName', displayName: 'Commercial Name' },
	{ name: 'contactFirstName', api: 'ContactFirstName', displayName: 'Contact First Name' },
	{ name: 'contactLastName', api: 'ContactLastName', displayName: 'Contact Last Name' },
	{ name: 'countryCode', api: 'CountryCode', displayName: 'Country Code', check: checkCountryCode, description: 'Two letters, e.g. BE' },
	{ name: 'email', api: 'Email', displayName: 'Email', check: checkEmail },
	{
		name: 'externalProviderId',
		api: 'ExternalProviderID',
		displayName: 'External Provider ID',
		description: 'Your own ID of the party, e.g. its ID in your CRM',
	},
	{ name: 'iban', api: 'IBAN', displayName: 'IBAN', check: checkIban },
	{ name: 'internalInfo', api: 'InternalInfo', displayName: 'Internal Info', check: text(2000) },
	{ name: 'language', api: 'Language', displayName: 'Language', check: checkLanguageCode, description: 'Two letters, e.g. NL, FR, EN' },
	{ name: 'mobile', api: 'Mobile', displayName: 'Mobile', check: checkPhone },
	{ name: 'nr', api: 'Nr', displayName: 'Number', description: 'Your customer or supplier number (not the technical PartyID)' },
	{ name: 'peppolIdentifier', api: 'PeppolIdentifier', displayName: 'Peppol Identifier', check: text(150), description: 'e.g. 0208:0123456749' },
	{ name: 'phone', api: 'Phone', displayName: 'Phone', check: checkPhone },
	{ name: 'street', api: 'Street', displayName: 'Street' },
	{ name: 'streetNumber', api: 'StreetNumber', displayName: 'Street Number', check: text(20) },
	{
		name: 'vatLiable',
		api: 'VATLiable',
		displayName: 'VAT Liable',
		kind: 'boolean',
		description: 'Whether the party is subject to VAT (off for a private person)',
	},
	{ name: 'website', api: 'Website', displayName: 'Website' },
	{ name: 'zipcode', api: 'Zipcode', displayName: 'Zipcode', check: text(20) },
];

/** Party Type as a picker. */
export const partyTypeOption = { type: 'options' as const, options: PARTY_TYPES.map((value) => ({ name: value, value })), default: 'Customer' };

/** The three main fields as parameters of an operation (Name required). */
export function mainPartyProperties(show: Record<string, string[]>): INodeProperties[] {
	const [name, vat, type] = MAIN_PARTY_FIELDS;
	return [
		{ displayName: name.displayName, name: name.name, type: 'string', required: true, default: '', description: name.description, displayOptions: { show } },
		{ displayName: vat.displayName, name: vat.name, type: 'string', default: '', description: vat.description, displayOptions: { show } },
		{ displayName: type.displayName, name: type.name, ...partyTypeOption, description: type.description, displayOptions: { show } },
	];
}
