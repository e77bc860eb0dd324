import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { readLimit, registrationIdField, returnAllFields } from '../../shared/fields';
import type { ClientProvider } from '../../shared/router';
import { runPerItem } from '../../shared/items';
import { fetchRegistration } from '../../shared/registrations';
import { readRegistrationId } from '../../shared/input';
import { integrationOutput } from './integrationOutput';
import { forOperation } from '../../shared/display';
import { pickFields, readSimplify, SIMPLE_FIELDS, simplifyField } from '../../shared/simplify';

const properties: INodeProperties[] = [
	{ ...registrationIdField, description: 'The registered company entity whose integrations to list' },
];

export const description = [
	...forOperation('getAll', properties),
	...returnAllFields({ operation: ['getAll'] }),
	simplifyField({ operation: ['getAll'] }),
];

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const registrationId = readRegistrationId(this, itemIndex);
		const limit = readLimit(this, itemIndex);
		const client = await clients(itemIndex);
		const registration = await fetchRegistration(this, client, registrationId, itemIndex, 'List integrations');
		const integrations = (Array.isArray(registration.Integrations) ? registration.Integrations : []) as IDataObject[];
		const selected = limit === undefined ? integrations : integrations.slice(0, limit);
		const simplify = readSimplify(this, itemIndex);
		return selected.map((integration) => {
			const output = integrationOutput(registrationId, integration);
			return simplify ? pickFields(output, SIMPLE_FIELDS.integration) : output;
		});
	});
}
