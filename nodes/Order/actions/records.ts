/**
 * What the party and product operations share: field tables (the service's OpenAPI `Party` and `Product`) as parameters and
 * checked bodies, IDs, reads, lookups.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { inputError, requireValid } from '../../shared/node/input';
import { runItems } from '../../shared/node/items';
import { type FilterCondition, buildFilter } from '../../shared/query/odata';
import { PAGE_SIZE } from '../../shared/http/paging';
import { isRecord } from '../../shared/domain/values';
import type { ClientProvider } from '../../shared/node/router';
import type { ApiClient } from '../../shared/http/transport';
import { type Check, checkBoolean, checkJsonDepth, checkNumber, checkNumericId, checkText } from '../../shared/domain/validation';
import { readActForParty } from '../../shared/fields/fields';
import { answerError } from './writes';

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

/** `GET /v1/parties/{id}` or `/v1/products/{id}`. */
export async function getRecord(client: ApiClient, kind: RecordKind, id: string | number, itemIndex: number): Promise<IDataObject> {
	const path = `${RECORD_PATHS[kind]}/${encodeURIComponent(String(id))}`;
	return await client.request<IDataObject>({ method: 'GET', path, itemIndex, operation: `Get ${kind} ${id}` });
}

/** Party › Get and Product › Get: one record by its ID per item. */
export const getById = (kind: RecordKind) =>
	async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
		const read = (itemIndex: number) => readRecordId(this, itemIndex, kind);
		return await runItems(this, read, async (id, itemIndex) => {
			return await getRecord(await clients(itemIndex, readActForParty(this, itemIndex)), kind, id, itemIndex);
		});
	};

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
	throw answerError(node, message, hint, itemIndex);
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
	throw answerError(node, message, 'Check the record in the web app, or give its ID.', itemIndex);
}

/** A create answered 2xx without an ID: nothing confirms the record exists, so the item fails (never a false success). */
export function noIdError(node: INode, kind: RecordKind, hint: string, itemIndex: number): NodeApiError {
	const message = `Create ${kind} answered without a ${ID_KEYS[kind]}: the ${kind} may or may not exist`;
	return answerError(node, message, hint, itemIndex);
}
