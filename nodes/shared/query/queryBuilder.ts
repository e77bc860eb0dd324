/**
 * The filter and sort builder's pure half: the properties each list filters and sorts on,
 * and the builder's parameter values turned into `$filter` / `$orderby` (no n8n, no I/O).
 * The parameter descriptions are in filterFields.ts, reading them from a node in node/queryInput.ts.
 */
import { canonicalValue, ORDER_DIRECTIONS, ORDER_STATUSES, ORDER_TYPES, PARTY_TYPES } from '../domain/orderTypes';

import type { Combine, ComparisonOperator, FilterCondition, ODataType, SortKey } from './odata';
import { andFilters, buildFilter, buildOrderBy, normalizeRawFilter, ODataError, unpairedSurrogateAt } from './odata';

export type QueryResource = 'order' | 'party' | 'product';

export interface QueryFieldSpec {
	/** Label in the dropdown. */
	name: string;
	/** Property path as the API spells it. */
	value: string;
	type: ODataType;
	/** What the value means, after the path and type every description starts with. */
	description?: string;
	/** The API's values of an enumerated property: the editor offers them, and a near miss is spelled the API's way. */
	values?: readonly string[];
}

/** Choice in the field dropdowns that reveals a free property path. */
export const CUSTOM_FIELD = '__custom';

