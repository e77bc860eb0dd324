import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { readLimit, registrationIdField, returnAllFields } from '../../shared/fields';
import type { ClientProvider } from '../../shared/router';
import { runPerItem } from '../../shared/router';
import { unwrapRegistration } from '../../shared/registrationOutput';
import { readRegistrationId } from '../../shared/input';
import { integrationOutput } from './integrationOutput';

const properties: INodeProperties[] = [
	{ ...registrationIdField, description: 'The registered company entity whose integrations to list' },
];

export const description = [
	...updateDisplayOptions({ show: { operation: ['getMany'] } }, properties),
	...returnAllFields({ operation: ['getMany'] }),
];

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const registrationId = readRegistrationId(this, itemIndex);
		const limit = readLimit(this, itemIndex);
		const client = await clients(itemIndex);
		const body = await client.request<unknown>({
			method: 'GET',
			path: `/v1/einvoices/registrations/${encodeURIComponent(registrationId)}`,
			itemIndex,
			operation: 'Get registration',
		});
		const registration = unwrapRegistration(body, registrationId);
		if (!registration) {
			throw new NodeApiError(
				this.getNode(),
				{ message: `The API returned no registration for RegistrationID ${registrationId}` },
				{
					message: `List integrations: the API returned no registration for RegistrationID ${registrationId}`,
					description: 'Check the ID and that it belongs to this account.',
					itemIndex,
				},
			);
		}
		const integrations = (Array.isArray(registration.Integrations) ? registration.Integrations : []) as IDataObject[];
		const selected = limit === undefined ? integrations : integrations.slice(0, limit);
		return selected.map((integration) => integrationOutput(registrationId, integration));
	});
}
