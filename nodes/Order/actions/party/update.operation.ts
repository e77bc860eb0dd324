/** Party › Update (`PATCH /v1/parties/{ID}`): only the fields added are sent; outputs the party as the service then holds it. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { inputError } from '../../../shared/node/input';
import type { ClientProvider } from '../../../shared/node/router';
import { readPartyOption } from '../options';
import { runItems } from '../../../shared/node/items';
import { fieldOptions, idField, MAIN_PARTY_FIELDS, PARTY_FIELDS, partyTypeOption, readFields, readRecordId, updateParty } from './records';

const show = { resource: ['party'], operation: ['update'] };
const FIELDS = [...MAIN_PARTY_FIELDS, ...PARTY_FIELDS];

export const description: INodeProperties[] = [
	idField('party', show),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are sent',
		displayOptions: { show },
		options: fieldOptions(FIELDS).map((option) => (option.name === 'partyType' ? { ...option, ...partyTypeOption } : option)),
	},
];

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const readItem = (itemIndex: number) => {
		const id = readRecordId(this, itemIndex, 'party');
		const change = readFields(this, itemIndex, this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject, FIELDS);
		if (!Object.keys(change).length) throw inputError(this, itemIndex, 'Update Fields', undefined, 'has nothing to change', 'Add at least one field.');
		return { id, change, partyId: readPartyOption(this, itemIndex) };
	};
	return await runItems(this, readItem, async (read, itemIndex) => {
		return await updateParty(await clients(itemIndex, read.partyId), read.id, read.change, itemIndex);
	});
}
