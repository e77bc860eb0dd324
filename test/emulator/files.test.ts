import { createEmulator, DEFAULTS } from '../../emulator';
import { Emu, get, orderBody, post, start, call } from './helpers';
import { filesOf } from '../../emulator/files';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { allowContractViolations } = require('../harness/contract');
import { cents, hasPdftotext, num, parseXml, pdftotext, printFigures, readPdf, sha256, textOf } from './documentChecks';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Xml = any;

const b64 = (b: Buffer) => b.toString('base64');
const SEND = '/v1/orders/commands/send';

/** A small but real PDF with every byte value in a binary comment, so byte-exactness is tested. */
function ownPdf(): Buffer {
	const all = Buffer.alloc(256);
	for (let i = 0; i < 256; i++) all[i] = i;
	return Buffer.concat([Buffer.from('%PDF-1.7\n%'), all, Buffer.from('\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n')]);
}
/** xlsx files are zip archives: local file header signature, then arbitrary bytes. */
const xlsx = () => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256))]);

describe('files: GET /v1/files/{FileID}, own PDF and attachments on create', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 200 });
	});
	afterAll(() => emu.close());

	const full = async (id: number, partyId?: string) => {
		const r = await get(emu, `/v1/orders/${id}`, { partyId });
		expect(r.status).toBe(200);
		return r.json;
	};
	const file = async (fileId: string, partyId?: string) => {
		const r = await get(emu, `/v1/files/${fileId}`, { partyId });
		expect(r.status).toBe(200);
		expect(Object.keys(r.json)).toEqual(['FileID', 'FileName', 'MimeType', 'FileContent']);
		return { ...r.json, bytes: Buffer.from(r.json.FileContent, 'base64') } as { FileID: string; FileName: string; MimeType: string; bytes: Buffer };
	};
	const create = async (extra: Record<string, unknown> = {}) => {
		const r = await post(emu, '/v1/orders', orderBody(extra));
		expect(r.status).toBe(200);
		return r.json as number;
	};
	const bookSize = () => emu.store.book(emu.credentials.partyId).size;
	/** The UBL of an order where the service puts it: the file of its outgoing Peppol message (a sale), or its .xml attachment (a purchase). */
	const ublOf = (o: { Messages: Array<{ MessageDirection: string; FileID?: string }>; Attachments: Array<{ FileID: string; FileName: string }> }) =>
		o.Messages.find((m) => m.MessageDirection === 'Outgoing' && m.FileID)?.FileID ?? o.Attachments.find((a) => a.FileName.endsWith('.xml'))?.FileID;
	const sent = async (id: number) => {
		expect((await post(emu, SEND, { TransportType: 'Peppol', OrderIds: [id] })).status).toBe(200);
		return await full(id);
	};

	it('stores an own PDF and attachments and returns them byte-identical (SHA-256), with names and MIME types', async () => {
		const pdf = ownPdf();
		const sheet = xlsx();
		const csv = Buffer.from('Reference;Amount\r\nA-1;12,50\r\nZoë;3\r\n', 'utf8');
		const id = await create({
			OrderPDF: { FileName: 'Factuur 2024-001.pdf', FileContent: b64(pdf) },
			Attachments: [
				{ FileName: 'timesheet.xlsx', FileContent: b64(sheet) },
				{ FileName: 'lines.CSV', FileContent: b64(csv) },
			],
		});
		const o = await full(id);
		expect(o.OrderPDF).toEqual({
			FileID: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
			FileName: 'Factuur 2024-001.pdf',
		});
		// The original JSON first (page "Retrieve invoice information"), its file contents left out; no UBL before sending.
		expect(o.Attachments.map((a: { FileName: string }) => a.FileName)).toEqual([
			expect.stringMatching(new RegExp(`^${o.OrderNumber}__\\d{1,2}_\\d{2}_\\d{4} \\d{2}_\\d{2}_\\d{2}\\.json$`)),
			'timesheet.xlsx',
			'lines.CSV',
		]);
		const original = await file(o.Attachments[0].FileID);
		expect(original.MimeType).toBe('application/json');
		expect(JSON.parse(original.bytes.toString('utf8'))).toMatchObject({
			OrderType: 'Invoice',
			OrderPDF: { FileName: 'Factuur 2024-001.pdf', FileContent: `(${b64(pdf).length} base64 characters)` },
		});
		expect(ublOf(o)).toBeUndefined();

		const got = await file(o.OrderPDF.FileID);
		expect(got).toMatchObject({ FileID: o.OrderPDF.FileID, FileName: 'Factuur 2024-001.pdf', MimeType: 'application/pdf' });
		expect(sha256(got.bytes)).toBe(sha256(pdf));
		const [json, x, c] = await Promise.all(o.Attachments.map((a: { FileID: string }) => file(a.FileID)));
		expect(json.MimeType).toBe('application/json');
		expect(x).toMatchObject({ FileName: 'timesheet.xlsx', MimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
		expect(sha256(x.bytes)).toBe(sha256(sheet));
		expect(c).toMatchObject({ FileName: 'lines.CSV', MimeType: 'text/csv' });
		expect(sha256(c.bytes)).toBe(sha256(csv));
		// the same ids again, case-insensitively, give the same bytes
		expect(sha256((await file(o.OrderPDF.FileID.toUpperCase())).bytes)).toBe(sha256(pdf));
	});

	it('every order has a generated PDF a reader opens: exact xref offsets, number, parties, lines and totals', async () => {
		const id = await create({ Customer: { Name: "O'Brien & Sons (Ltd)", VATNumber: 'IE1234567T' }, Reference: 'PO 4711' });
		const o = await full(id);
		expect(o.OrderPDF.FileName).toBe(`${o.OrderNumber}.pdf`);
		const f = await file(o.OrderPDF.FileID);
		expect(f.MimeType).toBe('application/pdf');
		const pdf = readPdf(f.bytes);
		expect(pdf).toMatchObject({ version: '1.4', pages: 1 });
		const shown = pdf.text.join('\n');
		for (const s of [
			o.OrderNumber,
			"O'Brien & Sons (Ltd)",
			'Emulator Master BV',
			'Widget',
			'Service',
			'PO 4711',
			o.PaymentReference,
			'Total incl. VAT',
			`EUR ${o.TotalExcl.toFixed(2)}`,
			`EUR ${o.TotalVAT.toFixed(2)}`,
			`EUR ${o.TotalIncl.toFixed(2)}`,
		])
			expect(shown).toContain(s);
		expect(o.TotalIncl.toFixed(2)).toBe('131.41');
		// generated files are rendered from fields that never change: the same bytes on every read
		expect(sha256((await file(o.OrderPDF.FileID)).bytes)).toBe(sha256(f.bytes));

		// The checks above are complete without poppler; where pdftotext is installed it reads the same text too.
		const poppler = pdftotext(f.bytes);
		if (poppler) {
			expect(poppler.stderr).toBe('');
			for (const s of [o.OrderNumber, "O'Brien & Sons (Ltd)", 'Total incl. VAT', '131.41']) expect(poppler.text).toContain(s);
		}
		printFigures('generated PDF', {
			bytes: f.bytes.length,
			objects: pdf.objects,
			pdftotext: hasPdftotext() ? 'used' : 'not installed (structural check only)',
		});
	});

	it('the structural check refuses a PDF a reader could not open: offsets, stream lengths, page count, end marker', async () => {
		const o = await full(await create());
		const good = (await file(o.OrderPDF.FileID)).bytes;
		const s = good.toString('latin1');
		const broken = (text: string) => Buffer.from(text, 'latin1');
		expect(() => readPdf(good)).not.toThrow();
		// One byte more before object 3 moves everything after it, the xref table too; a damaged object header breaks its offset.
		const third = s.indexOf('\n3 0 obj\n') + 1;
		expect(() => readPdf(broken(`${s.slice(0, third)} ${s.slice(third)}`))).toThrow(/does not point at the xref table/);
		expect(() => readPdf(broken(s.replace('\n3 0 obj\n', '\n3 0 obi\n')))).toThrow(/does not point at "3 0 obj"/);
		expect(() => readPdf(broken(s.replace(/\/Length (\d+)/, (_, n: string) => `/Length ${Number(n) + 1}`)))).toThrow(/does not end at endstream/);
		expect(() => readPdf(broken(s.replace(/\/Count (\d+)/, (_, n: string) => `/Count ${Number(n) + 1}`)))).toThrow(/\/Count does not match/);
		expect(() => readPdf(broken(s.replace(/%%EOF\n?$/, '')))).toThrow(/no startxref/);
		expect(() => readPdf(broken(s.replace(/^%PDF-1\.4/, '%PFD-1.4')))).toThrow(/no %PDF- header/);
	});

	it('long orders run over several pages; accents and the euro sign survive WinAnsi', async () => {
		const lines = Array.from({ length: 70 }, (_, i) => ({ Quantity: 1, Description: `Line ${i + 1} Zoë €`, UnitPriceExcl: i + 1, VATPercentage: 21 }));
		const id = await create({ OrderLines: lines, Customer: { Name: 'Zoë & Zaïd Épicerie', VATNumber: 'FR12345678901' } });
		const o = await full(id);
		const bytes = (await file(o.OrderPDF.FileID)).bytes;
		const pdf = readPdf(bytes);
		expect(pdf.pages).toBe(3);
		expect(pdf.text).toEqual(
			expect.arrayContaining(['Zoë & Zaïd Épicerie', 'Line 1 Zoë €', 'Line 70 Zoë €', 'Page 3 of 3 - rendered by the access-point API emulator']),
		);
		expect(pdf.text.join('\n')).toContain(`EUR ${o.TotalIncl.toFixed(2)}`);
		const poppler = pdftotext(bytes);
		if (poppler) {
			expect(poppler.text).toContain('Line 70 Zoë €');
			expect(poppler.text.split('\f').filter((p) => p.trim())).toHaveLength(3);
		}
	});

	const ublTotals = (doc: Xml, root: 'Invoice' | 'CreditNote') => {
		const r = doc[root];
		const lines = r[root === 'Invoice' ? 'cac:InvoiceLine' : 'cac:CreditNoteLine'];
		const subs = r['cac:TaxTotal']['cac:TaxSubtotal'];
		const lmt = r['cac:LegalMonetaryTotal'];
		return {
			lineSum: lines.reduce((t: number, l: Xml) => t + cents(num(l['cbc:LineExtensionAmount'])), 0),
			taxableSum: subs.reduce((t: number, s: Xml) => t + cents(num(s['cbc:TaxableAmount'])), 0),
			subTaxSum: subs.reduce((t: number, s: Xml) => t + cents(num(s['cbc:TaxAmount'])), 0),
			tax: cents(num(r['cac:TaxTotal']['cbc:TaxAmount'])),
			lineExt: cents(num(lmt['cbc:LineExtensionAmount'])),
			excl: cents(num(lmt['cbc:TaxExclusiveAmount'])),
			incl: cents(num(lmt['cbc:TaxInclusiveAmount'])),
			payable: cents(num(lmt['cbc:PayableAmount'])),
			lines: lines.length,
		};
	};
	const expectTotalsAgree = (doc: Xml, root: 'Invoice' | 'CreditNote', o: Record<string, number> & { OrderLines: unknown[] }) => {
		const t = ublTotals(doc, root);
		expect(t).toEqual({
			lineSum: cents(o.TotalExcl),
			taxableSum: cents(o.TotalExcl),
			subTaxSum: cents(o.TotalVAT),
			tax: cents(o.TotalVAT),
			lineExt: cents(o.TotalExcl),
			excl: cents(o.TotalExcl),
			incl: cents(o.TotalIncl),
			payable: cents(o.TotalIncl),
			lines: o.OrderLines.length,
		});
	};

	it('the UBL is a well-formed Peppol BIS 3.0 invoice whose parties, lines and totals agree with the order', async () => {
		const id = await create({ Customer: { Name: 'Say "Hi" <Ltd> & Co', VATNumber: 'BE0123456749', Email: 'ap@demo.example' } });
		const o = await sent(id);
		const f = await file(ublOf(o)!);
		expect(f.FileName).toBe(`${o.OrderNumber}.xml`);
		const text = f.bytes.toString('utf8');
		expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
		const doc = parseXml(text);
		const inv = doc.Invoice;
		expect(inv['@_xmlns']).toBe('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
		expect(inv['cbc:CustomizationID']).toBe('urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0');
		expect(inv['cbc:ProfileID']).toBe('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
		expect(inv['cbc:ID']).toBe(o.OrderNumber);
		expect(inv['cbc:IssueDate']).toBe(o.OrderDate);
		expect(inv['cbc:DueDate']).toBe(o.ExpiryDate);
		expect(inv['cbc:InvoiceTypeCode']).toBe('380');
		expect(inv['cbc:DocumentCurrencyCode']).toBe('EUR');
		const supplier = inv['cac:AccountingSupplierParty']['cac:Party'];
		const customer = inv['cac:AccountingCustomerParty']['cac:Party'];
		expect(textOf(supplier['cbc:EndpointID'])).toBe('0314159244');
		expect(supplier['cbc:EndpointID']['@_schemeID']).toBe('0208');
		expect(supplier['cac:PartyLegalEntity']['cbc:RegistrationName']).toBe('Emulator Master BV');
		expect(customer['cac:PartyName']['cbc:Name']).toBe('Say "Hi" <Ltd> & Co');
		expect(customer['cac:PartyTaxScheme']['cbc:CompanyID']).toBe('BE0123456749');
		expect(inv['cac:TaxTotal']['cbc:TaxAmount']['@_currencyID']).toBe('EUR');
		// two VAT rates (21 % and 6 %): one subtotal each
		expect(
			inv['cac:TaxTotal']['cac:TaxSubtotal'].map((s: Xml) => [s['cac:TaxCategory']['cbc:ID'], s['cac:TaxCategory']['cbc:Percent'], num(s['cbc:TaxAmount'])]),
		).toEqual([
			['S', '21', 4.41],
			['S', '6', 6],
		]);
		expectTotalsAgree(doc, 'Invoice', o);
		const line = inv['cac:InvoiceLine'][0];
		expect(line['cac:Item']['cbc:Name']).toBe('Widget');
		expect(textOf(line['cbc:InvoicedQuantity'])).toBe('2');
		expect(num(line['cac:Price']['cbc:PriceAmount'])).toBe(10.5);
	});

	it('a credit note gets a CreditNote UBL referring to its invoice (AboutInvoiceNumber, with the invoice date when known)', async () => {
		const invId = await create({ OrderDate: '2024-02-10' });
		const inv = await full(invId);
		const r = await post(
			emu,
			'/v1/orders',
			orderBody({
				OrderType: 'CreditNote',
				AboutInvoiceNumber: inv.OrderNumber,
				OrderLines: [{ Quantity: 1, Description: 'Widget returned', UnitPriceExcl: 10.5, VATPercentage: 21 }],
			}),
		);
		expect(r.status).toBe(200);
		const cn = await sent(r.json);
		expect(cn).toMatchObject({ OrderType: 'CreditNote', AboutInvoiceNumber: inv.OrderNumber });
		const doc = parseXml((await file(ublOf(cn)!)).bytes.toString('utf8'));
		expect(doc.Invoice).toBeUndefined();
		expect(doc.CreditNote['cbc:CreditNoteTypeCode']).toBe('381');
		expect(doc.CreditNote['cac:BillingReference']['cac:InvoiceDocumentReference']).toEqual({ 'cbc:ID': inv.OrderNumber, 'cbc:IssueDate': '2024-02-10' });
		expectTotalsAgree(doc, 'CreditNote', cn);
		const pdf = readPdf((await file(cn.OrderPDF.FileID)).bytes);
		expect(pdf.text).toEqual(expect.arrayContaining([`CREDIT NOTE ${cn.OrderNumber}`, 'Credit note for invoice:', inv.OrderNumber]));
	});

	it("seeded invoices and credit notes: each UBL (a purchase's attachment, a sale's sent file) agrees with its order; offers have a PDF but no UBL", async () => {
		const seeded = emu.store.listOrders(emu.credentials.partyId).slice(0, 60);
		let checked = 0;
		for (const s of seeded) {
			const o = await full(s.OrderID);
			readPdf((await file(o.OrderPDF.FileID)).bytes);
			const xml = o.Attachments.filter((a: { FileName: string }) => a.FileName.endsWith('.xml'));
			const json = o.Attachments.filter((a: { FileName: string }) => a.FileName.endsWith('.json'));
			expect(xml.length + json.length).toBe(1);
			if (s.OrderType !== 'Invoice' && s.OrderType !== 'CreditNote') {
				expect(xml).toEqual([]);
				continue;
			}
			expect(xml.length).toBe(s.OrderDirection === 'Cost' ? 1 : 0);
			const ubl = ublOf(o);
			if (!ubl) continue; // a sale not sent over Peppol has no UBL
			expectTotalsAgree(parseXml((await file(ubl)).bytes.toString('utf8')), s.OrderType, o);
			checked++;
		}
		printFigures('seeded orders checked', { pdfs: seeded.length, ublDocuments: checked });
		expect(checked).toBeGreaterThan(20);
	});

	it('refuses bad files with 400 GenericError before storing anything', async () => {
		allowContractViolations('sends files of the wrong shape (a list as OrderPDF, an object as Attachments) on purpose');
		const before = bookSize();
		const cases: Array<[Record<string, unknown>, RegExp]> = [
			[{ OrderPDF: { FileName: 'x.pdf', FileContent: b64(Buffer.from('<html>not a pdf</html>')) } }, /OrderPDF 'x.pdf' is not a PDF.*%PDF-/],
			[{ OrderPDF: { FileName: 'x.pdf', FileContent: '' } }, /OrderPDF.FileContent is empty/],
			[{ OrderPDF: { FileName: 'x.pdf', FileContent: 'JVBERi0x*' } }, /OrderPDF.FileContent is not valid base64/],
			[{ OrderPDF: { FileName: 'x.pdf' } }, /OrderPDF.FileContent is required/],
			[{ OrderPDF: { FileContent: b64(ownPdf()) } }, /OrderPDF.FileName is required/],
			[{ OrderPDF: [{ FileName: 'x.pdf', FileContent: b64(ownPdf()) }] }, /OrderPDF takes one file/],
			[
				{ Attachments: [{ FileName: 'notes.docx', FileContent: b64(Buffer.from('x')) }] },
				/Attachments\[0\] 'notes.docx': unsupported file type; supported extensions: pdf, xls, xlsx, csv/,
			],
			[
				{
					Attachments: [
						{ FileName: 'ok.csv', FileContent: b64(Buffer.from('a')) },
						{ FileName: 'noext', FileContent: b64(Buffer.from('a')) },
					],
				},
				/Attachments\[1\] 'noext'/,
			],
			[{ Attachments: [{ FileName: '../../etc/passwd.csv', FileContent: b64(Buffer.from('a')) }] }, /not a valid file name/],
			[{ Attachments: { FileName: 'a.csv', FileContent: 'YQ==' } }, /Attachments must be a list/],
			[{ Attachments: [{ FileName: 'a.csv', FileContent: 'YQ-_' }] }, /Attachments\[0\].FileContent is not valid base64/],
		];
		for (const [extra, message] of cases) {
			const r = await post(emu, '/v1/orders', orderBody(extra));
			expect(r.status).toBe(400);
			expect(r.json.errors).toEqual([{ Code: 'GenericError', Description: expect.stringMatching(message) }]);
		}
		expect(bookSize()).toBe(before);
		printFigures('bad file inputs refused', { cases: cases.length });
	});

	it('accepts base64 with MIME line breaks, like the service', async () => {
		const pdf = ownPdf();
		const wrapped = b64(pdf).replace(/.{76}/g, '$&\r\n');
		const id = await create({ OrderPDF: { FileName: 'wrapped.pdf', FileContent: wrapped } });
		expect(sha256((await file((await full(id)).OrderPDF.FileID)).bytes)).toBe(sha256(pdf));
	});

	it('limits the request body (default 32 MiB): larger bodies get 413 RequestTooLarge and nothing is stored', async () => {
		expect(DEFAULTS.config.maxRequestBytes).toBe(32 * 1024 * 1024);
		const before = bookSize();
		emu.config.maxRequestBytes = 4096;
		try {
			const r = await post(emu, '/v1/orders', orderBody({ Attachments: [{ FileName: 'big.csv', FileContent: b64(Buffer.alloc(4096, 'a')) }] }));
			expect(r.status).toBe(413);
			expect(r.json.errors).toEqual([{ Code: 'RequestTooLarge', Description: expect.stringContaining('4096 bytes') }]);
			expect((await post(emu, '/v1/orders', orderBody())).status).toBe(200);
		} finally {
			emu.config.maxRequestBytes = DEFAULTS.config.maxRequestBytes;
		}
		expect(bookSize()).toBe(before + 1);
	});

	it("a file of another party is 401, an unknown id 404, a deleted order's files 404", async () => {
		const entity = emu.store.listOrders('300001')[0];
		const o = await full(entity.OrderID, '300001');
		expect((await get(emu, `/v1/files/${o.OrderPDF.FileID}`, { partyId: '300001' })).status).toBe(200);
		const other = await get(emu, `/v1/files/${o.OrderPDF.FileID}`);
		expect(other.status).toBe(401);
		expect(other.json.errors[0].Code).toBe('Unauthorized');
		const unknown = await get(emu, '/v1/files/00000000-0000-5000-8000-000000000000');
		expect(unknown.status).toBe(404);
		expect(unknown.json.errors[0]).toEqual({ Code: 'GenericError', Description: 'File 00000000-0000-5000-8000-000000000000 not found' });

		const id = await create({ Attachments: [{ FileName: 'a.csv', FileContent: b64(Buffer.from('a;b')) }] });
		const d = await full(id);
		expect((await call(emu, 'DELETE', `/v1/orders/${id}`)).status).toBe(200);
		for (const ref of [d.OrderPDF, ...d.Attachments]) expect((await get(emu, `/v1/files/${ref.FileID}`)).status).toBe(404);
	});

	it('list reads stay lazy: no file is generated or registered by seeding or listing 12,000 orders', async () => {
		const big = await createEmulator({ port: 0, orders: 12000 });
		try {
			const r = await get(big, '/v1/orders?$top=120');
			expect(r.status).toBe(200);
			expect(r.json.Items[0].OrderPDF).toBeNull();
			expect(filesOf(big.store).files.size).toBe(0);
			const first = await get(big, `/v1/orders/${r.json.Items[0].OrderID}`);
			expect(first.json.OrderPDF.FileID).toEqual(expect.any(String));
			expect(filesOf(big.store).files.size).toBeLessThanOrEqual(4);
		} finally {
			await big.close();
		}
	});

	it('a peppol send gets response messages with files: MLR AP once delivered (an XML naming the invoice)', async () => {
		const id = await create();
		expect((await post(emu, SEND, { Transporttype: 'Peppol', OrderIDs: [id] })).status).toBe(200);
		emu.delivery.set(id, 'Delivered');
		const o = await full(id);
		expect(o.Messages).toEqual([
			expect.objectContaining({ TransportType: 'Peppol', MessageDirection: 'Outgoing', CreationDate: expect.any(String), FileID: expect.any(String) }),
			expect.objectContaining({
				TransportType: 'Peppol',
				MessageDirection: 'Incoming',
				Description: expect.stringMatching(/^AB: /),
				FileID: expect.any(String),
			}),
		]);
		const f = await file(o.Messages[1].FileID);
		expect(f).toMatchObject({ MimeType: 'application/xml', FileName: expect.stringMatching(new RegExp(`^${o.OrderNumber}-MLR-\\d+\\.xml$`)) });
		const doc = parseXml(f.bytes.toString('utf8'));
		expect(doc.ApplicationResponse['cbc:CustomizationID']).toBe('urn:fdc:peppol.eu:poacc:trns:mlr:3');
		expect(doc.ApplicationResponse['cac:DocumentResponse']['cac:Response']['cbc:ResponseCode']).toBe('AB');
		expect(doc.ApplicationResponse['cac:DocumentResponse']['cac:DocumentReference']['cbc:ID']).toBe(o.OrderNumber);
		// seeded orders sent over Peppol carry their MLR too
		const seeded = emu.store
			.listOrders(emu.credentials.partyId)
			.find((x) => x.IsSent && x.Messages.some((m: { TransportType: string }) => m.TransportType === 'Peppol'));
		const so = await full(seeded!.OrderID);
		const mlr = so.Messages.find((m: { MessageDirection: string }) => m.MessageDirection === 'Incoming');
		expect(parseXml((await file(mlr.FileID)).bytes.toString('utf8')).ApplicationResponse['cbc:ID']).toMatch(/^MLR-\d+$/);
	});

	it('benchmark hook: emu.files.largePdf gives an order a valid PDF of exactly the asked size (20 MB), served whole', async () => {
		const id = await create();
		const size = 20 * 1024 * 1024;
		const ref = emu.files.largePdf(id, size);
		expect(ref).toMatchObject({ FileName: expect.stringMatching(/\.pdf$/), size });
		const o = await full(id);
		expect(o.OrderPDF).toEqual({ FileID: ref.FileID, FileName: ref.FileName });
		const f = await file(ref.FileID);
		expect(f.bytes.length).toBe(size);
		expect(sha256(f.bytes)).toBe(sha256(emu.files.get(ref.FileID)!.content));
		const pdf = readPdf(f.bytes);
		expect(pdf.text).toContain(`INVOICE ${o.OrderNumber}`);
		const poppler = pdftotext(f.bytes);
		if (poppler) expect(poppler.text).toContain(o.OrderNumber);
	});

	it('the cut fault applies to file reads: full content-length announced, connection dropped mid-body', async () => {
		const id = await create();
		const o = await full(id);
		emu.failNext(1, 'cut', { pathPrefix: '/v1/files/' });
		await expect(get(emu, `/v1/files/${o.OrderPDF.FileID}`)).rejects.toThrow();
		expect((await get(emu, `/v1/files/${o.OrderPDF.FileID}`)).status).toBe(200);
	});
});
