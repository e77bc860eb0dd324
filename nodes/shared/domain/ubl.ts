/**
 * What the nodes read from a Peppol document (pure), on the bounded scanner of xmlScan.ts: the
 * envelope (SBDH), removed on request; an invoice's or credit note's main fields; an Invoice
 * Response's (IMR) or Message Level Response's (MLR) code, reasons and the invoice it answers;
 * whether a document can be sent as a UBL Invoice or CreditNote. Elements match by namespace and
 * local name, whatever the prefix. The code lists are those the service's page "Processing MLR
 * and IMR files" refers to (UNCL4343 subsets, OPStatusReason, OPStatusAction).
 */
import type { IDataObject } from 'n8n-workflow';

import type { XmlElement, XmlName } from './xmlScan';
import { decodeXml, scanXml } from './xmlScan';

const UBL = 'urn:oasis:names:specification:ubl:schema:xsd:';
const UBL_ROOTS: Record<string, string> = {
	Invoice: `${UBL}Invoice-2`,
	CreditNote: `${UBL}CreditNote-2`,
	ApplicationResponse: `${UBL}ApplicationResponse-2`,
};
const CBC = `${UBL}CommonBasicComponents-2`;
const CAC = `${UBL}CommonAggregateComponents-2`;
const SBDH = 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader';

/** "CODE meaning; CODE meaning" → { CODE: meaning }. */
function codes(table: string): Record<string, string> {
	return Object.fromEntries(table.split(/;\s*/).map((entry) => [entry.slice(0, entry.indexOf(' ')), entry.slice(entry.indexOf(' ') + 1)]));
}

/** UNCL4343 codes of a Peppol Invoice Response. */
const IMR_CODES = codes(`AB Acknowledged: the invoice was received; IP In process; UQ Under query: the customer has a question before going on;
	CA Conditionally accepted; RE Rejected: the customer refused the invoice; AP Accepted; PD Paid`);
/** UNCL4343 codes of a Peppol Message Level Response. */
const MLR_CODES = codes(
	'AB Acknowledged: the message was received; AP Accepted: the message was delivered; RE Rejected: the message failed (not delivered or not valid)',
);
/** OPStatusReason (why), OPStatusAction (what to do) and the MLR status reasons. */
export const REASON_CODES = codes(`NON No issue; REF References incorrect; LEG Legal information incorrect; REC Receiver unknown; QUA Item quality insufficient;
	DEL Delivery issues; PRI Prices incorrect; QTY Quantity incorrect; ITM Items incorrect; PAY Payment terms incorrect; UNR Not recognized;
	FIN Finance terms incorrect; PPD Partially paid; OTH Other; NOA No action required; PIN Provide information; NIN Issue a new invoice;
	CNF Credit fully; CNP Credit partially; CNA Credit the amount; BV Business rule violation (fatal); BW Business rule violation (warning);
	FD Failure of delivery; SV Syntax violation`);

export type DocumentKind = 'Invoice' | 'CreditNote' | 'IMR' | 'MLR' | 'Other';

/** What an inbox item's PeppolDocumentType says it is. */
export function kindOfType(type: unknown): DocumentKind {
	const text = typeof type === 'string' ? type.trim() : '';
	if (/^IMR$/i.test(text) || /invoice_response/i.test(text)) return 'IMR';
	if (/^MLR/i.test(text) || /:mlr:/i.test(text)) return 'MLR';
	if (/CreditNote-2::CreditNote|^(BISv3)?CreditNote/i.test(text)) return 'CreditNote';
	if (/Invoice-2::Invoice|^(BISv3)?Invoice/i.test(text)) return 'Invoice';
	return 'Other';
}

export interface ReadDocument {
	kind: DocumentKind;
	/** The document's root element (the one inside the envelope, if any). */
	root: XmlName;
	/** Whether the file came in its Peppol envelope (SBDH). */
	envelope: boolean;
	/** The document without its envelope (the file's text when it had none). */
	unwrapped: string;
	/** Invoice or CreditNote: its main fields. */
	invoice?: IDataObject;
	/** IMR or MLR: the answer. */
	response?: IDataObject;
}

