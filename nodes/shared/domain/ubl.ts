/**
 * What the nodes read from a Peppol document (pure), on the bounded XML scanner below: the
 * envelope (SBDH), removed on request; an invoice's or credit note's main fields; an Invoice
 * Response's (IMR) or Message Level Response's (MLR) code, reasons and the invoice it answers;
 * whether a document can be sent as a UBL Invoice or CreditNote. Elements match by namespace and
 * local name, whatever the prefix. The code lists are those the service's page "Processing MLR
 * and IMR files" refers to (UNCL4343 subsets, OPStatusReason, OPStatusAction).
 */
import type { IDataObject } from 'n8n-workflow';

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
	const hint = 'Give a UBL 2.1 Invoice or CreditNote (Peppol BIS Billing 3.0).';
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
			hint: hint,
		};
	}
	const number = typeof doc.invoice?.Number === 'string' ? doc.invoice.Number : undefined;
	return { ok: true, ubl: { xml: doc.unwrapped, kind: doc.kind, ...(number ? { number } : {}) } };
}

/*
 * The bounded XML scanner (pure, no dependency): one pass checks the document is (namespace-)well-formed and tells a
 * visitor each element. A DOCTYPE is refused (no DTD read, no entity expanded); size, nesting and kept text are bounded;
 * time is linear. UTF-8 only, as Peppol BIS documents are; full JSON is n8n's XML node's job (README "Peppol inbox").
 */

export interface XmlName {
	/** The namespace URI ('' for none). */
	ns: string;
	local: string;
}

export interface XmlElement {
	name: XmlName;
	/** The name as written, with its prefix (e.g. "cbc:ID"). */
	qname: string;
	/** 0 for the root. */
	depth: number;
	/** Offset of its '<' in the text. */
	start: number;
	/** Attributes by qualified name, references resolved. */
	attrs: Record<string, string>;
	/** Namespaces declared on this element: prefix ('' for the default) -> URI. */
	declared: Record<string, string>;
}

export interface XmlVisitor {
	open?(element: XmlElement, path: readonly XmlElement[]): void;
	/** `end` is the offset just after the element (after its end tag, or after '/>'). */
	close?(element: XmlElement, text: string, end: number, path: readonly XmlElement[]): void;
}

/** Text read at most, nesting (default 256) and text kept per element (default 10,000; the rest is checked, not kept). */
export interface XmlLimits {
	maxChars: number;
	maxDepth?: number;
	maxTextChars?: number;
}

export type XmlScan = { ok: true; root: XmlName } | { ok: false; problem: string };

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };
const NAME = /[A-Za-z_:\u00C0-\uFFFF][A-Za-z0-9_.:\u00B7\u00C0-\uFFFF-]*/y;
const SPACE = /[ \t\r\n]*/y;
/** Where the first character XML 1.0 does not allow is (control characters other than tab and line breaks), or -1. */
function firstNonXmlChar(s: string): number {
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff) return i;
	}
	return -1;
}

class XmlError extends Error {
	constructor(
		readonly what: string,
		readonly at: number,
	) {
		super(what);
	}
}

function position(text: string, at: number): string {
	const before = text.slice(0, at);
	return `line ${before.split('\n').length}, column ${at - before.lastIndexOf('\n')}`;
}

/** UTF-8 bytes as text without a byte order mark, or why they are not readable as such. */
export function decodeXml(bytes: Uint8Array): { text: string } | { problem: string } {
	if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) return { problem: 'is UTF-16 text; Peppol documents are UTF-8' };
	let text: string;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		return { problem: 'is not UTF-8 text' };
	}
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	const declared = /^<\?xml[^>]*?\bencoding\s*=\s*["']([^"']*)["']/.exec(text);
	if (declared && !/^(utf-?8|us-ascii)$/i.test(declared[1])) return { problem: `declares the encoding ${declared[1].slice(0, 30)}; only UTF-8 is read` };
	return { text };
}

/** Reads `text` once, calling the visitor for each element; the first problem ends the scan (with its line and column). */
export function scanXml(text: string, visitor: XmlVisitor, limits: XmlLimits): XmlScan {
	if (text.length > limits.maxChars) return { ok: false, problem: `is larger than the ${limits.maxChars} characters read` };
	try {
		return { ok: true, root: new Scanner(text, visitor, limits).run() };
	} catch (error) {
		const found = error instanceof XmlError ? error : new XmlError(`it could not be read (${(error as Error).message})`, 0);
		return { ok: false, problem: `is not well-formed XML: ${found.what} (${position(text, found.at)})` };
	}
}

interface Frame {
	element: XmlElement;
	/** Prefix -> URI in scope. */
	scope: Map<string, string>;
	text: string;
}

class Scanner {
	private i = 0;
	private readonly stack: Frame[] = [];
	private readonly path: XmlElement[] = [];
	private root?: XmlName;
	private readonly maxDepth: number;
	private readonly maxText: number;

