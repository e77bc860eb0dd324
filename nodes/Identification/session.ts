/**
 * Pure rules of an identification session (docs/api.md "Identification"): redirect address, provider URL, 5-minute window,
 * callback (`registrationID` and `success=true|false` appended to the RedirectURL, or `error=invalid_redirect`). Every outcome
 * that is not a clean, matching `success=true` is "not identified": a malformed, ambiguous or expired callback never reads as a success.
 */
import type { Check } from '../shared/domain/validation';
import { isRecord } from '../shared/domain/values';

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
	const hint = 'Enter an absolute web address starting with https://, e.g. https://app.example.com/identified.';
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
		return { ok: false, problem: 'contains a user name or password', hint: 'Remove the user:password@ part.' };
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
	return { startedAt: new Date(startedAtMs).toISOString(), expiresAt: new Date(expires).toISOString(), waitTill: new Date(expires + margin * 1000) };
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
			hint: `Enter the provider's terms code, or choose ${DEFAULT_PROVIDER_CODE}.`,
		};
	}
	if (/\s/.test(code)) return { ok: false, problem: 'contains spaces', hint: 'Enter a single word, e.g. itsme.' };
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

export type Reason =
	| 'identified'
	| 'failed'
	| 'expired'
	| 'invalid_redirect'
	| 'provider_error'
	| 'invalid_callback'
	| 'registration_mismatch'
	| 'not_confirmed';

/** Every result is the word of the user's browser: the service offers no API to check it, so every item says so. */
export const RESULT_SOURCE = 'browser redirect';

/** What re-reading the registration said of a reported success (the documented reads show no status: `none`). */
export type ServiceCheck = 'confirmed' | 'contradicted' | 'not shown' | 'not checked' | 'read failed';

export interface CallbackOutcome {
	identified: boolean;
	reason: Reason;
	serviceCheck?: ServiceCheck;
	/** The registration the callback names (or the one expected when it names none). */
	registrationID?: number | string;
	reported: { registrationID?: string; success?: string; error?: string };
	message: string;
}

/** Numbers stay numbers (as in the API's reads); anything else stays text. */
export function toRegistrationId(value: unknown): number | string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = String(value).trim();
	if (!text) return undefined;
	if (/^\d+$/.test(text)) {
		const n = Number(text);
		if (Number.isSafeInteger(n)) return n;
	}
	return text;
}

/** The record without its undefined entries (and its '' entries unless keepEmpty). */
function defined(record: Record<string, unknown>, keepEmpty = false): Record<string, unknown> {
	return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined && (keepEmpty || value !== '')));
}

type Single = { value?: string; ambiguous: boolean };

/** One query parameter, matched case-insensitively; repeated values that disagree are ambiguous. */
function single(query: Record<string, unknown>, name: string): Single {
	const values: string[] = [];
	for (const [key, raw] of Object.entries(query)) {
		if (key.toLowerCase() !== name.toLowerCase()) continue;
		const list = Array.isArray(raw) ? raw : [raw];
		for (const entry of list) {
			if (entry === undefined || entry === null) continue;
			if (typeof entry === 'object') return { ambiguous: true };
			values.push(String(entry).trim());
		}
	}
	if (values.length === 0) return { ambiguous: false };
	const distinct = new Set(values);
	if (distinct.size > 1) return { ambiguous: true };
	return { value: values[0], ambiguous: false };
}

/** Whether the data looks like a callback query at all (has success, registrationID or error). */
export function looksLikeCallback(query: unknown): boolean {
	return isRecord(query) && Object.keys(query).some((key) => /^(success|registrationid|error)$/i.test(key));
}

/** The outcome of a callback; one naming another registration than `expected` is not accepted. */
export function readCallback(query: unknown, expected?: string | number): CallbackOutcome {
	const q = isRecord(query) ? query : {};
	const reg = single(q, 'registrationID');
	const success = single(q, 'success');
	const error = single(q, 'error');
	const reported = defined({ registrationID: reg.value, success: success.value, error: error.value }, true) as CallbackOutcome['reported'];
	const expectedId = toRegistrationId(expected);
	const named = toRegistrationId(reg.value);
	const registrationID = named ?? expectedId;
	const notIdentified = (reason: Reason, message: string): CallbackOutcome => ({ identified: false, reason, registrationID, reported, message });

	if (error.ambiguous || error.value) {
		if (error.value === 'invalid_redirect') {
			return notIdentified(
				'invalid_redirect',
				'The identity provider refused the redirect address (invalid_redirect). Ask support to allow the host of your RedirectURL.',
			);
		}
		return notIdentified('provider_error', `The identity provider reported an error (${error.value ?? 'several values'}). Start a new identification.`);
	}
	if (success.ambiguous || reg.ambiguous) {
		return notIdentified('invalid_callback', 'The callback carried conflicting registrationID or success values.');
	}
	const flag = success.value?.toLowerCase();
	if (flag !== 'true' && flag !== 'false') {
		return notIdentified(
			'invalid_callback',
			success.value === undefined ? 'The callback has no success parameter.' : `The callback's success parameter is "${success.value}", not true or false.`,
		);
	}
	if (expectedId !== undefined && named !== undefined && String(named) !== String(expectedId)) {
		return notIdentified('registration_mismatch', `The callback is for registration ${named}, not ${expectedId}.`);
	}
	if (flag === 'false') {
		return notIdentified('failed', 'The user did not complete the identity check. Start a new identification.');
	}
	if (named === undefined) {
		return notIdentified('invalid_callback', 'The callback says success=true but names no registrationID.');
	}
	return { identified: true, reason: 'identified', registrationID: named, reported, message: 'The user was identified.' };
}

