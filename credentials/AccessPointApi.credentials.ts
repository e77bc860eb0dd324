import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { credentialTestBaseUrl, redirectRules } from '../nodes/shared/http/baseUrl';

export class AccessPointApi implements ICredentialType {
	name = 'accessPointApi';

	displayName = 'AccessPoint API';

	icon: Icon = { light: 'file:../icons/accessPoint.svg', dark: 'file:../icons/accessPoint.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#api-key';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: "Your master account's API key, from the access point's web app. Sandbox and production keys differ.",
		},
		{
			displayName: 'Party ID',
			name: 'partyId',
			type: 'string',
			required: true,
			default: '',
			placeholder: '123456',
			description: "Your master account's PartyID, shown in the web app. Nodes can act for another party (Options › Act for Party).",
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

	/**
	 * The Test button: one order read (at most one record) with the key and Party ID, on the Base URL
	 * the nodes use (a Custom one that breaks the https rule is refused before anything is sent:
	 * credentialTestBaseUrl). n8n runs it; each refusal says what to check.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: credentialTestBaseUrl(),
			url: '/v1/orders',
			qs: { $top: 1 },
			method: 'GET',
			headers: { Accept: 'application/json' },
			disableFollowRedirect: true,
			timeout: 30_000,
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						"The API refused the API key or the Party ID (HTTP 401). Check the API Key and the Party ID (your master account's), and the Environment: sandbox and production keys differ.",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The API refused this account (HTTP 403): it may not use the API this way. Contact the access point support, quoting your Party ID.',
				},
			},
			{
				type: 'responseCode',
				properties: { value: 404, message: 'Nothing answers at this address (HTTP 404): check the Environment, or the Base URL for Custom.' },
			},
			...redirectRules('API key'),
		],
	};
}
