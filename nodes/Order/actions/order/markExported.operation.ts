/**
 * Order › Mark as Exported / Not Exported: the export flag (`IsSent`) set once a received supplier invoice is booked,
 * as the service's page "Status of export" recommends; the Order Trigger and an `IsSent eq false` filter then skip it.
 */
import { answeredObject, orderOperation, sendChange } from './orderChanges';

/** Mark as Exported (`isSent` true) or Mark as Not Exported (false). */
export const exportFlag = (operation: string, isSent: boolean) =>
	orderOperation(operation, 'The order to mark', async (ctx, client, orderId, itemIndex) => {
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

export const { description, execute } = exportFlag('markExported', true);