	constructor(
		private readonly s: string,
		private readonly visitor: XmlVisitor,
		limits: XmlLimits,
	) {
		this.maxDepth = limits.maxDepth ?? 256;
		this.maxText = limits.maxTextChars ?? 10_000;
	}

	run(): XmlName {
		const s = this.s;
		const bad = firstNonXmlChar(s);
		if (bad >= 0) throw new XmlError(`a character not allowed in XML (U+${s.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0')})`, bad);
		if (s.startsWith('<?xml') && /[\s?]/.test(s[5] ?? '')) this.skipPast('?>', 'an XML declaration');
		while (this.i < s.length) {
			const lt = s.indexOf('<', this.i);
			const textEnd = lt < 0 ? s.length : lt;
			if (textEnd > this.i) this.text(this.i, textEnd);
			if (lt < 0) break;
			this.i = lt;
			if (s.startsWith('<!--', lt)) this.comment();
			else if (s.startsWith('<![CDATA[', lt)) this.cdata();
			else if (s.startsWith('<!', lt)) throw new XmlError(s.startsWith('<!DOCTYPE', lt) ? 'a DOCTYPE (DTDs are not read)' : 'an unknown <! declaration', lt);
			else if (s.startsWith('<?', lt)) this.instruction();
			else if (s.startsWith('</', lt)) this.endTag();
			else this.startTag();
		}
		if (this.stack.length) throw new XmlError(`the document ends before </${this.stack[this.stack.length - 1].element.qname}>`, s.length);
		if (!this.root) throw new XmlError('no root element', s.length);
		return this.root;
	}

	private skipPast(close: string, what: string): number {
		const end = this.s.indexOf(close, this.i);
		if (end < 0) throw new XmlError(`${what} that is never closed`, this.i);
		const from = this.i;
		this.i = end + close.length;
		return from;
	}

	private comment(): void {
		const start = this.i;
		this.i += 4;
		const end = this.s.indexOf('--', this.i);
		if (end < 0) throw new XmlError('a comment that is never closed', start);
		if (this.s[end + 2] !== '>') throw new XmlError('"--" inside a comment', end);
		this.i = end + 3;
	}

	private cdata(): void {
		const start = this.i;
		if (!this.stack.length) throw new XmlError('a CDATA section outside the root element', start);
		this.i += 9;
		const from = this.i;
		this.skipPast(']]>', 'a CDATA section');
		this.keep(this.s.slice(from, this.i - 3));
	}

	private instruction(): void {
		const start = this.i;
		this.i += 2;
		NAME.lastIndex = this.i;
		const target = NAME.exec(this.s)?.[0];
		if (!target) throw new XmlError('a processing instruction without a name', start);
		if (target.toLowerCase() === 'xml') throw new XmlError('an XML declaration that is not at the very start', start);
		this.skipPast('?>', 'a processing instruction');
	}

	private keep(part: string): void {
		const frame = this.stack[this.stack.length - 1];
		if (frame.text.length < this.maxText) frame.text += part.slice(0, this.maxText - frame.text.length);
	}

	private text(from: number, to: number): void {
		const raw = this.s.slice(from, to);
		if (!this.stack.length) {
			if (/[^ \t\r\n]/.test(raw))
				throw new XmlError(this.root ? 'text after the root element' : 'text before the root element', from + raw.search(/[^ \t\r\n]/));
			return;
		}
		const cdataEnd = raw.indexOf(']]>');
		if (cdataEnd >= 0) throw new XmlError('"]]>" in text', from + cdataEnd);
		this.keep(this.resolve(raw, from));
	}

	/** Text or an attribute value with its references resolved; '<' is refused where it cannot be. */
	private resolve(raw: string, at: number): string {
		if (!raw.includes('&')) return raw;
		return raw.replace(/&([^;&\s<]*)(;?)/g, (match, name: string, semi: string, offset: number) => {
			if (!semi) throw new XmlError('an "&" that does not start a reference (write &amp;)', at + offset);
			if (name in PREDEFINED) return PREDEFINED[name];
			const code = /^#x([0-9a-fA-F]{1,6})$/.exec(name)?.[1] ?? /^#([0-9]{1,7})$/.exec(name)?.[1];
			if (code !== undefined) {
				const point = name.startsWith('#x') ? parseInt(code, 16) : parseInt(code, 10);
				const char = point <= 0x10ffff && !(point >= 0xd800 && point <= 0xdfff) ? String.fromCodePoint(point) : '';
				if (!char || firstNonXmlChar(char) >= 0) throw new XmlError(`a character reference to a character not allowed in XML (${match})`, at + offset);
				return char;
			}
			throw new XmlError(`an entity "${match.slice(0, 40)}" that is not defined`, at + offset);
		});
	}

