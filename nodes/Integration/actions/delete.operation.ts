import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { registrationIdField } from '../../shared/fields/fields';
import type { ClientProvider } from '../../shared/node/router';
import { runItems } from '../../shared/node/items';
import { checkNumericId } from '../../shared/domain/validation';
import { readRegistrationId, requireValid } from '../../shared/node/input';

const properties: INodeProperties[] = [
	{ ...registrationIdField },
	{
		// The picker loads the integrations of the registration chosen above (methods.ts), or takes an ID.
		displayName: 'Integration',
		name: 'integrationId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The integration to remove from the registration',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select an integration...',
				typeOptions: { searchListMethod: 'searchIntegrations', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 7001',
				validation: [{ type: 'regex', properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'An IntegrationID is a number' } }],
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const read = (itemIndex: number) => {
		const rawIntegrationId = this.getNodeParameter('integrationId', itemIndex, '', { extractValue: true }) as unknown;
		const integrationId = requireValid(this, itemIndex, 'Integration', rawIntegrationId, (v) => checkNumericId(v, 'IntegrationID'));
		return { registrationId: readRegistrationId(this, itemIndex), integrationId };
	};
	return await runItems(this, read, async ({ registrationId, integrationId }, itemIndex) => {
		const client = await clients(itemIndex);
		await client.request<unknown>({
			method: 'DELETE',
			path: `/v1/einvoices/registrations/${encodeURIComponent(registrationId)}/integrations/${encodeURIComponent(integrationId)}`,
			itemIndex,
			operation: 'Delete integration',
			acceptText: true,
		});
		return { RegistrationID: Number(registrationId), IntegrationID: Number(integrationId), deleted: true };
	});
}
