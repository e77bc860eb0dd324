/** Party › Get: one party by its PartyID (`GET /v1/parties/{ID}`). */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { runPerItem } from '../../../shared/items';
import type { ClientProvider } from '../../../shared/router';
import { readPartyOption } from '../options';
import { getRecord, idField, readRecordId } from './records';

export const description: INodeProperties[] = [idField('party', { resource: ['party'], operation: ['get'] })];

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const id = readRecordId(this, itemIndex, 'party');
		return await getRecord(await clients(itemIndex, readPartyOption(this, itemIndex)), 'party', id, itemIndex);
	});
}
