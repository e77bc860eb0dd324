/**
 * An order's files as n8n binary data for every node handing them out: the files picked, the bounded read of
 * `GET /v1/files/{FileID}` (base64 in JSON), and `prepareBinaryData`, so n8n's binary modes keep the bytes out of the JSON.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeProperties, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiClient } from '../http/types';
import type { Check } from '../domain/validation';
import { fieldMessage } from '../domain/validation';
import { isRecord as isObject } from '../domain/values';

export type FileKind = 'pdf' | 'ubl' | 'attachments' | 'json' | 'messages';
export type FileContext = IExecuteFunctions | IPollFunctions | IWebhookFunctions;

const FILE_KINDS: Array<{ name: string; value: FileKind; description: string }> = [
	{ name: 'Main PDF', value: 'pdf', description: 'The order\'s PDF (yours, else the service\'s), as binary property "pdf"' },
	{
		name: 'UBL / XML',
		value: 'ubl',
		description: 'The UBL invoice or credit note, as "ubl" ("ubl_2" … if more)',
	},
	{
		name: 'Other Attachments',
		value: 'attachments',
		description: 'Files attached to the order, as "attachment_1" …',
	},
	{
		name: 'Original JSON',
		value: 'json',
		description: 'The JSON the order was created from, as "original_json"',
	},
	{
		name: 'Network Messages',
		value: 'messages',
		description: 'Peppol delivery and invoice responses, as "message_1" …',
	},
];

const label = (kind: FileKind) => FILE_KINDS.find((entry) => entry.value === kind)?.name;

/** Files an order may name that are read at most, so a hostile answer cannot make a run read thousands. */
export const MAX_FILES_PER_ORDER = 100;
export const DEFAULT_MAX_FILE_MB = 20;
const MAX_FILE_MB = 256;
const MB = 1024 * 1024;
/** Room for the JSON around the base64 (ids, names, MIME type). */
const ANSWER_OVERHEAD_BYTES = 64 * 1024;

/** The multi-select of files, for Download Files and the triggers. */
export function filesField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Files',
		name: 'files',
		type: 'multiOptions',
		options: FILE_KINDS,
		default: ['pdf', 'ubl'],
		description: "Which of the order's files to read as binary data",
		...overrides,
	};
}

export const maxFileSizeOption: INodeProperties = {
	displayName: 'Maximum File Size (MB)',
	name: 'maxFileSizeMb',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_FILE_MB },
	default: DEFAULT_MAX_FILE_MB,
	description: 'The largest file read; when creating, the most the PDF and attachments of one order may add up to',
};

/** The chosen kinds, checked (a list of known values; an expression may give anything). */
export function checkFileKinds(value: unknown): { kinds: FileKind[] } | { problem: string } {
	const list =
		typeof value === 'string'
			? value
					.split(',')
					.map((part) => part.trim())
					.filter(Boolean)
			: value;
	if (!Array.isArray(list)) return { problem: 'is not a list of files' };
	const known = FILE_KINDS.map((kind) => kind.value as string);
	const unknown = list.filter((entry) => typeof entry !== 'string' || !known.includes(entry));
	if (unknown.length) return { problem: `has ${unknown.map((entry) => JSON.stringify(entry)).join(', ')}, which is not one of ${known.join(', ')}` };
	return { kinds: known.filter((kind) => list.includes(kind)) as FileKind[] };
}

/** Maximum File Size in bytes, or what is wrong with the value. */
export function checkMaxFileSize(value: unknown): { bytes: number } | { problem: string } {
	const mb = value === undefined || value === null || value === '' ? DEFAULT_MAX_FILE_MB : value;
	if (typeof mb !== 'number' || !Number.isFinite(mb) || mb < 1 || mb > MAX_FILE_MB) {
		return { problem: `${String(value).slice(0, 20)} is not a size from 1 to ${MAX_FILE_MB} MB` };
	}
	return { bytes: Math.round(mb * MB) };
}

/** What a trigger's Include Files and Maximum File Size ask for. */
export type TriggerFiles = { kinds: FileKind[]; maxBytes: number };

