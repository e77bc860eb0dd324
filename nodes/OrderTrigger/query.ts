/** The Order Trigger's own query parts (pure): the event, order type, direction and the cursor bound. */
import type { FilterCondition } from '../shared/query/odata';
import { buildFilter, buildOrderBy } from '../shared/query/odata';
import type { OrderEvent } from './cursor';

/** The Trigger On values: the cursor's two events and the incoming-invoice preset. */
export type TriggerEvent = OrderEvent | 'newIncomingInvoice';

/** "New Incoming Supplier Invoice" follows every change of Cost orders with `IsSent eq false` (the service's page "Status of export"). */
export function cursorEvent(event: TriggerEvent): OrderEvent {
	return event === 'newOrder' ? 'newOrder' : 'newOrUpdatedOrder';
}

/** '' means "any"; `modifiedFrom` is `YYYY-MM-DDThh:mm:ss`. */
export interface TriggerScopeInput {
	event?: TriggerEvent;
	orderType: string;
	direction: string;
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

/** `OrderType eq '…' and OrderDirection eq '…' [and IsSent eq false] and LastModified ge DateTime'…'`, parts left out when not set. */
export function triggerFilter(input: TriggerScopeInput): string {
	const conditions: FilterCondition[] = [];
	const incoming = input.event === 'newIncomingInvoice';
	const direction = incoming ? 'Cost' : input.direction;
	if (input.orderType) conditions.push({ field: 'OrderType', operator: 'eq', value: input.orderType, type: 'string' });
	if (direction) conditions.push({ field: 'OrderDirection', operator: 'eq', value: direction, type: 'string' });
	if (incoming) conditions.push({ field: 'IsSent', operator: 'eq', value: false, type: 'boolean' });
	if (input.modifiedFrom) conditions.push({ field: 'LastModified', operator: 'ge', value: input.modifiedFrom, type: 'datetime' });
	return buildFilter(conditions, 'and');
}
