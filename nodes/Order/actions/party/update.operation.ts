/** Party › Update (`PATCH /v1/parties/{ID}`): only the fields added, each on the party's patchable list; outputs the party as the service then holds it. */
import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { inputError } from '../../../shared/node/input';
import type { ClientProvider } from '../../../shared/node/router';
import { runItems } from '../../../shared/node/items';
import { fieldOptions, idField, readFields, readRecordId } from '../records';
import { MAIN_PARTY_FIELDS, PARTY_FIELDS, PATCHABLE, patchable, updateParty } from './party';
import { readActForParty } from '../../../shared/fields/fields';

const ALL = [...MAIN_PARTY_FIELDS, ...PARTY_FIELDS];
const FIELDS = ALL.filter((field) => patchable(field.api));
/** Shown only when the parameters hold a value for it (n8n keeps a collection value only while its option is shown). */
const savedOnly = (name: string): IDisplayOptions => ({ show: { [name]: [{ _cnd: { exists: true } }] } });

const properties: INodeProperties[] = [
	idField('party'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are sent',
		// The others of 1.0 only where a workflow still holds one (so that n8n keeps it and the run names it).
		options: [
			...fieldOptions(FIELDS),
			...ALL.filter((f) => !patchable(f.api)).map((f) => ({ ...fieldOptions([f]).find((o) => o.name === f.name)!, displayOptions: savedOnly(f.name) })),
		],
		hint: 'The fields the service lets a party change (Party Type, BIC, Internal Info, Peppol Identifier and Website are not among them)',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['party'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const readItem = (itemIndex: number) => {
		const id = readRecordId(this, itemIndex, 'party');
		const values = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
		// A field saved by 1.0, or in Other Fields, that the service would ignore.
		const ignored = ALL.filter((field) => !patchable(field.api) && values[field.name] !== undefined).map((field) => field.displayName);
		const change = readFields(this, itemIndex, values, FIELDS);
		ignored.push(...Object.keys(change).filter((key) => !patchable(key)));
		if (ignored.length)
			throw inputError(
				this,
				itemIndex,
				'Update Fields',
				ignored.join(', '),
				'holds fields the service does not let a party change',
				`Remove them; it may change ${PATCHABLE.join(', ')}.`,
			);
		if (!Object.keys(change).length) throw inputError(this, itemIndex, 'Update Fields', undefined, 'has nothing to change', 'Add at least one field.');
		return { id, change, partyId: readActForParty(this, itemIndex) };
	};
	return await runItems(this, readItem, async (read, itemIndex) => {
		return await updateParty(await clients(itemIndex, read.partyId), read.id, read.change, itemIndex);
	});
}
