/**
 * Party › Create: as Create Order does with External Provider ID, the party is looked up first (VAT number or
 * e-mail, and Party Type), so a re-run creates nothing twice; a party found is output, or updated with the fields given.
 */
import { type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { inputError, readChoice } from '../../../shared/node/input';
import type { ClientProvider } from '../../../shared/node/router';
import { answeredId, sendJson } from '../writes';
import { runItems } from '../../../shared/node/items';
import { fieldOptions, findRecords, getRecord, noIdError, readFields } from '../records';
import { MAIN_PARTY_FIELDS, mainPartyProperties, PARTY_FIELDS, patchable, sameParty, updateParty } from './party';
import { readActForParty } from '../../../shared/fields/fields';

const MATCH_BY = ['vatNumber', 'email', 'none'] as const;
const IF_FOUND = ['keep', 'update'] as const;

const properties: INodeProperties[] = [
	...mainPartyProperties(),
	{
		displayName: 'Additional Fields',
		name: 'partyFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: fieldOptions(PARTY_FIELDS),
	},
	{
		displayName: 'Match Existing By',
		name: 'matchBy',
		type: 'options',
		options: [
			{ name: 'VAT Number', value: 'vatNumber', description: 'Same type and VAT number' },
			{ name: 'Email', value: 'email', description: 'For private persons without a VAT number' },
			{ name: 'Nothing (Always Create)', value: 'none', description: 'A re-run creates the party again' },
		],
		default: 'vatNumber',
		description: 'How a party created before is found',
	},
	{
		displayName: 'If It Exists',
		name: 'ifFound',
		type: 'options',
		options: [
			{ name: 'Output It Unchanged', value: 'keep' },
			{
				name: 'Update It With These Fields',
				value: 'update',
				description: 'Only the fields given here change, of those a party may change (not Party Type, BIC, Internal Info, Peppol Identifier, Website)',
			},
		],
		default: 'keep',
		displayOptions: { show: { matchBy: ['vatNumber', 'email'] } },
	},
];

export const description = updateDisplayOptions({ show: { resource: ['party'], operation: ['create'] } }, properties);

interface Checked {
	body: IDataObject;
	matchBy: (typeof MATCH_BY)[number];
	ifFound: (typeof IF_FOUND)[number];
	partyId?: string;
}

/** The body and settings of one item, checked before any request. */
function readItem(ctx: IExecuteFunctions, itemIndex: number): Checked {
	const main = Object.fromEntries(MAIN_PARTY_FIELDS.map((f) => [f.name, ctx.getNodeParameter(f.name, itemIndex, '')]));
	const body = {
		...readFields(ctx, itemIndex, ctx.getNodeParameter('partyFields', itemIndex, {}) as IDataObject, PARTY_FIELDS),
		...readFields(ctx, itemIndex, main, MAIN_PARTY_FIELDS),
	};
	if (!body.Name) throw inputError(ctx, itemIndex, 'Name', '', 'is empty', 'Enter the name of the company or person.');
	if (!body.PartyType) throw inputError(ctx, itemIndex, 'Party Type', '', 'is empty', 'Choose Customer or Supplier.');
	const matchBy = readChoice(ctx, itemIndex, 'matchBy', 'Match Existing By', MATCH_BY, 'vatNumber');
	const key = matchBy === 'vatNumber' ? 'VATNumber' : 'Email';
	if (matchBy !== 'none' && !body[key]) {
		const label = matchBy === 'vatNumber' ? 'VAT Number' : 'Email';
		throw inputError(ctx, itemIndex, label, '', `is empty, and Match Existing By is ${label}`, `Enter the ${label}, or pick another Match Existing By.`);
	}
	const ifFound = matchBy === 'none' ? 'keep' : readChoice(ctx, itemIndex, 'ifFound', 'If It Exists', IF_FOUND, 'keep');
	return { body, matchBy, ifFound, partyId: readActForParty(ctx, itemIndex) };
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runItems(this, readItem.bind(null, this), async (read, itemIndex) => {
		const { body, matchBy, ifFound } = read;
		const client = await clients(itemIndex, read.partyId);
		if (matchBy !== 'none') {
			const key = matchBy === 'vatNumber' ? 'VATNumber' : 'Email';
			const [field, type] = [key, 'PartyType'].map((name) => ({ field: name, operator: 'eq' as const, value: body[name], type: 'string' as const }));
			const [found] = await findRecords(
				client,
				this.getNode(),
				'party',
				{
					conditions: [field, type],
					walk: [type],
					matches: (p) => sameParty(key, p[key], body[key]) && (p.PartyType ?? body.PartyType) === body.PartyType,
					hint: 'Look the party up in the web app: give it to Party › Update, or set Match Existing By to Nothing (Always Create) if it is not there.',
				},
				itemIndex,
			);
			if (found && ifFound === 'keep') return { ...found, AlreadyExisted: true };
			// Only what a party PATCH may change (Party Type matched already; the service would ignore the others).
			const change = Object.fromEntries(Object.entries(body).filter(([api]) => patchable(api)));
			if (found) return { ...(await updateParty(client, String(found.PartyID), change, itemIndex)), AlreadyExisted: true };
		}
		const answer = await sendJson(client, { method: 'POST', path: '/v1/parties', body, itemIndex, operation: 'Create party' });
		const id = answeredId(answer, 'PartyID');
		if (id === undefined) {
			const hint =
				matchBy === 'none'
					? 'Check the parties in the web app before running it again.'
					: `Run it again: the party is then found by its ${matchBy === 'vatNumber' ? 'VAT number' : 'e-mail address'}.`;
			throw noIdError(this.getNode(), 'party', hint, itemIndex);
		}
		return { ...(await getRecord(client, 'party', id, itemIndex)), AlreadyExisted: false };
	});
}
