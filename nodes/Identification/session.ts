/**
 * Pure rules of an identification session (docs/api.md "Identification"): the redirect
 * address, the provider URL in the answer, and the 5-minute window. No n8n, no HTTP.
 */

import type { Check } from '../shared/domain/validation';

/** The provider flow must be completed within 5 minutes of the POST. */
export const SESSION_WINDOW_MS = 5 * 60 * 1000;

/** Extra wait after the window closes, so a redirect sent at the last second still resumes. */
export const DEFAULT_WAIT_MARGIN_SECONDS = 60;
export const MAX_WAIT_MARGIN_SECONDS = 3600;

/** The one identity provider supported today (its terms code, sent as IdentificationProviderTC). */
export const DEFAULT_PROVIDER_CODE = 'itsme';

/** An absolute http(s) URL the user's browser can be sent to; query and fragment are kept (the service appends to the query). */
export function checkRedirectUrl(value: unknown): Check {
	const raw = value === undefined || value === null ? '' : String(value).trim();
	const hint =
		"Enter an absolute web address starting with https:// (or http://), e.g. https://app.example.com/identified. The service sends the user's browser there and appends registrationID and success.";
	if (!raw) return { ok: false, problem: 'is empty', hint };
	if (/\s/.test(raw)) return { ok: false, problem: 'contains spaces', hint };
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		return { ok: false, problem: 'is not an absolute URL', hint };
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return { ok: false, problem: `uses ${url.protocol.replace(/:$/, '')}, not http(s)`, hint };
	}
	if (!url.hostname) return { ok: false, problem: 'has no host name', hint };
	if (url.username || url.password) {
		return { ok: false, problem: 'contains a user name or password', hint: 'Remove the user:password@ part; a browser redirect cannot carry it.' };
	}
	return { ok: true, value: raw };
}

function asUrl(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return /^https?:\/\//i.test(text) ? text : undefined;
}

/** The provider URL of the start answer: documented as RedirectURL, shown as URL in a sample; both are read (and a bare URL string). */
export function readProviderUrl(body: unknown): string | undefined {
	if (typeof body === 'string') return asUrl(body.trim().replace(/^"|"$/g, ''));
	if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const record = body as Record<string, unknown>;
	for (const name of ['RedirectURL', 'URL', 'RedirectUrl', 'Url', 'redirectURL', 'redirectUrl', 'url']) {
		const found = asUrl(record[name]);
		if (found) return found;
	}
	return undefined;
}

export interface SessionTimes {
	startedAt: string;
	expiresAt: string;
	/** When a waiting execution gives up: window end plus the margin. */
	waitTill: Date;
}

/** The window opens at the POST (startedAtMs is taken just before sending it). */
export function sessionTimes(startedAtMs: number, marginSeconds: number = DEFAULT_WAIT_MARGIN_SECONDS): SessionTimes {
	const margin = Number.isFinite(marginSeconds) ? Math.min(Math.max(marginSeconds, 0), MAX_WAIT_MARGIN_SECONDS) : DEFAULT_WAIT_MARGIN_SECONDS;
	const expires = startedAtMs + SESSION_WINDOW_MS;
	return {
		startedAt: new Date(startedAtMs).toISOString(),
		expiresAt: new Date(expires).toISOString(),
		waitTill: new Date(expires + margin * 1000),
	};
}

/** The provider code to send: the chosen option, or the custom code when "Custom Code" is chosen. */
export function providerCode(choice: unknown, custom: unknown): Check {
	const selected = String(choice ?? '').trim();
	if (selected && selected !== 'custom') return { ok: true, value: selected };
	const code = String(custom ?? '').trim();
	if (!code) {
		return {
			ok: false,
			problem: 'is empty',
			hint: `Enter the provider's terms code announced by the access point, or choose the supported provider (${DEFAULT_PROVIDER_CODE}).`,
		};
	}
	if (/\s/.test(code)) return { ok: false, problem: 'contains spaces', hint: 'A provider terms code is a single word, e.g. itsme.' };
	return { ok: true, value: code };
}

/** Appends registrationID and success to a URL (keeping its query and fragment), as the service does to the RedirectURL. */
export function appendResult(url: string, registrationId: string | number | undefined, success: boolean): string {
	const hashAt = url.indexOf('#');
	const base = hashAt >= 0 ? url.slice(0, hashAt) : url;
	const hash = hashAt >= 0 ? url.slice(hashAt) : '';
	const separator = !base.includes('?') ? '?' : /[?&]$/.test(base) ? '' : '&';
	const params = new URLSearchParams();
	if (registrationId !== undefined && registrationId !== '') params.set('registrationID', String(registrationId));
	params.set('success', String(success));
	return `${base}${separator}${params.toString()}${hash}`;
}
