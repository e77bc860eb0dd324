/** Readings of an HTTP answer for the shared client (transport.ts): statuses, bodies, failures, and its error shape. */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { stripSecrets } from './errors';

export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
	const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === name);
	const value = key ? headers[key] : undefined;
	return Array.isArray(value) ? value[0] : value;
}

interface Failure {
	code?: string;
	httpCode?: string;
	message?: string;
	cause?: unknown;
}

/**
 * The network failure under what n8n's HTTP helper threw: its cause (n8n 2.x), or the
 * code n8n 1.x keeps on the NodeApiError it wraps the axios error in (`httpCode`).
 */
export function networkFailure(error: unknown): { code?: string; message?: string } {
	for (let current = error as Failure | undefined, depth = 0; current && depth < 4; current = current.cause as Failure, depth++) {
		for (const code of [current.code, current.httpCode]) {
			if (typeof code === 'string' && /^E[A-Z_]+$|^ERR_/.test(code)) return { code, message: current.message };
		}
	}
	const failure = error as Failure | undefined;
	return { message: (failure?.cause as Failure | undefined)?.message ?? failure?.message };
}

export function isSuccess(status: number): boolean {
	return status >= 200 && status < 300;
}

/** A text body as JSON where it is JSON, else the text itself (what axios's JSON mode gives). */
export function parseIfJson(text: unknown): unknown {
	if (typeof text !== 'string') return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

export function isJsonLike(body: unknown): boolean {
	return body === undefined || body === null || typeof body !== 'string';
}

/** A text answer that is no answer at all, even where text is accepted: an HTML page or JSON cut off in transit. */
export function isBrokenText(text: string): boolean {
	const trimmed = text.trim();
	if (trimmed.startsWith('<')) return true;
	if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
	try {
		JSON.parse(trimmed);
		return false;
	} catch {
		return true;
	}
}

/** Where a redirect points, as a host name only (its path or query could carry anything). */
export function redirectTarget(location: string | undefined, from: string): string {
	if (!location) return 'no location';
	try {
		return new URL(location, from).host || 'an unreadable location';
	} catch {
		return 'an unreadable location';
	}
}

/** Masks every form of the key in a successful body (one search per form; replaced only when found). */
export function maskText(text: string, forms: string[]): string {
	let out = text;
	for (const form of forms) if (out.includes(form)) out = out.split(form).join('***');
	return out;
}

/** A NodeApiError for an answer or a failure, with every known form of the key masked in all its texts. */
export function buildApiError(
	node: INode,
	message: string,
	description: string,
	status: number | undefined,
	code: string | undefined,
	itemIndex: number | undefined,
	secrets: string[],
	apiDescription?: string,
): NodeApiError {
	const clean = (text: string) => stripSecrets(text, secrets);
	code = code ? clean(code) : code;
	const response: JsonObject = { message: clean(message) };
	if (status !== undefined) response.httpCode = String(status);
	if (code) response.code = code;
	if (apiDescription) response.apiDescription = clean(apiDescription);
	const error = new NodeApiError(node, response, {
		message: clean(message),
		description: clean(description),
		httpCode: status !== undefined ? String(status) : undefined,
		itemIndex,
	});
	// For a network code (ECONNRESET, ETIMEDOUT...) n8n swaps in a generic text that drops the operation.
	if (status === undefined) error.message = clean(message);
	if (code) error.context.apiCode = code;
	if (apiDescription) error.context.apiDescription = clean(apiDescription);
	return error;
}
