'use strict';
/**
 * Independent readers for the emulator's files, used by files.test.ts and order-changes.test.ts
 * (plain JS like test/reliability/report.js: JS files are not linted, so the pdftotext child
 * process and stdout live here):
 * - readPdf: a viewer's first steps (startxref -> xref table -> each object at its offset), stream
 *   lengths, the page tree and the text each page shows;
 * - pdftotext: Debian's poppler-utils when installed (null otherwise);
 * - parseXml: fast-xml-parser (in node_modules through n8n-core), well-formedness checked first.
 */
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { XMLParser, XMLValidator } = require('fast-xml-parser');

/** @param {Buffer} b @returns {string} */
const sha256 = (b) => createHash('sha256').update(b).digest('hex');

/** @type {Record<number, string>} WinAnsi bytes the emulator writes outside Latin-1 */
const WIN_ANSI_HIGH = { 0x80: '€', 0x85: '…' };

/** @param {string} s body of a PDF literal string @returns {string} */
function unescapePdf(s) {
	let out = '';
	for (let i = 0; i < s.length; i++) {
		if (s[i] === '\\') {
			out += s[++i];
			continue;
		}
		out += WIN_ANSI_HIGH[s.charCodeAt(i)] || s[i];
	}
	return out;
}

/**
 * Read a classic-xref PDF; throws on any inconsistency.
 * @param {Buffer} buf
 * @returns {{ version: string, pages: number, objects: number, text: string[] }} text: the strings shown with Tj, in order
 */
function readPdf(buf) {
	const s = buf.toString('latin1');
	const head = /^%PDF-(\d\.\d)\n/.exec(s);
	if (!head) throw new Error('no %PDF- header');
	const tail = /startxref\n(\d+)\n%%EOF\n?$/.exec(s);
	if (!tail) throw new Error('no startxref/%%EOF at the end');
	const xrefAt = Number(tail[1]);
	if (s.slice(xrefAt, xrefAt + 5) !== 'xref\n') throw new Error(`startxref ${xrefAt} does not point at the xref table`);
	const sub = /^xref\n0 (\d+)\n/.exec(s.slice(xrefAt));
	if (!sub) throw new Error('xref subsection header missing');
	const count = Number(sub[1]);
	const tableAt = xrefAt + sub[0].length;
	/** @type {number[]} */
	const offsets = [];
	for (let i = 0; i < count; i++) {
		const entry = s.slice(tableAt + i * 20, tableAt + (i + 1) * 20);
		const m = /^(\d{10}) (\d{5}) ([nf]) \n$/.exec(entry);
		if (!m) throw new Error(`xref entry ${i} is not 20 bytes in the classic form: ${JSON.stringify(entry)}`);
		if (i === 0 && m[3] !== 'f') throw new Error('xref entry 0 must be free');
		if (m[3] === 'n') {
			offsets[i] = Number(m[1]);
			if (!s.startsWith(`${i} 0 obj\n`, offsets[i])) throw new Error(`xref entry ${i} (offset ${offsets[i]}) does not point at "${i} 0 obj"`);
		}
	}
	const trailer = /trailer\n<< \/Size (\d+) \/Root (\d+) 0 R/.exec(s.slice(tableAt + count * 20));
	if (!trailer || Number(trailer[1]) !== count) throw new Error('trailer /Size does not match the xref table');
	/** @param {number} n */
	const body = (n) => {
		const start = offsets[n];
		if (start === undefined) throw new Error(`object ${n} is not in the xref table`);
		return s.slice(start, s.indexOf('\nendobj\n', start));
	};
	/** @param {number} n */
	const stream = (n) => {
		const m = /\/Length (\d+) >>\nstream\n/.exec(body(n));
		if (!m) throw new Error(`object ${n} is not a stream`);
		const start = offsets[n] + m.index + m[0].length;
		const len = Number(m[1]);
		if (s.slice(start + len, start + len + 10) !== '\nendstream') throw new Error(`object ${n}: /Length ${len} does not end at endstream`);
		return s.slice(start, start + len);
	};
	const root = body(Number(trailer[2]));
	if (!/\/Type \/Catalog/.test(root)) throw new Error('/Root is not a catalog');
	const pagesRef = /\/Pages (\d+) 0 R/.exec(root);
	if (!pagesRef) throw new Error('the catalog names no page tree');
	const tree = body(Number(pagesRef[1]));
	const kidList = /\/Kids \[([^\]]*)\]/.exec(tree);
	const kids = [...(kidList ? kidList[1] : '').matchAll(/(\d+) 0 R/g)].map((k) => Number(k[1]));
	const declared = /\/Count (\d+)/.exec(tree);
	if (!declared || Number(declared[1]) !== kids.length) throw new Error(`/Count does not match the ${kids.length} kids`);
	/** @type {string[]} */
	const text = [];
	for (const k of kids) {
		const page = body(k);
		if (!/\/Type \/Page\b/.test(page)) throw new Error(`kid ${k} is not a page`);
		const contents = /\/Contents (\d+) 0 R/.exec(page);
		if (!contents) throw new Error(`page ${k} has no contents`);
		for (const m of stream(Number(contents[1])).matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)) text.push(unescapePdf(m[1]));
	}
	return { version: head[1], pages: kids.length, objects: count - 1, text };
}

/**
 * pdftotext -layout from poppler-utils, or null when it is not installed.
 * @param {Buffer} buf @returns {{ text: string, stderr: string } | null}
 */
function pdftotext(buf) {
	const r = spawnSync('pdftotext', ['-layout', '-', '-'], { input: buf, maxBuffer: 64 * 1024 * 1024 });
	if (r.error) return null;
	if (r.status !== 0) throw new Error(`pdftotext failed (${r.status}): ${r.stderr.toString()}`);
	return { text: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}

const hasPdftotext = () => !spawnSync('pdftotext', ['-v']).error;

/**
 * Parse XML after checking it is well-formed; attributes under "@_", namespace prefixes kept.
 * @param {string} text @returns {any}
 */
function parseXml(text) {
	const valid = XMLValidator.validate(text);
	if (valid !== true) throw new Error(`not well-formed XML: ${JSON.stringify(valid.err)}`);
	const lists = ['cac:InvoiceLine', 'cac:CreditNoteLine', 'cac:TaxSubtotal'];
	return new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => lists.includes(name) }).parse(text);
}

/** Text of an element that may carry attributes. @param {any} v @returns {string} */
const textOf = (v) => (v && typeof v === 'object' ? v['#text'] : v);
/** @param {any} v */
const num = (v) => Number(textOf(v));
/** @param {number} n */
const cents = (n) => Math.round(n * 100);

/** A test's figures on stdout (counts the issue asks for). @param {string} title @param {Record<string, unknown>} figures */
function printFigures(title, figures) {
	const lines = Object.entries(figures).map(([k, v]) => `    ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
	process.stdout.write(`\n[emulator] ${title}\n${lines.join('\n')}\n`);
}

module.exports = { sha256, readPdf, pdftotext, hasPdftotext, parseXml, textOf, num, cents, printFigures };
