import type { Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import type { AccessPointEnvironment } from '../nodes/shared/http/baseUrl';
import { credentialTestBaseUrl, OAUTH_ENDPOINTS, oauthUrlExpression, redirectRules } from '../nodes/shared/http/baseUrl';

/**
 * A URL field once per Environment, each shown for its own: its placeholder and hint name only
 * that Environment's address (Custom: under the Base URL), never another's.
 */
function perEnvironment(
	field: INodeProperties,
	which: 'authUrl' | 'tokenUrl',
	words: (address: string, environment: AccessPointEnvironment) => string,
): INodeProperties[] {
	return (['sandbox', 'production', 'custom'] as const).map((environment) => {
		const path = OAUTH_ENDPOINTS.customPaths[which];
		const address = environment === 'custom' ? `<Base URL>${path}` : OAUTH_ENDPOINTS[environment][which];
		return {
			...field,
			placeholder: environment === 'custom' ? `https://proxy.example.com${path}` : address,
			description: words(address, environment),
			displayOptions: { show: { environment: [environment] } },
		};
	});
}

/**
 * The service requires OAuth 2.0 for any integration serving several users (README.md
 * "OAuth2"): Authorization Code with refresh tokens. n8n does the flow (Connect button, token
 * storage, refresh); the nodes pick this credential with their Authentication parameter.
 */
export class AccessPointOAuth2Api implements ICredentialType {
	name = 'accessPointOAuth2Api';

	extends = ['oAuth2Api'];

	// n8n names a new credential after this without "OAuth2" and "API": "AccessPoint Sign-In account",
	// not the API key credential's "AccessPoint account" (which the templates select by name).
	displayName = 'AccessPoint Sign-In OAuth2 API';

	icon: Icon = { light: 'file:../icons/accessPoint.svg', dark: 'file:../icons/accessPoint.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#oauth2';

	properties: INodeProperties[] = [
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'authorizationCode',
		},
		{
			// n8n reads these two; they follow the Environment unless the fields below name other addresses.
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: oauthUrlExpression('authUrl', 'signInUrl'),
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: oauthUrlExpression('tokenUrl', 'tokenUrl'),
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{
			// The service documents client_id and client_secret as form parameters of the token request.
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'body',
		},
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			default: 'sandbox',
			description: 'Sets the sign-in page, the token endpoint and where the nodes send their requests',
			options: [
				{
					name: 'Sandbox',
					value: 'sandbox',
					description: 'Test environment (its own client ID) and the Peppol test network',
				},
				{ name: 'Production', value: 'production', description: 'Live environment and Peppol production' },
				{
					name: 'Custom',
					value: 'custom',
					description: 'Another base URL (a proxy, the emulator) with sign-in and token under it',
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
		...perEnvironment(
			{ displayName: 'Sign-In URL', name: 'signInUrl', type: 'string', default: '' },
			'authUrl',
			(address, environment) =>
				`Leave empty for ${address}.${environment === 'custom' ? '' : ` The service's docs also name ${environment === 'sandbox' ? 'my.sandbox.billit.eu' : 'my.billit.eu'}.`}`,
		),
		...perEnvironment(
			{ displayName: 'Token URL', name: 'tokenUrl', type: 'string', default: '' },
			'tokenUrl',
			(address) => `Leave empty for ${address}. It receives the client secret and refresh token: https only (plain http for localhost/127.0.0.1).`,
		),
		{
			displayName: 'Party ID',
			name: 'partyId',
			type: 'string',
			default: '',
			placeholder: 'Read from the account when empty',
			description:
				"The PartyID the calls act for. Leave empty for the signed-in account's own (read once per node run); nodes can act for another party per call.",
		},
	];

	// The editor does not test OAuth2 credentials (it shows "Account connected"); n8n's credential
	// test API runs this and proves the stored access token is accepted.
	test: ICredentialTestRequest = {
		request: {
			baseURL: credentialTestBaseUrl(),
			url: '/v1/account/accountInformation',
			method: 'GET',
			headers: { Accept: 'application/json' },
			disableFollowRedirect: true,
			timeout: 30_000,
		},
		rules: [
			{
				type: 'responseCode',
				properties: { value: 401, message: 'The API refused the access token (HTTP 401). Open the credential and reconnect it (sign in again).' },
			},
			...redirectRules('access token'),
		],
	};
}
