import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { registrationIdField } from '../../shared/fields/fields';
import type { ClientProvider } from '../../shared/node/router';
import { runItems } from '../../shared/node/items';
import { readRegistrationId } from '../../shared/node/input';

const properties: INodeProperties[] = [
	{
		displayName: 'Deactivating is not deleting, but the company can no longer send or receive through it',
		name: 'deactivateNotice',
		type: 'notice',
		default: '',
	},
	{ ...registrationIdField, description: 'The registered company entity to deactivate' },
];

export const description = updateDisplayOptions({ show: { operation: ['deactivate'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runItems(this, readRegistrationId.bind(null, this), async (registrationId, itemIndex) => {
		const client = await clients(itemIndex);
		await client.request<unknown>({
			method: 'DELETE',
			path: `/v1/einvoices/registrations/${encodeURIComponent(registrationId)}`,
			itemIndex,
			operation: 'Deactivate registration',
			acceptText: true,
		});
		return { RegistrationID: Number(registrationId), deactivated: true };
	});
}
