/**
 * The Order Trigger's own query parts (pure): order type, direction and the cursor bound.
 * The values offered for type and direction live in the node's description; a list of
 * order types shared by the Order node and the trigger is to come from nodes/shared.
 */
import type { FilterCondition } from '../shared/odata';
import { buildFilter, buildOrderBy } from '../shared/odata';

/** '' means "any". */
export interface TriggerScopeInput {
	orderType: string;
	direction: string;
	/** `YYYY-MM-DDThh:mm:ss` (UTC): only orders changed at or after it. */
	modifiedFrom?: string;
}

/** Oldest change first, OrderID breaking ties: the order the cursor walks in. */
export const OLDEST_FIRST = buildOrderBy([
	{ field: 'LastModified', direction: 'asc' },
	{ field: 'OrderID', direction: 'asc' },
]);

/** Newest change first: the baseline at first activation and the manual-mode sample. */
export const NEWEST_FIRST = buildOrderBy([
	{ field: 'LastModified', direction: 'desc' },
	{ field: 'OrderID', direction: 'desc' },
]);

/** `OrderType eq '…' and OrderDirection eq '…' and LastModified ge DateTime'…'`, parts left out when not set. */
export function triggerFilter(input: TriggerScopeInput): string {
	const conditions: FilterCondition[] = [];
	if (input.orderType) conditions.push({ field: 'OrderType', operator: 'eq', value: input.orderType, type: 'string' });
	if (input.direction) conditions.push({ field: 'OrderDirection', operator: 'eq', value: input.direction, type: 'string' });
	if (input.modifiedFrom) conditions.push({ field: 'LastModified', operator: 'ge', value: input.modifiedFrom, type: 'datetime' });
	return buildFilter(conditions, 'and');
}
