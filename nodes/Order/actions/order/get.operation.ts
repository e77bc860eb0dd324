/** Order › Get: one order by its OrderID (`GET /v1/orders/{ID}`). */
import { getOrder } from '../../../shared/node/order';
import { orderOperation } from './orderChanges';

export const { description, execute } = orderOperation(
	'get',
	'The order to read',
	async (_ctx, client, orderId, itemIndex) => await getOrder(client, orderId, itemIndex),
);
