import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { registrationIdField } from '../../shared/fields';
import type { ClientProvider } from '../../shared/router';
import { runPerItem } from '../../shared/router';
import { readRegistrationId } from '../../shared/input';
import { flattenRegistration, unwrapRegistration } from '../../shared/registrationOutput';

const properties: INodeProperties[] = [{ ...registrationIdField }];

export const description = updateDisplayOptions({ show: { operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const registrationId = readRegistrationId(this, itemIndex);
		const client = await clients(itemIndex);
		const body = await client.request<unknown>({
			method: 'GET',
			path: `/v1/einvoices/registrations/${encodeURIComponent(registrationId)}`,
			itemIndex,
			operation: 'Get registration',
		});
		const company = unwrapRegistration(body, registrationId);
		if (!company) {
			throw new NodeApiError(
				this.getNode(),
				{ message: `The API returned no registration for RegistrationID ${registrationId}` },
				{
					message: `Get registration: the API returned no registration for RegistrationID ${registrationId}`,
					description: 'Check the ID, e.g. with "Get Many", and that it belongs to this account.',
					itemIndex,
				},
			);
		}
		return flattenRegistration(company, registrationId);
	});
}
