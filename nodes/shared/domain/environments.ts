/** The one Environment → URL rule (README.md "Credentials"; the credentials' expressions use HTTPS_RULE: fields/credentialFields.ts). */
export const SANDBOX_BASE_URL = 'https://api.sandbox.billit.be';
export const PRODUCTION_BASE_URL = 'https://api.billit.be';

/** The https rule for an address a credential sends a secret to (letters case-blind, for the editor's notice too): https, or http on a loopback host. */
export const HTTPS_RULE = '[hH][tT][tT][pP][sS]:\\/\\/|[hH][tT][tT][pP]:\\/\\/(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?(\\/|$)';

export type AccessPointCredentials = { apiKey: string; partyId: string; environment?: 'sandbox' | 'production' | 'custom'; baseUrl?: string };

export function isLoopbackHost(hostname: string): boolean {
	return ['localhost', '[::1]', '::1'].includes(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** https, or plain http on a loopback host only (HTTPS_RULE). */
export function allowedScheme(url: string): boolean {
	return new RegExp(`^(${HTTPS_RULE})`, 'i').test(url.trim());
}

/** The one rule for a credential's base URL; a problem, not a throw. */
export function resolveBaseUrl(credentials: Pick<AccessPointCredentials, 'environment' | 'baseUrl'>): { url: string } | { problem: string } {
	if (credentials.environment !== 'custom') return { url: credentials.environment === 'production' ? PRODUCTION_BASE_URL : SANDBOX_BASE_URL };

	const raw = `${credentials.baseUrl ?? ''}`.trim().replace(/\/+$/, '');
	if (!raw) return { problem: "The credential's Base URL is empty (Environment: Custom)" };
	if (!URL.canParse(raw)) return { problem: `The credential's Base URL "${raw}" is not an absolute URL` };
	if (!allowedScheme(raw)) return { problem: `The credential's Base URL must use https (http only for localhost/127.0.0.1), got "${raw}"` };
	return { url: raw };
}