/** Relative paths (local names under the document root, all in UBL's cbc/cac namespaces) of the fields read; the first found of several. */
const INVOICE_FIELDS: Record<string, string[]> = {
	Number: ['ID'],
	IssueDate: ['IssueDate'],
	DueDate: ['DueDate'],
	TypeCode: ['InvoiceTypeCode', 'CreditNoteTypeCode'],
	Currency: ['DocumentCurrencyCode'],
	SupplierName: ['AccountingSupplierParty/Party/PartyLegalEntity/RegistrationName', 'AccountingSupplierParty/Party/PartyName/Name'],
	SupplierEndpointID: ['AccountingSupplierParty/Party/EndpointID'],
	CustomerName: ['AccountingCustomerParty/Party/PartyLegalEntity/RegistrationName'],
	PayableAmount: ['LegalMonetaryTotal/PayableAmount'],
};

interface Collected {
	/** Path under the document root ("DocumentResponse/Response/ResponseCode") -> texts, in order. */
	texts: Map<string, string[]>;
	/** Same paths -> the schemeID / listID attribute of each. */
	ids: Map<string, Array<string | undefined>>;
	/** Each cac:Status / LineResponse in order: its path and child values. */
	groups: Array<{ path: string; fields: Record<string, string> }>;
	customization?: string;
}

const isUbl = (name: XmlName) => name.ns === CBC || name.ns === CAC;
const first = (c: Collected, path: string) => (c.texts.get(path) ?? []).find((t) => t.trim() !== '')?.trim();

/** The endpoint as "scheme:value" (the form the inbox's SenderPeppolID uses). */
function endpoint(c: Collected, path: string): string | undefined {
	const value = first(c, path);
	if (!value) return undefined;
	const scheme = c.ids.get(path)?.[0];
	return scheme ? `${scheme}:${value}` : value;
}

function readInvoice(c: Collected): IDataObject {
	const out: IDataObject = {};
	for (const [field, paths] of Object.entries(INVOICE_FIELDS)) {
		const read = field === 'SupplierEndpointID' ? endpoint : first;
		const value = paths.map((p) => read(c, p)).find(Boolean);
		if (value !== undefined) out[field] = value;
	}
	return out;
}

function readResponse(c: Collected, kind: 'IMR' | 'MLR'): IDataObject {
	const code = first(c, 'DocumentResponse/Response/ResponseCode')?.toUpperCase();
	const meanings = kind === 'IMR' ? IMR_CODES : MLR_CODES;
	const reasons: IDataObject[] = [];
	const description = first(c, 'DocumentResponse/Response/Description');
	if (description) reasons.push({ Text: description });
	for (const group of c.groups) {
		const reasonCode = group.fields.StatusReasonCode?.trim();
		const text = (group.fields.StatusReason ?? group.fields.Description)?.trim();
		if (!reasonCode && !text) continue;
		const reason: IDataObject = {};
		if (reasonCode) {
			reason.Code = reasonCode;
			if (REASON_CODES[reasonCode.toUpperCase()]) reason.Meaning = REASON_CODES[reasonCode.toUpperCase()];
			if (group.fields.listID) reason.List = group.fields.listID;
		}
		if (text) reason.Text = text;
		if (group.fields.LineID) reason.Line = group.fields.LineID;
		reasons.push(reason);
	}
	const out: IDataObject = {
		Type: kind,
		Code: code ?? null,
		Meaning: code ? (meanings[code] ?? `Code ${code} (not one the Peppol ${kind} uses)`) : 'No response code in the document',
		Reasons: reasons,
		ReasonText: reasons.map((r) => [r.Code, r.Text].filter(Boolean).join(': ')).join('; '),
		InvoiceNumber: first(c, 'DocumentResponse/DocumentReference/ID') ?? null,
	};
	const notes = (c.texts.get('Note') ?? []).map((t) => t.trim()).filter(Boolean);
	const optional: Record<string, string | undefined> = {
		DocumentTypeCode: first(c, 'DocumentResponse/DocumentReference/DocumentTypeCode'),
		InvoiceIssueDate: first(c, 'DocumentResponse/DocumentReference/IssueDate'),
		ResponseID: first(c, 'ID'),
		IssueDate: first(c, 'IssueDate'),
		EffectiveDate: first(c, 'DocumentResponse/Response/EffectiveDate'),
		Note: notes.join('\n') || undefined,
		FromEndpointID: endpoint(c, 'SenderParty/EndpointID'),
		FromName: first(c, 'SenderParty/PartyLegalEntity/RegistrationName'),
		ToEndpointID: endpoint(c, 'ReceiverParty/EndpointID'),
		ToName: first(c, 'ReceiverParty/PartyLegalEntity/RegistrationName'),
	};
	for (const [key, value] of Object.entries(optional)) if (value !== undefined) out[key] = value;
	return out;
}

