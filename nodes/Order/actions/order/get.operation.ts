import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { runPerItem } from '../../../shared/node/items';
import { orderIdField, readOrderId } from './orderId';
import type { ClientProvider } from '../../../shared/node/router';
import { readPartyOption } from '../options';
import { getOrder } from '../../../shared/domain/order';
import { readSingleOrderPath } from './orderInput';

export const description: INodeProperties[] = [
	orderIdField('The order to read', {
		displayOptions: { show: { resource: ['order'], operation: ['get'] } },
	}),
];

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const orderId = readOrderId(this, itemIndex);
		const path = readSingleOrderPath(this, itemIndex);
		const client = await clients(itemIndex, readPartyOption(this, itemIndex));
		return await getOrder(client, orderId, itemIndex, path);
	});
}
