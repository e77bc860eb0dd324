import type { Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { OAUTH_ENDPOINTS, oauthUrlExpression, PRODUCTION_BASE_URL, SANDBOX_BASE_URL } from '../nodes/shared/baseUrl';

/**
 * resolveBaseUrl's rule (baseUrl.ts) as an expression, for the declarative test: n8n tests an
 * OAuth2 credential only that way (a node's credentialTest function is never asked for one). A
 * custom Base URL that breaks the https rule tests against a reserved name that never resolves,
 * so the token is never sent over plain http.
 */
const TEST_BASE_URL_EXPRESSION =
	'={{ $credentials.environment === "custom" ? (/^(https:\\/\\/|http:\\/\\/(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?(\\/|$))/i.test(String($credentials.baseUrl || "").trim()) ? String($credentials.baseUrl || "").trim().replace(/\\/+$/, "") : "https://base-url-must-use-https.invalid") : ($credentials.environment === "production" ? "' +
	PRODUCTION_BASE_URL +
	'" : "' +
	SANDBOX_BASE_URL +
	'") }}';

/**
 * The service requires OAuth 2.0 for any integration serving several users (beyond-contract.md
 * "OAuth 2.0"): Authorization Code with refresh tokens. n8n does the flow (Connect button, token
 * storage, refresh); the nodes pick this credential with their Authentication parameter.
 */
export class AccessPointOAuth2Api implements ICredentialType {
	name = 'accessPointOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'AccessPoint OAuth2 API';

	icon: Icon = { light: 'file:../icons/accessPoint.svg', dark: 'file:../icons/accessPoint.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#accesspoint-oauth2-api-oauth-20';

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
					description: 'Test environment (its own client ID); lookups query the Peppol test network',
				},
				{ name: 'Production', value: 'production', description: 'Live environment and Peppol production' },
				{
					name: 'Custom',
					value: 'custom',
					description: 'Another base URL, e.g. a proxy or the local emulator; sign-in and token under it',
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
		{
			displayName: 'Sign-In URL',
			name: 'signInUrl',
			type: 'string',
			default: '',
			placeholder: OAUTH_ENDPOINTS.sandbox.authUrl,
			description: `Leave empty for the documented sign-in page of the Environment: ${OAUTH_ENDPOINTS.sandbox.authUrl} (Sandbox), ${OAUTH_ENDPOINTS.production.authUrl} (Production), <Base URL>${OAUTH_ENDPOINTS.customPaths.authUrl} (Custom). The service's documentation also names my.sandbox.billit.eu and my.billit.eu: set yours here if it differs.`,
		},
		{
			displayName: 'Token URL',
			name: 'tokenUrl',
			type: 'string',
			default: '',
			placeholder: OAUTH_ENDPOINTS.sandbox.tokenUrl,
			description: `Leave empty for the documented token endpoint of the Environment: ${OAUTH_ENDPOINTS.sandbox.tokenUrl} (Sandbox), ${OAUTH_ENDPOINTS.production.tokenUrl} (Production), <Base URL>${OAUTH_ENDPOINTS.customPaths.tokenUrl} (Custom). It receives the client secret and the refresh token, so it must use https (plain http only for localhost/127.0.0.1).`,
		},
		{
			displayName: 'Party ID',
			name: 'partyId',
			type: 'string',
			default: '',
			placeholder: 'Read from the account when empty',
			description:
				'The PartyID the calls act for, sent as the "partyID" header. Leave empty to use the signed-in account\'s own PartyID (read from the account information once each time a node runs); nodes can still act for a registered entity per call.',
		},
	];

	// The editor does not test OAuth2 credentials (it shows "Account connected"); this runs through
	// n8n's credential test API and proves the stored access token is accepted.
	test: ICredentialTestRequest = {
		request: {
			baseURL: TEST_BASE_URL_EXPRESSION,
			url: '/v1/account/accountInformation',
			method: 'GET',
			disableFollowRedirect: true,
		},
	};
}
