/**
 * The filter and sort builder's parameter descriptions, shared by every node that lists
 * orders, parties or products. Parameter names are arguments, so a node can place the
 * builder wherever it likes (e.g. the Order Trigger's extra conditions).
 */
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ODataType } from './odata';
import { valueLabel } from '../domain/orderTypes';
import type { BuilderOperator, QueryResource } from './queryBuilder';
import { CUSTOM_FIELD, enumeratedFields, QUERY_FIELDS } from './queryBuilder';

/** `[name, value]` pairs as dropdown options (a third entry is the option's description). */
export function choices<T extends string>(...pairs: Array<[string, T, string?]>): Array<INodePropertyOptions & { value: T }> {
	return pairs.map(([name, value, description]) => ({ name, value, ...(description ? { description } : {}) }));
}

const OPERATOR_OPTIONS = choices<BuilderOperator>(
	['After / Greater Than', 'gt', 'OData: gt'],
	['Before / Less Than', 'lt', 'OData: lt'],
	['Equals', 'eq', 'OData: eq'],
	['Is Empty', 'isEmpty', 'OData: eq null'],
	['Is Not Empty', 'isNotEmpty', 'OData: ne null'],
	['Not Equals', 'ne', 'OData: ne'],
	['On or After / Greater Than or Equal', 'ge', 'OData: ge'],
	['On or Before / Less Than or Equal', 'le', 'OData: le'],
);

const VALUE_TYPE_OPTIONS = choices<ODataType>(
	['Boolean', 'boolean', 'True or false'],
	['Date', 'date', "YYYY-MM-DD, sent as DateTime'…'"],
	['Date and Time', 'datetime', "YYYY-MM-DDThh:mm:ss, sent as DateTime'…'"],
	['Number', 'number', 'Digits with "." for decimals, sent bare'],
	['Text', 'string', 'Sent in single quotes'],
);

const TYPE_WORDS: Record<ODataType, string> = {
	string: 'text',
	number: 'number',
	boolean: 'true or false',
	date: 'date',
	datetime: 'date and time',
	null: 'empty',
};

/** Labels are plain words; every description starts with the API's property path and its type. */
function fieldOptions(resource: QueryResource): INodePropertyOptions[] {
	return [
		...QUERY_FIELDS[resource].map((field) => ({
			name: field.name,
			value: field.value,
			description: `${field.value} (${TYPE_WORDS[field.type]})${field.description ? `: ${field.description}` : ''}`,
		})),
		{ name: 'Custom Property Path', value: CUSTOM_FIELD, description: 'Any property the API filters on, e.g. Supplier/Name' },
	];
}

/** The Field dropdown of a condition or sort key: the resource's properties plus a custom path. */
function fieldPicker(resource: QueryResource, description: string): INodeProperties {
	const options = fieldOptions(resource);
	const defaultField = options[0].value as string;
	return { displayName: 'Field', name: 'field', type: 'options', options, default: defaultField, description };
}

const NO_VALUE_OPERATORS: BuilderOperator[] = ['isEmpty', 'isNotEmpty'];

/**
 * A condition's Value: for an enumerated property a picker of the API's values (one per property, all named "value", each
 * shown only for its property; an expression's value is sent as given), free text for the others.
 */
function conditionValueFields(resource: QueryResource): INodeProperties[] {
	const enumerated = enumeratedFields(resource);
	const booleans = QUERY_FIELDS[resource].filter((field) => field.type === 'boolean').map((field) => field.value);
	const picked = [...enumerated.map((field) => field.value), ...booleans];
	return [
		{
			displayName: 'Value',
			name: 'value',
			type: 'string',
			default: '',
			placeholder: "e.g. ACME NV, 2026-01-31, O'Brien",
			description: "No quotes: dates YYYY-MM-DD[Thh:mm:ss], numbers with '.' for decimals, booleans true/false",
			displayOptions: { hide: { operator: NO_VALUE_OPERATORS, ...(picked.length ? { field: picked } : {}) } },
		},
		// A true/false property gets a choice, not free text ("yes" would be refused only when run).
		...(booleans.length
			? [
					{
						displayName: 'Value',
						name: 'value',
						type: 'options',
						options: choices(['False', 'false'], ['True', 'true']),
						default: '',
						displayOptions: { show: { field: booleans }, hide: { operator: NO_VALUE_OPERATORS } },
					} satisfies INodeProperties,
				]
			: []),
		// Every Value starts empty: n8n fills a new condition with each "value" default in turn, so one would show on all.
		...enumerated.map(
			(field): INodeProperties => ({
				displayName: 'Value',
				name: 'value',
				type: 'options',
				options: field.values
					.map((value) => ({ name: valueLabel(value), value, description: `Sent as '${value}'` }))
					.sort((a, b) => (a.name < b.name ? -1 : 1)),
				default: '',
				description: `One of the API's ${field.name} values`,
				displayOptions: { show: { field: [field.value] }, hide: { operator: NO_VALUE_OPERATORS } },
			}),
		),
	];
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

/** A list of entries the user adds and reorders (filter conditions, sort keys), each the group `entry` of `values`. */
export function filterCollection(
	field: Pick<INodeProperties, 'displayName' | 'name' | 'placeholder' | 'description'>,
	entry: { displayName: string; name: string },
	values: INodeProperties[],
	displayOptions?: IDisplayOptions,
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		...field,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		default: {},
		...(displayOptions ? { displayOptions } : {}),
		...overrides,
		options: [{ ...entry, values }],
	};
}

