/**
 * The answer of `GET /v1/files/{FileID}` (`{FileID, FileName, MimeType, FileContent}`, the
 * content base64) turned into bytes as it arrives, and the checks on a FileID. Pure: no
 * n8n, no HTTP.
 *
 * A 20 MB PDF is a 27 MB JSON answer. Held as text it costs the text, the flat copy any
 * search makes of it and the decoded file (over 4x the file at peak, measured). So the
 * answer is scanned chunk by chunk: the FileContent string is base64-decoded straight into
 * one Buffer sized from Content-Length, everything else (a few hundred bytes) is kept and
 * parsed as JSON at the end with FileContent as null. The file is decoded once and never
 * exists as a whole string (the base64 bytes are checked here, then decoded by Node a
 * chunk at a time; bench/README.md, measure 6, says why not in pure JS).
 * Over 300 lines because the scanner is one state machine, kept whole in one place.
 *
 * Over 300 lines: a streaming JSON scanner for one answer shape, kept whole so its states
 * can be read (and fuzz-tested, test/unit/file-answer.test.ts) together.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Check } from '../domain/validation';

export interface FileAnswer {
	FileID?: string;
	FileName?: string;
	MimeType?: string;
	content: Buffer;
}

/** The problem of an answer that is not a (whole) JSON object: cut off, an HTML page. Worth reading again. */
export const NOT_JSON = 'is not a whole JSON object';
/** What the answer may hold besides FileContent: ids, names, a MIME type, unknown small fields. */
const MAX_ENVELOPE_BYTES = 1024 * 1024;
const NOT_BASE64 = 'has a FileContent that is not base64';
const PAD = -2;
const SPACE = -3;
/** Byte -> its value in base64, PAD for '=', SPACE for whitespace (skipped, as .NET's decoder does), -1 otherwise. */
const SEXTETS = (() => {
	const table = new Int8Array(256).fill(-1);
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
	table[0x3d] = PAD;
	for (const c of [0x20, 0x09, 0x0a, 0x0d]) table[c] = SPACE;
	return table;
})();

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Feed it the answer's bytes in any chunks (`push`), then `end()` gives the file or what
 * is wrong with the answer.
 */
export class FileAnswerDecoder {
	private problem?: string;
	// The JSON around FileContent, FileContent replaced by null.
	private envelope: Buffer[] = [];
	private envelopeBytes = 0;
	private depth = 0;
	private started = false;
	private closed = false;
	private inString = false;
	private escaped = false;
	private expectKey = false;
	private key?: number[];
	private lastKey?: string;
	private awaitingContent = false;
	private contentSeen = false;
	private contentIsString = false;
	/** 'envelope' outside FileContent; 'content' in it; 'escaped' in it after a backslash (rare, byte by byte). */
	private mode: 'envelope' | 'content' | 'escaped' = 'envelope';
	private escape?: string;
	/** Base64 characters of an unfinished group of four, waiting for the next chunk. */
	private carry = '';
	private padded = false;
	private out: Buffer;
	private written = 0;

	/** `answerBytes`: the Content-Length, if known: the file is at most three quarters of it. */
	constructor(answerBytes?: number) {
		const hint = typeof answerBytes === 'number' && Number.isFinite(answerBytes) && answerBytes > 0 ? Math.floor((answerBytes * 3) / 4) : 64 * 1024;
		this.out = Buffer.alloc(hint);
	}

	push(chunk: Uint8Array | string): void {
		if (this.problem) return;
		const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
		let i = 0;
		while (i < bytes.length && !this.problem) {
			if (this.mode === 'content') i = this.content(bytes, i);
			else if (this.mode === 'escaped') i = this.escapedContent(bytes, i);
			else i = this.envelopeBytesFrom(bytes, i);
		}
	}

