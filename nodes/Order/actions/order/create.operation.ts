import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { runPerItem } from '../../../shared/items';
import type { ClientProvider } from '../../../shared/router';
import type { CreateOrderResult } from './orderApi';
import { createOrder } from './orderApi';
import { orderFields } from './orderFields';
import { createHeaders, readCreateSettings, readOrderInput } from './orderInput';

export const description: INodeProperties[] = orderFields('create');

/** The output item of a create: the order plus AlreadyExisted. */
export function createOutput(result: CreateOrderResult): IDataObject {
	return { ...result.order, ...(result.orderId !== undefined ? { OrderID: result.orderId } : {}), AlreadyExisted: result.alreadyExisted };
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const body = readOrderInput(this, itemIndex);
		const settings = readCreateSettings(this, itemIndex);
		const client = await clients(itemIndex, settings.partyId);
		const result = await createOrder(client, body, {
			node: this.getNode(),
			itemIndex,
			skipIfExists: settings.skipIfExists,
			fetchFull: settings.fetchFull,
			singleOrderPath: settings.singleOrderPath,
			headers: createHeaders(body, settings.skipIfExists, settings.idempotencyHeader),
		});
		return createOutput(result);
	});
}
