/** What both credentials show and test, and the nodes' Authentication (the Environment → URL rule itself: domain/environments.ts). */
import type { ICredentialsDisplayOptions, ICredentialTestRequest, Icon, IDataObject, INodeProperties } from 'n8n-workflow';

import { HTTPS_RULE, PRODUCTION_BASE_URL, SANDBOX_BASE_URL } from '../domain/environments';

/** The node parameter, first in every node's properties (n8n's usual name and values). */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'API Key', value: 'apiKey', description: 'For a personal, non-commercial integration' },
		{ name: 'OAuth2', value: 'oAuth2', description: 'Required for an integration serving several users' },
	],
	default: 'apiKey',
};

/** displayOptions of a node's credential entry: shown for this Authentication (object literals, as n8n's lint rules expect). */
export function shownFor(method: 'apiKey' | 'oAuth2', show: Record<string, string[]> = {}): ICredentialsDisplayOptions {
	return { show: { ...show, authentication: [method] } };
}

/**
 * OAuth 2.0 endpoints (the service's "OAuth 2.0" page; README.md "OAuth2"): the token endpoint is under the API's address; the
 * sign-in page's host is given two ways (.be in the example, .eu in the FAQ), so the credential defaults to the example and lets
 * the user edit it; Custom: under the Base URL.
 */
export const OAUTH_ENDPOINTS = {
	sandbox: { authUrl: 'https://my.sandbox.billit.be/Account/Logon', tokenUrl: `${SANDBOX_BASE_URL}/OAuth2/token` },
	production: { authUrl: 'https://my.billit.be/Account/Logon', tokenUrl: `${PRODUCTION_BASE_URL}/OAuth2/token` },
	customPaths: { authUrl: '/Account/Logon', tokenUrl: '/OAuth2/token' },
} as const;

/**
 * resolveBaseUrl's rule (domain/environments.ts) as the inside of an expression over `$credentials` (a credential's test request) or
 * `$self` (its own fields): a Custom Base URL breaking the https rule becomes a text that is not a URL, so nothing is sent.
 */
function apiBaseExpression(fields: '$credentials' | '$self'): string {
	const custom = `String(${fields}.baseUrl || "").trim()`;
	const safe = `(/^(${HTTPS_RULE})/i.test(${custom}) ? ${custom}.replace(/\\/+$/, "") : "Base URL must use https")`;
	return `(${fields}.environment === "custom" ? ${safe} : ${fields}.environment === "production" ? "${PRODUCTION_BASE_URL}" : "${SANDBOX_BASE_URL}")`;
}

/** The credential's Authorization or Access Token URL as an expression: the URL typed in `overrideField`, else its Environment's. */
export function oauthUrlExpression(which: 'authUrl' | 'tokenUrl', overrideField: string): string {
	const path = OAUTH_ENDPOINTS.customPaths[which];
	const byEnvironment =
		which === 'tokenUrl'
			? `${apiBaseExpression('$self')} + "${path}"`
			: `($self.environment === "custom" ? ${apiBaseExpression('$self')} + "${path}" : $self.environment === "production" ? "${OAUTH_ENDPOINTS.production.authUrl}" : "${OAUTH_ENDPOINTS.sandbox.authUrl}")`;
	return `={{ String($self["${overrideField}"] || "").trim() || ${byEnvironment} }}`;
}

export const CREDENTIAL_ICON: Icon = { light: 'file:../icons/accessPoint.svg', dark: 'file:../icons/accessPoint.dark.svg' };

/** Both credentials' Environment (`sandbox` and `custom` describe those choices) and the Custom Base URL. */
export function environmentFields(sandbox: string, custom: string, description?: string): INodeProperties[] {
	return [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			default: 'sandbox',
			...(description ? { description } : {}),
			options: [
				{ name: 'Sandbox', value: 'sandbox', description: sandbox },
				{ name: 'Production', value: 'production', description: 'Live environment and Peppol production' },
				{ name: 'Custom', value: 'custom', description: custom },
			],
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://proxy.example.com',
			description: 'Must use https (http only for localhost/127.0.0.1)',
			displayOptions: { show: { environment: ['custom'] } },
		},
		{
			// Shown while the Base URL breaks the https rule: the Test can then only say "Invalid URL" (nothing is sent).
			displayName: 'This Base URL is refused: it must start with https:// (http:// only for localhost or 127.0.0.1); nothing is sent to it',
			name: 'httpsNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { environment: ['custom'], baseUrl: [{ _cnd: { regex: `^\\s*(?!${HTTPS_RULE})\\S` } }] } },
		},
	];
}

/**
 * A credential's Test button: one GET on the Base URL the nodes use (apiBaseExpression), 30 s; each status in
 * `messages`, and each redirect (n8n does not follow it: `disableFollowRedirect`), refused with what to check.
 */
export function credentialTest(request: { url: string; qs?: IDataObject }, secret: string, messages: Record<number, string>): ICredentialTestRequest {
	const redirect = (status: number) =>
		`HTTP ${status}: a redirect, not followed, so the ${secret} stayed here. If the API has moved, set its new address as the Base URL (Environment: Custom).`;
	const rules = [...Object.entries(messages), ...[301, 302, 303, 307, 308].map((status) => [status, redirect(status)])];
	return {
		request: {
			baseURL: `={{ ${apiBaseExpression('$credentials')} }}`,
			...request,
			method: 'GET',
			headers: { Accept: 'application/json' },
			disableFollowRedirect: true,
			timeout: 30_000,
		},
		rules: rules.map(([value, message]) => ({ type: 'responseCode', properties: { value: Number(value), message: String(message) } })),
	};
}