/** Filter conditions (field, operator, value) for one list; the value is read as the field's type (text quoted, dates DateTime'…'). */
export function filterConditionsField(resource: QueryResource, displayOptions?: IDisplayOptions, overrides: Partial<INodeProperties> = {}): INodeProperties {
	return filterCollection(
		{
			displayName: 'Filters',
			name: 'filters',
			placeholder: 'Add Condition',
			description: 'Conditions the records must meet (OData $filter)',
		},
		{ displayName: 'Condition', name: 'conditions' },
		[
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
			{ displayName: 'Operator', name: 'operator', type: 'options', options: OPERATOR_OPTIONS, default: 'eq' },
			...conditionValueFields(resource),
		],
		displayOptions,
		resource === 'order' ? { hint: ORDER_FILTER_HINT, ...overrides } : overrides,
	);
}

/** Why the order fields are these (docs/api.md "Queries and paging"). */
const ORDER_FILTER_HINT =
	"Only the properties the service filters orders on (others answer 400 since 17 March 2026): no customer name or VAT number, Overdue or To Pay. Find a customer's orders with Counter Party ID, or Get Many's Search Text (fullTextSearch).";

/** AND / OR between the builder's conditions. */
export function filterCombineField(displayOptions?: IDisplayOptions, overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Combine Conditions',
		name: 'filterCombine',
		type: 'options',
		options: choices(['AND (All Conditions Must Match)', 'and'], ['OR (Any Condition May Match)', 'or']),
		default: 'and',
		description: 'How the filter conditions are joined',
		...(displayOptions ? { displayOptions } : {}),
		...overrides,
	};
}

/** Sort keys (first key sorts first) → `$orderby`. */
function sortField(resource: QueryResource, displayOptions?: IDisplayOptions): INodeProperties {
	return filterCollection(
		{
			displayName: 'Sort',
			name: 'sort',
			placeholder: 'Add Sort Key',
			description: 'Order of the records (OData $orderby)',
		},
		{ displayName: 'Key', name: 'keys' },
		[
			fieldPicker(resource, 'Property to sort on'),
			customPathField,
			{
				displayName: 'Direction',
				name: 'direction',
				type: 'options',
				options: choices(['Ascending', 'asc'], ['Descending', 'desc']),
				default: 'asc',
			},
		],
		displayOptions,
	);
}

/** How the records are filtered: the builder's conditions or a $filter typed by hand, never both. */
export type FilterMode = 'builder' | 'raw';

/** Filter Mode: shows either the builder (Filters, Combine Conditions) or OData Filter (Raw), so what is on screen is what is sent. */
export function filterModeField(displayOptions?: IDisplayOptions, overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Filter Mode',
		name: 'filterMode',
		type: 'options',
		noDataExpression: true,
		options: choices(['Builder', 'builder', 'Pick field, operator and value per condition'], ['Raw OData Filter', 'raw', 'Type the $filter yourself']),
		default: 'builder',
		...(displayOptions ? { displayOptions } : {}),
		...overrides,
	};
}

/** OData Filter (Raw): the $filter typed by hand, shown only in the raw filter mode. */
export function rawFilterField(displayOptions?: IDisplayOptions, overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'OData Filter (Raw)',
		name: 'rawFilter',
		type: 'string',
		required: true,
		default: '',
		placeholder: "e.g. OrderType eq 'Invoice' and OrderDate ge DateTime'2026-01-01'",
		description: 'URL-encoded for you; a + reads as a space',
		...overrides,
		displayOptions: withMode(displayOptions, 'raw'),
	};
}

/** The given display options, plus "only in this filter mode". */
function withMode(displayOptions: IDisplayOptions | undefined, mode: FilterMode): IDisplayOptions {
	return { ...displayOptions, show: { ...displayOptions?.show, filterMode: [mode] } };
}

/** Filter Mode, Filters, Combine Conditions, OData Filter (Raw) and Sort for one list, under the given display options. */
export function queryFields(resource: QueryResource, displayOptions?: IDisplayOptions): INodeProperties[] {
	return [
		filterModeField(displayOptions),
		filterConditionsField(resource, withMode(displayOptions, 'builder')),
		filterCombineField(withMode(displayOptions, 'builder')),
		rawFilterField(displayOptions),
		sortField(resource, displayOptions),
	];
}
