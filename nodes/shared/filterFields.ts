/**
 * The filter and sort builder: parameter descriptions shared by every node that lists
 * orders, parties or products, and the readers that turn them into `$filter` /
 * `$orderby` (validated before any request). Parameter names are arguments, so a node
 * can place the builder wherever it likes (e.g. the Order Trigger's extra conditions).
 */
import type {
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
	IPollFunctions,
	NodeOperationError,
} from 'n8n-workflow';

import { inputError } from './input';
import { ORDER_TYPES } from './orderTypes';

import type { Combine, ComparisonOperator, FilterCondition, ODataType, SortKey } from './odata';
import { andFilters, buildCondition, buildOrderBy, normalizeRawFilter, ODataError, toQueryString } from './odata';

export type QueryResource = 'order' | 'party' | 'product';

export interface QueryFieldSpec {
	/** Label in the dropdown. */
	name: string;
	/** Property path as the API spells it. */
	value: string;
	type: ODataType;
	description?: string;
}

/** Choice in the field dropdowns that reveals a free property path. */
export const CUSTOM_FIELD = '__custom';

const ORDER_STATUSES = 'Draft, ToSend, ToPay, Sent, Paid, Credited, Refused, Canceled, ApprovalNeeded';

/** Properties the API filters and sorts on, per list (contract 2.4, 2.5, 4.10; field notes). */
export const QUERY_FIELDS: Record<QueryResource, QueryFieldSpec[]> = {
	order: [
		{ name: 'Counter Party Name (CounterParty/DisplayName)', value: 'CounterParty/DisplayName', type: 'string' },
		{ name: 'Created', value: 'Created', type: 'datetime' },
		{ name: 'Currency', value: 'Currency', type: 'string', description: 'Three-letter code such as EUR' },
		{ name: 'Customer Name (Customer/Name)', value: 'Customer/Name', type: 'string' },
		{ name: 'Customer VAT Number (Customer/VATNumber)', value: 'Customer/VATNumber', type: 'string' },
		{ name: 'Expiry Date', value: 'ExpiryDate', type: 'date' },
		{ name: 'External Provider ID', value: 'ExternalProviderID', type: 'string', description: 'Your own unique ID stored on create' },
		{ name: 'Is Sent', value: 'IsSent', type: 'boolean' },
		{ name: 'Last Modified', value: 'LastModified', type: 'datetime' },
		{ name: 'Order Date', value: 'OrderDate', type: 'date' },
		{ name: 'Order Direction', value: 'OrderDirection', type: 'string', description: 'Income (sales) or Cost (purchases)' },
		{ name: 'Order ID', value: 'OrderID', type: 'number' },
		{ name: 'Order Number', value: 'OrderNumber', type: 'string' },
		{ name: 'Order Status', value: 'OrderStatus', type: 'string', description: ORDER_STATUSES },
		{ name: 'Order Type', value: 'OrderType', type: 'string', description: ORDER_TYPES.join(', ') },
		{ name: 'Overdue', value: 'Overdue', type: 'boolean' },
		{ name: 'Paid', value: 'Paid', type: 'boolean' },
		{ name: 'Payment Reference', value: 'PaymentReference', type: 'string' },
		{ name: 'Reference', value: 'Reference', type: 'string' },
		{ name: 'To Pay', value: 'ToPay', type: 'number' },
		{ name: 'Total Excl. VAT', value: 'TotalExcl', type: 'number' },
		{ name: 'Total Incl. VAT', value: 'TotalIncl', type: 'number' },
	],
	party: [
		{ name: 'City', value: 'City', type: 'string' },
		{ name: 'Country Code', value: 'CountryCode', type: 'string', description: 'Two-letter code such as BE' },
		{ name: 'Created', value: 'Created', type: 'datetime' },
		{ name: 'Display Name', value: 'DisplayName', type: 'string' },
		{ name: 'Email', value: 'Email', type: 'string' },
		{ name: 'Last Modified', value: 'LastModified', type: 'datetime' },
		{ name: 'Name', value: 'Name', type: 'string' },
		{ name: 'Party ID', value: 'PartyID', type: 'number' },
		{ name: 'Party Type', value: 'PartyType', type: 'string', description: 'Such as Customer or Supplier' },
		{ name: 'VAT Number', value: 'VATNumber', type: 'string' },
	],
	product: [
		{ name: 'Created', value: 'Created', type: 'datetime' },
		{ name: 'Description', value: 'Description', type: 'string' },
		{ name: 'Group Name', value: 'GroupName', type: 'string' },
		{ name: 'Is Active', value: 'IsActive', type: 'boolean' },
		{ name: 'Last Modified', value: 'LastModified', type: 'datetime' },
		{ name: 'Product ID', value: 'ProductID', type: 'number' },
		{ name: 'Reference', value: 'Reference', type: 'string' },
		{ name: 'Unit Price Excl. VAT', value: 'UnitPriceExcl', type: 'number' },
		{ name: 'VAT Percentage', value: 'VATPercentage', type: 'number' },
	],
};

