/** Order › Get: one order by its OrderID (`GET /v1/orders/{ID}`). */
import { type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { getOrder } from '../../../shared/node/order';
import { orderIdField, orderOperation } from './orderId';

const properties: INodeProperties[] = [orderIdField('The order to read')];

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['get'] } }, properties);

export const execute = orderOperation(async (_ctx, client, orderId, itemIndex) => await getOrder(client, orderId, itemIndex));
