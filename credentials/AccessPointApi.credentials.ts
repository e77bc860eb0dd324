import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

export class AccessPointApi implements ICredentialType {
	name = 'accessPointApi';

	displayName = 'AccessPoint API';

	icon: Icon = { light: 'file:../icons/accessPoint.svg', dark: 'file:../icons/accessPoint.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#accesspoint-api-api-key';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				"The API key the access point issued for your master account, found in its web app where you manage API access. Sandbox and production each have their own key.",
		},
		{
			displayName: 'Party ID',
			name: 'partyId',
			type: 'string',
			required: true,
			default: '',
			placeholder: '123456',
			description:
				"The PartyID of your master account, shown in the access point's web app with your account details. Nodes can act for a registered company instead (Options › Act for Party).",
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

	// No declarative `test`: every node tests this credential with nodes/shared/credentialTest.ts
	// (testedBy), which shows the API's own message and the Base URL rule instead of "Unauthorized" or "ENOTFOUND".
}
