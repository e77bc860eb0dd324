/**
 * What the party and product operations share: field tables (the service's OpenAPI `Party` and `Product`) as parameters and
 * checked bodies, IDs, reads, lookups; and the party's table (flat address fields, as the service's page "Party" allows).
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { inputError, requireValid } from '../../../shared/node/input';
import { runItems } from '../../../shared/node/items';
import { type FilterCondition, buildFilter } from '../../../shared/query/odata';
import { PAGE_SIZE } from '../../../shared/http/paging';
import { isRecord } from '../../../shared/domain/values';
import type { ClientProvider } from '../../../shared/node/router';
import type { ApiClient } from '../../../shared/http/transport';
import {
	type Check,
	checkBic,
	checkBoolean,
	checkChoice,
	checkCountryCode,
	checkEmail,
	checkIban,
	checkJsonDepth,
	checkLanguageCode,
	checkNumber,
	checkNumericId,
	checkPhone,
	checkText,
	checkVatNumber,
} from '../../../shared/domain/validation';
import { PARTY_TYPES } from '../../../shared/domain/orderTypes';
import { readPartyOption } from '../options';
import { sendJson } from '../order/writes';

export type RecordKind = 'party' | 'product';
const RECORD_PATHS: Record<RecordKind, string> = { party: '/v1/parties', product: '/v1/products' };
const ID_KEYS: Record<RecordKind, string> = { party: 'PartyID', product: 'ProductID' };

/** One field: its parameter, the API's name for it, and its check (text of at most 255 characters unless given). */
export interface RecordField {
	name: string;
	api: string;
	displayName: string;
	kind?: 'string' | 'number' | 'boolean';
	check?: (value: unknown) => Check<unknown>;
	description?: string;
}

/** An API name in words: ContactFirstName is "Contact First Name", VATLiable "VAT Liable". */
export const apiWords = (name: string) => name.replace(/([a-z])(?=[A-Z])|([A-Z])(?=[A-Z][a-z])/g, '$1$2 ');

/** A field table: each parameter's name (vatLiable, externalProviderId) and label from its API name, unless given. */
export const recordFields = (fields: Array<Omit<RecordField, 'name' | 'displayName'> & Partial<RecordField>>): RecordField[] =>
	fields.map((field) => ({
		name: field.api.replace(/^[A-Z]+(?=[A-Z][a-z]|$)|^[A-Z]/, (head) => head.toLowerCase()).replace(/ID$/, 'Id'),
		displayName: apiWords(field.api),
		...field,
	}));

/** Unknown fields of the service's type, sent as given; the fields above win. */
const otherFields: INodeProperties = {
	displayName: 'Other Fields (JSON)',
	name: 'otherFields',
	type: 'json',
	default: '{}',
	description: 'More fields of the service\'s type, sent as they are, e.g. {"CustomFields": [{"Key": "crm", "Value": "42"}]}; a field set above wins',
};

/** A collection's options: one parameter per field, then Other Fields (JSON). */
export function fieldOptions(fields: RecordField[]): INodeProperties[] {
	const options = fields.map(
		({ name, displayName, kind: type = 'string', description }): INodeProperties => ({
			displayName,
			name,
			type,
			default: type === 'boolean' ? true : type === 'number' ? 0 : '',
			description,
		}),
	);
	return [...options, otherFields].sort((a, b) => (a.displayName < b.displayName ? -1 : 1));
}

function defaultCheck(field: RecordField): (value: unknown) => Check<unknown> {
	if (field.kind === 'boolean') return checkBoolean;
	if (field.kind === 'number') return (value) => checkNumber(value, { min: -1e12, max: 1e12 });
	return (value) => checkText(value, 255);
}

