/** The Order Trigger's own query parts (pure): order type, direction and the cursor bound. */
import type { FilterCondition } from '../shared/odata';
import { buildFilter, buildOrderBy } from '../shared/odata';

/** '' means "any". */
export interface TriggerScopeInput {
	orderType: string;
	direction: string;
	/** `YYYY-MM-DDThh:mm:ss` (UTC): only orders changed at or after it. */
	modifiedFrom?: string;
}

export const ORDER_TYPE_OPTIONS = ['Invoice', 'CreditNote', 'Offer', 'DeliveryNote', 'OrderForm'] as const;
export const ORDER_DIRECTION_OPTIONS = ['Income', 'Cost'] as const;

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
