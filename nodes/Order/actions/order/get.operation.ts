/** Order › Get: one order by its OrderID, on the path Options › Single Order Path names. */
import { getOrder } from '../../../shared/domain/order';
import { orderOperation } from './orderChanges';
import { readSingleOrderPath } from '../options';

export const { description, execute } = orderOperation(
	'get',
	'The order to read',
	async (ctx, client, orderId, itemIndex) => await getOrder(client, orderId, itemIndex, readSingleOrderPath(ctx, itemIndex)),
);
