/** Party › Find by VAT Number: one item per party with this VAT number, none when none; only exact matches count, whatever the server's filter did. */
import { type IExecuteFunctions, type INodeExecutionData, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { readChoice, requireValid } from '../../../shared/node/input';
import type { FilterCondition } from '../../../shared/query/odata';
import { PARTY_TYPES } from '../../../shared/domain/orderTypes';
import type { ClientProvider } from '../../../shared/node/router';
import { runItems } from '../../../shared/node/items';
import { checkVatNumber } from '../../../shared/domain/validation';
import { findRecords } from '../records';
import { partyTypeOption, sameParty } from './party';
import { readActForParty } from '../../../shared/fields/fields';

const properties: INodeProperties[] = [
	{
		displayName: 'VAT Number',
		name: 'vatNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. BE0123456749',
		description: 'With its country prefix',
	},
	{
		displayName: 'Party Type',
		name: 'partyType',
		...partyTypeOption,
		options: [{ name: 'Any', value: '' }, ...partyTypeOption.options],
		default: '',
	},
	{
		displayName: 'If None Found',
		name: 'ifNone',
		type: 'options',
		options: [
			{ name: 'Output Nothing', value: 'nothing', description: 'The workflow stops here for this item' },
			{ name: 'Output a Not-Found Item', value: 'item', description: '{"Found": false, "VATNumber": …}: the workflow goes on, e.g. to create the party' },
		],
		default: 'nothing',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['party'], operation: ['findByVat'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const readItem = (itemIndex: number) => {
		const vat = requireValid(this, itemIndex, 'VAT Number', this.getNodeParameter('vatNumber', itemIndex, ''), checkVatNumber);
		const partyType = readChoice(this, itemIndex, 'partyType', 'Party Type', ['', ...PARTY_TYPES], '');
		const ifNone = readChoice(this, itemIndex, 'ifNone', 'If None Found', ['nothing', 'item'], 'nothing');
		return { vat, partyType, partyId: readActForParty(this, itemIndex), ifNone };
	};
	return await runItems(this, readItem, async (read, itemIndex) => {
		const conditions: FilterCondition[] = [{ field: 'VATNumber', operator: 'eq', value: read.vat, type: 'string' }];
		if (read.partyType) conditions.push({ field: 'PartyType', operator: 'eq', value: read.partyType, type: 'string' });
		const client = await clients(itemIndex, read.partyId);
		const found = await findRecords(
			client,
			this.getNode(),
			'party',
			{
				conditions,
				walk: conditions.slice(1),
				matches: (p) => sameParty('VATNumber', p.VATNumber, read.vat) && (!read.partyType || p.PartyType === read.partyType),
				hint: 'Choose a Party Type to search fewer parties, or look the party up in the web app.',
			},
			itemIndex,
		);
		return found.length || read.ifNone === 'nothing' ? found : [{ Found: false, VATNumber: read.vat }];
	});
}
