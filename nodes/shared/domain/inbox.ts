/**
 * The Peppol inbox's requests and documents for the Inbox node and trigger (docs/api.md
 * "Receiving and the Peppol inbox"): the list holds at most the 10 oldest items (no paging);
 * an item leaves only when confirmed or refused; its document is read by http/files.ts and
 * turned into JSON fields by ubl.ts.
 */
import type { IDataObject, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { describeFile, readFile, toBinary } from '../node/files';
import type { FileContext } from '../node/files';
import type { ApiClient } from '../http/transport';
import { kindOfType, readDocument, REASON_CODES } from './ubl';
import type { DocumentKind } from './ubl';
import { isRecord } from './values';

const INBOX_PATH = '/v1/peppol/inbox';
/** What the service lists at most. */
export const INBOX_WINDOW = 10;
/** Entries of one answer read at most: a server sending more than it documents is not read to the end. */
const MAX_ENTRIES = 100;
/** The fields of an inbox item as published, passed on by Get Document, Confirm and Refuse. */
const ITEM_FIELDS = 'InboxItemID SenderPeppolID SenderCompanyID PeppolDocumentType ReceiverPeppolID ReceiverCompanyID CreationDate PeppolFileID'.split(' ');

/** OpenPEPPOL OPStatusReason codes: the RefusalReason values (the OpenAPI's default is OTH), by name. */
export const REFUSAL_REASONS = ['NON', 'REF', 'LEG', 'REC', 'QUA', 'DEL', 'PRI', 'QTY', 'ITM', 'PAY', 'UNR', 'FIN', 'PPD', 'OTH']
	.map((code) => ({ name: `${REASON_CODES[code]} (${code})`, value: code }))
	.sort((a, b) => a.name.localeCompare(b.name));

export interface InboxItem extends IDataObject {
	InboxItemID: number | string;
	DocumentKind: DocumentKind;
}

/** The item's InboxItemID as the key the trigger remembers it by, or undefined when it has none usable. */
export function itemKey(item: IDataObject): string | undefined {
	const id = item.InboxItemID;
	const text = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : typeof id === 'string' ? id.trim() : '';
	return /^\d{1,15}$/.test(text) && !/^0+$/.test(text) ? text.replace(/^0+/, '') : undefined;
}

/**
 * The inbox list: the records of `InboxItems` (or a bare list), each with its DocumentKind;
 * entries that are not records or name no InboxItemID are counted, not output.
 */
function readInboxList(body: unknown): { items: InboxItem[]; skipped: number; problem?: string } {
	const list = Array.isArray(body) ? body : isRecord(body) ? (body.InboxItems ?? body.inboxItems ?? body.Items) : undefined;
	if (body === undefined || body === '' || (isRecord(body) && list === undefined)) return { items: [], skipped: 0 };
	if (!Array.isArray(list)) return { items: [], skipped: 0, problem: 'the answer has no InboxItems list' };
	const items: InboxItem[] = [];
	let skipped = 0;
	for (const entry of list.slice(0, MAX_ENTRIES)) {
		if (!isRecord(entry) || itemKey(entry) === undefined) skipped++;
		else items.push({ ...entry, InboxItemID: entry.InboxItemID as number | string, DocumentKind: kindOfType(entry.PeppolDocumentType) });
	}
	return { items, skipped: skipped + Math.max(0, list.length - MAX_ENTRIES) };
}

export async function listInbox(ctx: FileContext, client: ApiClient, itemIndex?: number): Promise<{ items: InboxItem[]; skipped: number }> {
	const operation = 'List the Peppol inbox';
	const body = await client.request({ method: 'GET', path: INBOX_PATH, itemIndex, operation });
	const read = readInboxList(body);
	if (read.problem) {
		const message = `${operation}: ${read.problem}`;
		throw new NodeApiError(ctx.getNode(), { message } as JsonObject, {
			message,
			description: 'Retry; if it persists, check the Base URL.',
			itemIndex,
		});
	}
	return read;
}

/** Confirms (no body) or refuses (`{RefusalReason}`) one item: it leaves the queue. */
export async function settleItem(
	client: ApiClient,
	id: string,
	action: 'confirm' | 'refuse',
	options: { itemIndex?: number; reason?: string } = {},
): Promise<void> {
	await client.request({
		method: 'POST',
		path: `${INBOX_PATH}/${encodeURIComponent(id)}/${action}`,
		body: action === 'refuse' ? { RefusalReason: options.reason } : undefined,
		acceptText: true,
		itemIndex: options.itemIndex,
		operation: `${action === 'confirm' ? 'Confirm' : 'Refuse'} inbox item ${id}`,
	});
}

/** The published fields of an item (or of an input item that is one), for outputs that follow it. */
export function itemFields(json: IDataObject): IDataObject {
	return Object.fromEntries(ITEM_FIELDS.filter((field) => json[field] !== undefined).map((field) => [field, json[field]]));
}

export interface DocumentOptions {
	itemIndex?: number;
	maxBytes: number;
	/** Keep the Peppol envelope (SBDH) in the binary file instead of removing it. */
	keepEnvelope: boolean;
	/** Binary property the document goes in. */
	property: string;
	/** The item's PeppolDocumentType (tells IMR from MLR when the document does not). */
	hint?: unknown;
}

/**
 * An inbox item's document as n8n binary data with its fields in JSON: DocumentKind, Envelope
 * (removed, kept or none), File, and Invoice or Response. A file that is not a readable XML
 * document is still handed on as it came, with DocumentProblem saying why.
 */
export async function readInboxDocument(ctx: FileContext, client: ApiClient, fileId: string, options: DocumentOptions): Promise<INodeExecutionData> {
	const file = await readFile(ctx, client, fileId, { itemIndex: options.itemIndex, maxBytes: options.maxBytes });
	const read = readDocument(file.content, { maxChars: options.maxBytes, hint: options.hint });
	const json: IDataObject = {};
	let content = file.content;
	if (read.ok) {
		const { doc } = read;
		json.DocumentKind = doc.kind;
		json.Envelope = !doc.envelope ? 'none' : options.keepEnvelope ? 'kept' : 'removed';
		if (doc.envelope && !options.keepEnvelope) content = Buffer.from(doc.unwrapped, 'utf8');
		if (doc.invoice) json.Invoice = doc.invoice;
		if (doc.response) json.Response = doc.response;
	} else {
		json.DocumentKind = kindOfType(options.hint);
		json.DocumentProblem = `The document ${read.problem}; it is passed on as it came.`;
	}
	const binary = await toBinary(ctx, { ...file, content, MimeType: read.ok ? 'application/xml' : file.MimeType });
	json.File = describeFile({ property: options.property }, { ...file, content }, binary);
	return { json, binary: { [options.property]: binary } };
}
