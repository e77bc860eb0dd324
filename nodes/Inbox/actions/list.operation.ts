/** Peppol Inbox › List: the inbox's items (at most the 10 oldest), all or only one kind. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readChoice } from '../../shared/node/input';
import { runItems } from '../../shared/node/items';
import type { ClientProvider } from '../../shared/node/router';
import { listInbox, readableFirst } from '../../shared/node/inbox';
import { readActForParty } from '../../shared/fields/fields';

const SHOWN = ['all', 'invoices', 'responses'] as const;

const properties: INodeProperties[] = [
	{
		displayName: 'The inbox lists only its 10 oldest items until they are confirmed or refused: confirm or refuse each one once handled.',
		name: 'windowNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Documents',
		name: 'documents',
		type: 'options',
		options: [
			{ name: 'All', value: 'all', description: 'Every item the inbox lists' },
			{ name: 'Invoices and Credit Notes', value: 'invoices', description: 'Documents your suppliers sent you' },
			{ name: 'Responses (IMR / MLR)', value: 'responses', description: "Your customers' answers to invoices you sent, and delivery failures" },
		],
		default: 'all',
		description: 'Which of the listed items to output',
	},
];

export const description = updateDisplayOptions({ show: { operation: ['list'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const read = (itemIndex: number) => readChoice(this, itemIndex, 'documents', 'Documents', SHOWN, 'all');
	return await runItems(this, read, async (shown, itemIndex) => {
		const client = await clients(itemIndex, readActForParty(this, itemIndex));
		const { items, notice } = await listInbox(this, client, itemIndex);
		const out = items.filter((item) => shown === 'all' || (shown === 'responses') === ['IMR', 'MLR'].includes(item.DocumentKind)).map(readableFirst); // the list answer names no sender (openapi.json InboxGetResultItem): Get Document's SenderName does
		// An incomplete list says so on each item, or on an item of its own when none is left.
		return notice ? (out.length ? out : [{}]).map((item) => ({ ...item, InboxNotice: notice })) : out;
	});
}