/** The last group opened that holds the element at `key`. */
function innermost(groups: Collected['groups'], key: string): Collected['groups'][number] | undefined {
	for (let i = groups.length - 1; i >= 0; i--) if (key.startsWith(`${groups[i].path}/`)) return groups[i];
	return undefined;
}

/** Groups whose descendants are read together: each Status of the response, each line of an MLR. */
const GROUPS = /^DocumentResponse\/(?:Response\/Status|LineResponse)$/;
const MAX_GROUPS = 200;
/** Every path whose text is kept (the rest is checked, not kept). */
const WANTED = new Set([
	...Object.values(INVOICE_FIELDS).flat(),
	'CustomizationID',
	'Note',
	'SenderParty/EndpointID',
	'SenderParty/PartyLegalEntity/RegistrationName',
	'ReceiverParty/EndpointID',
	'ReceiverParty/PartyLegalEntity/RegistrationName',
	...['ResponseCode', 'Description', 'EffectiveDate'].map((f) => `DocumentResponse/Response/${f}`),
	...['ID', 'DocumentTypeCode', 'IssueDate'].map((f) => `DocumentResponse/DocumentReference/${f}`),
]);

/**
 * Reads a received document: envelope, kind and fields. `hint` is the inbox item's
 * PeppolDocumentType, used when the document does not say whether it is an IMR or an MLR.
 */
