import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, shownFor } from '../shared/http/auth';
import { retryOptions } from '../shared/fields/fields';
import { searchRegistrations } from '../shared/fields/methods';
import { actionSubtitle, describeOperations, router } from '../shared/node/router';
import { integration } from './actions';
import { searchIntegrations } from './methods';

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
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [...retryOptions],
			},
		],
	};

	methods = { listSearch: { searchRegistrations, searchIntegrations } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, [integration]);
	}
}
