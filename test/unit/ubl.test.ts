/**
 * The bounded XML scanner and what the nodes read from Peppol documents
 * (nodes/shared/domain/ubl.ts): real-world shaped IMR, MLR, invoices and credit notes
 * (prefixes cac:/cbc:, ns2:, a default cbc namespace, SBDH envelopes), and hostile input
 * that must end as a problem, never as an expansion, a hang or a crash.
 */
import { checkSendableUbl, decodeXml, kindOfType, readDocument, scanXml } from '../../nodes/shared/domain/ubl';
import type { XmlName } from '../../nodes/shared/domain/ubl';
import { bytes, CREDIT_NOTE_PREFIXED, IMR_PAID_SBDH, IMR_REJECTED, IMR_UNDER_QUERY_NS2, INVOICE_SBDH, MLR_REJECTED, NS } from './helpers/peppolDocuments';

const MAX = 1_000_000;
const read = (text: string, hint?: string) => {
	const result = readDocument(bytes(text), { maxChars: MAX, hint });
	if (!result.ok) throw new Error(result.problem);
	return result.doc;
};
const problemOf = (text: string, limits = { maxChars: MAX }) => {
	const result = scanXml(text, {}, limits);
	return result.ok ? undefined : result.problem;
};

describe('IMR and MLR: code, meaning, reasons, referenced invoice', () => {
	it('an IMR refusing an invoice (cac/cbc prefixes, default namespace)', () => {
		const doc = read(IMR_REJECTED);
		expect(doc.kind).toBe('IMR');
		expect(doc.envelope).toBe(false);
		expect(doc.response).toEqual({
			Type: 'IMR',
			Code: 'RE',
			Meaning: 'Rejected: the customer refused the invoice',
			Reasons: [
				{ Code: 'REF', Meaning: 'References incorrect', List: 'OPStatusReason', Text: 'Purchase order number PO-17 & contract unknown' },
				{ Code: 'NIN', Meaning: 'Issue a new invoice', List: 'OPStatusAction' },
			],
			ReasonText: 'REF: Purchase order number PO-17 & contract unknown; NIN',
			InvoiceNumber: 'INV-2024-0042',
			DocumentTypeCode: '380',
			InvoiceIssueDate: '2024-03-01',
			ResponseID: 'imr-7781',
			IssueDate: '2024-03-05',
			EffectiveDate: '2024-03-05',
			Note: 'Please contact purchasing',
			FromEndpointID: '0208:0123456749',
			FromName: 'Peppol Demo Belgium NV',
			ToEndpointID: '0208:0314159244',
			ToName: 'Emulator Master BV',
		});
	});

	it('an IMR from a JAXB-style writer (ns2 root, cbc as the default namespace, CDATA reason)', () => {
		const doc = read(IMR_UNDER_QUERY_NS2);
		expect(doc.kind).toBe('IMR');
		expect(doc.response).toMatchObject({
			Code: 'UQ',
			Meaning: 'Under query: the customer has a question before going on',
			Reasons: [{ Code: 'PRI', Meaning: 'Prices incorrect', List: 'OPStatusReason', Text: 'Unit price <12.50> differs from the offer' }],
			InvoiceNumber: 'INV-7',
			FromEndpointID: '9925:BE0456789133',
		});
	});

	it('an IMR in its SBDH envelope: read inside, and unwrapped with the namespaces the envelope declared', () => {
		const doc = read(IMR_PAID_SBDH);
		expect(doc).toMatchObject({
			kind: 'IMR',
			envelope: true,
			response: { Code: 'PD', Meaning: 'Paid', InvoiceNumber: 'INV-2024-0007', Reasons: [], ReasonText: '' },
		});
		expect(doc.unwrapped).not.toContain('StandardBusinessDocument');
		expect(doc.unwrapped.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<ApplicationResponse xmlns:cac=')).toBe(true);
		// The unwrapped document stands on its own: same root, same fields, no envelope.
		const again = read(doc.unwrapped);
		expect(again).toMatchObject({ kind: 'IMR', envelope: false, response: doc.response });
		expect(again.root).toEqual<XmlName>({ ns: NS.response, local: 'ApplicationResponse' });
	});

	it('an MLR rejecting a message: its description and line responses become the reasons', () => {
		const doc = read(MLR_REJECTED);
		expect(doc.kind).toBe('MLR');
		expect(doc.response).toMatchObject({
			Type: 'MLR',
			Code: 'RE',
			Meaning: 'Rejected: the message failed (not delivered or not valid)',
			Reasons: [
				{ Text: 'Rejected due to validation errors' },
				{ Code: 'BV', Meaning: 'Business rule violation (fatal)', Text: 'Issue date is not a valid date', Line: '/Invoice/cbc:IssueDate' },
			],
			ReasonText: 'Rejected due to validation errors; BV: Issue date is not a valid date',
			InvoiceNumber: 'EnvelopeID-12456789',
		});
	});

	it('an ApplicationResponse that does not say which it is follows the inbox item type', () => {
		const bare = IMR_REJECTED.replace(/<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, '');
		expect(read(bare, 'MLR').kind).toBe('MLR');
		expect(read(bare, 'IMR').kind).toBe('IMR');
		expect(read(bare).response?.Code).toBe('RE');
	});

	it('an unknown code is output with words saying so', () => {
		const doc = read(IMR_REJECTED.replace('>RE</cbc:ResponseCode>', '>ZZ</cbc:ResponseCode>'));
		expect(doc.response).toMatchObject({ Code: 'ZZ', Meaning: 'Code ZZ (not one the Peppol IMR uses)' });
	});
});

describe('invoices and credit notes', () => {
	it('an invoice in an envelope whose namespace is the default: fields read, envelope removed', () => {
		const doc = read(INVOICE_SBDH);
		expect(doc).toMatchObject({ kind: 'Invoice', envelope: true });
		expect(doc.invoice).toEqual({
			Number: 'SUP-00017',
			IssueDate: '2024-06-01',
			DueDate: '2024-07-01',
			TypeCode: '380',
			Currency: 'EUR',
			SupplierName: 'Office Supplies NV',
			SupplierEndpointID: '0208:0403170701',
			CustomerName: 'Emulator Master BV',
			PayableAmount: '59.29',
		});
		// The envelope's default namespace is not carried over: the invoice declares its own.
		expect(doc.unwrapped).toMatch(
			/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac=/,
		);
		expect(read(doc.unwrapped).invoice).toEqual(doc.invoice);
	});

	it('a credit note with a prefixed root; the trading name stands in for a missing legal name', () => {
		expect(read(CREDIT_NOTE_PREFIXED)).toMatchObject({
			kind: 'CreditNote',
			envelope: false,
			invoice: { Number: 'CN-3', TypeCode: '381', SupplierName: 'Only A Trading Name' },
		});
	});

	it('the inbox item types', () => {
		expect(
			kindOfType(
				'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
			),
		).toBe('Invoice');
		expect(
			kindOfType(
				'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
			),
		).toBe('CreditNote');
		expect(kindOfType('IMR')).toBe('IMR');
		expect(kindOfType('MLR')).toBe('MLR');
		expect(kindOfType('urn:oasis:names:specification:ubl:schema:xsd:Order-2::Order##x')).toBe('Other');
		expect(kindOfType(undefined)).toBe('Other');
	});
});

describe('a document to send as it is', () => {
	it('an invoice or credit note in the UBL namespace passes, with its number', () => {
		const invoice = read(INVOICE_SBDH).unwrapped;
		expect(checkSendableUbl(bytes(invoice), MAX)).toEqual({ ok: true, ubl: { xml: invoice, kind: 'Invoice', number: 'SUP-00017' } });
		expect(checkSendableUbl(bytes(`\uFEFF${CREDIT_NOTE_PREFIXED}`), MAX)).toMatchObject({ ok: true, ubl: { kind: 'CreditNote', xml: CREDIT_NOTE_PREFIXED } });
	});

	it.each([
		['an envelope', INVOICE_SBDH, 'is wrapped in a Peppol envelope (SBDH)'],
		[
			'an IMR',
			IMR_REJECTED,
			'has the root element ApplicationResponse in namespace urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2, not a UBL Invoice or CreditNote',
		],
		['an Invoice without a namespace', '<Invoice><ID>1</ID></Invoice>', 'has the root element Invoice without a namespace, not a UBL Invoice or CreditNote'],
		['an Invoice in the CreditNote namespace', `<Invoice xmlns="${NS.creditNote}"/>`, 'not a UBL Invoice or CreditNote'],
		['broken XML', `<Invoice xmlns="${NS.invoice}"><ID>1</Invoice>`, 'is not well-formed XML: </Invoice> where </ID> was expected (line 1, column 78)'],
		['a PDF', '%PDF-1.4\n\u00ff\u00fe', 'is not well-formed XML: text before the root element (line 1, column 1)'],
	])('%s is refused', (_what, text, problem) => {
		const result = checkSendableUbl(bytes(text), MAX);
		expect(result.ok).toBe(false);
		expect(result.ok ? '' : result.problem).toContain(problem);
	});

	it('a file over the size limit is refused before it is read', () => {
		const result = checkSendableUbl(bytes(read(INVOICE_SBDH).unwrapped), 100);
		expect(result).toMatchObject({ ok: false, problem: 'is larger than the 100 characters read' });
	});
});

describe('the scanner refuses what is not plain, well-formed XML', () => {
	const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><Invoice>&lol2;</Invoice>`;
	it.each([
		['a DTD (billion laughs)', laughs, 'a DOCTYPE (DTDs are not read) (line 1, column 22)'],
		['an entity no DTD defines', '<a>&nbsp;</a>', 'an entity "&nbsp;" that is not defined'],
		['an external entity reference', '<a>&xxe;</a>', 'an entity "&xxe;" that is not defined'],
		['a bare ampersand', '<a>R&D</a>', 'an "&" that does not start a reference'],
		['two roots', '<a/><b/>', 'a second root element'],
		['text after the root', '<a/>x', 'text after the root element'],
		['an unclosed element', '<a><b></b>', 'the document ends before </a>'],
		['crossed tags', '<a><b></a></b>', '</a> where </b> was expected'],
		['an undeclared prefix', '<cbc:ID>1</cbc:ID>', 'the prefix cbc of cbc:ID is not declared'],
		['an undeclared attribute prefix', '<a x:y="1"/>', 'the prefix x of x:y is not declared'],
		['a duplicate attribute', '<a b="1" b="2"/>', 'the attribute b twice on <a>'],
		['an unquoted attribute', '<a b=1/>', 'the value of b is not quoted'],
		['"<" in an attribute', '<a b="<"/>', 'a "<" in the value of b'],
		['"--" in a comment', '<a><!-- x -- y --></a>', '"--" inside a comment'],
		['a control character', '<a>\u0001</a>', 'a character not allowed in XML (U+0001)'],
		['a reference to a control character', '<a>&#1;</a>', 'a character reference to a character not allowed in XML (&#1;)'],
		['a late XML declaration', '<a/><?xml version="1.0"?>', 'an XML declaration that is not at the very start'],
		['CDATA outside the root', '<![CDATA[x]]><a/>', 'a CDATA section outside the root element'],
		['nothing', '   ', 'no root element'],
		['an empty namespace prefix', '<a xmlns:p=""/>', 'the prefix p is declared with an empty namespace'],
	])('%s', (_what, text, problem) => {
		expect(problemOf(text)).toContain(problem);
	});

	it('nesting beyond the depth limit ends the scan', () => {
		const deep = `${'<a>'.repeat(300)}${'</a>'.repeat(300)}`;
		expect(problemOf(deep)).toContain('elements nested more than 256 deep');
		expect(problemOf(`${'<a>'.repeat(100)}${'</a>'.repeat(100)}`)).toBeUndefined();
	});

	it('bytes that are not UTF-8 text', () => {
		expect(decodeXml(Buffer.from([0xff, 0xfe, 0x3c, 0x00]))).toEqual({ problem: 'is UTF-16 text; Peppol documents are UTF-8' });
		expect(decodeXml(Buffer.from([0x3c, 0x61, 0xc3, 0x28, 0x3e]))).toEqual({ problem: 'is not UTF-8 text' });
		expect(decodeXml(bytes('<?xml version="1.0" encoding="ISO-8859-1"?><a/>'))).toEqual({ problem: 'declares the encoding ISO-8859-1; only UTF-8 is read' });
		expect(decodeXml(bytes('\uFEFF<a>é</a>'))).toEqual({ text: '<a>é</a>' });
	});

	it('a large document is read in linear time and keeps only a bounded text per element', () => {
		const lines = Array.from(
			{ length: 9_000 },
			(_, i) => `<cac:InvoiceLine><cbc:ID>${i}</cbc:ID><cbc:Note>${'x'.repeat(200)}</cbc:Note></cac:InvoiceLine>`,
		).join('');
		const big = `<Invoice xmlns="${NS.invoice}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}"><cbc:ID>BIG-1</cbc:ID><cbc:Note>${'y'.repeat(50_000)}</cbc:Note>${lines}</Invoice>`;
		const started = Date.now();
		const result = readDocument(bytes(big), { maxChars: 10_000_000 });
		const doc = result.ok ? result.doc : undefined;
		expect(Date.now() - started).toBeLessThan(5000);
		expect(doc?.invoice?.Number).toBe('BIG-1');
		let longest = 0;
		scanXml(big, { close: (_e, text) => (longest = Math.max(longest, text.length)) }, { maxChars: 10_000_000 });
		expect(longest).toBe(10_000);
	});

	it('references and CDATA read as their characters; comments and instructions are skipped', () => {
		const texts: string[] = [];
		const result = scanXml(
			'<?xml version="1.0"?><!-- c --><?pi x?><a t="&quot;&#x41;&#66;">&lt;&gt;&amp;&apos;<![CDATA[<&>]]><!-- in --></a>',
			{ close: (e, text) => texts.push(`${e.attrs.t}|${text}`) },
			{ maxChars: MAX },
		);
		expect(result).toEqual({ ok: true, root: { ns: '', local: 'a' } });
		expect(texts).toEqual(['"AB|<>&\'<&>']);
	});
});
