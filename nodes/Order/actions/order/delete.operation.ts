/** Order › Delete: the service keeps an order that went over a network (the receiver has it); its refusal says what to do instead. */
import { type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { sendChange } from '../writes';
import { orderIdField, orderOperation } from './orderId';

const properties: INodeProperties[] = [orderIdField('The order to delete')];

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['delete'] } }, properties);

export const execute = orderOperation(async (ctx, client, orderId, itemIndex) => {
	await sendChange(
		ctx.getNode(),
		client,
		{ method: 'DELETE', path: `/v1/orders/${orderId}`, itemIndex, operation: `Delete order ${orderId}` },
		`Order ${orderId} was not deleted`,
		'An order sent over Peppol cannot be deleted: create a credit note for it instead.',
	);
	return { OrderID: orderId, Deleted: true };
});
