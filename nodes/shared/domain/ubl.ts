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
	/** The root inside the envelope (SBDH), if any; `unwrapped`: the document without it. */
	root: XmlName;
	envelope: boolean;
	unwrapped: string;
	invoice?: IDataObject;
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
	groups: Array<{ path: string; fields: Record<string, string>; read: number }>;
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

/** Groups whose descendants are read together: each Status of the response, each line of an MLR. */
const GROUPS = new Set(['DocumentResponse/Response/Status', 'DocumentResponse/LineResponse']);
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
/** The paths worth following: every leading part of a wanted path or a group. */
const FOLLOWED = new Set([...WANTED, ...GROUPS].flatMap((path) => path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))));

type Group = Collected['groups'][number];
/** An open element below the document root that is read (UBL, as all above it): its path when followed, the group it is in and the one its children are in. */
type Place = { key?: string; group?: Group; inner?: Group };

/**
 * Reads a received document: envelope, kind and fields; `hint` (the item's PeppolDocumentType) tells IMR from MLR when the
 * document does not. Each element costs the same at any depth: what is known of it comes from its parent's Place.
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
	/** How many times each followed path was read (the rest is skipped). */
	const opened = new Map<string, number>();
	/** Places of the open elements below the document root, by depth. */
	const places: Place[] = [];
	let docOpen = false;
	const scan = scanXml(
		text,
		{
			open(element) {
				if (element.depth === 0) {
					outer = element;
					envelope = element.name.ns === SBDH && element.name.local === 'StandardBusinessDocument';
					if (!envelope) docRoot = element;
				} else if (envelope && element.depth === 1) {
					if (docRoot || (element.name.ns === SBDH && element.name.local === 'StandardBusinessDocumentHeader')) return true;
					docRoot = element;
				}
				if (!docRoot || element === docRoot || !docOpen) {
					docOpen ||= element === docRoot;
					return false;
				}
				// Only the UBL elements an output field comes from are read (each path 20 times, a group MAX_GROUPS times, its first
				// 50 elements); the rest is skipped, so a large or hostile document costs little more than its tags.
				const parent: Place = element.depth - 1 > docRoot.depth ? places[element.depth - 1] : { key: '' };
				if (!isUbl(element.name)) return true;
				const path = parent.key !== undefined ? (parent.key ? `${parent.key}/${element.name.local}` : element.name.local) : undefined;
				const place: Place = { key: path !== undefined && FOLLOWED.has(path) ? path : undefined, group: parent.inner };
				if (place.key) opened.set(place.key, (opened.get(place.key) ?? 0) + 1);
				if (place.key ? opened.get(place.key)! > (GROUPS.has(place.key) ? MAX_GROUPS : 20) : !place.group || ++place.group.read > 50) return true;
				place.inner = place.group;
				if (place.key && GROUPS.has(place.key) && c.groups.length < MAX_GROUPS) c.groups.push((place.inner = { path: place.key, fields: {}, read: 0 }));
				places[element.depth] = place;
				return false;
			},
			close(element, value, end) {
				if (element === docRoot) [docEnd, docOpen] = [end, false];
				const place = docOpen ? places[element.depth] : undefined;
				if (!place) return;
				const key = place.key;
				if (key && WANTED.has(key)) {
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
				const group = place.group;
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
	const doc: ReadDocument = { kind, root: name, envelope, unwrapped: envelope ? unwrap(text, outer, docRoot, docEnd) : text };
	if (kind === 'Invoice' || kind === 'CreditNote') doc.invoice = readInvoice(c);
	if (kind === 'IMR' || kind === 'MLR') doc.response = readResponse(c, kind);
	return { ok: true, doc };
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** The document inside the envelope on its own: a declaration, then the element, given the namespaces the envelope's root declared. */
function unwrap(text: string, outer: XmlElement, inner: XmlElement, end: number): string {
	const inherited = Object.entries(outer.declared)
		.filter(([prefix, uri]) => inner.declared[prefix] === undefined && uri !== SBDH)
		.map(([prefix, uri]) => ` ${prefix ? `xmlns:${prefix}` : 'xmlns'}="${escapeAttr(uri)}"`)
		.join('');
	const nameEnd = inner.start + 1 + inner.qname.length;
	return `<?xml version="1.0" encoding="UTF-8"?>\n${text.slice(inner.start, nameEnd)}${inherited}${text.slice(nameEnd, end)}\n`;
}

export interface SendableUbl {
	xml: string;
	kind: 'Invoice' | 'CreditNote';
	/** Its cbc:ID. */
	number?: string;
}

/** Whether a file can be sent as a UBL document: UTF-8, well-formed, at most `maxChars`, a UBL Invoice or CreditNote root, no envelope. */
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
	/** `true`: skip the element (close is not called) and all it holds (only tags, nesting and characters are checked). */
	open?(element: XmlElement): boolean | void;
	/** `end` is the offset just after the element (after its end tag, or after '/>'). */
	close?(element: XmlElement, text: string, end: number): void;
}

/** Text read at most, nesting (default 256) and text kept per element (default 10,000; the rest is not looked at). */
export interface XmlLimits {
	maxChars: number;
	maxDepth?: number;
	maxTextChars?: number;
}

export type XmlScan = { ok: true; root: XmlName } | { ok: false; problem: string };

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
/** Bounds on the work, far above any real UBL or SBDH document (docs/reliability.md "Receiving"); and 100 attributes an element. */
const LIMITS = {
	elements: 50_000,
	'elements in the parts read': 10_000,
	attributes: 50_000,
	'namespace declarations': 1_000,
	references: 10_000,
	'characters kept': 1_000_000,
};
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };
/** Characters XML 1.0 does not allow (control characters other than tab and line breaks, U+FFFE, U+FFFF). */
const NOT_XML = /[^\t\n\r\u0020-\uFFFD]/;
/** No attributes or namespace declarations (most elements): shared, never written. */
const NONE: Record<string, string> = Object.freeze(Object.create(null) as Record<string, string>);
const NO_PREFIXES: string[] = [];
const KNOWN_NS = new Map([CBC, CAC, SBDH, ...Object.values(UBL_ROOTS)].map((uri) => [uri, uri]));
/** Name characters (XML 1.0 5th ed., by code unit): a first one, then any. "| 32" makes a capital letter small. */
function nameChar(c: number, first: boolean): boolean {
	const letter = (c | 32) >= 97 && (c | 32) <= 122;
	return letter || c === 95 || c === 58 || c >= 0xc0 || (!first && ((c >= 48 && c <= 57) || c === 46 || c === 45 || c === 0xb7));
}
const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

class XmlError extends Error {
	constructor(
		readonly what: string,
		readonly at: number,
		/** A limit of the reader, not a fault of the document. */
		readonly limit = false,
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
	const declared = /^<\?xml[^>]{0,200}?\bencoding\s*=\s*["']([^"']*)["']/.exec(text);
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
		return { ok: false, problem: `${found.limit ? 'is beyond what is read' : 'is not well-formed XML'}: ${found.what} (${position(text, found.at)})` };
	}
}

/** An open element (none when skipped), the prefixes it declared (their bindings are popped when it closes) and its text kept. */
type Frame = { element?: XmlElement; qname: string; declared: string[]; text: string };

/** One linear pass: each prefix maps to a stack of its bindings in scope, so an element costs its own tag, not the declarations around it. */
class Scanner {
	private i = 0;
	private readonly stack: Frame[] = [];
	private readonly scope = new Map<string, string[]>([['xml', [XML_NS]]]);
	/** Element names resolved since the namespaces in scope last changed. */
	private readonly names = new Map<string, XmlName>();
	/** Where the next "]]>" (in text), "<" (in a tag) and "&" are (-1: none left): found once, not again per text or attribute. */
	private readonly next: Record<string, number> = { '<': -2, '&': -2, ']]>': -2 };
	private root?: XmlName;
	private readonly maxDepth = this.limits.maxDepth ?? 256;
	private readonly maxText = this.limits.maxTextChars ?? 10_000;
	private readonly left = { ...LIMITS };
	/** While above 0: elements this deep or deeper are skipped (the visitor asked): tags, nesting and characters are checked, nothing else. */
	private skipAt = 0;

	constructor(
		private readonly s: string,
		private readonly visitor: XmlVisitor,
		private readonly limits: XmlLimits,
	) {}

	run(): XmlName {
		const s = this.s;
		if (s.startsWith('<?xml') && /[\s?]/.test(s[5] ?? '')) this.skipPast('?>', 'an XML declaration');
		while (this.i < s.length) {
			const lt = s.indexOf('<', this.i);
			const textEnd = lt < 0 ? s.length : lt;
			if (textEnd > this.i) this.text(this.i, textEnd);
			if (lt < 0) break;
			this.i = lt;
			const next = s.charCodeAt(lt + 1);
			if (next === 47) this.endTag();
			else if (next === 33) {
				if (s.startsWith('<!--', lt)) this.comment();
				else if (s.startsWith('<![CDATA[', lt)) this.cdata();
				else throw new XmlError(s.startsWith('<!DOCTYPE', lt) ? 'a DOCTYPE (DTDs are not read)' : 'an unknown <! declaration', lt);
			} else if (next === 63) this.instruction();
			else this.startTag(); // after "<": "/" 47, "!" 33, "?" 63
		}
		if (this.stack.length) throw new XmlError(`the document ends before </${this.stack[this.stack.length - 1].qname}>`, s.length);
		if (!this.root) throw new XmlError('no root element', s.length);
		return this.root;
	}

	private skipPast(close: string, what: string): void {
		const end = this.s.indexOf(close, this.i);
		if (end < 0) throw new XmlError(`${what} that is never closed`, this.i);
		this.i = end + close.length;
	}

	/** Counts `n` against a limit of the reader: beyond it, the scan ends with a problem naming it. */
	private spend(what: keyof typeof LIMITS, at: number, n = 1): void {
		if ((this.left[what] -= n) < 0) throw new XmlError(`more than ${LIMITS[what].toLocaleString('en-US')} ${what}`, at, true);
	}

	/** Where the next `token` at or after `from` is (-1: none), searched for again only once passed. */
	private find(token: string, from: number): number {
		const at = this.next[token];
		return at !== -1 && at < from ? (this.next[token] = this.s.indexOf(token, from)) : at;
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
		if (!this.skipAt) this.keep(from, this.i - 3, false);
	}

	private instruction(): void {
		const start = this.i;
		this.i += 2;
		const target = this.name('a processing instruction', false);
		if (target.toLowerCase() === 'xml') throw new XmlError('an XML declaration that is not at the very start', start);
		if (!target) throw new XmlError('a processing instruction without a name', start);
		this.skipPast('?>', 'a processing instruction');
	}

	/** Adds text[from, to) to the open element's kept text (bounded), references resolved (and checked) when `raw`. */
	private keep(from: number, to: number, raw: boolean): void {
		const frame = this.stack[this.stack.length - 1];
		const room = this.maxText - frame.text.length;
		if (room <= 0) return;
		const part = raw ? this.resolve(from, to, room) : this.chars(from, Math.min(to, from + room));
		this.spend('characters kept', from, Math.min(part.length, room));
		frame.text += part.length > room ? part.slice(0, room) : part;
	}

	private text(from: number, to: number): void {
		const s = this.s;
		if (!this.stack.length) {
			const bad = s.slice(from, to).search(/[^ \t\r\n]/);
			if (bad >= 0) throw new XmlError(this.root ? 'text after the root element' : 'text before the root element', from + bad);
			return;
		}
		const cdataEnd = this.find(']]>', from);
		if (cdataEnd >= 0 && cdataEnd < to) throw new XmlError('"]]>" in text', cdataEnd);
		if (!this.skipAt) this.keep(from, to, true);
	}

	/** text[from, to) (text or an attribute value) with its references resolved, up to `keep` characters (the rest is not looked at). */
	private resolve(from: number, to: number, keep = this.maxText): string {
		const s = this.s;
		let amp = this.find('&', from);
		if (amp < 0 || amp >= to) return this.chars(from, Math.min(to, from + keep));
		const parts: string[] = [];
		let [at, size] = [from, 0];
		while (amp >= 0 && amp < to && size < keep) {
			let end = amp + 1;
			while (end < to && end - amp <= 40 && s.charCodeAt(end) !== 59 && s.charCodeAt(end) !== 38 && s.charCodeAt(end) !== 60 && !isSpace(s.charCodeAt(end)))
				end++;
			if (end >= to || s.charCodeAt(end) !== 59) throw new XmlError('an "&" that does not start a reference (write &amp;)', amp);
			this.spend('references', amp);
			const char = this.reference(s.slice(amp + 1, end), amp);
			parts.push(this.chars(at, amp), char);
			size += amp - at + char.length;
			at = end + 1;
			amp = this.find('&', at);
		}
		if (size < keep) parts.push(this.chars(at, Math.min(to, at + keep - size)));
		return parts.join('');
	}

	/** text[from, to), checked for characters XML does not allow (what is read: the rest of the text is not looked at). */
	private chars(from: number, to: number): string {
		for (let k = from; k < to; k++) {
			const c = this.s.charCodeAt(k);
			if (c < 32 ? c !== 9 && c !== 10 && c !== 13 : c > 0xfffd)
				throw new XmlError(`a character not allowed in XML (U+${c.toString(16).toUpperCase().padStart(4, '0')})`, k);
		}
		return this.s.slice(from, to);
	}

	private reference(name: string, at: number): string {
		if (name in PREDEFINED) return PREDEFINED[name];
		const code = /^#x([0-9a-fA-F]{1,6})$/.exec(name)?.[1] ?? /^#([0-9]{1,7})$/.exec(name)?.[1];
		if (code === undefined) throw new XmlError(`an entity "&${name};" that is not defined`, at);
		const point = name.startsWith('#x') ? parseInt(code, 16) : parseInt(code, 10);
		const char = point <= 0x10ffff && !(point >= 0xd800 && point <= 0xdfff) ? String.fromCodePoint(point) : '';
		if (!char || NOT_XML.test(char)) throw new XmlError(`a character reference to a character not allowed in XML (&${name};)`, at);
		return char;
	}

	/** The name at the cursor ('' when `required` is false and there is none). */
	private name(what: string, required = true): string {
		const s = this.s;
		const from = this.i;
		let j = from;
		if (j < s.length && nameChar(s.charCodeAt(j), true)) for (j++; j < s.length && nameChar(s.charCodeAt(j), false); j++);
		if (j === from && required) throw new XmlError(`${what} without a valid name`, from);
		this.i = j;
		return s.slice(from, j);
	}

	private space(): boolean {
		const from = this.i;
		while (this.i < this.s.length && isSpace(this.s.charCodeAt(this.i))) this.i++;
		return this.i > from;
	}

	/** The namespace of a prefix in scope ('' for the default namespace: none when undeclared). */
	private bound(prefix: string): string | undefined {
		const uris = this.scope.get(prefix);
		return uris?.length ? uris[uris.length - 1] : undefined;
	}

	private qualified(name: string, isElement: boolean, start: number): XmlName {
		const colon = name.indexOf(':');
		if (colon < 0) return { ns: isElement ? (this.bound('') ?? '') : '', local: name };
		if (colon !== name.lastIndexOf(':') || colon === 0 || colon === name.length - 1)
			throw new XmlError(`the name ${name} is not a valid qualified name`, start);
		const prefix = name.slice(0, colon);
		const ns = this.bound(prefix);
		if (ns === undefined) throw new XmlError(`the prefix ${prefix} of ${name} is not declared`, start);
		return { ns, local: name.slice(colon + 1) };
	}

	private startTag(): void {
		const s = this.s;
		const start = this.i;
		if (this.root && !this.stack.length) throw new XmlError('a second root element', start);
		if (this.stack.length >= this.maxDepth) throw new XmlError(`elements nested more than ${this.maxDepth} deep`, start, true);
		this.spend('elements', start);
		if (!this.skipAt) this.spend('elements in the parts read', start);
		this.i++;
		const qname = this.name('a tag');
		let [attrs, declared, prefixes, prefixed, selfClosing, count] = [NONE, NONE, NO_PREFIXES, NO_PREFIXES, false, 0];
		for (;;) {
			const spaced = this.space();
			const c = s.charCodeAt(this.i);
			if (c === 62 || (c === 47 && s.charCodeAt(this.i + 1) === 62)) {
				selfClosing = c === 47;
				this.i += selfClosing ? 2 : 1;
				break;
			}
			if (this.i >= s.length) throw new XmlError(`the tag <${qname}> is never closed`, start);
			if (!spaced) throw new XmlError(`no space before an attribute of <${qname}>`, this.i);
			if (++count > 100) throw new XmlError(`more than 100 attributes (namespace declarations included) on <${qname}>`, start, true);
			this.spend('attributes', start);
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
			const lt = this.find('<', this.i + 1);
			if (lt >= 0 && lt < close) throw new XmlError(`a "<" in the value of ${attr}`, lt);
			const valueAt = this.i + 1;
			this.i = close + 1;
			if (this.skipAt) continue;
			if (attrs === NONE) attrs = Object.create(null) as Record<string, string>;
			else if (attrs[attr] !== undefined) throw new XmlError(`the attribute ${attr} twice on <${qname}>`, attrAt);
			const value = (attrs[attr] = this.resolve(valueAt, close));
			if (attr === 'xmlns' || attr.startsWith('xmlns:')) {
				this.spend('namespace declarations', attrAt);
				const prefix = attr === 'xmlns' ? '' : attr.slice(6);
				if (prefix && !value) throw new XmlError(`the prefix ${prefix} is declared with an empty namespace`, start);
				if (prefix === 'xmlns' || (prefix === 'xml' && value !== XML_NS)) throw new XmlError(`the reserved prefix ${prefix} is declared`, start);
				if (declared === NONE) [declared, prefixes] = [Object.create(null) as Record<string, string>, []];
				declared[prefix] = value;
				prefixes.push(prefix);
			} else if (attr.includes(':')) (prefixed === NO_PREFIXES ? (prefixed = []) : prefixed).push(attr);
		}
		if (this.skipAt) return void (selfClosing || this.stack.push({ qname, declared: NO_PREFIXES, text: '' }));
		for (const prefix of prefixes) {
			const uri = KNOWN_NS.get(declared[prefix]) ?? declared[prefix]; // the constant itself: compared by identity, not by its characters
			const uris = this.scope.get(prefix);
			if (uris) uris.push(uri);
			else this.scope.set(prefix, [uri]);
		}
		if (prefixes.length) this.names.clear();
		for (const attr of prefixed) this.qualified(attr, false, start);
		const element: XmlElement = { name: this.elementName(qname, start), qname, depth: this.stack.length, start, attrs, declared };
		if (!this.stack.length) this.root = element.name;
		const skip = this.visitor.open?.(element) === true;
		const frame: Frame = { element: skip ? undefined : element, qname, declared: prefixes, text: '' };
		if (selfClosing) return this.closed(frame);
		if (skip) this.skipAt = this.stack.length + 1;
		this.stack.push(frame);
	}

	/** An element's name, from the names resolved since the namespaces in scope last changed (bounded). */
	private elementName(qname: string, start: number): XmlName {
		const known = this.names.get(qname);
		if (known) return known;
		const name = this.qualified(qname, true, start);
		if (this.names.size >= 1000) this.names.clear();
		this.names.set(qname, name);
		return name;
	}

	private closed(frame: Frame): void {
		if (frame.element) this.visitor.close?.(frame.element, frame.text, this.i);
		if (this.stack.length < this.skipAt) this.skipAt = 0;
		for (const prefix of frame.declared) this.scope.get(prefix)?.pop();
		if (frame.declared.length) this.names.clear();
	}

	private endTag(): void {
		const start = this.i;
		const frame = this.stack.pop();
		const expected = frame?.qname;
		// The expected name in place (no copy); else the name found, for the message.
		const same = expected !== undefined && this.s.startsWith(expected, start + 2) && !nameChar(this.s.charCodeAt(start + 2 + expected.length), false);
		this.i += 2;
		const qname = same ? expected : this.name('an end tag');
		if (same) this.i += qname.length;
		this.space();
		if (this.s[this.i] !== '>') throw new XmlError(`the end tag </${qname}> is not closed by ">"`, this.i);
		this.i++;
		if (!frame) throw new XmlError(`an end tag </${qname}> without a start tag`, start);
		if (!same) throw new XmlError(`</${qname}> where </${frame.qname}> was expected`, start);
		this.closed(frame);
	}
}
