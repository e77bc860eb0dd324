/**
 * Pure helpers that turn an API answer into readable error text. Nothing here
 * touches n8n or HTTP, so it is unit-tested directly.
 */

export interface ApiErrorDetails {
	message: string;
	description: string;
	code?: string;
	apiDescription?: string;
}

import { entryCode, entryText } from './apiErrorEntries';

function asText(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim()) return value.trim();
	if (typeof value === 'number') return String(value);
	return undefined;
}

/** Reads the API's own Code/Description from any of the body shapes seen in the wild. */
export function extractApiError(body: unknown): { code?: string; description?: string } {
	if (body === null || body === undefined) return {};
	if (typeof body === 'string') {
		const trimmed = body.trim();
		if (!trimmed) return {};
		if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
			try {
				return extractApiError(JSON.parse(trimmed));
			} catch {
				return { description: summariseText(trimmed) };
			}
		}
		return { description: summariseText(trimmed) };
	}
	if (Array.isArray(body)) return extractApiError({ errors: body });
	if (typeof body !== 'object') return {};
	const record = body as Record<string, unknown>;
	const errors = record.errors ?? record.Errors;
	if (Array.isArray(errors) && errors.length) {
		const entries = errors.filter((e): e is Record<string, unknown> => !!e && typeof e === 'object');
		const codes = entries.map(entryCode).filter(Boolean) as string[];
		const texts = entries.map(entryText).filter(Boolean) as string[];
		return { code: codes[0], description: texts.join('; ') || undefined };
	}
	const description =
		asText(record.Description) ??
		asText(record.Message) ??
		asText(record.ErrorMessage) ??
		asText(record.DefaultText) ??
		asText(record.message) ??
		asText(record.error_description) ??
		asText(record.error);
	return { code: asText(record.Code ?? record.code), description };
}

/** HTML error pages and other text bodies shrink to their title or first words. */
export function summariseText(text: string): string {
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
	if (title) return `HTML page: ${title}`;
	if (/^\s*</.test(text)) {
		const plain = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
		return plain ? `HTML page: ${plain.slice(0, 160)}` : 'an HTML page without text';
	}
	return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

const STATUS_HINTS: Record<number, string> = {
	400: 'The API rejected the request; check the values named above.',
	401: 'Check the API key and the Party ID in the credential, and that the ID used (registration, order) belongs to this account.',
	403: 'The account is not allowed to do this; contact the access point support, quoting your PartyID.',
	404: 'Nothing exists at this ID; check the ID and that the entity is registered and active.',
	409: 'The request conflicts with an earlier one (for example a reused idempotency key).',
	429: 'The API is rate limiting; retry later or lower the batch size/concurrency.',
	500: 'The API had an internal error; retry later.',
	502: 'A gateway in front of the API failed; retry later.',
	503: 'The API is temporarily unavailable; retry later.',
	504: 'A gateway in front of the API timed out; retry later.',
};

export function describeApiError(status: number, body: unknown, operation: string): ApiErrorDetails {
	const { code, description: apiDescription } = extractApiError(body);
	const hint =
		STATUS_HINTS[status] ??
		(status >= 500 ? 'The API failed; retry later.' : 'The API refused the request.');
	const what = apiDescription ?? (body === '' || body === undefined || body === null ? 'empty response body' : undefined);
	const message = `${operation} failed with HTTP ${status}${code ? ` (${code})` : ''}${what ? `: ${what}` : ''}`;
	return { message, description: hint, code, apiDescription };
}

/** Network-level failures (no HTTP answer) in words a user can act on. */
export function describeNetworkError(error: { code?: string; message?: string }, operation: string): ApiErrorDetails {
	const code = error.code ?? '';
	const reasons: Record<string, string> = {
		ECONNREFUSED: 'the connection was refused',
		ECONNRESET: 'the connection was reset by the server',
		ETIMEDOUT: 'the request timed out',
		ECONNABORTED: 'the request timed out',
		ENOTFOUND: 'the host name could not be resolved',
		EAI_AGAIN: 'the host name could not be resolved',
		ERR_CANCELED: 'the execution was cancelled',
	};
	const reason = reasons[code] ?? (error.message ? stripSecrets(error.message) : 'a network error occurred');
	return {
		message: `${operation} failed: ${reason}`,
		description:
			code === 'ENOTFOUND' || code === 'ECONNREFUSED'
				? 'Check the credential\'s environment and Base URL.'
				: 'Retry later; reads are retried automatically according to the node\'s retry options.',
		code: code || undefined,
	};
}

/**
 * Removes anything that looks like an apikey header or query value, an OAuth token or client
 * secret field, or a Bearer token (16 characters or more: not a word of prose) from a text, and every given secret.
 */
export function stripSecrets(text: string, secrets: string[] = []): string {
	let out = text
		.replace(/((?:apikey|access_token|refresh_token|client_secret|id_token)["']?\s*[:=]\s*["']?)[^"',\s}&]+/gi, '$1***')
		.replace(/(\bbearer\s+)[A-Za-z0-9\-._~+/]{16,}=*/gi, '$1***');
	for (const secret of secrets) {
		if (secret && secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('***');
	}
	return out;
}

/**
 * Every form in which a server may echo a key back: as sent (trimmed), percent-encoded
 * (in a URL it quotes) and JSON-escaped. A form that contains the trimmed key is covered by
 * it (the key with its surrounding whitespace, as pasted, included). Keys under 4 characters
 * are not masked: they would mask ordinary text.
 */
export function secretForms(key: string): string[] {
	const trimmed = key.trim();
	if (trimmed.length < 4) return [];
	const forms = [trimmed, JSON.stringify(trimmed).slice(1, -1)];
	try {
		const encoded = encodeURIComponent(trimmed);
		forms.push(encoded, encoded.replace(/%20/g, '+'));
	} catch {
		// An unpaired surrogate cannot be percent-encoded, so it is never sent that way either.
	}
	return [...new Set(forms)].filter((form, index) => index === 0 || !form.includes(trimmed));
}
