/** The one Environment → URL rule: the API addresses, the https rule, and their expressions for the credentials (which cannot run code). */
/** Base addresses of the access-point API (the service's "Sandbox vs Production" page; README.md "Credentials"). */
export const SANDBOX_BASE_URL = 'https://api.sandbox.billit.be';
export const PRODUCTION_BASE_URL = 'https://api.billit.be';

export type AccessPointEnvironment = 'sandbox' | 'production' | 'custom';

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
 * The one rule for an address a credential sends a secret to: https, or plain http on a loopback host only. A pattern, so that
 * the nodes' code (resolveBaseUrl, the Token URL check) and the credentials' expressions (which cannot run code) test the same.
 */
/** The https rule (its letters case-blind, for the editor's notice too): https, or http on a loopback host. */
export const HTTPS_RULE = '[hH][tT][tT][pP][sS]:\\/\\/|[hH][tT][tT][pP]:\\/\\/(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?(\\/|$)';
const SAFE_URL = `^(${HTTPS_RULE})`;

export type AccessPointCredentials = { apiKey: string; partyId: string; environment?: AccessPointEnvironment; baseUrl?: string };

export function isLoopbackHost(hostname: string): boolean {
	return ['localhost', '[::1]', '::1'].includes(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** https, or plain http on a loopback host only (SAFE_URL). */
export function allowedScheme(url: string): boolean {
	return new RegExp(SAFE_URL, 'i').test(url.trim());
}

/** The one rule for a credential's base URL (apiBaseExpression is the same as an expression); a problem, not a throw. */
export function resolveBaseUrl(credentials: Pick<AccessPointCredentials, 'environment' | 'baseUrl'>): { url: string } | { problem: string } {
	const environment = credentials.environment ?? 'sandbox';
	if (environment === 'production') return { url: PRODUCTION_BASE_URL };
	if (environment !== 'custom') return { url: SANDBOX_BASE_URL };

	const raw = `${credentials.baseUrl ?? ''}`.trim().replace(/\/+$/, '');
	if (!raw) return { problem: "The credential's Base URL is empty (Environment: Custom)" };
	if (!URL.canParse(raw)) return { problem: `The credential's Base URL "${raw}" is not an absolute URL` };
	if (!allowedScheme(raw)) return { problem: `The credential's Base URL must use https (http only for localhost/127.0.0.1), got "${raw}"` };
	return { url: raw };
}

/**
 * resolveBaseUrl's rule as the inside of an expression over `$credentials` (a credential's test request) or `$self` (its own
 * fields): a Custom Base URL breaking the https rule becomes a text that is not a URL, so nothing is sent (ERR_INVALID_URL).
 */
function apiBaseExpression(fields: '$credentials' | '$self'): string {
	const custom = `String(${fields}.baseUrl || "").trim()`;
	const safe = `(/${SAFE_URL}/i.test(${custom}) ? ${custom}.replace(/\\/+$/, "") : "Base URL must use https")`;
	return `(${fields}.environment === "custom" ? ${safe} : ${fields}.environment === "production" ? "${PRODUCTION_BASE_URL}" : "${SANDBOX_BASE_URL}")`;
}

/** The Base URL of a credential's declarative `test` request (apiBaseExpression). */
export function credentialTestBaseUrl(): string {
	return `={{ ${apiBaseExpression('$credentials')} }}`;
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
