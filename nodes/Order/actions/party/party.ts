/** The party: its field table (flat address fields, as the service's page "Party" allows), how one is told from another, its update. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ApiClient } from '../../../shared/http/transport';
import {
	type Check,
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
import { PARTY_TYPES } from '../../../shared/domain/orderTypes';
import { sendJson } from '../writes';
import { getRecord, recordFields } from '../records';

/** The same VAT number (spaces, dots, dashes aside) or e-mail address (case aside): how a party found is told from others. */
export function sameParty(key: string, a: unknown, b: unknown): boolean {
	const norm = (v: unknown) => (typeof v === 'string' ? (key === 'VATNumber' ? v.replace(/[\s.-]/g, '') : v.trim()).toUpperCase() : undefined);
	return norm(a) !== undefined && norm(a) === norm(b);
}

/** The page "Patchable Properties": what a party PATCH may change; the service ignores anything else. */
export const PATCHABLE = (
	'GLAccountCode GLDefaultExpiryOffset Nr Email ExternalProviderTC ExternalProviderID Name CommercialName ContactFirstName ContactLastName ' +
	'CountryCode City Street StreetNumber Zipcode Box Phone Mobile Fax VATNumber IBAN Language VATLiable'
).split(' ');
export const patchable = (api: string) => PATCHABLE.some((name) => name.toLowerCase() === api.toLowerCase());

/** `PATCH /v1/parties/{id}` with the fields to change, then the party as the service holds it. */
export async function updateParty(client: ApiClient, id: string, body: IDataObject, itemIndex: number): Promise<IDataObject> {
	const path = `/v1/parties/${encodeURIComponent(id)}`;
	await sendJson(client, { method: 'PATCH', path, body, itemIndex, operation: `Update party ${id}` });
	return await getRecord(client, 'party', id, itemIndex);
}

const text = (max: number) => (value: unknown) => checkText(value, max);

/** Name, VAT Number and Party Type: the fields Create shows up front. */
export const MAIN_PARTY_FIELDS = recordFields([
	{ api: 'Name' },
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
	{ api: 'ExternalProviderID', description: 'e.g. its ID in your CRM' },
	{ api: 'IBAN', check: checkIban },
	{ api: 'InternalInfo', check: text(2000) },
	{ api: 'Language', check: checkLanguageCode, description: 'Two letters, e.g. NL, FR, EN' },
	{ api: 'Mobile', check: checkPhone },
	{ api: 'Nr', displayName: 'Number', description: 'Your customer or supplier number' },
	{ api: 'PeppolIdentifier', check: text(150), description: 'e.g. 0208:0123456749' },
	{ api: 'Phone', check: checkPhone },
	{ api: 'Street' },
	{ api: 'StreetNumber', check: text(20) },
	{ api: 'VATLiable', kind: 'boolean', description: 'Whether the party is subject to VAT' },
	{ api: 'Website' },
	{ api: 'Zipcode', check: text(20) },
]);

/** Party Type as a picker. */
export const partyTypeOption = { type: 'options' as const, options: PARTY_TYPES.map((value) => ({ name: value, value })), default: 'Customer' };

/** The three main fields as parameters of an operation (Name required). */
export function mainPartyProperties(): INodeProperties[] {
	const [name, vat, type] = MAIN_PARTY_FIELDS;
	return [
		{ displayName: name.displayName, name: name.name, type: 'string', required: true, default: '', description: name.description },
		{ displayName: vat.displayName, name: vat.name, type: 'string', default: '', description: vat.description },
		{ displayName: type.displayName, name: type.name, ...partyTypeOption, description: type.description },
	];
}
