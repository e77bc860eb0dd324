import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { CREDENTIAL_ICON, credentialTest, environmentFields } from '../nodes/shared/fields/credentialFields';

export class AccessPointApi implements ICredentialType {
	name = 'accessPointApi';

	displayName = 'AccessPoint API';

	icon: Icon = CREDENTIAL_ICON;

	documentationUrl = 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#api-key';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: "Your master account's API key, from the access point's web app",
		},
		{
			displayName: 'Party ID',
			name: 'partyId',
			type: 'string',
			required: true,
			default: '',
			placeholder: '123456',
			description: "Your master account's PartyID, shown in the web app",
		},
		...environmentFields('Test environment and Peppol test network', 'Another base URL, e.g. a proxy'),
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
	 * the credentials' expression of resolveBaseUrl, fields/credentialFields.ts). n8n runs it; each refusal says what to check.
	 */
	test: ICredentialTestRequest = credentialTest({ url: '/v1/orders', qs: { $top: 1 } }, 'API key', {
		401: 'HTTP 401: check the API Key, the Party ID and the Environment (sandbox and production keys differ).',
		403: 'HTTP 403: this account may not use the API. Contact the access point support.',
		404: 'HTTP 404: check the Environment, or the Base URL for Custom.',
	});
}
