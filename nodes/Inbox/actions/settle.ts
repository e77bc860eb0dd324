/** Confirm and Refuse: one request that takes the item out of the inbox; the input's item fields go on. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runPerItem } from '../../shared/node/items';
import type { ClientProvider } from '../../shared/node/router';
import { itemFields, settleItem } from '../../shared/domain/inbox';
import { readActForParty, readInboxItemId } from './fields';

export async function settle(
	ctx: IExecuteFunctions,
	clients: ClientProvider,
	action: 'confirm' | 'refuse',
	readReason?: (itemIndex: number) => string,
): Promise<INodeExecutionData[]> {
	const input = ctx.getInputData();
	return await runPerItem(ctx, async (itemIndex) => {
		const id = readInboxItemId(ctx, itemIndex);
		const reason = readReason?.(itemIndex);
		const client = await clients(itemIndex, readActForParty(ctx, itemIndex));
		await settleItem(client, id, action, { itemIndex, reason });
		const done: IDataObject = action === 'confirm' ? { Confirmed: true } : { Refused: true, RefusalReason: reason };
		return { ...itemFields(input[itemIndex]?.json ?? {}), InboxItemID: Number(id), ...done };
	});
}
