import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { getApiClient } from '../shared/http/transport';
import { unwrapRegistration } from '../shared/domain/registrationOutput';

/** The integrations of the registration chosen in the same node. */
export async function searchIntegrations(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const registrationId = String(this.getCurrentNodeParameter('registrationId', { extractValue: true }) ?? '').trim();
	if (!/^\d+$/.test(registrationId)) return { results: [] };
	const client = await getApiClient.call(this);
	const body = await client.request<unknown>({
		method: 'GET',
		path: `/v1/einvoices/registrations/${encodeURIComponent(registrationId)}`,
		operation: 'Get registration',
	});
	const integrations = (unwrapRegistration(body, registrationId)?.Integrations ?? []) as IDataObject[];
	const needle = (filter ?? '').toLowerCase();
	const results = integrations
		.map((integration) => ({
			name: [integration.Integration, integration.IntegrationStatus, `#${integration.IntegrationID}`].filter(Boolean).join(' · '),
			value: String(integration.IntegrationID ?? ''),
		}))
		.filter((entry) => entry.value && (!needle || entry.name.toLowerCase().includes(needle)));
	return { results };
}