/** Operators as the dropdown offers them; isEmpty / isNotEmpty compare with null. */
export type BuilderOperator = ComparisonOperator | 'isEmpty' | 'isNotEmpty';

const OPERATOR_OPTIONS: Array<INodePropertyOptions & { value: BuilderOperator }> = [
	{ name: 'After / Greater Than', value: 'gt', description: 'OData: gt' },
	{ name: 'Before / Less Than', value: 'lt', description: 'OData: lt' },
	{ name: 'Equals', value: 'eq', description: 'OData: eq' },
	{ name: 'Is Empty', value: 'isEmpty', description: 'OData: eq null' },
	{ name: 'Is Not Empty', value: 'isNotEmpty', description: 'OData: ne null' },
	{ name: 'Not Equals', value: 'ne', description: 'OData: ne' },
	{ name: 'On or After / Greater Than or Equal', value: 'ge', description: 'OData: ge' },
	{ name: 'On or Before / Less Than or Equal', value: 'le', description: 'OData: le' },
];

const VALUE_TYPE_OPTIONS: Array<INodePropertyOptions & { value: ODataType }> = [
	{ name: 'Boolean', value: 'boolean', description: 'True or false' },
	{ name: 'Date', value: 'date', description: "YYYY-MM-DD, sent as DateTime'…'" },
	{ name: 'Date and Time', value: 'datetime', description: "YYYY-MM-DDThh:mm:ss, sent as DateTime'…'" },
	{ name: 'Number', value: 'number', description: 'Digits with "." for decimals, sent bare' },
	{ name: 'Text', value: 'string', description: 'Sent in single quotes' },
];

function fieldOptions(resource: QueryResource): INodePropertyOptions[] {
	return [
		...QUERY_FIELDS[resource].map((field) => ({
			name: field.name,
			value: field.value,
			description: field.description ?? `${field.value} (${field.type === 'string' ? 'text' : field.type})`,
		})),
		{ name: 'Custom Property Path', value: CUSTOM_FIELD, description: 'Any property the API filters on, e.g. Supplier/Name' },
	];
}

/** The Field dropdown of a condition or sort key: the resource's properties plus a custom path. */
function fieldPicker(resource: QueryResource, description: string): INodeProperties {
	const fields = fieldOptions(resource);
	const defaultField = fields[0].value as string;
	return {
		displayName: 'Field',
		name: 'field',
		type: 'options',
		options: fields,
		default: defaultField,
		description,
	};
}

const customPathField: INodeProperties = {
	displayName: 'Property Path',
	name: 'customField',
	type: 'string',
	default: '',
	placeholder: 'e.g. Supplier/Name',
	description: 'Property name as the API spells it (case-sensitive); use / for a sub-property',
	displayOptions: { show: { field: [CUSTOM_FIELD] } },
};