/** A trigger's Include Files and Maximum File Size, checked before any request; undefined when no file is wanted. */
export function checkTriggerFiles(node: INode, kindsValue: unknown, sizeValue: unknown): TriggerFiles | undefined {
	const kinds = checkFileKinds(kindsValue);
	if ('problem' in kinds) {
		throw new NodeOperationError(node, `"Include Files" ${kinds.problem}`, {
			description: `Pick any of ${describeMissing(FILE_KINDS.map((kind) => kind.value))}, or none.`,
		});
	}
	return kinds.kinds.length ? { kinds: kinds.kinds, maxBytes: maxFileBytes(node, sizeValue) } : undefined;
}

/** Maximum File Size in bytes, or a NodeOperationError naming it (and the item, if any) before any request. */
function maxFileBytes(node: INode, value: unknown, itemIndex?: number): number {
	const size = checkMaxFileSize(value);
	if ('problem' in size) {
		throw new NodeOperationError(node, fieldMessage(itemIndex, 'Maximum File Size (MB)', undefined, size.problem), {
			itemIndex,
			description: `Enter the largest file to accept, in MB (default ${DEFAULT_MAX_FILE_MB}).`,
		});
	}
	return size.bytes;
}

/** Options › Maximum File Size of one item in bytes (see maxFileBytes). */
export function readMaxFileSize(ctx: IExecuteFunctions, itemIndex: number): number {
	return maxFileBytes(ctx.getNode(), ctx.getNodeParameter('options.maxFileSizeMb', itemIndex, DEFAULT_MAX_FILE_MB), itemIndex);
}

/** One file an order names: where it goes (binary property) and its ID. */
export interface FileRef {
	kind: FileKind;
	property: string;
	FileID: string;
	FileName?: string;
}

export interface PickedFiles {
	refs: FileRef[];
	missing: FileKind[]; // Kinds asked for that the order has no file of.
	problem?: string; // Why the order's file list cannot be used (a FileID unsafe for a URL, too many files).
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined);

/** A FileID safe to put in a URL path: letters, digits, '-', '_' and '.', starting with a letter or digit. */
export function checkFileId(value: unknown): Check {
	const hint = "Map the FileID of an order's OrderPDF, Attachments or Messages.";
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return { ok: false, problem: 'is empty', hint };
	if (typeof value !== 'string') return { ok: false, problem: 'is not a FileID (it is not text)', hint };
	const id = value.trim();
	if (id.length > 128 || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) return { ok: false, problem: 'is not a FileID', hint };
	return { ok: true, value: id };
}
const ext = (entry: IDataObject) => /\.([a-z0-9]+)\s*$/i.exec(text(entry.FileName) ?? '')?.[1]?.toLowerCase();
const outgoing = (m: IDataObject) => /^outgoing$/i.test(String(m.MessageDirection ?? ''));

/**
 * The files of a full order of the chosen kinds, by binary property (pdf; ubl, ubl_2 …; attachment_1 …; original_json; message_1 …).
 * Where the service puts them (README "Download Files"): a sale's UBL is its Outgoing Peppol message's file, a purchase's its .xml
 * attachment; an order created through the API keeps its original JSON among the attachments; other messages are the network's responses.
 */
