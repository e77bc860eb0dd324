import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ClientProvider } from '../../../shared/router';
import { runPerItem } from '../../../shared/items';
import { readPartyOption } from '../options';
import type { SingleOrderPath } from './orderApi';
import { getOrder } from './orderApi';
import { parseOrderId } from './orderBody';

export const description: INodeProperties[] = [
	{
		displayName: 'Order ID',
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 123456',
		description: 'The OrderID of the order to read',
		displayOptions: { show: { resource: ['order'], operation: ['get'] } },
	},
];

/** The Order ID parameter as a positive integer, or a NodeOperationError naming the item. */
export function readOrderIdParameter(ctx: IExecuteFunctions, itemIndex: number, name = 'orderId'): number {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const id = parseOrderId(raw);
	if (id === undefined) {
		const shown = raw === undefined || raw === null || String(raw).trim() === '' ? '' : ` ${String(raw).slice(0, 60)}`;
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1}: "Order ID"${shown} ${shown ? 'is not an OrderID' : 'is empty'}`, {
			itemIndex,
			description: 'An OrderID is a positive whole number, e.g. 123456 (map it from {{ $json.OrderID }}).',
		});
	}
	return id;
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const orderId = readOrderIdParameter(this, itemIndex);
		const path = this.getNodeParameter('options.singleOrderPath', itemIndex, 'auto') as SingleOrderPath;
		const client = await clients(itemIndex, readPartyOption(this, itemIndex));
		return await getOrder(client, orderId, itemIndex, path);
	});
}