/**
 * Fixed collection of filter conditions (field, operator, value) for one list.
 * The value is read as the field's type: text is quoted for you, dates become DateTime'…'.
 */
export function filterConditionsField(
	resource: QueryResource,
	displayOptions?: IDisplayOptions,
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Condition',
		default: {},
		description:
			'Conditions the records must meet, sent as the OData $filter (the generated filter is shown as a hint in the output)',
		...(displayOptions ? { displayOptions } : {}),
		...overrides,
		options: [
			{
				displayName: 'Condition',
				name: 'conditions',
				values: [
					fieldPicker(resource, 'Property to compare'),
					customPathField,
					{
						displayName: 'Value Type',
						name: 'valueType',
						type: 'options',
						options: VALUE_TYPE_OPTIONS,
						default: 'string',
						description: 'How the value is written in the filter',
						displayOptions: { show: { field: [CUSTOM_FIELD] } },
					},
					{
						displayName: 'Operator',
						name: 'operator',
						type: 'options',
						options: OPERATOR_OPTIONS,
						default: 'eq',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: "e.g. Invoice, 2024-01-31, O'Brien",
						description:
							"Plain value, no quotes needed: text as is (a ' is escaped for you), dates YYYY-MM-DD or YYYY-MM-DDThh:mm:ss, numbers with '.' for decimals, booleans true/false",
						displayOptions: { hide: { operator: ['isEmpty', 'isNotEmpty'] } },
					},
				],
			},
		],
	};
}

/** AND / OR between the builder's conditions. */
export function filterCombineField(displayOptions?: IDisplayOptions, overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Combine Conditions',
		name: 'filterCombine',
		type: 'options',
		options: [
			{ name: 'AND (All Conditions Must Match)', value: 'and' },
			{ name: 'OR (Any Condition May Match)', value: 'or' },
		],
		default: 'and',
		description: 'How the filter conditions are joined',
		...(displayOptions ? { displayOptions } : {}),
		...overrides,
	};
}

/** Sort keys (first key sorts first) → `$orderby`. */
export function sortField(
	resource: QueryResource,
	displayOptions?: IDisplayOptions,
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: 'Sort',
		name: 'sort',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Sort Key',
		default: {},
		description: 'Order of the records, sent as the OData $orderby; the first key sorts first',
		...(displayOptions ? { displayOptions } : {}),
		...overrides,
		options: [
			{
				displayName: 'Key',
				name: 'keys',
				values: [
					fieldPicker(resource, 'Property to sort on'),
					customPathField,
					{
						displayName: 'Direction',
						name: 'direction',
						type: 'options',
						options: [
							{ name: 'Ascending', value: 'asc' },
							{ name: 'Descending', value: 'desc' },
						],
						default: 'asc',
					},
				],
			},
		],
	};
}

/** "OData Filter (Raw)": for an options collection; replaces the builder's conditions. */
export const rawFilterOption: INodeProperties = {
	displayName: 'OData Filter (Raw)',
	name: 'rawFilter',
	type: 'string',
	default: '',
	placeholder: "e.g. OrderType eq 'Invoice' and OrderDate ge DateTime'2024-01-01'",
	description:
		'A $filter written by hand. When set it replaces the Filters conditions. Write spaces as spaces (a + between words is read as a space); the value is URL-encoded for you.',
};

/** Filters, Combine Conditions and Sort for one list, under the given display options. */
export function queryFields(resource: QueryResource, displayOptions?: IDisplayOptions): INodeProperties[] {
	return [
		filterConditionsField(resource, displayOptions),
		filterCombineField(displayOptions),
		sortField(resource, displayOptions),
	];
}

// ---- reading ------------------------------------------------------------------------------

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

function resolveField(resource: QueryResource, field: string | undefined, customField: string | undefined): string {
	const chosen = (field ?? '').trim();
	return chosen === CUSTOM_FIELD ? (customField ?? '').trim() : chosen;
}