export function pickFiles(order: IDataObject, kinds: FileKind[]): PickedFiles {
	const refs: FileRef[] = [];
	const missing: FileKind[] = [];
	const seen = new Set<string>();
	let unsafe: string | undefined;
	const add = (kind: FileKind, property: string, entry: IDataObject) => {
		const id = entry.FileID;
		const check = checkFileId(typeof id === 'number' ? String(id) : id);
		if (!check.ok) {
			unsafe ??= `${label(kind)} has a FileID ${JSON.stringify(id)?.slice(0, 60)} that ${check.problem}`;
			return;
		}
		if (seen.has(check.value.toLowerCase())) return;
		seen.add(check.value.toLowerCase());
		refs.push({ kind, property, FileID: check.value, FileName: text(entry.FileName) });
	};
	const withId = (entry: unknown): entry is IDataObject => isObject(entry) && entry.FileID !== undefined && entry.FileID !== null && entry.FileID !== '';
	const attachments = (Array.isArray(order.Attachments) ? order.Attachments : []).filter(withId);
	const messages = (Array.isArray(order.Messages) ? order.Messages : []).filter(withId);
	// A document sent by e-mail or post is not the UBL.
	const sentUbl = messages.filter((m) => outgoing(m) && !/^(e-?mail|letter)$/i.test(String(m.TransportType ?? '')));
	const byKind: Record<FileKind, IDataObject[]> = {
		pdf: withId(order.OrderPDF) ? [order.OrderPDF] : [],
		ubl: [...sentUbl.reverse(), ...attachments.filter((a) => ext(a) === 'xml')],
		attachments: attachments.filter((a) => ext(a) !== 'xml' && ext(a) !== 'json'),
		json: attachments.filter((a) => ext(a) === 'json'),
		messages: messages.filter((m) => !outgoing(m)),
	};
	const names: Record<FileKind, (i: number) => string> = {
		pdf: () => 'pdf',
		ubl: (i) => (i ? `ubl_${i + 1}` : 'ubl'),
		attachments: (i) => `attachment_${i + 1}`,
		json: (i) => (i ? `original_json_${i + 1}` : 'original_json'),
		messages: (i) => `message_${i + 1}`,
	};
	for (const kind of kinds) {
		const before = refs.length;
		byKind[kind].forEach((entry, i) => add(kind, names[kind](i), entry));
		if (refs.length === before && !unsafe) missing.push(kind);
	}
	if (unsafe) return { refs: [], missing, problem: unsafe };
	if (refs.length > MAX_FILES_PER_ORDER) {
		return { refs: [], missing, problem: `names ${refs.length} files of the chosen kinds; at most ${MAX_FILES_PER_ORDER} are read per order` };
	}
	return { refs, missing };
}

/** Words for the kinds an order has no file of, e.g. "no UBL / XML". */
export function describeMissing(missing: FileKind[]): string {
	return missing.map((kind) => label(kind)).join(', ');
}

export type ReadFileOptions = { itemIndex?: number; maxBytes: number }; // maxBytes: Maximum File Size

export type ReadFile = { FileID: string; FileName: string; MimeType?: string; content: Buffer };

/** Longest binary fileName the package makes, in UTF-8 bytes (a file system's limit is 255 bytes per name). */
export const MAX_FILE_NAME_BYTES = 200;
/** C0/C1 controls, DEL, and the bidirectional controls that make a name read otherwise than it is (e.g. "fdp.exe" shown as "exe.pdf"). */
const unsafeChar = (c: number) =>
	c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x61c || c === 0x200e || c === 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);

/** A safe binary fileName: path separators as "-" (2024/0001.pdf is 2024-0001.pdf: the number is never cut), no control or bidi characters, at most 200 UTF-8 bytes keeping the extension, else from the FileID. */
export function safeFileName(name: string | undefined, fileId: string): string {
	const base = Array.from((name ?? '').replace(/[\\/]+/g, '-'))
		.filter((char) => !unsafeChar(char.codePointAt(0) ?? 0))
		.join('')
		.trim()
		.replace(/^(?:\.*-)+/, ''); // no leading "-" or "..-" (what ../ became)
	if (!base || /^\.+$/.test(base)) return `file-${fileId}`.slice(0, MAX_FILE_NAME_BYTES);
	const bytes = (value: string) => Buffer.byteLength(value, 'utf8');
	if (bytes(base) <= MAX_FILE_NAME_BYTES) return base;
	const dot = base.lastIndexOf('.');
	const extension = dot > 0 && base.length - dot <= 16 ? base.slice(dot) : '';
	let stem = '';
	for (const char of base.slice(0, base.length - extension.length)) {
		if (bytes(stem + char) + bytes(extension) > MAX_FILE_NAME_BYTES) break;
		stem += char;
	}
	return `${stem.trimEnd()}${extension}`;
}

/** A MIME type as an answer gives it, if it is one (type/subtype and parameters, no line break or control character). */
function cleanMimeType(value: string | undefined): string | undefined {
	const mime = value?.trim();
	return mime && mime.length <= 200 && /^[\w.+-]+\/[\w.+-]+(\s*;[\x20-\x7e]*)?$/.test(mime) ? mime : undefined;
}

export type FileAnswer = Partial<Omit<ReadFile, 'content'>> & { content: Buffer };

