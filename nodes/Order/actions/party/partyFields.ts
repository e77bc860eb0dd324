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
import { recordFields } from './records';

const text = (max: number) => (value: unknown) => checkText(value, max);

/** Name, VAT Number and Party Type: the fields Create shows up front. */
export const MAIN_PARTY_FIELDS = recordFields([
	{ api: 'Name', description: 'The company or person name' },
	{ api: 'VATNumber', check: checkVatNumber as (value: unknown) => Check, description: 'With its country prefix, e.g. BE0123456749' },
	{ api: 'PartyType', check: (value) => checkChoice(value, PARTY_TYPES), description: 'Customer (you invoice it) or Supplier (it invoices you)' },
]);

export const PARTY_FIELDS = recordFields([
	{ api: 'BIC', check: checkBic },
	{ api: 'Box', check: text(20) },
	{ api: 'City' },
	{ api: 'CommercialName' },
	{ api: 'ContactFirstName' },
	{ api: 'ContactLastName' },
	{ api: 'CountryCode', check: checkCountryCode, description: 'Two letters, e.g. BE' },
	{ api: 'Email', check: checkEmail },
	{ api: 'ExternalProviderID', description: 'Your own ID of the party, e.g. its ID in your CRM' },
	{ api: 'IBAN', check: checkIban },
	{ api: 'InternalInfo', check: text(2000) },
	{ api: 'Language', check: checkLanguageCode, description: 'Two letters, e.g. NL, FR, EN' },
	{ api: 'Mobile', check: checkPhone },
	{ api: 'Nr', displayName: 'Number', description: 'Your customer or supplier number (not the technical PartyID)' },
	{ api: 'PeppolIdentifier', check: text(150), description: 'e.g. 0208:0123456749' },
	{ api: 'Phone', check: checkPhone },
	{ api: 'Street' },
	{ api: 'StreetNumber', check: text(20) },
	{ api: 'VATLiable', kind: 'boolean', description: 'Whether the party is subject to VAT (off for a private person)' },
	{ api: 'Website' },
	{ api: 'Zipcode', check: text(20) },
]);

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
