import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { registrationIdField } from '../../shared/fields';
import { fetchRegistration } from '../../shared/registrations';
import type { ClientProvider } from '../../shared/router';
import { runPerItem } from '../../shared/items';
import { readRegistrationId } from '../../shared/input';
import { flattenRegistration } from '../../shared/registrationOutput';
import { forOperation } from '../../shared/display';

const properties: INodeProperties[] = [{ ...registrationIdField }];

export const description = forOperation('get', properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const registrationId = readRegistrationId(this, itemIndex);
		const client = await clients(itemIndex);
		const company = await fetchRegistration(this, client, registrationId, itemIndex, 'Get registration');
		return flattenRegistration(company, registrationId);
	});
}