/** The known type of a property, or undefined for a custom path. */
export function fieldType(resource: QueryResource, path: string): ODataType | undefined {
	return QUERY_FIELDS[resource].find((field) => field.value === path)?.type;
}

/**
 * The `filters` fixed-collection value → conditions (pure). The type comes from the
 * field list, or from Value Type for a custom path. Throws ODataError with the index.
 */
export function conditionsFromParameter(collection: unknown, resource: QueryResource): FilterCondition[] {
	return entries<ConditionParameter>(collection, 'conditions').map((entry, index) => {
		const field = resolveField(resource, entry.field, entry.customField);
		if (!field) throw new ODataError('has no property path', undefined, index);
		const operator = entry.operator ?? 'eq';
		if (operator === 'isEmpty' || operator === 'isNotEmpty') {
			return { field, operator: operator === 'isEmpty' ? 'eq' : 'ne', value: null, type: 'null' };
		}
		const known = entry.field === CUSTOM_FIELD ? undefined : fieldType(resource, field);
		const type = known ?? entry.valueType ?? 'string';
		const value = typeof entry.value === 'string' && type !== 'string' ? entry.value.trim() : entry.value;
		if (type !== 'string' && (value === '' || value === undefined || value === null)) {
			throw new ODataError(`${field}: the value is empty (use Is Empty to match missing values)`, field, index);
		}
		return { field, operator, value: value ?? '', type };
	});
}

