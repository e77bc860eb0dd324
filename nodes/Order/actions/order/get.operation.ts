import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { runPerItem } from '../../../shared/items';
import type { ClientProvider } from '../../../shared/router';
import { readPartyOption } from '../options';
import type { SingleOrderPath } from './orderApi';
import { getOrder } from './orderApi';
import { orderIdField } from './orderFields';
import { readOrderIdParameter } from './orderInput';

export const description: INodeProperties[] = [
	{
		...orderIdField,
		description: 'The OrderID of the order to read',
		displayOptions: { show: { resource: ['order'], operation: ['get'] } },
	},
];

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const orderId = readOrderIdParameter(this, itemIndex);
		const path = this.getNodeParameter('options.singleOrderPath', itemIndex, 'auto') as SingleOrderPath;
		const client = await clients(itemIndex, readPartyOption(this, itemIndex));
		return await getOrder(client, orderId, itemIndex, path);
	});
}
