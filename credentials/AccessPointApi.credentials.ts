import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { CREDENTIAL_BASE_URL_EXPRESSION } from '../nodes/shared/baseUrl';

export class AccessPointApi implements ICredentialType {
	name = 'accessPointApi';

	displayName = 'AccessPoint API';

	icon: Icon = { light: 'file:../icons/accessPoint.svg', dark: 'file:../icons/accessPoint.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The API key of the master account, sent as the "apikey" header',
		},
		{
			displayName: 'Party ID',
			name: 'partyId',
			type: 'string',
			required: true,
			default: '',
			placeholder: '123456',
			description:
				'The PartyID the calls act for, sent as the "partyID" header. Use the master account\'s PartyID; nodes can override it per call to act for a registered entity.',
		},
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			default: 'sandbox',
			options: [
				{
					name: 'Sandbox',
					value: 'sandbox',
					description: 'Test environment; lookups query the Peppol test network',
				},
				{ name: 'Production', value: 'production', description: 'Live environment and Peppol production' },
				{
					name: 'Custom',
					value: 'custom',
					description: 'Another base URL, e.g. a proxy or the local emulator',
				},
			],
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://proxy.example.com',
			description: 'Must use https; plain http is accepted only for localhost/127.0.0.1',
			displayOptions: { show: { environment: ['custom'] } },
		},
	];

	// Trimmed like the nodes' client does: a key pasted with a space or line break still works, and is sent exactly as masked.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				apikey: '={{String($credentials.apiKey || "").trim()}}',
				partyID: '={{String($credentials.partyId || "").trim()}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: CREDENTIAL_BASE_URL_EXPRESSION,
			url: '/v1/einvoices/registrations',
			method: 'GET',
			// A redirect would carry the headers to wherever it points: the test fails on it instead.
			disableFollowRedirect: true,
		},
	};
}
