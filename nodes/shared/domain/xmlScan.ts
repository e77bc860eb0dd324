/**
 * A small XML reader for the few UBL fields the inbox nodes need (pure, no dependency): one
 * pass checks the document is (namespace-)well-formed and tells a visitor each element.
 * Safe by construction: a DOCTYPE is refused (no DTD read, no entity expanded), size, nesting
 * and kept text are bounded, time is linear. UTF-8 only, as Peppol BIS documents are; a full
 * conversion to JSON is n8n's XML node's job (README "Peppol inbox").
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
		return { problem: 'is not UTF-8 text (it may be a PDF or another binary file)' };
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
			else if (s.startsWith('<!', lt))
				throw new XmlError(s.startsWith('<!DOCTYPE', lt) ? 'a DOCTYPE (DTDs are not read; UBL documents have none)' : 'an unknown <! declaration', lt);
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
			throw new XmlError(`an entity "${match.slice(0, 40)}" that is not defined (no DTD is read)`, at + offset);
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
