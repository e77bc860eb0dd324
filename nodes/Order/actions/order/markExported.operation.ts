/**
 * Order › Mark as Exported / Not Exported: the export flag (`IsSent`) set once a received supplier invoice is booked,
 * as the service's page "Status of export" recommends; the Order Trigger and an `IsSent eq false` filter then skip it.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { orderIdField, readOrderId } from './orderId';
import type { ClientProvider } from '../../../shared/node/router';
import { readPartyOption } from '../options';
import { answeredObject, runChecked, sendChange } from './orderChanges';

/** The fields and the run of Mark as Exported (`isSent` true) or Mark as Not Exported (false). */
export function exportFlag(operation: string, isSent: boolean) {
	const description: INodeProperties[] = [
		orderIdField('The order to mark', {
			displayOptions: { show: { resource: ['order'], operation: [operation] } },
		}),
	];
	async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
		return await runChecked(this, readOrderId.bind(null, this), async (orderId, itemIndex) => {
			const client = await clients(itemIndex, readPartyOption(this, itemIndex));
			const answer = await sendChange(
				this.getNode(),
				client,
				{
					method: 'PATCH',
					path: `/v1/orders/${orderId}`,
					body: { IsSent: isSent },
					itemIndex,
					operation: `Mark order ${orderId} as ${isSent ? '' : 'not '}exported`,
				},
				`Order ${orderId} was not marked as ${isSent ? '' : 'not '}exported`,
				'Check the OrderID, and that the order belongs to the party this node acts for.',
			);
			// An empty answer (some deployments) is a success too: the output then says what was set.
			return { ...answeredObject(answer), OrderID: orderId, IsSent: isSent };
		});
	}
	return { description, execute };
}

const markExported = exportFlag('markExported', true);
export const description = markExported.description;
export const execute = markExported.execute;
