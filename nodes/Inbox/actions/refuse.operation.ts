/** Peppol Inbox › Refuse: an invoice or credit note is refused with a reason code and leaves the inbox. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readChoice } from '../../shared/node/input';
import type { ClientProvider } from '../../shared/node/router';
import { REFUSAL_REASONS } from '../../shared/node/inbox';
import { inboxItemIdField, settle } from './settle';

const CODES = REFUSAL_REASONS.map((reason) => reason.value);

export const description = updateDisplayOptions({ show: { operation: ['refuse'] } }, [
	inboxItemIdField,
	{
		displayName: 'Refusal Reason',
		name: 'refusalReason',
		type: 'options',
		options: REFUSAL_REASONS,
		default: 'OTH',
		description: 'Why the document is refused (OPStatusReason); the sender receives it',
	},
]);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await settle(this, clients, 'refuse', (itemIndex) => readChoice(this, itemIndex, 'refusalReason', 'Refusal Reason', CODES, 'OTH'));
}