/** Other Fields (JSON): an object (JSON text or mapped), at most a few levels deep. */
function readOtherFields(ctx: IExecuteFunctions, itemIndex: number, raw: unknown): IDataObject {
	const [label, hint] = ['Other Fields (JSON)', 'Enter a JSON object, e.g. {"CustomFields": [{"Key": "crm", "Value": "42"}]}, or map one.'];
	let value = raw;
	if (typeof raw === 'string') {
		try {
			value = raw.trim() ? JSON.parse(raw) : {};
		} catch (error) {
			throw inputError(ctx, itemIndex, label, undefined, `is not valid JSON: ${(error as Error).message}`, hint);
		}
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		throw inputError(ctx, itemIndex, label, value, 'is not a JSON object', hint);
	}
	return requireValid(ctx, itemIndex, label, value, (v) => checkJsonDepth(v, 8)) as IDataObject;
}

/** The body from a collection's values: each field set is checked and named as the API names it. */
export function readFields(ctx: IExecuteFunctions, itemIndex: number, values: IDataObject, fields: RecordField[]): IDataObject {
	const body: IDataObject = {};
	for (const field of fields) {
		const value = values[field.name];
		if (value === undefined || value === null || value === '') continue;
		body[field.api] = requireValid(ctx, itemIndex, field.displayName, value, field.check ?? defaultCheck(field)) as IDataObject[string];
	}
	return { ...(values.otherFields === undefined ? {} : readOtherFields(ctx, itemIndex, values.otherFields)), ...body };
}

/** The required ID field of an operation ("Party ID", "Product ID"). */
export function idField(kind: RecordKind, overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: apiWords(ID_KEYS[kind]),
		name: `${kind}Id`,
		type: 'string',
		required: true,
		default: `={{ $json.${ID_KEYS[kind]} }}`,
		placeholder: kind === 'party' ? 'e.g. 5000001' : 'e.g. 8000001',
		description: `By default the input item's ${ID_KEYS[kind]} (${kind === 'party' ? 'Find by VAT Number, Create and Get' : 'Create or Update and Get'} give it)`,
		...overrides,
	};
}

/** The ID parameter of one item: a positive whole number, or '' when `optional` and empty. */
export function readRecordId(ctx: IExecuteFunctions, itemIndex: number, kind: RecordKind, optional = false): string {
	const raw = ctx.getNodeParameter(`${kind}Id`, itemIndex, '') as unknown;
	if (optional && (raw === '' || raw === undefined || raw === null)) return '';
	return requireValid(ctx, itemIndex, apiWords(ID_KEYS[kind]), raw, (v) => checkNumericId(v, ID_KEYS[kind]));
}

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

/** `GET /v1/parties/{id}` or `/v1/products/{id}`. */
export async function getRecord(client: ApiClient, kind: RecordKind, id: string | number, itemIndex: number): Promise<IDataObject> {
	const path = `${RECORD_PATHS[kind]}/${encodeURIComponent(String(id))}`;
	return await client.request<IDataObject>({ method: 'GET', path, itemIndex, operation: `Get ${kind} ${id}` });
}

/** Party › Get and Product › Get: one record by its ID. */
export function getOperation(kind: RecordKind) {
	return {
		description: updateDisplayOptions({ show: { resource: [kind], operation: ['get'] } }, [idField(kind)]),
		async execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
			return await runItems(
				this,
				(itemIndex) => readRecordId(this, itemIndex, kind),
				async (id, itemIndex) => {
					return await getRecord(await clients(itemIndex, readPartyOption(this, itemIndex)), kind, id, itemIndex);
				},
			);
		},
	};
}

/** How many pages (120 records each) a lookup reads when the service cannot filter on the field. */
const LOOKUP_PAGES = 10;

/** One lookup page: the published `{Items, NextPageLink, Count}` (or a bare list); any other answer cannot say "none". */
function lookupPage(node: INode, body: unknown, operation: string, itemIndex: number): { items: IDataObject[]; more: boolean } {
	const list = Array.isArray(body) ? body : isRecord(body) ? (body.Items ?? body.items ?? body.value) : undefined;
	if (Array.isArray(list) && list.every(isRecord)) {
		const link = isRecord(body) ? (body.NextPageLink ?? body.NextpageLink ?? body['@odata.nextLink']) : undefined;
		return { items: list, more: typeof link === 'string' && link.trim() !== '' };
	}
	const shown = body === undefined || body === '' ? 'an empty answer' : JSON.stringify(body).slice(0, 80);
	const message = `${operation}: the service's answer cannot be read (${shown}), so nothing was created or changed`;
	const hint = 'An unreadable answer is not "none found": run it again later; if it stays, check the records in the web app.';
	throw new NodeApiError(node, { message } as JsonObject, { message, description: hint, itemIndex });
}