	private name(what: string): string {
		NAME.lastIndex = this.i;
		const found = NAME.exec(this.s)?.[0];
		if (!found) throw new XmlError(`${what} without a valid name`, this.i);
		this.i += found.length;
		return found;
	}

	private space(): boolean {
		SPACE.lastIndex = this.i;
		const found = SPACE.exec(this.s)?.[0] ?? '';
		this.i += found.length;
		return found.length > 0;
	}

	private startTag(): void {
		const s = this.s;
		const start = this.i;
		if (this.root && !this.stack.length) throw new XmlError('a second root element', start);
		if (this.stack.length >= this.maxDepth) throw new XmlError(`elements nested more than ${this.maxDepth} deep`, start);
		this.i++;
		const qname = this.name('a tag');
		const attrs: Record<string, string> = {};
		let selfClosing = false;
		for (;;) {
			const spaced = this.space();
			if (s.startsWith('/>', this.i)) {
				selfClosing = true;
				this.i += 2;
				break;
			}
			if (s[this.i] === '>') {
				this.i++;
				break;
			}
			if (this.i >= s.length) throw new XmlError(`the tag <${qname}> is never closed`, start);
			if (!spaced) throw new XmlError(`no space before an attribute of <${qname}>`, this.i);
			const attrAt = this.i;
			const attr = this.name(`an attribute of <${qname}>`);
			this.space();
			if (s[this.i] !== '=') throw new XmlError(`the attribute ${attr} of <${qname}> has no value`, attrAt);
			this.i++;
			this.space();
			const quote = s[this.i];
			if (quote !== '"' && quote !== "'") throw new XmlError(`the value of ${attr} is not quoted`, this.i);
			const close = s.indexOf(quote, this.i + 1);
			if (close < 0) throw new XmlError(`the value of ${attr} is never closed`, this.i);
			const raw = s.slice(this.i + 1, close);
			if (raw.includes('<')) throw new XmlError(`a "<" in the value of ${attr}`, this.i + 1 + raw.indexOf('<'));
			if (attr in attrs) throw new XmlError(`the attribute ${attr} twice on <${qname}>`, attrAt);
			attrs[attr] = this.resolve(raw, this.i + 1);
			this.i = close + 1;
		}
		const parent = this.stack[this.stack.length - 1];
		const scope = new Map(parent ? parent.scope : [['xml', XML_NS]]);
		const declared: Record<string, string> = {};
		for (const [attr, value] of Object.entries(attrs)) {
			if (attr !== 'xmlns' && !attr.startsWith('xmlns:')) continue;
			const prefix = attr === 'xmlns' ? '' : attr.slice(6);
			if (prefix && !value) throw new XmlError(`the prefix ${prefix} is declared with an empty namespace`, start);
			if (prefix === 'xmlns' || (prefix === 'xml' && value !== XML_NS)) throw new XmlError(`the reserved prefix ${prefix} is declared`, start);
			scope.set(prefix, value);
			declared[prefix] = value;
		}
		const resolveName = (name: string, isElement: boolean): XmlName => {
			const colon = name.indexOf(':');
			if (colon !== name.lastIndexOf(':') || colon === 0 || colon === name.length - 1)
				throw new XmlError(`the name ${name} is not a valid qualified name`, start);
			if (colon < 0) return { ns: isElement ? (scope.get('') ?? '') : '', local: name };
			const prefix = name.slice(0, colon);
			const ns = scope.get(prefix);
			if (ns === undefined) throw new XmlError(`the prefix ${prefix} of ${name} is not declared`, start);
			return { ns, local: name.slice(colon + 1) };
		};
		for (const attr of Object.keys(attrs)) if (attr !== 'xmlns' && !attr.startsWith('xmlns:')) resolveName(attr, false);
		const element: XmlElement = { name: resolveName(qname, true), qname, depth: this.stack.length, start, attrs, declared };
		if (!this.stack.length) this.root = element.name;
		this.path.push(element);
		this.visitor.open?.(element, this.path);
		if (selfClosing) {
			this.visitor.close?.(element, '', this.i, this.path);
			this.path.pop();
			return;
		}
		this.stack.push({ element, scope, text: '' });
	}

	private endTag(): void {
		const start = this.i;
		this.i += 2;
		const qname = this.name('an end tag');
		this.space();
		if (this.s[this.i] !== '>') throw new XmlError(`the end tag </${qname}> is not closed by ">"`, this.i);
		this.i++;
		const frame = this.stack.pop();
		if (!frame) throw new XmlError(`an end tag </${qname}> without a start tag`, start);
		if (frame.element.qname !== qname) throw new XmlError(`</${qname}> where </${frame.element.qname}> was expected`, start);
		this.visitor.close?.(frame.element, frame.text, this.i, this.path);
		this.path.pop();
	}
}
