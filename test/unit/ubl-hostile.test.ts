/**
 * Issue 37 item 1: whatever a sender puts in a document within Maximum File Size (default 20 MB), the UBL reader's work
 * is bounded, so one read never blocks n8n's event loop for more than about 0.1 s (bench/reader.js gives the figures,
 * docs/reliability.md "Receiving" states them). It reads only the elements an output field comes from and skips the
 * rest on its tags (a base64 attachment or an invoice line costs little more than finding its "<"), and it refuses,
 * naming the limit, what no real UBL or SBDH document comes near: more than 50,000 elements, 50,000 attributes, 100
 * attributes (namespace declarations included) on one element, 256 levels, and in the parts it reads (the elements
 * that hold the fields and their children, such as the invoice lines themselves) 10,000 elements, 1,000 namespace
 * declarations, 10,000 references (&...;) or 1,000,000 characters of text. Each hostile shape of
 * emulator/documents.js `hostileUbl` at 20 MB: refused (before the limits, each was read whole: 0.4 to 1 s, and 20 MB
 * of namespace declarations exhausted a 4 GB heap before the reader was linear); the largest document of each shape
 * within the limits and a real invoice of 3,000 lines (39,000 elements): read, fields right.
 */
import { checkSendableUbl, readDocument, scanXml } from '../../nodes/shared/domain/ubl';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { hostileUbl, renderUbl } = require('../../emulator/documents') as {
	hostileUbl: (shape: string, bytes: number, o?: object) => string;
	renderUbl: (order: object) => string;
};

const MB = 1024 * 1024;
const SIZE = 19.9 * MB;
const read = (xml: string) => readDocument(Buffer.from(xml), { maxChars: 20 * MB });
const FIELDS = {
	Number: 'HOSTILE-1',
	IssueDate: '2024-05-01',
	TypeCode: '380',
	Currency: 'EUR',
	SupplierName: 'Hostile Supplier BV',
	SupplierEndpointID: '0208:0123456749',
	PayableAmount: '121.00',
};

