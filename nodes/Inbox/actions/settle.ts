/** Confirm and Refuse: the inbox item they act on, and the one request that takes it out of the inbox. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { readActForParty } from '../../shared/fields/fields';
import { inputError, requireValid } from '../../shared/node/input';
import { runItems } from '../../shared/node/items';
import type { ClientProvider } from '../../shared/node/router';
import { checkNumericId } from '../../shared/domain/validation';
import { itemFields, settleItem } from '../../shared/node/inbox';
import { kindOfType } from '../../shared/domain/ubl';

export const inboxItemIdField: INodeProperties = {
	displayName: 'Inbox Item ID',
	name: 'inboxItemId',
	type: 'string',
	required: true,
	default: '={{ $json.InboxItemID }}',
	placeholder: 'e.g. 69791',
	description: "By default the input item's InboxItemID (List and the Peppol Inbox Trigger give it)",
};

/** Confirm and Refuse: one request that takes the item out of the inbox; the input's item fields go on. */
export async function settle(
	ctx: IExecuteFunctions,
	clients: ClientProvider,
	action: 'confirm' | 'refuse',
	readReason?: (itemIndex: number) => string,
): Promise<INodeExecutionData[]> {
	const input = ctx.getInputData();
	// Refuse: a customer's IMR/MLR (as List gave it) cannot be refused; said before any item is sent, with those that can be.
	const kinds = input.map(({ json }) => String(json.DocumentKind ?? kindOfType(json.PeppolDocumentType)));
	const refusable = kinds.flatMap((kind, i) => (action === 'refuse' && ['IMR', 'MLR'].includes(kind) ? [] : [i]));
	const hint = `Items that can be refused: ${refusable.join(', ') || 'none'}; none was sent unless Continue is on. Refuse invoices and credit notes only.`;
	const why = 'a response to a document you sent: it cannot be refused';
	const unrefusable = (i: number) => inputError(ctx, i, 'Inbox Item ID', input[i].json.InboxItemID, `is an ${kinds[i]}, ${why}`, hint);
	const first = kinds.findIndex((_, i) => !refusable.includes(i));
	if (first >= 0 && !ctx.continueOnFail()) throw unrefusable(first);
	const read = (itemIndex: number) => {
		if (!refusable.includes(itemIndex)) throw unrefusable(itemIndex);
		const id = requireValid(ctx, itemIndex, 'Inbox Item ID', ctx.getNodeParameter('inboxItemId', itemIndex, ''), (v) => checkNumericId(v, 'InboxItemID'));
		return { id, reason: readReason?.(itemIndex), party: readActForParty(ctx, itemIndex) };
	};
	return await runItems(ctx, read, async ({ id, reason, party }, itemIndex) => {
		const client = await clients(itemIndex, party);
		await settleItem(client, id, action, { itemIndex, reason });
		const done: IDataObject = action === 'confirm' ? { Confirmed: true } : { Refused: true, RefusalReason: reason };
		return { ...itemFields(input[itemIndex]?.json ?? {}), InboxItemID: Number(id), ...done };
	});
}