	end(): FileAnswer | { problem: string } {
		if (this.problem) return { problem: this.problem };
		if (!this.closed || this.mode !== 'envelope') return { problem: NOT_JSON };
		let parsed: unknown;
		try {
			parsed = JSON.parse(Buffer.concat(this.envelope).toString('utf8')) as unknown;
		} catch {
			return { problem: NOT_JSON };
		}
		if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { problem: NOT_JSON };
		if (!this.contentSeen) return { problem: 'has no FileContent' };
		if (!this.contentIsString) return { problem: 'has a FileContent that is not a string' };
		if (!this.flush()) return { problem: NOT_BASE64 };
		const fields = Object.fromEntries(Object.entries(parsed as IDataObject).map(([k, v]) => [k.toLowerCase(), v]));
		const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
		return {
			FileID: text(fields.fileid),
			FileName: text(fields.filename),
			MimeType: text(fields.mimetype),
			content: this.out.subarray(0, this.written),
		};
	}

	private fail(problem: string): number {
		this.problem = problem;
		return Number.MAX_SAFE_INTEGER;
	}

	private keep(bytes: Buffer): void {
		this.envelopeBytes += bytes.length;
		if (this.envelopeBytes > MAX_ENVELOPE_BYTES) {
			this.fail(`has more than ${MAX_ENVELOPE_BYTES / 1024 / 1024} MB besides FileContent`);
			return;
		}
		// A copy: a view would keep the whole network chunk alive.
		this.envelope.push(Buffer.from(bytes));
	}

	/** The JSON outside FileContent, byte by byte (it is small), up to where FileContent's string starts. */
	private envelopeBytesFrom(bytes: Buffer, from: number): number {
		let i = from;
		for (; i < bytes.length; i++) {
			const c = bytes[i];
			if (this.closed) {
				if (!isSpace(c)) return this.fail(NOT_JSON);
				continue;
			}
			if (this.inString) {
				if (this.escaped) this.escaped = false;
				else if (c === BACKSLASH) this.escaped = true;
				else if (c === QUOTE) {
					this.inString = false;
					if (this.key) {
						this.lastKey = Buffer.from(this.key).toString('utf8').toLowerCase();
						this.key = undefined;
					}
					continue;
				}
				this.key?.push(c);
				continue;
			}
			if (isSpace(c)) continue;
			if (!this.started) {
				if (c !== 0x7b) return this.fail(NOT_JSON);
				this.started = true;
			}
			if (this.awaitingContent) {
				this.awaitingContent = false;
				this.contentSeen = true;
				if (c === QUOTE) {
					// FileContent's string starts: the envelope gets null in its place.
					this.keep(bytes.subarray(from, i));
					this.keep(Buffer.from('null'));
					this.contentIsString = true;
					this.mode = 'content';
					return i + 1;
				}
			}
			if (c === 0x7b || c === 0x5b) {
				this.depth++;
				this.expectKey = c === 0x7b && this.depth === 1;
			} else if (c === 0x7d || c === 0x5d) {
				this.depth--;
				if (this.depth === 0) this.closed = true;
			} else if (c === 0x2c) {
				this.expectKey = this.depth === 1;
			} else if (c === 0x3a) {
				if (this.depth === 1 && this.lastKey === 'filecontent') this.awaitingContent = true;
				this.lastKey = undefined;
			} else if (c === QUOTE) {
				this.inString = true;
				if (this.depth === 1 && this.expectKey) this.key = [];
				this.expectKey = false;
			}
		}
		this.keep(bytes.subarray(from, i));
		return i;
	}

	/** Inside FileContent: base64 bytes up to the closing quote, decoded where they lie (no string is made of them). */
	private content(bytes: Buffer, from: number): number {
		const quote = bytes.indexOf(QUOTE, from);
		const stop = quote < 0 ? bytes.length : quote;
		const slash = bytes.indexOf(BACKSLASH, from);
		if (slash >= 0 && slash < stop) {
			// An escaped character ("\/", "\u002B", "\r\n" from some JSON writers): the rest byte by byte.
			this.decode(bytes, from, slash);
			this.mode = 'escaped';
			return slash;
		}
		this.decode(bytes, from, stop);
		if (quote < 0) return bytes.length;
		this.mode = 'envelope';
		return quote + 1;
	}