/** The `sort` fixed-collection value → sort keys (pure). */
export function sortKeysFromParameter(collection: unknown, resource: QueryResource): SortKey[] {
	return entries<SortKeyParameter>(collection, 'keys').map((entry, index) => {
		const field = resolveField(resource, entry.field, entry.customField);
		if (!field) throw new ODataError('has no property path', undefined, index);
		return { field, direction: entry.direction === 'desc' ? 'desc' : 'asc' };
	});
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

function located<T>(part: QueryProblemPart, run: () => T): T | QueryInputError {
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
	const raw = located('rawFilter', () => normalizeRawFilter(input.rawFilter ?? ''));
	if (raw instanceof QueryInputError) throw raw;
	let userFilter = raw;
	if (!userFilter) {
		const built = located('filter', () => {
			const conditions = conditionsFromParameter(input.filters, resource);
			return conditions.map((condition, index) => buildCondition(condition, index)).join(` ${input.combine === 'or' ? 'or' : 'and'} `);
		});
		if (built instanceof QueryInputError) throw built;
		userFilter = built;
	}
	const filter = located('filter', () => andFilters(userFilter, input.extraFilter));
	if (filter instanceof QueryInputError) throw filter;
	const orderby = located('sort', () => buildOrderBy(sortKeysFromParameter(input.sort, resource)));
	if (orderby instanceof QueryInputError) throw orderby;
	const query: ODataQuery = {};
	if (filter) query.$filter = filter;
	if (orderby) query.$orderby = orderby;
	return query;
}

/**
 * Human text of a query for hints: `$filter=… · $orderby=…` plus the encoded form.
 * Never throws: a query that cannot be URL-encoded is described without the encoded form.
 */
export function describeQuery(query: ODataQuery): string {
	const parts: string[] = [];
	if (query.$filter) parts.push(`$filter=${query.$filter}`);
	if (query.$orderby) parts.push(`$orderby=${query.$orderby}`);
	if (!parts.length) return 'No $filter or $orderby sent';
	let encoded: string;
	try {
		encoded = `sent as ?${toQueryString({ ...query })}`;
	} catch {
		encoded = 'cannot be URL-encoded: it contains an invalid character';
	}
	return `${parts.join(' · ')} (${encoded})`;
}

// ---- node glue ----------------------------------------------------------------------------

export type QueryContext = IExecuteFunctions | IPollFunctions;

/** Where the builder's parameters live; `rawFilter` may be a dotted path such as `options.rawFilter`. */
export interface QueryParameterNames {
	filters?: string;
	combine?: string;
	sort?: string;
	rawFilter?: string;
}

export const DEFAULT_QUERY_PARAMETERS: Required<QueryParameterNames> = {
	filters: 'filters',
	combine: 'filterCombine',
	sort: 'sort',
	rawFilter: 'options.rawFilter',
};

/** getNodeParameter for both contexts: per item in execute, without an item in poll. */
function parameter(ctx: QueryContext, name: string, itemIndex: number | undefined, fallback: unknown): unknown {
	if (itemIndex === undefined) {
		return (ctx as IPollFunctions).getNodeParameter(name, fallback);
	}
	return (ctx as IExecuteFunctions).getNodeParameter(name, itemIndex, fallback);
}

const PART_LABEL: Record<QueryProblemPart, string> = {
	filter: 'Filters',
	sort: 'Sort',
	rawFilter: 'OData Filter (Raw)',
};

const PART_FIX: Record<QueryProblemPart, string> = {
	filter:
		"Fix the condition's field or value: text as is, dates as YYYY-MM-DD or YYYY-MM-DDThh:mm:ss, numbers with '.' for decimals, booleans true or false; property paths use letters, digits, _ and /.",
	sort: 'Use a property path of letters, digits, _ and / (e.g. CounterParty/DisplayName), each property once.',
	rawFilter:
		"Check the quotes and parentheses of the filter: text in single quotes with an embedded ' doubled (O''Brien), every ( closed.",
};

/** A QueryInputError as the NodeOperationError a node throws: names the field and the item. */
export function queryError(ctx: QueryContext, error: QueryInputError, itemIndex: number | undefined): NodeOperationError {
	const where =
		error.part === 'rawFilter'
			? ''
			: ` ${error.part === 'sort' ? 'key' : 'condition'} ${(error.index ?? 0) + 1}${error.field ? ` (${error.field})` : ''}`;
	const detail = error.field && error.message.startsWith(`${error.field}: `) ? error.message.slice(error.field.length + 2) : error.message;
	return inputError(ctx, itemIndex, PART_LABEL[error.part], undefined, `${where.trim()}: ${detail}`, PART_FIX[error.part]);
}

/**
 * The builder's conditions alone (e.g. a trigger's extra conditions), validated.
 * Pass itemIndex undefined in a poll function.
 */
export function readConditions(
	ctx: QueryContext,
	itemIndex: number | undefined,
	resource: QueryResource,
	name = DEFAULT_QUERY_PARAMETERS.filters,
): FilterCondition[] {
	const collection = parameter(ctx, name, itemIndex, {});
	const conditions = located('filter', () => {
		const list = conditionsFromParameter(collection, resource);
		list.forEach((condition, index) => buildCondition(condition, index));
		return list;
	});
	if (conditions instanceof QueryInputError) throw queryError(ctx, conditions, itemIndex);
	return conditions;
}

/**
 * Reads Filters / Combine Conditions / Sort / OData Filter (Raw) and returns the query
 * options, or throws a NodeOperationError naming the condition and the item before any
 * request is made. `extraFilter` is ANDed on (e.g. a lookup by ExternalProviderID).
 */
export function readQuery(
	ctx: QueryContext,
	itemIndex: number | undefined,
	resource: QueryResource,
	names: QueryParameterNames = {},
	extraFilter?: string,
): ODataQuery {
	const n = { ...DEFAULT_QUERY_PARAMETERS, ...names };
	const input: QueryInput = {
		filters: parameter(ctx, n.filters, itemIndex, {}),
		combine: parameter(ctx, n.combine, itemIndex, 'and') as Combine,
		sort: parameter(ctx, n.sort, itemIndex, {}),
		rawFilter: String(parameter(ctx, n.rawFilter, itemIndex, '') ?? ''),
		extraFilter,
	};
	const query = located('filter', () => buildQuery(resource, input));
	if (query instanceof QueryInputError) throw queryError(ctx, query, itemIndex);
	return query;
}