/** The service's published 400 for a property it cannot filter on ("Could not find a property named …"). */
const notFilterable = (error: unknown) =>
	error instanceof NodeApiError &&
	/could not find a property/i.test(`${error.message} ${String(error.context.apiDescription ?? '')} ${error.description ?? ''}`);

/** The exact filter (the service may refuse or ignore it), a published one to read the list by instead, what counts as the record, what to do past the bound. */
export type Lookup = { conditions: FilterCondition[]; walk?: FilterCondition[]; matches: (record: IDataObject) => boolean; hint: string };

/**
 * The records that match: first asked with the exact filter; when the service refuses it (400 "Could not find a
 * property") or ignores it (an answer holding others), by reading the list (filtered by `walk`), at most
 * LOOKUP_PAGES pages, comparing each record. An unreadable answer, or a longer list, is an error, never "none".
 */
export async function findRecords(client: ApiClient, node: INode, kind: RecordKind, lookup: Lookup, itemIndex: number): Promise<IDataObject[]> {
	const read = async (conditions: FilterCondition[], skip: number) => {
		const qs: IDataObject = conditions.length ? { $filter: buildFilter(conditions, 'and') } : {};
		if (skip) qs.$skip = skip;
		const operation = `Find ${kind}${conditions.length ? ` where ${String(qs.$filter)}` : ''}`;
		return lookupPage(node, await client.request<unknown>({ method: 'GET', path: RECORD_PATHS[kind], qs, itemIndex, operation }), operation, itemIndex);
	};
	const filtered = await read(lookup.conditions, 0).catch((error: unknown) => (notFilterable(error) ? undefined : Promise.reject(error)));
	// Every record returned has an ID n8n carries exactly: never PATCH /v1/parties/undefined nor {"ProductID": null}.
	const checked = (records: IDataObject[]) => records.filter((record) => recordId(node, kind, record, itemIndex));
	if (filtered?.items.every(lookup.matches)) return checked(filtered.items);
	const found: IDataObject[] = [];
	for (let pages = 0, skip = 0; pages < LOOKUP_PAGES; pages++) {
		const page = await read(lookup.walk ?? [], skip);
		found.push(...page.items.filter(lookup.matches));
		if (!page.more || !page.items.length) return checked(found);
		skip += page.items.length;
	}
	if (found.length) return checked(found);
	const message = `Find ${kind}: the service cannot filter on this field and its first ${LOOKUP_PAGES * PAGE_SIZE} records hold none, so nothing was created`;
	throw new NodeOperationError(node, message, { itemIndex, description: lookup.hint });
}

/** The ID of a record the service answered: a positive whole number n8n carries exactly, else an error naming what came. */
function recordId(node: INode, kind: RecordKind, record: IDataObject, itemIndex: number): string {
	const checked = checkNumericId(record[ID_KEYS[kind]], ID_KEYS[kind]);
	if (checked.ok) return checked.value;
	const message = `Find ${kind}: the service answered a ${kind} whose ${ID_KEYS[kind]} is ${JSON.stringify(record[ID_KEYS[kind]]) ?? 'missing'}, so nothing was created or changed`;
	throw new NodeApiError(node, { message } as JsonObject, { message, description: 'Check the record in the web app, or give its ID.', itemIndex });
}

/** A create answered 2xx without an ID: nothing confirms the record exists, so the item fails (never a false success). */
export function noIdError(node: INode, kind: RecordKind, hint: string, itemIndex: number): NodeApiError {
	const message = `Create ${kind} answered without a ${ID_KEYS[kind]}: the ${kind} may or may not exist`;
	return new NodeApiError(node, { message } as JsonObject, { message, description: hint, itemIndex });
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