	private escapedContent(bytes: Buffer, from: number): number {
		for (let i = from; i < bytes.length; i++) {
			const c = bytes[i];
			if (this.escape !== undefined) {
				this.escape += String.fromCharCode(c);
				let char: number | undefined;
				if (this.escape.length === 1 && this.escape !== 'u') {
					const simple: Record<string, number> = { '/': 0x2f, n: 0x0a, r: 0x0d, t: 0x09 };
					char = simple[this.escape];
					if (char === undefined) return this.fail(NOT_BASE64);
				} else if (this.escape.length === 5) {
					if (!/^u[0-9a-fA-F]{4}$/.test(this.escape)) return this.fail(NOT_BASE64);
					char = parseInt(this.escape.slice(1), 16);
				}
				if (char !== undefined) {
					this.escape = undefined;
					if (char > 0x7f) return this.fail(NOT_BASE64);
					this.decode(Buffer.of(char), 0, 1);
				}
				continue;
			}
			if (c === BACKSLASH) this.escape = '';
			else if (c === QUOTE) {
				this.mode = 'envelope';
				return i + 1;
			} else this.decode(bytes, i, i + 1);
			if (this.problem) return Number.MAX_SAFE_INTEGER;
		}
		return bytes.length;
	}

	/**
	 * Base64 bytes into the output. The bytes are checked here (no allocation), then decoded
	 * by Node a chunk at a time in whole groups of four; the odd characters at a chunk's end
	 * wait for the next. Whitespace is skipped; '=' only at the very end.
	 */
	private decode(bytes: Buffer, from: number, to: number): void {
		if (this.problem || from >= to) return;
		let clean = !this.padded;
		for (let i = from; clean && i < to; i++) if (SEXTETS[bytes[i]] < 0) clean = false;
		if (!clean) {
			// Line breaks or the final padding: the rare way, character by character.
			let text = '';
			for (let i = from; i < to; i++) {
				const value = SEXTETS[bytes[i]];
				if (value === SPACE) continue;
				if (value === -1 || (this.padded && value !== PAD)) {
					this.fail(NOT_BASE64);
					return;
				}
				if (value === PAD) this.padded = true;
				text += String.fromCharCode(bytes[i]);
			}
			this.decodeText(text);
			return;
		}
		let start = from;
		if (this.carry) {
			const take = Math.min(4 - this.carry.length, to - start);
			this.carry += bytes.toString('latin1', start, start + take);
			start += take;
			if (this.carry.length < 4) return;
			this.write(this.carry);
			this.carry = '';
		}
		const whole = start + (to - start) - ((to - start) % 4);
		if (whole > start) this.write(bytes.toString('latin1', start, whole));
		this.carry = bytes.toString('latin1', whole, to);
	}

	/** The rare path: checked base64 text (padding included) with the carry, in whole groups. */
	private decodeText(text: string): void {
		const all = this.carry + text;
		const pad = all.indexOf('=');
		// The carry starts a group of four, so pad % 4 is where in its group padding begins: "xx==" or "xxx=".
		if (pad >= 0 && (pad % 4 < 2 || all.length - pad > 2)) {
			this.fail(NOT_BASE64);
			return;
		}
		const whole = all.length - (all.length % 4);
		this.write(all.slice(0, whole));
		this.carry = all.slice(whole);
	}

	/** Decodes whole base64 groups; the output grows only when Content-Length was absent or wrong. */
	private write(base64: string): void {
		if (!base64) return;
		const needed = this.written + Math.ceil((base64.length * 3) / 4);
		if (needed > this.out.length) {
			const grown = Buffer.alloc(Math.max(needed, this.out.length * 2));
			this.out.copy(grown, 0, 0, this.written);
			this.out = grown;
		}
		this.written += this.out.write(base64, this.written, 'base64');
	}

	/** The last characters: 2 or 3 (a group without padding) give 1 or 2 bytes; 1 alone is not base64. */
	private flush(): boolean {
		const rest = this.carry.replace(/=+$/, '');
		if (rest.length === 1) {
			this.problem = NOT_BASE64;
			return false;
		}
		this.write(this.carry);
		this.carry = '';
		return true;
	}
}

/** The file in a whole answer given at once (tests, and answers that were not streamed). */
export function decodeFileAnswer(answer: string | Uint8Array): FileAnswer | { problem: string } {
	const decoder = new FileAnswerDecoder(typeof answer === 'string' ? Buffer.byteLength(answer) : answer.byteLength);
	decoder.push(answer);
	return decoder.end();
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
