/** Product › Get: one product by its ProductID (`GET /v1/products/{ID}`). */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { runPerItem } from '../../../shared/items';
import type { ClientProvider } from '../../../shared/router';
import { readPartyOption } from '../options';
import { getRecord, idField, readRecordId } from '../party/records';

export const description: INodeProperties[] = [idField('product', { resource: ['product'], operation: ['get'] })];

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const id = readRecordId(this, itemIndex, 'product');
		return await getRecord(await clients(itemIndex, readPartyOption(this, itemIndex)), 'product', id, itemIndex);
	});
}
