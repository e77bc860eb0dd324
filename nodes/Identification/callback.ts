/**
 * Pure reading of the identification callback (contract 4.7): the service sends
 * the browser to the RedirectURL with `registrationID` and `success=true|false`
 * appended, or the provider shows an error page with `error=invalid_redirect`.
 *
 * Every outcome that is not a clean, matching `success=true` is "not identified",
 * so a malformed, ambiguous or expired callback can never read as a success.
 */

export type Reason =
	| 'identified'
	| 'failed'
	| 'expired'
	| 'invalid_redirect'
	| 'provider_error'
	| 'invalid_callback'
	| 'registration_mismatch';

export interface CallbackOutcome {
	identified: boolean;
	reason: Reason;
	/** The registration the callback names (or the one expected when it names none). */
	registrationID?: number | string;
	/** What the callback said, as received (for troubleshooting). */
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
	if (!query || typeof query !== 'object' || Array.isArray(query)) return false;
	const keys = Object.keys(query).map((k) => k.toLowerCase());
	return keys.includes('success') || keys.includes('registrationid') || keys.includes('error');
}

/**
 * The outcome of a callback. `expected` is the registration the identification
 * was started for; a callback naming another one is not accepted.
 */
export function readCallback(query: unknown, expected?: string | number): CallbackOutcome {
	const q = query && typeof query === 'object' && !Array.isArray(query) ? (query as Record<string, unknown>) : {};
	const reg = single(q, 'registrationID');
	const success = single(q, 'success');
	const error = single(q, 'error');
	const reported: CallbackOutcome['reported'] = {};
	if (reg.value !== undefined) reported.registrationID = reg.value;
	if (success.value !== undefined) reported.success = success.value;
	if (error.value !== undefined) reported.error = error.value;
	const expectedId = toRegistrationId(expected);
	const named = toRegistrationId(reg.value);
	const registrationID = named ?? expectedId;
	const notIdentified = (reason: Reason, message: string): CallbackOutcome => ({
		identified: false,
		reason,
		registrationID,
		reported,
		message,
	});

	if (error.ambiguous || error.value) {
		if (error.value === 'invalid_redirect') {
			return notIdentified(
				'invalid_redirect',
				'The identity provider refused the redirect address (error=invalid_redirect). Ask the access point support to allow the host of your RedirectURL, then start a new identification.',
			);
		}
		return notIdentified('provider_error', `The identity provider reported an error (${error.value ?? 'several values'}). Start a new identification.`);
	}
	if (success.ambiguous || reg.ambiguous) {
		return notIdentified('invalid_callback', 'The callback carried conflicting registrationID or success values, so it is not trusted.');
	}
	const flag = success.value?.toLowerCase();
	if (flag !== 'true' && flag !== 'false') {
		return notIdentified(
			'invalid_callback',
			success.value === undefined
				? 'The callback has no success parameter.'
				: `The callback's success parameter is "${success.value}", not true or false.`,
		);
	}
	if (expectedId !== undefined && named !== undefined && String(named) !== String(expectedId)) {
		return notIdentified(
			'registration_mismatch',
			`The callback is for registration ${named}, but this identification was started for registration ${expectedId}.`,
		);
	}
	if (flag === 'false') {
		return notIdentified('failed', 'The user did not complete the identity check, or the provider could not confirm it. Start a new identification.');
	}
	if (named === undefined) {
		return notIdentified('invalid_callback', 'The callback says success=true but names no registrationID, so it is not trusted.');
	}
	return { identified: true, reason: 'identified', registrationID: named, reported, message: 'The user was identified.' };
}

/**
 * The item every outcome becomes. `success` is the accepted result (true only
 * when identified), so `$json.success` and `$json.identified` always agree.
 */
export function outcomeJson(
	outcome: CallbackOutcome,
	extra: { startedAt?: string; expiresAt?: string; receivedAt?: string } = {},
): Record<string, unknown> {
	const json: Record<string, unknown> = {
		identified: outcome.identified,
		success: outcome.identified,
		reason: outcome.reason,
		RegistrationID: outcome.registrationID ?? null,
		message: outcome.message,
	};
	if (extra.startedAt) json.startedAt = extra.startedAt;
	if (extra.expiresAt) json.expiresAt = extra.expiresAt;
	if (extra.receivedAt) json.receivedAt = extra.receivedAt;
	json.callback = outcome.reported;
	return json;
}

/** The item a wait that timed out leaves with. */
export function expiredJson(registrationID: number | string | undefined, startedAt?: string, expiresAt?: string): Record<string, unknown> {
	const json: Record<string, unknown> = {
		identified: false,
		success: false,
		reason: 'expired' as Reason,
		RegistrationID: registrationID ?? null,
		message:
			'No result came back before the 5-minute identification window closed. Start a new identification (each attempt counts towards the sandbox limit of 5).',
	};
	if (startedAt) json.startedAt = startedAt;
	if (expiresAt) json.expiresAt = expiresAt;
	return json;
}

/**
 * Query data in any form a user may map: an object (`$json.query` of a Webhook
 * node), a JSON text, a full callback URL or a bare query string.
 */
export function queryFromValue(value: unknown): Record<string, unknown> | undefined {
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (!text) return undefined;
	if (text.startsWith('{')) {
		try {
			const parsed = JSON.parse(text) as unknown;
			return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
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
