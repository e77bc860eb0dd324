/**
 * The Peppol inbox's requests and documents for the Inbox node and trigger (docs/api.md "Receiving and the Peppol inbox"):
 * the list holds at most the 10 oldest items (no paging); an item leaves only when confirmed or refused.
 */
import type { IDataObject, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { stripSecrets } from '../http/secrets';
import { loadAuth } from './credential';
import { describeFile, readFile, toBinary } from './files';
import type { FileContext } from './files';
import type { ApiClient } from '../http/transport';
import { kindOfType, readDocument, REASON_CODES } from '../domain/ubl';
import type { DocumentKind } from '../domain/ubl';
import { isRecord } from '../domain/values';

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

/** The inbox list's records with their DocumentKind; those past the 100th or without an InboxItemID are left out, `notice` says so. */
function readInboxList(body: unknown): { items: InboxItem[]; notice?: string; problem?: string } {
	const list = Array.isArray(body) ? body : isRecord(body) ? (body.InboxItems ?? body.inboxItems ?? body.Items) : undefined;
	if (body === undefined || body === '' || (isRecord(body) && list === undefined)) return { items: [] };
	if (!Array.isArray(list)) return { items: [], problem: 'the answer has no InboxItems list' };
	const items: InboxItem[] = [];
	let skipped = 0;
	for (const entry of list.slice(0, MAX_ENTRIES)) {
		if (!isRecord(entry) || itemKey(entry) === undefined) skipped++;
		else {
			const DocumentKind = kindOfType(entry.PeppolDocumentType); // shown first, and never the server's own
			items.push(Object.assign({ DocumentKind, InboxItemID: entry.InboxItemID as number | string }, entry, { DocumentKind }));
		}
	}
	const notes = [
		list.length > MAX_ENTRIES ? `the answer listed ${list.length} entries (the inbox shows ${INBOX_WINDOW}); only the first ${MAX_ENTRIES} were read` : '',
		skipped ? `${skipped} ${skipped === 1 ? 'entry is' : 'entries are'} not an inbox item (empty, or no usable InboxItemID), left out` : '',
	].filter(Boolean);
	return notes.length ? { items, notice: `Not the whole list: ${notes.join('; ')}.` } : { items };
}

export async function listInbox(ctx: FileContext, client: ApiClient, itemIndex?: number): Promise<{ items: InboxItem[]; notice?: string }> {
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

/** The readable fields first (issue 39.10): what it is, from whom, what it says; then the technical ones (the document-type URN, receiver, file). */
const READABLE = 'DocumentKind SenderName Invoice Response DocumentProblem InboxItemID CreationDate SenderCompanyID SenderPeppolID'.split(' ');
export const readableFirst = (json: IDataObject): IDataObject =>
	Object.assign(Object.fromEntries(READABLE.filter((key) => json[key] !== undefined).map((key) => [key, json[key]])), json) as IDataObject;

/** An inbox item with its document's fields (Get Document, the Inbox Trigger): the sender's name where the document gives it, readable first. */
export function withDocumentFields(item: IDataObject, document: IDataObject): IDataObject {
	const { Invoice, Response } = document as { Invoice?: IDataObject; Response?: IDataObject };
	const SenderName = Invoice?.SupplierName ?? Response?.FromName;
	return readableFirst({ ...document, ...(SenderName === undefined ? {} : { SenderName }), ...item });
}

/** The fields with every text masked (stripSecrets) where it holds a secret. */
const masked = (fields: IDataObject, secrets: string[]) =>
	JSON.parse(JSON.stringify(fields), (_key, value: unknown) => (typeof value === 'string' ? stripSecrets(value, secrets) : value)) as IDataObject;

export interface DocumentOptions {
	itemIndex?: number;
	maxBytes: number;
	keepEnvelope: boolean;
	property: string;
	/** The item's PeppolDocumentType (tells IMR from MLR when the document does not). */
	hint?: unknown;
}

/** An inbox item's document as binary data, its fields in JSON; one that is not readable XML is handed on with DocumentProblem. */
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
		// A field holding a secret (an invoice number that is the API key, say) is masked as in every answer.
		const { secrets } = await loadAuth(ctx, options.itemIndex);
		if (doc.invoice) json.Invoice = masked(doc.invoice, secrets);
		if (doc.response) json.Response = masked(doc.response, secrets);
	} else {
		json.DocumentKind = kindOfType(options.hint);
		json.DocumentProblem = `The document ${read.problem}; it is passed on as it came.`;
	}
	const binary = await toBinary(ctx, { ...file, content, MimeType: read.ok ? 'application/xml' : file.MimeType });
	json.File = describeFile({ property: options.property }, { ...file, content }, binary);
	return { json, binary: { [options.property]: binary } };
}
