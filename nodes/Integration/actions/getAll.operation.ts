import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readLimit, registrationIdField, returnAllFields } from '../../shared/fields/fields';
import type { ClientProvider } from '../../shared/node/router';
import { runItems } from '../../shared/node/items';
import { fetchRegistration } from '../../shared/node/registrations';
import { readRegistrationId } from '../../shared/node/input';
import { integrationOutput } from './integration';
import { pickFields, readSimplify, SIMPLE_FIELDS, simplifyField } from '../../shared/query/simplify';

const registration: INodeProperties = { ...registrationIdField, description: 'The registered company entity whose integrations to list' };
const properties: INodeProperties[] = [registration, ...returnAllFields(), simplifyField()];

export const description = updateDisplayOptions({ show: { operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const read = (itemIndex: number) => ({
		registrationId: readRegistrationId(this, itemIndex),
		limit: readLimit(this, itemIndex),
		simplify: readSimplify(this, itemIndex),
	});
	return await runItems(this, read, async ({ registrationId, limit, simplify }, itemIndex) => {
		const client = await clients(itemIndex);
		const registration = await fetchRegistration(this, client, registrationId, itemIndex, 'List integrations');
		const integrations = (Array.isArray(registration.Integrations) ? registration.Integrations : []) as IDataObject[];
		const selected = limit === undefined ? integrations : integrations.slice(0, limit);
		return selected.map((integration) => {
			const output = integrationOutput(registrationId, integration);
			return simplify ? pickFields(output, SIMPLE_FIELDS.integration) : output;
		});
	});
}
