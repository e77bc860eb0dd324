/** Order › Delete: the service keeps an order that went over a network (the receiver has it); its refusal says what to do instead. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { orderIdField, readOrderId } from './orderId';
import type { ClientProvider } from '../../../shared/node/router';
import { readPartyOption } from '../options';
import { runChecked, sendChange } from './orderChanges';

export const description: INodeProperties[] = [
	orderIdField('The order to delete', {
		displayOptions: { show: { resource: ['order'], operation: ['delete'] } },
	}),
];

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runChecked(this, readOrderId.bind(null, this), async (orderId, itemIndex) => {
		const client = await clients(itemIndex, readPartyOption(this, itemIndex));
		await sendChange(
			this.getNode(),
			client,
			{ method: 'DELETE', path: `/v1/orders/${orderId}`, itemIndex, operation: `Delete order ${orderId}` },
			`Order ${orderId} was not deleted`,
			'The service keeps an order that was sent over Peppol: the receiver has it. Create a credit note for it instead (Order › Create Credit Note).',
		);
		return { OrderID: orderId, Deleted: true };
	});
}