export function readDocument(
	bytes: Uint8Array,
	options: { maxChars: number; hint?: unknown },
): { ok: true; doc: ReadDocument } | { ok: false; problem: string } {
	const decoded = decodeXml(bytes);
	if ('problem' in decoded) return { ok: false, problem: decoded.problem };
	const { text } = decoded;
	const c: Collected = { texts: new Map(), ids: new Map(), groups: [] };
	let envelope = false;
	let docRoot: XmlElement | undefined;
	let docEnd = text.length;
	let outer: XmlElement | undefined;
	/** Prefixes the document inside an envelope uses ('' for the default namespace). */
	const used = new Set<string>();
	const relative = (path: readonly XmlElement[]) => {
		const from = docRoot ? path.indexOf(docRoot) : -1;
		return from < 0 ? undefined : path.slice(from + 1);
	};
	const scan = scanXml(
		text,
		{
			open(element, path) {
				if (element.depth === 0) {
					outer = element;
					envelope = element.name.ns === SBDH && element.name.local === 'StandardBusinessDocument';
					if (!envelope) docRoot = element;
				} else if (envelope && element.depth === 1 && !docRoot && !(element.name.ns === SBDH && element.name.local === 'StandardBusinessDocumentHeader')) {
					docRoot = element;
				}
				if (envelope && docRoot) {
					const colon = element.qname.indexOf(':');
					used.add(colon < 0 ? '' : element.qname.slice(0, colon));
					for (const attr of Object.keys(element.attrs)) if (/^[^:]+:/.test(attr) && !attr.startsWith('xmlns:')) used.add(attr.slice(0, attr.indexOf(':')));
				}
				const rel = relative(path);
				if (rel?.length && c.groups.length < MAX_GROUPS && rel.every((e) => isUbl(e.name)) && GROUPS.test(rel.map((e) => e.name.local).join('/'))) {
					c.groups.push({ path: rel.map((e) => e.name.local).join('/'), fields: {} });
				}
			},
			close(element, value, end, path) {
				if (element === docRoot) docEnd = end;
				const rel = relative(path);
				if (!rel?.length || !rel.every((e) => isUbl(e.name))) return;
				const key = rel.map((e) => e.name.local).join('/');
				if (WANTED.has(key)) {
					const texts = c.texts.get(key) ?? [];
					const ids = c.ids.get(key) ?? [];
					if (texts.length < 20) {
						texts.push(value);
						ids.push(element.attrs.schemeID ?? element.attrs.listID);
					}
					c.texts.set(key, texts);
					c.ids.set(key, ids);
				}
				if (key === 'CustomizationID') c.customization = value.trim();
				const group = key.startsWith('DocumentResponse/') ? innermost(c.groups, key) : undefined;
				if (group && group.fields[element.name.local] === undefined) {
					group.fields[element.name.local] = value;
					if (element.name.local === 'StatusReasonCode' && element.attrs.listID) group.fields.listID = element.attrs.listID;
				}
			},
		},
		{ maxChars: options.maxChars },
	);
	if (!scan.ok) return scan;
	if (!docRoot || !outer) return { ok: false, problem: 'is a Peppol envelope (SBDH) without a document inside' };
	const name = docRoot.name;
	let kind: DocumentKind = 'Other';
	if (name.ns === UBL_ROOTS.Invoice && name.local === 'Invoice') kind = 'Invoice';
	else if (name.ns === UBL_ROOTS.CreditNote && name.local === 'CreditNote') kind = 'CreditNote';
	else if (name.ns === UBL_ROOTS.ApplicationResponse && name.local === 'ApplicationResponse') {
		const custom = c.customization ?? '';
		kind = /invoice_response/i.test(custom) ? 'IMR' : /:mlr:/i.test(custom) ? 'MLR' : kindOfType(options.hint) === 'MLR' ? 'MLR' : 'IMR';
	}
	const doc: ReadDocument = { kind, root: name, envelope, unwrapped: envelope ? unwrap(text, outer, docRoot, docEnd, used) : text };
	if (kind === 'Invoice' || kind === 'CreditNote') doc.invoice = readInvoice(c);
	if (kind === 'IMR' || kind === 'MLR') doc.response = readResponse(c, kind);
	return { ok: true, doc };
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/**
 * The document inside the envelope as a document of its own: an XML declaration, then the
 * element as it was, with the namespaces it uses but only the envelope's root declared
 * added to its start tag.
 */
function unwrap(text: string, outer: XmlElement, inner: XmlElement, end: number, used: Set<string>): string {
	const inherited = Object.entries(outer.declared)
		.filter(([prefix]) => inner.declared[prefix] === undefined && used.has(prefix))
		.map(([prefix, uri]) => ` ${prefix ? `xmlns:${prefix}` : 'xmlns'}="${escapeAttr(uri)}"`)
		.join('');
	const nameEnd = inner.start + 1 + inner.qname.length;
	return `<?xml version="1.0" encoding="UTF-8"?>\n${text.slice(inner.start, nameEnd)}${inherited}${text.slice(nameEnd, end)}\n`;
}

export interface SendableUbl {
	/** The document as text (what is sent). */
	xml: string;
	kind: 'Invoice' | 'CreditNote';
	/** Its cbc:ID, when it has one. */
	number?: string;
}

/**
 * Whether a file can be sent as a ready UBL document: UTF-8, well-formed, no larger than
 * `maxChars`, and an Invoice or CreditNote root in the UBL namespace (not wrapped in an envelope).
 */
export function checkSendableUbl(bytes: Uint8Array, maxChars: number): { ok: true; ubl: SendableUbl } | { ok: false; problem: string; hint: string } {
	const hint = 'Give the UBL 2.1 Invoice or CreditNote (Peppol BIS Billing 3.0) your invoicing software exports.';
	const read = readDocument(bytes, { maxChars });
	if (!read.ok) return { ...read, hint };
	const { doc } = read;
	if (doc.envelope) {
		return {
			ok: false,
			problem: 'is wrapped in a Peppol envelope (SBDH)',
			hint: 'Send the document inside it: the service adds the envelope.',
		};
	}
	if (doc.kind !== 'Invoice' && doc.kind !== 'CreditNote') {
		const shown = `${doc.root.local}${doc.root.ns ? ` in namespace ${doc.root.ns.slice(0, 80)}` : ' without a namespace'}`;
		return {
			ok: false,
			problem: `has the root element ${shown}, not a UBL Invoice or CreditNote`,
			hint: `${hint} Its root must be Invoice or CreditNote in the UBL 2.1 namespace.`,
		};
	}
	const number = typeof doc.invoice?.Number === 'string' ? doc.invoice.Number : undefined;
	return { ok: true, ubl: { xml: doc.unwrapped, kind: doc.kind, ...(number ? { number } : {}) } };
}
