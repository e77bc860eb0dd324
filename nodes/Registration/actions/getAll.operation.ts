import { type IExecuteFunctions, type INodeExecutionData, updateDisplayOptions } from 'n8n-workflow';

import { readLimit, returnAllFields } from '../../shared/fields/fields';
import type { ClientProvider } from '../../shared/node/router';
import { runItems } from '../../shared/node/items';
import { flattenRegistration, readCompanies } from '../../shared/domain/registrationOutput';
import { integrationSummary, pickFields, readSimplify, SIMPLE_FIELDS, simplifyField } from '../../shared/query/simplify';

export const description = updateDisplayOptions({ show: { operation: ['getAll'] } }, [...returnAllFields(), simplifyField()]);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const read = (itemIndex: number) => ({ limit: readLimit(this, itemIndex), simplify: readSimplify(this, itemIndex) });
	return await runItems(this, read, async ({ limit, simplify }, itemIndex) => {
		const client = await clients(itemIndex);
		const body = await client.request<unknown>({
			method: 'GET',
			path: '/v1/einvoices/registrations',
			itemIndex,
			operation: 'List registrations',
		});
		const companies = readCompanies(body);
		const selected = limit === undefined ? companies : companies.slice(0, limit);
		return selected.map((company) => {
			const registration = flattenRegistration(company);
			if (!simplify) return registration;
			return { ...pickFields(registration, SIMPLE_FIELDS.registration), IntegrationSummary: integrationSummary(registration.Integrations) };
		});
	});
}
