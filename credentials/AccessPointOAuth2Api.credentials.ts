import type { Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { CREDENTIAL_ICON, credentialTest, environmentFields, OAUTH_ENDPOINTS, oauthUrlExpression } from '../nodes/shared/fields/credentialFields';

/**
 * A URL field once per Environment, each shown for its own: its placeholder and hint name only
 * that Environment's address (Custom: under the Base URL), never another's.
 */
function perEnvironment(field: INodeProperties, which: 'authUrl' | 'tokenUrl', note = ''): INodeProperties[] {
	return (['sandbox', 'production', 'custom'] as const).map((environment) => {
		const path = OAUTH_ENDPOINTS.customPaths[which];
		const address = environment === 'custom' ? `<Base URL>${path}` : OAUTH_ENDPOINTS[environment][which];
		return {
			...field,
			placeholder: environment === 'custom' ? `https://proxy.example.com${path}` : address,
			description: `Leave empty for ${address}.${note}`,
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

	icon: Icon = CREDENTIAL_ICON;

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
		...environmentFields('Test environment (its own client ID)', 'Another base URL, e.g. a proxy', 'Sets the sign-in, token and API addresses'),
		...perEnvironment({ displayName: 'Sign-In URL', name: 'signInUrl', type: 'string', default: '' }, 'authUrl'),
		...perEnvironment(
			{ displayName: 'Token URL', name: 'tokenUrl', type: 'string', default: '' },
			'tokenUrl',
			" https only (http for localhost/127.0.0.1), on the API's host.",
		),
		{
			displayName: 'Party ID',
			name: 'partyId',
			type: 'string',
			default: '',
			placeholder: 'Read from the account when empty',
			description: "Leave empty for the signed-in account's own PartyID",
		},
	];

	// The editor does not test OAuth2 credentials (it shows "Account connected"); n8n's credential
	// test API runs this and proves the stored access token is accepted.
	test: ICredentialTestRequest = credentialTest({ url: '/v1/account/accountInformation' }, 'access token', {
		401: 'HTTP 401: the API refused the access token. Reconnect the credential.',
	});
}