/** A status word as identified (true), not identified (false), or neither (undefined). */
function statusWord(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (typeof value !== 'string') return undefined;
	const word = value.toLowerCase().replace(/[\s_-]/g, '');
	if (['true', 'identified', 'verified', 'success', 'succeeded', 'completed', 'approved'].includes(word)) return true;
	if (['false', 'notidentified', 'unverified', 'failed', 'failure', 'pending', 'rejected', 'expired', 'none'].includes(word)) return false;
	return undefined;
}

const STATUS_FIELDS = ['identified', 'isidentified', 'identificationstatus', 'kycstatus', 'kycverified'];

/** A registration read's identification status (Identified, KYCStatus ..., top level or CompanyDetails); undefined where none. */
export function identifiedInRegistration(registration: unknown): boolean | undefined {
	if (!isRecord(registration)) return undefined;
	for (const record of [registration, registration.CompanyDetails]) {
		if (!isRecord(record)) continue;
		for (const [key, value] of Object.entries(record)) {
			if (!STATUS_FIELDS.includes(key.toLowerCase())) continue;
			const status = statusWord(value);
			if (status !== undefined) return status;
		}
	}
	return undefined;
}

/** After the re-read: only a success (the forged path) is checked; one the read contradicts becomes not_confirmed. */
export function withServiceCheck(outcome: CallbackOutcome, check: ServiceCheck, detail?: string): CallbackOutcome {
	if (!outcome.identified) return { ...outcome, serviceCheck: 'not checked' };
	if (check === 'contradicted') {
		return {
			...outcome,
			identified: false,
			reason: 'not_confirmed',
			serviceCheck: check,
			message: `The browser reported success, but the registration read shows registration ${String(outcome.registrationID)} as not identified (a forged or replayed callback?).`,
		};
	}
	const note: Record<Exclude<ServiceCheck, 'contradicted'>, string> = {
		confirmed: 'The registration read confirms it.',
		'not shown': "The registration read shows nothing about identification: this is the browser's word, and anyone holding the resume URL can send it.",
		'not checked': "Not checked with the service: this is the browser's word, and anyone holding the callback URL can send it.",
		'read failed': `The registration could not be re-read${detail ? ` (${detail})` : ''}: this is the browser's word.`,
	};
	return { ...outcome, serviceCheck: check, message: `${outcome.message} ${note[check]}` };
}

/** The item of every outcome: `success` and `identified` always agree; `resultSource` and `serviceCheck` say whose word it is. */
export function outcomeJson(outcome: CallbackOutcome, extra: { startedAt?: string; expiresAt?: string; receivedAt?: string } = {}): Record<string, unknown> {
	return {
		identified: outcome.identified,
		success: outcome.identified,
		reason: outcome.reason,
		RegistrationID: outcome.registrationID ?? null,
		message: outcome.message,
		resultSource: RESULT_SOURCE,
		serviceCheck: outcome.serviceCheck ?? 'not checked',
		...defined(extra),
		callback: outcome.reported,
	};
}

/** The item a wait that timed out leaves with. */
export function expiredJson(registrationID: number | string | undefined, startedAt?: string, expiresAt?: string): Record<string, unknown> {
	return {
		identified: false,
		success: false,
		reason: 'expired' as Reason,
		RegistrationID: registrationID ?? null,
		message: 'No result came back within the 5-minute window. Start a new identification.',
		...defined({ startedAt, expiresAt }),
	};
}

/** Query data as a user may map it: an object (a Webhook node's `$json.query`), JSON text, a callback URL or a query string. */
export function queryFromValue(value: unknown): Record<string, unknown> | undefined {
	if (isRecord(value)) return value;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (!text) return undefined;
	if (text.startsWith('{')) {
		try {
			const parsed = JSON.parse(text) as unknown;
			return isRecord(parsed) ? parsed : undefined;
		} catch {
			return undefined;
		}
	}
	let search = text;
	if (/^https?:\/\//i.test(text)) {
		try {
			search = new URL(text).search;
		} catch {
			return undefined;
		}
	} else if (text.includes('?')) {
		search = text.slice(text.indexOf('?'));
	}
	const params = new URLSearchParams(search.replace(/^\?/, '').split('#')[0]);
	const query: Record<string, unknown> = {};
	for (const [key, entry] of params) {
		const existing = query[key];
		if (existing === undefined) query[key] = entry;
		else query[key] = Array.isArray(existing) ? [...(existing as string[]), entry] : [existing, entry];
	}
	return Object.keys(query).length ? query : undefined;
}
