/** Order › Delete: the service keeps an order that went over a network (the receiver has it); its refusal says what to do instead. */
import { orderOperation, sendChange } from './orderChanges';

export const { description, execute } = orderOperation('delete', 'The order to delete', async (ctx, client, orderId, itemIndex) => {
	await sendChange(
		ctx.getNode(),
		client,
		{ method: 'DELETE', path: `/v1/orders/${orderId}`, itemIndex, operation: `Delete order ${orderId}` },
		`Order ${orderId} was not deleted`,
		'An order sent over Peppol cannot be deleted: create a credit note for it instead.',
	);
	return { OrderID: orderId, Deleted: true };
});
