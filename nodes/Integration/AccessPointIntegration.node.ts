import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeListSearchResult,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, shownFor } from '../shared/fields/credentialFields';
import { getApiClient } from '../shared/node/client';
import { unwrapRegistration } from '../shared/domain/registrationOutput';
import { retryOptions } from '../shared/fields/fields';
import { searchRegistrations } from '../shared/fields/methods';
import { actionSubtitle, describeOperations, router } from '../shared/node/router';
import { integration } from './actions';

/** The integrations of the registration chosen in the same node. */
async function searchIntegrations(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
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

export class AccessPointIntegration implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Integration',
		name: 'accessPointIntegration',
		icon: { light: 'file:../../icons/accessPointIntegration.svg', dark: 'file:../../icons/accessPointIntegration.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: actionSubtitle(
			[integration],
			' + ($parameter["operation"] === "create" ? ": " + ({ ChorusPro: "Chorus Pro", other: $parameter["networkName"] }[$parameter["network"]] ?? $parameter["network"]) : "")',
		),
		description: 'Activate e-invoicing networks (Peppol, SDI, ...) for a registered company',
		documentationUrl: 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#integration',
		defaults: { name: 'AccessPoint Integration' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'accessPointApi', required: true, displayOptions: shownFor('apiKey') },
			{ name: 'accessPointOAuth2Api', required: true, displayOptions: shownFor('oAuth2') },
		],
		properties: [
			authenticationProperty,
			...describeOperations([integration]),
			{ displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: [...retryOptions] },
		],
	};

	methods = { listSearch: { searchRegistrations, searchIntegrations } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, [integration]);
	}
}
