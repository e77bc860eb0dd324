/** Order › Create: the order, or the one made before with the same External Provider ID (Skip If Already Created). */
import { type IExecuteFunctions, type INodeExecutionData, updateDisplayOptions } from 'n8n-workflow';

import type { ClientProvider } from '../../../shared/node/router';
import { runItems } from '../../../shared/node/items';
import { checkOwnFiles, createdOrder, createOrder, orderFields, readCreateSettings, readOrderInput, withOwnFiles } from './orderCreate';

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['create'] } }, orderFields());

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	// Every item's fields and files are checked before the first request: a bad file on item 3 sends nothing.
	const read = async (itemIndex: number) => {
		const body = readOrderInput(this, itemIndex);
		return { body, settings: readCreateSettings(this, itemIndex), files: await checkOwnFiles(this, itemIndex, body) };
	};
	return await runItems(this, read, async ({ body, settings, files }, itemIndex) => {
		const client = await clients(itemIndex, settings.partyId);
		const options = { node: this.getNode(), itemIndex, ...settings };
		const result = await createOrder(client, await withOwnFiles(this, itemIndex, body, files), options);
		return {
			...(result.alreadyExisted ? result.order : await createdOrder(client, result, options)),
			...(result.orderId !== undefined ? { OrderID: result.orderId } : {}),
			AlreadyExisted: result.alreadyExisted,
		};
	});
}
