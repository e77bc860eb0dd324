import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { registrationIdField } from '../../shared/fields/fields';
import { fetchRegistration } from '../../shared/node/registrations';
import type { ClientProvider } from '../../shared/node/router';
import { runItems } from '../../shared/node/items';
import { readRegistrationId } from '../../shared/node/input';
import { flattenRegistration } from '../../shared/domain/registrationOutput';

const properties: INodeProperties[] = [{ ...registrationIdField }];

export const description = updateDisplayOptions({ show: { operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runItems(this, readRegistrationId.bind(null, this), async (registrationId, itemIndex) => {
		const client = await clients(itemIndex);
		const company = await fetchRegistration(this, client, registrationId, itemIndex, 'Get registration');
		return flattenRegistration(company, registrationId);
	});
}