describe('the UBL reader bounds its work whatever the document holds', () => {
	it.each([
		['xmlns', '10,000 namespace declarations on the root', 'more than 100 attributes (namespace declarations included) on <Invoice>'],
		['attrs', '5,000 attributes per element', 'more than 100 attributes (namespace declarations included) on <cbc:Note>'],
		['deep', 'lines 250 deep', 'more than 50,000 elements'],
		['text', 'notes of "&amp;"', 'more than 10,000 references'],
		['plain', 'invoice lines', 'more than 50,000 elements'],
		['flat', 'elements right under the root', 'more than 10,000 elements in the parts read'],
	])('20 MB of %s (%s) is refused, naming the limit', (shape, _what, limit) => {
		expect(read(hostileUbl(shape, SIZE))).toEqual({
			ok: false,
			problem: expect.stringMatching(new RegExp(`^is beyond what is read: ${limit.replace(/[.()&]/g, '\\$&')} \\(line \\d+, column \\d+\\)$`)),
		});
	});

	it('Send UBL Document refuses such a file the same way (the node names the item and field, before any request)', () => {
		expect(checkSendableUbl(Buffer.from(hostileUbl('xmlns', 0.6 * MB)), 20 * MB)).toMatchObject({
			ok: false,
			problem: expect.stringMatching(/^is beyond what is read: more than 100 attributes \(namespace declarations included\) on <Invoice>/),
		});
		expect(checkSendableUbl(Buffer.from(hostileUbl('attachment', SIZE)), 20 * MB)).toMatchObject({ ok: true, ubl: { kind: 'Invoice', number: 'HOSTILE-1' } });
	});

	it('the declarations inside a Peppol envelope too, at 0.6 MB', () => {
		expect(read(hostileUbl('xmlns', 0.6 * MB, { envelope: true }))).toMatchObject({ ok: false, problem: expect.stringContaining('more than 100 attributes') });
	});

	it.each([
		['attachment', {}],
		['plain', { blocks: 8_000 }],
		['deep', { blocks: 195 }],
		['attrs', { blocks: 495, perElement: 99 }],
		['xmlns', { blocks: 10, perElement: 99 }],
		['text', { blocks: 4 }],
		['flat', { blocks: 9_900 }],
	])('the largest %s document within the limits (%j, the rest of 20 MB a base64 attachment) is read', (shape, o) => {
		const xml = hostileUbl(shape, SIZE, o);
		expect(xml.length).toBeGreaterThan(SIZE - 10);
		const result = read(xml);
		expect(result.ok ? result.doc.invoice : result.problem).toEqual(FIELDS);
		// In its envelope too.
		const wrapped = read(hostileUbl(shape, SIZE, { ...o, envelope: true }));
		expect(wrapped.ok && wrapped.doc).toMatchObject({ envelope: true, invoice: FIELDS });
	});

	it('a real invoice of 3,000 lines (emulator/documents.js renderUbl, 13 elements a line) is read', () => {
		const party = (name: string, id: string) => ({ Name: name, PeppolID: `0208:${id}`, VATNumber: `BE${id}` });
		const lines = Array.from({ length: 3_000 }, (_, i) => ({
			Description: `Item ${i}`,
			Quantity: 1,
			UnitPriceExcl: 10,
			AmountExcl: 10,
			VATPercentage: 21,
			AmountVAT: 2.1,
		}));
		const xml = renderUbl({
			OrderType: 'Invoice',
			OrderNumber: 'BIG-3000',
			OrderDate: '2024-05-01',
			Currency: 'EUR',
			Supplier: party('Big Supplier NV', '0123456749'),
			Customer: party('Customer BV', '0403170701'),
			OrderLines: lines,
			TotalExcl: 30_000,
			TotalVAT: 6_300,
			TotalIncl: 36_300,
		});
		expect(xml.match(/<cac:InvoiceLine>/g)).toHaveLength(3_000);
		const result = read(xml);
		expect(result.ok ? result.doc.invoice : result.problem).toMatchObject({ Number: 'BIG-3000', SupplierName: 'Big Supplier NV', PayableAmount: '36300.00' });
	});

	it('what is skipped is checked for its tags and nesting only', () => {
		const invoice = (line: string) =>
			`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"><cbc:ID>S-1</cbc:ID>${line}</Invoice>`;
		const number = (xml: string) => {
			const result = read(xml);
			return result.ok ? result.doc.invoice?.Number : result.problem;
		};
		expect(number(invoice('<cac:InvoiceLine><cbc:Note>R&D \u0001 &nbsp;</cbc:Note><x:y/></cac:InvoiceLine>'))).toBe('S-1');
		expect(number(invoice('<cac:InvoiceLine><cbc:ID>1</cac:InvoiceLine></cbc:ID>'))).toMatch(
			/^is not well-formed XML: <\/cac:InvoiceLine> where <\/cbc:ID> was expected/,
		);
		expect(number(invoice('<cac:InvoiceLine><cbc:ID a="<">1</cbc:ID></cac:InvoiceLine>'))).toMatch(/^is not well-formed XML: a "<" in the value of a/);
		expect(number(invoice('<cac:InvoiceLine><![CDATA[ x ]]> ]]></cac:InvoiceLine>'))).toMatch(/^is not well-formed XML: "]]>" in text/);
		// What is read is checked whole.
		expect(number(invoice('<cbc:Note>R&D</cbc:Note>'))).toMatch(/^is not well-formed XML: an "&" that does not start a reference/);
		expect(number(invoice('<cbc:Note>\u0001</cbc:Note>'))).toMatch(/^is not well-formed XML: a character not allowed in XML \(U\+0001\)/);
	});

	it('nesting beyond 256 levels is a problem that names the limit, not malformed XML', () => {
		const result = scanXml(`${'<a>'.repeat(300)}${'</a>'.repeat(300)}`, {}, { maxChars: MB });
		expect(result).toEqual({ ok: false, problem: 'is beyond what is read: elements nested more than 256 deep (line 1, column 769)' });
	});

	it('attribute names that are also names of object properties read as attributes', () => {
		const texts: string[] = [];
		const result = scanXml(
			'<a __proto__="1" constructor="2" toString="3"/>',
			{ close: (e) => void texts.push(JSON.stringify({ ...e.attrs })) },
			{ maxChars: MB },
		);
		expect(result.ok).toBe(true);
		expect(texts).toEqual(['{"__proto__":"1","constructor":"2","toString":"3"}']);
	});

	it('of a text far larger than what is kept, only what is kept is resolved: a bad reference within it is found, one after it is not looked at', () => {
		const text = (bad: number) => `<a>${'x &amp; y '.repeat(bad)}&bad;${'x &amp; y '.repeat(200_000 - bad)}</a>`;
		expect(scanXml(text(10), {}, { maxChars: 10 * MB })).toMatchObject({
			ok: false,
			problem: expect.stringContaining('an entity "&bad;" that is not defined'),
		});
		expect(scanXml(text(190_000), {}, { maxChars: 10 * MB })).toMatchObject({ ok: true });
	});
});
