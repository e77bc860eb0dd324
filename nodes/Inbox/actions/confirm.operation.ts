/** Peppol Inbox › Confirm: the item is handled and leaves the inbox (POST …/confirm, no body). */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ClientProvider } from '../../shared/node/router';
import { inboxItemIdField, settle } from './settle';

export const description = updateDisplayOptions({ show: { operation: ['confirm'] } }, [inboxItemIdField]);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await settle(this, clients, 'confirm');
}
