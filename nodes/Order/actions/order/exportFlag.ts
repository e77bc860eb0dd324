/**
 * The export flag (`IsSent`) set once a received supplier invoice is booked, as the service's page "Status of export"
 * recommends (the Order Trigger and an `IsSent eq false` filter then skip it), or cleared.
 */
import { getOrder } from '../../../shared/node/order';
import { inputError } from '../../../shared/node/input';
import { answeredObject, sendChange } from '../writes';
import { orderOperation } from './orderId';

/** The run of Mark as Exported (`isSent` true) or Mark as Not Exported (false). */
export const exportFlag = (isSent: boolean) =>
	orderOperation(async (ctx, client, orderId, itemIndex) => {
		// Only a received (Cost) document is booked and exported: a sale marked so would leave the sales lists unseen.
		const direction = isSent ? (await getOrder(client, orderId, itemIndex)).OrderDirection : undefined;
		if (isSent && direction !== undefined && direction !== 'Cost') {
			const problem = `is not a document you received (OrderDirection ${String(direction)}, not Cost): it was not marked`;
			throw inputError(ctx, itemIndex, 'Order', orderId, problem, 'Mark as Exported is for supplier invoices and credit notes; pick a received one.');
		}
		const answer = await sendChange(
			ctx.getNode(),
			client,
			{
				method: 'PATCH',
				path: `/v1/orders/${orderId}`,
				body: { IsSent: isSent },
				itemIndex,
				operation: `Mark order ${orderId} as ${isSent ? '' : 'not '}exported`,
			},
			`Order ${orderId} was not marked as ${isSent ? '' : 'not '}exported`,
			'Check the OrderID and Options › Act for Party.',
		);
		// An empty answer (some deployments) is a success too: the output then says what was set.
		return { ...answeredObject(answer), OrderID: orderId, IsSent: isSent };
	});