/** The file in a `GET /v1/files/{FileID}` answer (fields in any case); FileContent base64, line breaks skipped as the service's .NET decoder does. */
export function decodeFileAnswer(answer: unknown): FileAnswer | { problem: string } {
	if (!isObject(answer)) return { problem: 'is not a JSON object' };
	const fields = new Map(Object.entries(answer).map(([key, value]) => [key.toLowerCase(), value]));
	const content = fields.get('filecontent');
	if (content === undefined) return { problem: 'has no FileContent' };
	if (typeof content !== 'string') return { problem: 'has a FileContent that is not a string' };
	const base64 = /[\s]/.test(content) ? content.replace(/[\r\n\t ]+/g, '') : content;
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1 || (base64.endsWith('=') && base64.length % 4 !== 0)) {
		return { problem: 'has a FileContent that is not base64' };
	}
	const field = (name: string) => (typeof fields.get(name) === 'string' ? (fields.get(name) as string) : undefined);
	return { FileID: field('fileid'), FileName: field('filename'), MimeType: field('mimetype'), content: Buffer.from(base64, 'base64') };
}

const SLICE = 65_536;
/** 1 for the bytes of base64's letters. */
const BASE64_BYTE = Uint8Array.from({ length: 256 }, (_, byte) => Number(/[A-Za-z0-9+/]/.test(String.fromCharCode(byte))));

/**
 * A `GET /v1/files/{FileID}` answer from its bytes, never its text (docs/performance.md, 6a): the small rest parsed, FileContent's
 * base64 decoded in slices in place (the file is a view of the answer's Buffer). An escape, a line break or anything odd in it, or a FileContent
 * not at the top: the whole answer parsed (decodeFileAnswer). Undefined when the answer is not JSON.
 */
export function readFileAnswer(bytes: Buffer): FileAnswer | { problem: string } | undefined {
	const key = bytes.indexOf('"FileContent"');
	const colon = key < 0 ? undefined : /^\s*:\s*"/.exec(bytes.toString('latin1', key + 13, key + 77));
	const start = colon ? key + 13 + colon[0].length : -1;
	const end = start < 0 ? -1 : bytes.indexOf(0x22, start);
	const escape = bytes.indexOf(0x5c, start);
	if (end >= 0 && (escape < 0 || escape > end) && (end - start) % 4 !== 1) {
		// Checked byte by byte (no text made of it): base64 letters, then at most two '=' when the length is a multiple of 4.
		const padded = bytes[end - 1] === 0x3d ? (bytes[end - 2] === 0x3d ? 2 : 1) : 0;
		let valid = !padded || (end - start) % 4 === 0;
		for (let at = start; valid && at < end - padded; at++) valid = BASE64_BYTE[bytes[at]] === 1;
		let rest: unknown;
		try {
			rest = valid ? JSON.parse(bytes.toString('utf8', 0, start) + bytes.toString('utf8', end)) : undefined;
		} catch {
			// Not JSON as a whole either: the whole answer is parsed below.
		}
		const keys = isObject(rest) ? Object.keys(rest).filter((name) => name.toLowerCase() === 'filecontent') : [];
		if (keys.length === 1 && keys[0] === 'FileContent' && (rest as IDataObject).FileContent === '') {
			// Decoded in place: 4 characters give 3 bytes, so each slice's bytes land on characters already read.
			let written = 0;
			for (let at = start; at < end; at += SLICE) written += bytes.write(bytes.toString('latin1', at, Math.min(end, at + SLICE)), start + written, 'base64');
			return { ...(decodeFileAnswer(rest) as FileAnswer), content: bytes.subarray(start, start + written) };
		}
	}
	try {
		return decodeFileAnswer(JSON.parse(bytes.toString()));
	} catch {
		return undefined;
	}
}

