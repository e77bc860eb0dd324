/** Base addresses of the access-point API (contract section 9, field notes). */
export const SANDBOX_BASE_URL = 'https://api.sandbox.billit.be';
export const PRODUCTION_BASE_URL = 'https://api.billit.be';

export type AccessPointEnvironment = 'sandbox' | 'production' | 'custom';

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
	if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
		return {
			problem: `The credential's Base URL must use https (plain http is only allowed for localhost/127.0.0.1), got "${raw}"`,
		};
	}
	return { url: raw };
}
