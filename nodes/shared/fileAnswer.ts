/**
 * The answer of `GET /v1/files/{FileID}` (`{FileID, FileName, MimeType, FileContent}`,
 * the content base64) turned into bytes, and the checks on a FileID. Pure: no n8n, no HTTP.
 *
 * A 20 MB PDF is a 27 MB JSON string. `JSON.parse` would copy the base64 once more into
 * its own string before it is decoded, so the object is scanned here instead: every other
 * value is parsed from its own (small) slice, and FileContent is decoded straight from a
 * slice of the received text (V8 slices a flat string without copying it). Base64 is
 * decoded once, into the one Buffer the file lives in.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Check } from './validation';

export interface FileAnswer {
	FileID?: string;
	FileName?: string;
	MimeType?: string;
	content: Buffer;
}

/** The problem of an answer that is no JSON object at all (cut off, an HTML page): worth reading again. */
export const NOT_JSON = 'is not a JSON object';

const STRICT_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** MIME-style base64 with line breaks (what .NET's decoder accepts as well). */
const WRAPPED_BASE64 = /^[A-Za-z0-9+/\s]*(?:=\s*){0,2}$/;

function skipSpace(text: string, at: number): number {
	let i = at;
	while (i < text.length) {
		const c = text.charCodeAt(i);
		if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
		i++;
	}
	return i;
}

/** Index of the quote that closes the string opening at `start`, or -1. */
function stringEnd(text: string, start: number): number {
	let from = start + 1;
	for (;;) {
		const quote = text.indexOf('"', from);
		if (quote < 0) return -1;
		let slashes = 0;
		for (let k = quote - 1; k > start && text.charCodeAt(k) === 0x5c; k--) slashes++;
		if (slashes % 2 === 0) return quote;
		from = quote + 1;
	}
}

/** Index just past the JSON value starting at `start` (objects and arrays skipped whole), or -1. */
function valueEnd(text: string, start: number): number {
	const first = text[start];
	if (first === '"') {
		const end = stringEnd(text, start);
		return end < 0 ? -1 : end + 1;
	}
	if (first !== '{' && first !== '[') {
		let i = start;
		while (i < text.length && !/[\s,}\]]/.test(text[i])) i++;
		return i === start ? -1 : i;
	}
	let depth = 0;
	for (let i = start; i < text.length; i++) {
		const c = text[i];
		if (c === '"') {
			const end = stringEnd(text, i);
			if (end < 0) return -1;
			i = end;
		} else if (c === '{' || c === '[') depth++;
		else if (c === '}' || c === ']') {
			depth--;
			if (depth === 0) return i + 1;
		}
	}
	return -1;
}

function parseSlice(text: string, start: number, end: number): unknown {
	try {
		return JSON.parse(text.slice(start, end)) as unknown;
	} catch {
		return undefined;
	}
}

const asText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The file in an answer of `GET /v1/files/{FileID}`, its content decoded once; or what
 * is wrong with the answer (not an object, no content, content that is not base64).
 */
export function parseFileAnswer(text: string): FileAnswer | { problem: string } {
	const broken = { problem: NOT_JSON };
	let i = skipSpace(text, 0);
	if (text[i] !== '{') return broken;
	i = skipSpace(text, i + 1);
	const fields: IDataObject = {};
	let content: { start: number; end: number } | undefined;
	let contentSeen = false;
	if (text[i] === '}') i++;
	else {
		for (;;) {
			if (text[i] !== '"') return broken;
			const keyEnd = stringEnd(text, i);
			if (keyEnd < 0) return broken;
			const key = parseSlice(text, i, keyEnd + 1);
			i = skipSpace(text, keyEnd + 1);
			if (typeof key !== 'string' || text[i] !== ':') return broken;
			const start = skipSpace(text, i + 1);
			const end = valueEnd(text, start);
			if (end < 0) return broken;
			if (key.toLowerCase() === 'filecontent') {
				contentSeen = true;
				// Only the range is kept: the base64 is decoded from the text itself.
				content = text[start] === '"' ? { start: start + 1, end: end - 1 } : undefined;
			} else {
				// Only this small value is parsed; unknown fields are read past.
				const value = parseSlice(text, start, end);
				if (value === undefined) return broken;
				fields[key.toLowerCase()] = value as IDataObject[string];
			}
			i = skipSpace(text, end);
			if (text[i] === ',') {
				i = skipSpace(text, i + 1);
				continue;
			}
			if (text[i] === '}') {
				i++;
				break;
			}
			return broken;
		}
	}
	if (skipSpace(text, i) !== text.length) return broken;
	if (!content) return { problem: contentSeen ? 'has a FileContent that is not a string' : 'has no FileContent' };

	let base64 = text.slice(content.start, content.end);
	// An escaped character (e.g. "\/" or "\u002B" from some JSON writers): unescape the rare way.
	if (base64.includes('\\')) base64 = JSON.parse(`"${base64}"`) as string;
	if (!STRICT_BASE64.test(base64) && !WRAPPED_BASE64.test(base64)) return { problem: 'has a FileContent that is not base64' };
	return {
		FileID: asText(fields.fileid),
		FileName: asText(fields.filename),
		MimeType: asText(fields.mimetype),
		content: Buffer.from(base64, 'base64'),
	};
}

/** A FileID safe to put in a URL path: letters, digits, '-', '_' and '.', starting with a letter or digit. */
export function checkFileId(value: unknown): Check {
	const hint = 'A FileID is the ID the API gives a file, e.g. 3f2b8c1e-7d4a-4b2e-9c1f-0a6d5e4b3c2a: map it from the FileID of an order\'s OrderPDF, Attachments or Messages.';
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return { ok: false, problem: 'is empty', hint };
	if (typeof value !== 'string') return { ok: false, problem: 'is not a FileID (it is not text)', hint };
	const id = value.trim();
	if (id.length > 128 || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) return { ok: false, problem: 'is not a FileID', hint };
	return { ok: true, value: id };
}