/** Properties the API filters and sorts on, per list (emulator/README.md "OData lists" says which are documented). */
/** A property the lists filter on; its label is the path in words (`Customer/VATNumber`: "Customer VAT Number") unless `more` names one. */
const queryField = (value: string, type: ODataType, more: Partial<QueryFieldSpec> = {}): QueryFieldSpec => ({
	name: value.replace(/\//g, '').replace(/[a-z](?=[A-Z])|[A-Z](?=[A-Z][a-z])/g, '$& '),
	value,
	type,
	...more,
});

export const QUERY_FIELDS: Record<QueryResource, QueryFieldSpec[]> = {
	// Only properties of the service's filterable list (FILTERABLE_ORDER_PROPERTIES): any other answers 400.
	order: [
		queryField('CounterParty/PartyID', 'number', { name: 'Counter Party ID', description: 'The customer of a sale, the supplier of a purchase' }),
		queryField('Created', 'datetime'),
		queryField('Currency', 'string', { description: 'Three-letter code such as EUR' }),
		queryField('ExpiryDate', 'date'),
		queryField('ExternalProviderID', 'string', { description: 'Your own unique ID stored on create' }),
		queryField('IsSent', 'boolean'),
		queryField('LastModified', 'datetime'),
		queryField('OrderDate', 'date'),
		queryField('OrderDirection', 'string', { description: 'Income (sales) or Cost (purchases)', values: ORDER_DIRECTIONS }),
		queryField('OrderID', 'number'),
		queryField('OrderNumber', 'string'),
		queryField('OrderStatus', 'string', { values: ORDER_STATUSES }),
		queryField('OrderType', 'string', { values: ORDER_TYPES }),
		queryField('Paid', 'boolean'),
		queryField('PaidDate', 'date'),
		queryField('PaymentReference', 'string'),
		queryField('Reference', 'string'),
		queryField('TotalExcl', 'number', { name: 'Total Excl. VAT' }),
		queryField('TotalIncl', 'number', { name: 'Total Incl. VAT' }),
		queryField('TotalVAT', 'number', { name: 'Total VAT' }),
	],
	party: [
		queryField('City', 'string'),
		queryField('CountryCode', 'string', { description: 'Two-letter code such as BE' }),
		queryField('Created', 'datetime'),
		queryField('DisplayName', 'string'),
		queryField('Email', 'string'),
		queryField('LastModified', 'datetime'),
		queryField('Name', 'string'),
		queryField('PartyID', 'number'),
		queryField('PartyType', 'string', { values: PARTY_TYPES }),
		queryField('VATNumber', 'string'),
	],
	product: [
		queryField('Created', 'datetime'),
		queryField('Description', 'string'),
		queryField('GroupName', 'string'),
		queryField('LastModified', 'datetime'),
		queryField('ProductID', 'number'),
		queryField('Reference', 'string'),
	],
};

/** The order properties the service filters on since 17 March 2026 (docs/api.md "Queries and paging"); any other answers 400. */
export const FILTERABLE_ORDER_PROPERTIES = (
	'OrderID CounterParty/PartyID CompanyID OrderDirection OrderType OrderDate OrderNumber ExpiryDate ExportedToConnector AccountantVerificationNeeded ' +
	'TotalExcl TotalVAT TotalIncl FXRateToForeign Paid OrderStatus ExternalProviderID Currency PaymentReference LastModified Created ApprovalStatus ' +
	'PaidDate PaymentMethod Reference RemindersSent ExternalProvider IsSent'
).split(' ');

/** Operators as the dropdown offers them; isEmpty / isNotEmpty compare with null. */
export type BuilderOperator = ComparisonOperator | 'isEmpty' | 'isNotEmpty';

/** One condition as the fixed collection stores it. */
export interface ConditionParameter {
	field?: string;
	customField?: string;
	valueType?: ODataType;
	operator?: BuilderOperator;
	value?: unknown;
}

export interface SortKeyParameter {
	field?: string;
	customField?: string;
	direction?: 'asc' | 'desc';
}

function entries<T>(collection: unknown, key: string): T[] {
	if (!collection || typeof collection !== 'object') return [];
	const list = (collection as Record<string, unknown>)[key];
	if (Array.isArray(list)) return list as T[];
	return list && typeof list === 'object' ? [list as T] : [];
}

/** The picked property, or the typed path for a custom one; throws when there is none. */
function resolveField(entry: { field?: string; customField?: string }, index: number): string {
	const chosen = (entry.field ?? '').trim();
	const field = chosen === CUSTOM_FIELD ? (entry.customField ?? '').trim() : chosen;
	if (!field) throw new ODataError('has no property path', undefined, index);
	return field;
}

/** The properties of a list whose values the API enumerates. */
export function enumeratedFields(resource: QueryResource): Array<QueryFieldSpec & { values: readonly string[] }> {
	return QUERY_FIELDS[resource].filter((field): field is QueryFieldSpec & { values: readonly string[] } => !!field.values);
}

/** The enumerated spec a condition picked from the dropdown (not a custom path), if any. */
function enumeratedSpec(resource: QueryResource, entry: ConditionParameter): (QueryFieldSpec & { values: readonly string[] }) | undefined {
	if (entry.field === CUSTOM_FIELD) return undefined;
	return enumeratedFields(resource).find((field) => field.value === (entry.field ?? '').trim());
}

/** The `filters` value → conditions (pure); the type from the field list, or Value Type for a custom path. ODataError with the index. */
export function conditionsFromParameter(collection: unknown, resource: QueryResource): FilterCondition[] {
	return entries<ConditionParameter>(collection, 'conditions').map((entry, index) => {
		const field = resolveField(entry, index);
		// e.g. Customer Name saved before 1.1: refused here, before the request the service would answer 400.
		if (resource === 'order' && !FILTERABLE_ORDER_PROPERTIES.some((path) => path.toLowerCase() === field.toLowerCase()))
			throw new ODataError(
				`${field}: the service does not filter orders on it (400 since 17 March 2026). To find orders by customer, use Search Text (fullTextSearch) or Counter Party ID`,
				field,
				index,
			);
		// Offered by 1.0, not properties of the published Product: a saved pick would now be sent as text.
		if (resource === 'product' && entry.field !== CUSTOM_FIELD && ['IsActive', 'UnitPriceExcl', 'VATPercentage'].includes(field))
			throw new ODataError(`${field}: not a property of the service's Product (its price is AmountExcl, its rate VAT); pick another field`, field, index);
		const operator = entry.operator ?? 'eq';
		if (operator === 'isEmpty' || operator === 'isNotEmpty') return { field, operator: operator === 'isEmpty' ? 'eq' : 'ne', value: null, type: 'null' };
		const known = entry.field === CUSTOM_FIELD ? undefined : QUERY_FIELDS[resource].find((spec) => spec.value === field)?.type;
		const type = known ?? entry.valueType ?? 'string';
		const spelled = canonicalValue(enumeratedSpec(resource, entry)?.values ?? [], entry.value);
		const value = spelled ?? (typeof entry.value === 'string' && type !== 'string' ? entry.value.trim() : entry.value);
		// An empty value is refused for every type: a condition left as added would send eq '' and match nothing.
		if (value === undefined || value === null || value === '') {
			throw new ODataError(`${field}: the value is empty (enter one, or use Is Empty to match missing values)`, field, index);
		}
		return { field, operator, value, type };
	});
}

/** Enumerated values (pure): one spelled another way is sent the API's way; one none of the API's is sent as given, may match nothing. */
export function enumeratedValueNotes(collection: unknown, resource: QueryResource): { respelled: string[]; unknown: string[] } {
	const notes = { respelled: [] as string[], unknown: [] as string[] };
	for (const entry of entries<ConditionParameter>(collection, 'conditions')) {
		const spec = enumeratedSpec(resource, entry);
		if (!spec || entry.operator === 'isEmpty' || entry.operator === 'isNotEmpty') continue;
		const shown = JSON.stringify(entry.value ?? '');
		const spelled = canonicalValue(spec.values, entry.value);
		if (spelled === undefined) {
			notes.unknown.push(`${spec.name} ${shown} is not one of the API's values (${spec.values.join(', ')}); it was sent as given and may match nothing`);
		} else if (spelled !== entry.value) {
			notes.respelled.push(`${spec.name} ${shown} was sent as '${spelled}', the API's spelling`);
		}
	}
	return notes;
}

/** The `sort` fixed-collection value → sort keys (pure; any resource's properties sort alike). */
export function sortKeysFromParameter(collection: unknown): SortKey[] {
	return entries<SortKeyParameter>(collection, 'keys').map((entry, index) => ({
		field: resolveField(entry, index),
		direction: entry.direction === 'desc' ? 'desc' : 'asc',
	}));
}

export interface ODataQuery {
	$filter?: string;
	$orderby?: string;
}

export interface QueryInput {
	filters?: unknown;
	combine?: Combine;
	sort?: unknown;
	rawFilter?: string;
	/** Conditions the node adds (ANDed with the user's filter, parenthesised as needed). */
	extraFilter?: string;
}

export type QueryProblemPart = 'filter' | 'sort' | 'rawFilter';

/** A builder input that cannot become a query; `part` and `index` locate it. */
export class QueryInputError extends ODataError {
	constructor(
		message: string,
		readonly part: QueryProblemPart,
		field?: string,
		index?: number,
	) {
		super(message, field, index);
		this.name = 'QueryInputError';
	}
}

export function located<T>(part: QueryProblemPart, run: () => T): T | QueryInputError {
	try {
		return run();
	} catch (error) {
		if (error instanceof QueryInputError) return error;
		if (error instanceof ODataError) return new QueryInputError(error.message, part, error.field, error.index);
		return new QueryInputError(String((error as Error)?.message ?? error), part);
	}
}

/** Builder values → `$filter` / `$orderby` (pure). A raw filter replaces the conditions. */
export function buildQuery(resource: QueryResource, input: QueryInput): ODataQuery {
	const at = <T>(part: QueryProblemPart, run: () => T): T => {
		const result = located(part, run);
		if (result instanceof QueryInputError) throw result;
		return result;
	};
	const userFilter =
		at('rawFilter', () => normalizeRawFilter(input.rawFilter ?? '')) ||
		at('filter', () => buildFilter(conditionsFromParameter(input.filters, resource), input.combine === 'or' ? 'or' : 'and'));
	const filter = at('filter', () => andFilters(userFilter, input.extraFilter));
	const orderby = at('sort', () => buildOrderBy(sortKeysFromParameter(input.sort)));
	const query: ODataQuery = {};
	if (filter) query.$filter = filter;
	if (orderby) query.$orderby = orderby;
	return query;
}

/** A query as decoded text for hints (`$filter=… · $orderby=…`): the output pane cuts the encoded form off. Never throws. */
export function describeQuery(query: ODataQuery): string {
	const parts: string[] = [];
	if (query.$filter) parts.push(`$filter=${query.$filter}`);
	if (query.$orderby) parts.push(`$orderby=${query.$orderby}`);
	if (!parts.length) return 'No $filter or $orderby sent';
	const broken = [query.$filter, query.$orderby].some((text) => typeof text === 'string' && unpairedSurrogateAt(text) >= 0);
	return broken ? `${parts.join(' · ')} (cannot be URL-encoded: it contains an invalid character)` : parts.join(' · ');
}
