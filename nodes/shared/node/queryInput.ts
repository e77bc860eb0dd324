/** The filter and sort builder in a node: its parameters checked into a query before any request, or an error naming condition and item. */
import type { IExecuteFunctions, IPollFunctions, NodeOperationError } from 'n8n-workflow';

import { inputError, requireValid } from './input';
import type { Combine } from '../query/odata';
import type { ODataQuery, QueryInput, QueryProblemPart, QueryResource } from '../query/queryBuilder';
import { buildQuery, enumeratedValueNotes, located, QueryInputError } from '../query/queryBuilder';
import { checkChoice, checkOptionalText } from '../domain/validation';

export type QueryContext = IExecuteFunctions | IPollFunctions;

/** getNodeParameter for both contexts: per item in execute, without an item in poll. */
function parameter(ctx: QueryContext, name: string, itemIndex: number | undefined, fallback: unknown): unknown {
	if (itemIndex === undefined) return (ctx as IPollFunctions).getNodeParameter(name, fallback);
	return (ctx as IExecuteFunctions).getNodeParameter(name, itemIndex, fallback);
}

const PART_LABEL: Record<QueryProblemPart, string> = { filter: 'Filters', sort: 'Sort', rawFilter: 'OData Filter (Raw)' };

const PART_FIX: Record<QueryProblemPart, string> = {
	filter: "Fix the condition's field or value: dates YYYY-MM-DD[Thh:mm:ss], numbers with '.' for decimals, booleans true/false.",
	sort: 'Use each property path once, written with letters, digits, _ and /.',
	rawFilter: "Check the filter's quotes and parentheses: text in single quotes, an embedded ' doubled (O''Brien), every ( closed.",
};

/** A QueryInputError as the NodeOperationError a node throws: names the field and the item. */
function queryError(ctx: QueryContext, error: QueryInputError, itemIndex: number | undefined): NodeOperationError {
	const where =
		error.part === 'rawFilter' ? '' : ` ${error.part === 'sort' ? 'key' : 'condition'} ${(error.index ?? 0) + 1}${error.field ? ` (${error.field})` : ''}`;
	const detail = error.field && error.message.startsWith(`${error.field}: `) ? error.message.slice(error.field.length + 2) : error.message;
	return inputError(ctx, itemIndex, PART_LABEL[error.part], undefined, `${where.trim()}: ${detail}`, PART_FIX[error.part]);
}

/** Whether the node filters with a hand-written $filter; only the chosen mode's parameters are read. */
function isRawMode(ctx: QueryContext, itemIndex: number | undefined): boolean {
	return parameter(ctx, 'filterMode', itemIndex, 'builder') === 'raw';
}

/** The query options of the chosen Filter Mode and Sort; `extraFilter` is ANDed on (e.g. a lookup by ExternalProviderID). */
export function readQuery(ctx: QueryContext, itemIndex: number | undefined, resource: QueryResource, extraFilter?: string): ODataQuery {
	const raw = isRawMode(ctx, itemIndex);
	// "xor" or an object from an expression is refused, not read as "and" or "[object Object]".
	const combine = raw
		? 'and'
		: requireValid(ctx, itemIndex, 'Combine Conditions', parameter(ctx, 'filterCombine', itemIndex, 'and'), (v) => checkChoice(v, ['and', 'or']));
	const rawFilter = raw
		? requireValid(ctx, itemIndex, PART_LABEL.rawFilter, parameter(ctx, 'rawFilter', itemIndex, ''), (v) => checkOptionalText(v, 10_000))
		: '';
	const input: QueryInput = {
		filters: raw ? {} : parameter(ctx, 'filters', itemIndex, {}),
		combine: combine as Combine,
		sort: parameter(ctx, 'sort', itemIndex, {}),
		rawFilter,
		extraFilter,
	};
	const query = located('filter', () => buildQuery(resource, input));
	if (query instanceof QueryInputError) throw queryError(ctx, query, itemIndex);
	return query;
}

/** Notes on the builder's enumerated values (respelled, or none of the API's), for the output's hints. */
export function readValueNotes(ctx: QueryContext, itemIndex: number | undefined, resource: QueryResource): { respelled: string[]; unknown: string[] } {
	if (isRawMode(ctx, itemIndex)) return { respelled: [], unknown: [] };
	return enumeratedValueNotes(parameter(ctx, 'filters', itemIndex, {}), resource);
}