/** `GET /v1/files/{FileID}` within the size its base64 may take (a broken answer is read again as reads are), then decoded. */
export async function readFile(ctx: FileContext, client: ApiClient, fileId: string, options: ReadFileOptions): Promise<ReadFile> {
	const operation = `Get file ${fileId}`;
	const maxResponseBytes = Math.ceil((options.maxBytes * 4) / 3) + ANSWER_OVERHEAD_BYTES;
	const path = `/v1/files/${encodeURIComponent(fileId)}`;
	const answer = await client.request<FileAnswer | { problem: string }>({
		method: 'GET',
		path,
		itemIndex: options.itemIndex,
		operation,
		maxResponseBytes,
		brokenText: 'an answer cut off in transit, or not the file',
		read: readFileAnswer,
	});
	const refuse = (message: string, description: string) => new NodeApiError(ctx.getNode(), { message }, { message, description, itemIndex: options.itemIndex });
	if ('problem' in answer) throw refuse(`${operation}: the answer ${answer.problem}`, 'Retry; if it persists, check the Base URL.');
	if (answer.FileID !== undefined && answer.FileID.trim().toLowerCase() !== fileId.toLowerCase()) {
		throw refuse(
			`${operation}: the answer is the file ${JSON.stringify(answer.FileID.slice(0, 60))}, not the one asked for`,
			'Nothing was kept. Check the Base URL.',
		);
	}
	if (answer.content.length > options.maxBytes) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${operation}: the file is ${(answer.content.length / MB).toFixed(1)} MB, above Maximum File Size (${(options.maxBytes / MB).toFixed(0)} MB)`,
			{ itemIndex: options.itemIndex, description: 'Raise Options › Maximum File Size if so large a file is expected.' },
		);
	}
	return { FileID: fileId, FileName: safeFileName(answer.FileName, fileId), MimeType: cleanMimeType(answer.MimeType), content: answer.content };
}

/** A read file as n8n binary data (the helper stores it per n8n's binary mode). */
export async function toBinary(ctx: FileContext, file: ReadFile): Promise<IBinaryData> {
	return await ctx.helpers.prepareBinaryData(file.content, file.FileName, file.MimeType || undefined);
}

/** What the JSON of an output item says about one file (Kind only for a file picked from an order). */
export function describeFile(ref: { property: string; kind?: FileKind }, file: ReadFile, binary: IBinaryData): IDataObject {
	return {
		Property: ref.property,
		...(ref.kind ? { Kind: ref.kind } : {}),
		FileID: file.FileID,
		FileName: binary.fileName ?? file.FileName,
		MimeType: binary.mimeType,
		FileSize: file.content.length,
	};
}

export type OrderFile = { ref: FileRef; binary: IBinaryData; json: IDataObject };

/** Reads the picked files one after another (one large file in memory at a time) as n8n binary data. */
export async function readOrderFiles(ctx: FileContext, client: ApiClient, refs: FileRef[], options: ReadFileOptions): Promise<OrderFile[]> {
	const files: OrderFile[] = [];
	for (const ref of refs) {
		const file = await readFile(ctx, client, ref.FileID, options);
		const binary = await toBinary(ctx, file);
		files.push({ ref, binary, json: describeFile(ref, file, binary) });
	}
	return files;
}

/** A file a trigger could not read: the binary property it would have had, its FileID, and why. */
export type FileError = { file: string; fileId?: string; reason: string };

/** What a trigger does with a file it cannot read (Order Trigger › On File Error). */
export type OnFileError = 'emit' | 'fail';

/** A trigger's order item with its picked files (as Download Files); an unreadable file is named in FileErrors unless `onError` is 'fail'. */
export async function itemWithFiles(
	ctx: FileContext,
	client: ApiClient,
	item: INodeExecutionData,
	fullOrder: IDataObject,
	kinds: FileKind[],
	options: ReadFileOptions & { onError?: OnFileError },
): Promise<INodeExecutionData> {
	const picked = pickFiles(fullOrder, kinds);
	const files: OrderFile[] = [];
	const errors: FileError[] = [];
	for (const ref of picked.problem ? [] : picked.refs) {
		const read = readOrderFiles(ctx, client, [ref], options);
		if (options.onError === 'fail') files.push(...(await read));
		else {
			const result = await read.catch((error: unknown) => error as Error);
			if (result instanceof Error) errors.push({ file: ref.property, fileId: ref.FileID, reason: result.message });
			else files.push(...result);
		}
	}
	const json: IDataObject = { ...item.json, Files: files.map((file) => file.json) };
	if (picked.missing.length) json.MissingFiles = picked.missing;
	if (errors.length) json.FileErrors = errors as unknown as IDataObject[];
	if (picked.problem) json.FilesProblem = `Order ${String(fullOrder.OrderID ?? item.json.OrderID)} ${picked.problem}`;
	const out: INodeExecutionData = { ...item, json };
	if (files.length) out.binary = { ...(item.binary ?? {}), ...Object.fromEntries(files.map((file) => [file.ref.property, file.binary])) };
	return out;
}
