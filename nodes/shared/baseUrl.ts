/** Base addresses of the access-point API (contract section 9, field notes). */
export const SANDBOX_BASE_URL = 'https://api.sandbox.billit.be';
export const PRODUCTION_BASE_URL = 'https://api.billit.be';

export type AccessPointEnvironment = 'sandbox' | 'production' | 'custom';

/**
 * OAuth 2.0 endpoints (beyond-contract.md "OAuth 2.0"). The sign-in page is on the web app,
 * whose host the docs give two ways (.be in the example, .eu in the FAQ): the credential
 * defaults to the documented example and lets the user edit it. For Custom both live under
 * the Base URL (a proxy or the emulator).
 */
export const OAUTH_ENDPOINTS = {
	sandbox: { authUrl: 'https://my.sandbox.billit.be/Account/Logon', tokenUrl: `${SANDBOX_BASE_URL}/OAuth2/token` },
	production: { authUrl: 'https://my.billit.be/Account/Logon', tokenUrl: `${PRODUCTION_BASE_URL}/OAuth2/token` },
	customPaths: { authUrl: '/Account/Logon', tokenUrl: '/OAuth2/token' },
} as const;

/**
 * The credential's Authorization or Access Token URL, as an expression over its own fields: the
 * URL typed in `overrideField` when there is one, else the one of its Environment (Base URL + path
 * for Custom).
 */
export function oauthUrlExpression(which: 'authUrl' | 'tokenUrl', overrideField: string): string {
	return (
		`={{ String($self["${overrideField}"] || "").trim() || ` +
		'($self["environment"] === "custom" ? String($self["baseUrl"] || "").trim().replace(/\\/+$/, "") + "' +
		OAUTH_ENDPOINTS.customPaths[which] +
		'" : ($self["environment"] === "production" ? "' +
		OAUTH_ENDPOINTS.production[which] +
		'" : "' +
		OAUTH_ENDPOINTS.sandbox[which] +
		'")) }}'
	);
}

export interface AccessPointCredentials {
	apiKey: string;
	partyId: string;
	environment?: AccessPointEnvironment;
	baseUrl?: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** https, or plain http on a loopback host only: the rule for every address a credential sends a secret to. */
export function allowedScheme(parsed: URL): boolean {
	return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname));
}

/**
 * The one rule for turning a credential into a base URL, for the nodes and the
 * credential test (credentialTest.ts) alike. Returns a problem description instead of
 * throwing so callers pick the error class.
 */
export function resolveBaseUrl(
	credentials: Pick<AccessPointCredentials, 'environment' | 'baseUrl'>,
): { url: string } | { problem: string } {
	const environment = credentials.environment ?? 'sandbox';
	if (environment === 'production') return { url: PRODUCTION_BASE_URL };
	if (environment !== 'custom') return { url: SANDBOX_BASE_URL };

	const raw = String(credentials.baseUrl ?? '').trim().replace(/\/+$/, '');
	if (!raw) return { problem: 'The credential uses a custom environment but its Base URL is empty' };
	let parsed: URL;
	try {
		parsed = new URL(raw);
	} catch {
		return { problem: `The credential's Base URL "${raw}" is not an absolute URL` };
	}
	if (!allowedScheme(parsed)) {
		return {
			problem: `The credential's Base URL must use https (plain http is only allowed for localhost/127.0.0.1), got "${raw}"`,
		};
	}
	return { url: raw };
}
