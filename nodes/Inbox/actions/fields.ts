/** Fields and readers the Peppol Inbox operations share: the item they act on, the binary field, Act for Party. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checkActForParty } from '../../shared/fields/fields';
import { requireValid } from '../../shared/node/input';
import { checkNumericId } from '../../shared/domain/validation';

export const inboxItemIdField: INodeProperties = {
	displayName: 'Inbox Item ID',
	name: 'inboxItemId',
	type: 'string',
	required: true,
	default: '={{ $json.InboxItemID }}',
	placeholder: 'e.g. 69791',
	description: 'The InboxItemID of the item, as List gives it (mapped from the input item by default)',
};

/** The InboxItemID, checked: a positive whole number. */
export function readInboxItemId(ctx: IExecuteFunctions, itemIndex: number): string {
	return requireValid(ctx, itemIndex, 'Inbox Item ID', ctx.getNodeParameter('inboxItemId', itemIndex, '') as unknown, (v) => checkNumericId(v, 'InboxItemID'));
}

/** Options › Act for Party, or undefined for the credential's Party ID. */
export function readActForParty(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	return checkActForParty(ctx, itemIndex, ctx.getNodeParameter('options.actForParty', itemIndex, '') as unknown);
}
