/**
 * Every Code/Description entry of an API error body, not only the first: batch commands
 * (e.g. sending orders) answer one entry per failing record. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

export interface ApiErrorEntry extends IDataObject {
	code?: string;
	description?: string;
}

function asText(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim()) return value.trim();
	if (typeof value === 'number') return String(value);
	return undefined;
}

/** An entry's code: `Code` or `code`. */
export function entryCode(e: Record<string, unknown>): string | undefined {
	return asText(e.Code ?? e.code);
}

/**
 * An entry's text, under any of the names the API uses for it (the same names as at the
 * top level of a body): Description, Message, ErrorMessage, DefaultText, in that order.
 */
export function entryText(e: Record<string, unknown>): string | undefined {
	return (
		asText(e.Description) ??
		asText(e.description) ??
		asText(e.Message) ??
		asText(e.message) ??
		asText(e.ErrorMessage) ??
		asText(e.DefaultText)
	);
}

/** The `errors` / `Errors` entries (or a bare array of them) of an error body; [] otherwise. */
export function listApiErrors(body: unknown): ApiErrorEntry[] {
	let parsed = body;
	if (typeof parsed === 'string') {
		const trimmed = parsed.trim();
		if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return [];
		try {
			parsed = JSON.parse(trimmed) as unknown;
		} catch {
			return [];
		}
	}
	if (!parsed || typeof parsed !== 'object') return [];
	const list = Array.isArray(parsed)
		? parsed
		: ((parsed as Record<string, unknown>).errors ?? (parsed as Record<string, unknown>).Errors);
	if (!Array.isArray(list)) return [];
	const entries: ApiErrorEntry[] = [];
	for (const raw of list) {
		if (!raw || typeof raw !== 'object') continue;
		const e = raw as Record<string, unknown>;
		const entry: ApiErrorEntry = {};
		const code = entryCode(e);
		const description = entryText(e);
		if (code) entry.code = code;
		if (description) entry.description = description;
		if (code || description) entries.push(entry);
	}
	return entries;
}
