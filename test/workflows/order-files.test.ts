/**
 * Invoices as files (#20), through n8n's engine against the emulator: Create with your own
 * PDF and an xlsx attachment, then Order › Download Files returns them byte-identical
 * (SHA-256) with their names and MIME types, and the UBL parses with totals that match
 * the order; One Item per File; an order without a picked file; bad inputs refused before
 * any request (nock sees none); File › Get; Act for Party; the size bound; n8n's
 * filesystem binary mode; Order Trigger › Include Files.
 */
import nock from 'nock';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import { cents, num, parseXml, readPdf } from '../emulator/documentChecks';
import { createHarness } from '../harness';
import type { Harness } from '../harness';
import { printFigures, sha256, useFilesystemBinaryMode } from './fileSupport';
import { publishedSentInvoice } from '../fixtures/published';

type Emu = Awaited<ReturnType<typeof createEmulator>>;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const NODE = 'accessPointOrder';
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A small PDF carrying every byte value, so byte-exactness is tested. */
function ownPdf(): Buffer {
	const all = Buffer.alloc(256);
	for (let i = 0; i < 256; i++) all[i] = i;
	return Buffer.concat([Buffer.from('%PDF-1.7\n%'), all, Buffer.from('\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n')]);
}
/** xlsx files are zip archives: the local file header signature, then arbitrary bytes. */
const xlsx = () => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256))]);

/** A binary property as an earlier node (Read Files from Disk, HTTP Request) hands it on, in n8n's in-memory form. */
const binaryOf = (content: Buffer, fileName: string, mimeType: string): IBinaryData => ({
	data: content.toString('base64'),
	mimeType,
	fileName,
	fileExtension: /\.([^.]+)$/.exec(fileName)?.[1] ?? '',
	bytes: content.length,
});

describe('Order › Download Files, File › Get, own files on create, Order Trigger › Include Files', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 60 } });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
	});

	afterAll(async () => {
		nock.cleanAll();
		nock.enableNetConnect();
		await h?.close();
	});

	beforeEach(() => emu.clearRequests());

	const createParams = (over: IDataObject = {}): IDataObject => ({
		resource: 'order',
		operation: 'create',
		orderType: 'Invoice',
		orderDirection: 'Income',
		orderDate: '2024-03-01',
		customerName: 'ACME NV',
		customerVatNumber: 'BE0123456749',
		orderLines: {
			lines: [
				{ description: 'Consulting', quantity: 3, unitPriceExcl: 95.5, vatPercentage: 21 },
				{ description: 'Books', quantity: 2, unitPriceExcl: 12.35, vatPercentage: 6 },
			],
		},
		skipIfExists: false,
		...over,
	});
	const download = (orderId: number | string, over: IDataObject = {}): IDataObject => ({
		resource: 'order',
		operation: 'downloadFiles',
		orderId: { __rl: true, mode: 'id', value: String(orderId) },
		...over,
	});
	const bytesOf = (binary: IBinaryData) => Buffer.from(binary.data, 'base64');
	const fileRequests = () => (emu.requests as Rec[]).filter((r) => r.path.startsWith('/v1/files/'));
	const someOrder = (type: string, partyId = party): Rec => emu.store.listOrders(partyId).find((o: Rec) => o.OrderType === type) as Rec;
	/** An invoice that has a UBL: a purchase (received as UBL) or a sale sent over Peppol. */
	const invoiceWithUbl = (partyId = party): Rec =>
		emu.store
			.listOrders(partyId)
			.find((o: Rec) => o.OrderType === 'Invoice' && (o.OrderDirection === 'Cost' || (o.Messages ?? []).some((m: Rec) => m.TransportType === 'Peppol'))) as Rec;

	describe('own PDF and attachments, then Download Files', () => {
		it('creates with an own PDF and an xlsx attachment; Download Files returns both byte-identical with names and MIME types, and a UBL whose totals match the order', async () => {
			const pdf = ownPdf();
			const sheet = xlsx();
			const input: INodeExecutionData[] = [
				{
					json: { ref: 'own-files-1' },
					binary: { invoice: binaryOf(pdf, 'Factuur 2024-001.pdf', 'application/pdf'), sheet: binaryOf(sheet, 'timesheet.xlsx', XLSX_MIME) },
				},
			];
			const created = await h.runNode(NODE, createParams({ ownPdf: 'invoice', attachmentProperties: 'sheet' }), input);
			created.assertSuccess();
			const orderId = created.output(created.nodeName)[0].OrderID as number;
			const post = (emu.requests as Rec[]).find((r) => r.method === 'POST' && r.path === '/v1/orders');
			expect(post?.body.OrderPDF).toEqual({ FileName: 'Factuur 2024-001.pdf', FileContent: pdf.toString('base64') });
			expect(post?.body.Attachments).toEqual([{ FileName: 'timesheet.xlsx', FileContent: sheet.toString('base64') }]);

			// The UBL exists once the invoice is sent: it is the file of its Outgoing Peppol message.
			(await h.runNode(NODE, { resource: 'order', operation: 'send', orderIds: String(orderId), options: { checkDelivery: false } })).assertSuccess();
			emu.clearRequests();
			const r = await h.runNode(NODE, download(orderId, { files: ['pdf', 'ubl', 'attachments'] }));
			r.assertSuccess();
			const [item] = r.items(r.nodeName);
			expect(Object.keys(item.binary ?? {})).toEqual(['pdf', 'ubl', 'attachment_1']);
			const { pdf: outPdf, ubl, attachment_1: outSheet } = item.binary as Record<string, IBinaryData>;
			expect(sha256(bytesOf(outPdf))).toBe(sha256(pdf));
			expect(sha256(bytesOf(outSheet))).toBe(sha256(sheet));
			expect(outPdf).toMatchObject({ fileName: 'Factuur 2024-001.pdf', mimeType: 'application/pdf', bytes: pdf.length });
			expect(outSheet).toMatchObject({ fileName: 'timesheet.xlsx', mimeType: XLSX_MIME, bytes: sheet.length });

			const order = emu.store.book(party).get(orderId) as Rec;
			expect(ubl).toMatchObject({ fileName: `${order.OrderNumber}.xml`, mimeType: 'application/xml' });
			const doc = parseXml(bytesOf(ubl).toString('utf8'));
			const totals = doc.Invoice['cac:LegalMonetaryTotal'];
			expect({
				excl: cents(num(totals['cbc:TaxExclusiveAmount'])),
				vat: cents(num(doc.Invoice['cac:TaxTotal']['cbc:TaxAmount'])),
				incl: cents(num(totals['cbc:TaxInclusiveAmount'])),
			}).toEqual({ excl: cents(order.TotalExcl), vat: cents(order.TotalVAT), incl: cents(order.TotalIncl) });
			expect(cents(order.TotalExcl)).toBe(cents(3 * 95.5 + 2 * 12.35));

			// The JSON names every file and its FileID, as the emulator stores them; the original JSON is not an attachment.
			const refs = emu.files.refs(orderId) as Rec;
			const ublId = order.Messages[0].FileID as string;
			expect(refs.Attachments.map((a: Rec) => a.FileName)).toEqual([expect.stringMatching(/\.json$/), 'timesheet.xlsx']);
			expect(item.json).toEqual({
				OrderID: orderId,
				OrderNumber: order.OrderNumber,
				Files: [
					{ Property: 'pdf', Kind: 'pdf', FileID: refs.OrderPDF.FileID, FileName: 'Factuur 2024-001.pdf', MimeType: 'application/pdf', FileSize: pdf.length },
					{ Property: 'ubl', Kind: 'ubl', FileID: ublId, FileName: `${order.OrderNumber}.xml`, MimeType: 'application/xml', FileSize: bytesOf(ubl).length },
					{
						Property: 'attachment_1',
						Kind: 'attachments',
						FileID: refs.Attachments[1].FileID,
						FileName: 'timesheet.xlsx',
						MimeType: XLSX_MIME,
						FileSize: sheet.length,
					},
				],
			});
			expect(fileRequests().map((f) => f.path)).toEqual([refs.OrderPDF.FileID, ublId, refs.Attachments[1].FileID].map((id) => `/v1/files/${id}`));

			// The original JSON on its own when asked for: the create request, file contents left out.
			const json = await h.runNode(NODE, download(orderId, { files: ['json'] }));
			const original = json.items(json.nodeName)[0].binary!.original_json;
			expect(original).toMatchObject({ mimeType: 'application/json', fileName: refs.Attachments[0].FileName });
			expect(JSON.parse(bytesOf(original).toString('utf8'))).toMatchObject({ OrderType: 'Invoice', Customer: { Name: 'ACME NV' } });
			printFigures('own PDF + xlsx attachment through Create and Download Files', {
				'own PDF (bytes, SHA-256 equal)': pdf.length,
				'xlsx (bytes, SHA-256 equal)': sheet.length,
				'UBL totals excl / VAT / incl': `${order.TotalExcl} / ${order.TotalVAT} / ${order.TotalIncl}`,
			});
		});

		it('Create and Send takes the same files, and the generated PDF of an order without one opens', async () => {
			const pdf = ownPdf();
			const r = await h.runNode(NODE, { ...createParams(), operation: 'createAndSend', ownPdf: 'data' }, [
				{ json: {}, binary: { data: binaryOf(pdf, 'mine.pdf', 'application/pdf') } },
			]);
			r.assertSuccess();
			const orderId = r.output(r.nodeName)[0].OrderID as number;
			const got = await h.runNode(NODE, download(orderId, { files: ['pdf'] }));
			expect(sha256(bytesOf(got.items(got.nodeName)[0].binary!.pdf))).toBe(sha256(pdf));

			const plain = await h.runNode(NODE, download(someOrder('Invoice').OrderID, { files: ['pdf'] }));
			const generated = bytesOf(plain.items(plain.nodeName)[0].binary!.pdf);
			expect(readPdf(generated).pages).toBeGreaterThanOrEqual(1);
		});

		it('One Item per File: one item per file, each in binary property "data", paired with its input item', async () => {
			const invoice = invoiceWithUbl();
			const r = await h.runNode(NODE, download('={{ $json.id }}', { files: ['pdf', 'ubl'], options: { oneItemPerFile: true } }), [{ id: invoice.OrderID }]);
			r.assertSuccess();
			const items = r.items(r.nodeName);
			expect(items.map((i) => [i.json.Kind, Object.keys(i.binary ?? {}), i.pairedItem])).toEqual([
				['pdf', ['data'], { item: 0 }],
				['ubl', ['data'], { item: 0 }],
			]);
			expect(items.map((i) => i.binary!.data.fileName)).toEqual([`${invoice.OrderNumber}.pdf`, `${invoice.OrderNumber}.xml`]);
			expect(items[1].json).toMatchObject({
				OrderID: invoice.OrderID,
				OrderNumber: invoice.OrderNumber,
				Property: 'data',
				Kind: 'ubl',
				MimeType: 'application/xml',
			});
		});

		it('network messages of an order sent over Peppol come as message_1 …', async () => {
			const sent = emu.store.listOrders(party).find((o: Rec) => o.IsSent && (o.Messages ?? []).some((m: Rec) => m.TransportType === 'Peppol')) as Rec;
			const r = await h.runNode(NODE, download(sent.OrderID, { files: ['messages'] }));
			r.assertSuccess();
			const [item] = r.items(r.nodeName);
			const names = Object.keys(item.binary ?? {});
			expect(names[0]).toBe('message_1');
			const response = parseXml(bytesOf(item.binary!.message_1).toString('utf8'));
			expect(response.ApplicationResponse['cac:DocumentResponse']['cac:DocumentReference']['cbc:ID']).toBe(sent.OrderNumber);
		});
	});

	describe('an order without a picked file', () => {
		it('fails that item naming what is missing (continueOnFail: an error item, the other items go on)', async () => {
			const offer = someOrder('Offer');
			const invoice = invoiceWithUbl();
			const r = await h.runNode(NODE, download('={{ $json.id }}', { files: ['pdf', 'ubl'] }), [{ id: invoice.OrderID }, { id: offer.OrderID }], {
				onError: 'continueRegularOutput',
			});
			r.assertSuccess();
			const [ok, missing] = r.items(r.nodeName);
			expect(Object.keys(ok.binary ?? {})).toEqual(['pdf', 'ubl']);
			expect(missing.json.error).toBe(`Item 1: order ${offer.OrderID} (${offer.OrderNumber}) has no UBL / XML file`);
			expect(missing.json.description).toMatch(/Allow Missing Files/);
			expect(missing.binary).toBeUndefined();

			const stopped = await h.runNode(NODE, download(offer.OrderID, { files: ['ubl'] }));
			expect(stopped.status).toBe('error');
			expect(stopped.nodeError(stopped.nodeName)).toBeInstanceOf(NodeOperationError);
			expect(stopped.nodeError(stopped.nodeName)?.message).toMatch(/has no UBL \/ XML file/);
		});

		it('with Allow Missing Files the item passes without it, listed in MissingFiles', async () => {
			const offer = someOrder('Offer');
			const r = await h.runNode(NODE, download(offer.OrderID, { files: ['pdf', 'ubl'], options: { allowMissingFiles: true } }));
			r.assertSuccess();
			const [item] = r.items(r.nodeName);
			expect(Object.keys(item.binary ?? {})).toEqual(['pdf']);
			expect(item.json).toMatchObject({ OrderID: offer.OrderID, MissingFiles: ['ubl'], Files: [expect.objectContaining({ Property: 'pdf' })] });
			expect(fileRequests()).toHaveLength(1);
		});
	});

	describe('File › Get, Act for Party, size bound, binary modes', () => {
		it('File › Get: one FileID in, one binary item out, in the field asked for; an unknown FileID is a 404 NodeApiError', async () => {
			const invoice = someOrder('Invoice');
			const refs = emu.files.refs(invoice.OrderID) as Rec;
			const r = await h.runNode(NODE, { resource: 'file', operation: 'get', fileId: refs.Attachments[0].FileID, binaryPropertyName: 'invoiceXml' });
			r.assertSuccess();
			const [item] = r.items(r.nodeName);
			const stored = emu.files.get(refs.Attachments[0].FileID) as Rec;
			expect(sha256(bytesOf(item.binary!.invoiceXml))).toBe(sha256(stored.content));
			expect(item.json).toEqual({
				Property: 'invoiceXml',
				FileID: stored.FileID,
				FileName: stored.FileName,
				MimeType: 'application/xml',
				FileSize: stored.content.length,
			});

			const unknown = await h.runNode(NODE, { resource: 'file', operation: 'get', fileId: '00000000-0000-5000-8000-000000000000' });
			expect(unknown.nodeError(unknown.nodeName)).toBeInstanceOf(NodeApiError);
			expect(unknown.nodeError(unknown.nodeName)?.httpCode).toBe('404');
		});

		it("a registered entity's files are read with its own PartyID (Options › Act for Party); with the master's it is a 401", async () => {
			const entityOrder = invoiceWithUbl('300001');
			const r = await h.runNode(NODE, download(entityOrder.OrderID, { options: { actForParty: '300001' } }));
			r.assertSuccess();
			expect(Object.keys(r.items(r.nodeName)[0].binary ?? {})).toEqual(['pdf', 'ubl']);
			expect(fileRequests().every((f) => f.headers.partyid === '300001')).toBe(true);

			const refs = emu.files.refs(entityOrder.OrderID) as Rec;
			const denied = await h.runNode(NODE, { resource: 'file', operation: 'get', fileId: refs.OrderPDF.FileID });
			expect(denied.nodeError(denied.nodeName)?.httpCode).toBe('401');
		});

		it('a file above Maximum File Size fails the item without being read whole', async () => {
			const invoice = emu.store.addOrder(party, { OrderType: 'Invoice' }) as Rec;
			emu.files.largePdf(invoice.OrderID, 3 * 1024 * 1024);
			const r = await h.runNode(NODE, download(invoice.OrderID, { files: ['pdf'], options: { maxFileSizeMb: 1, maxRetries: 0 } }));
			expect(r.status).toBe('error');
			expect(r.nodeError(r.nodeName)?.message).toMatch(/larger than 1 MB; it was not read further/);
			const ok = await h.runNode(NODE, download(invoice.OrderID, { files: ['pdf'], options: { maxFileSizeMb: 4 } }));
			expect(ok.items(ok.nodeName)[0].binary!.pdf.bytes).toBe(3 * 1024 * 1024);
		});

		it.each([
			['half a body, then the end (truncated)', 'truncated'],
			['the connection dropped mid-body (cut)', 'cut'],
		])('a file answer cut off in transit is read again, as reads are: %s', async (_what, kind) => {
			const invoice = someOrder('Invoice');
			emu.failNext(1, kind as 'cut', { pathPrefix: '/v1/files/' });
			const r = await h.runNode(NODE, download(invoice.OrderID, { files: ['pdf'], options: { retryDelayMs: 1 } }));
			r.assertSuccess();
			expect(fileRequests()).toHaveLength(2);
			const refs = emu.files.refs(invoice.OrderID) as Rec;
			expect(sha256(bytesOf(r.items(r.nodeName)[0].binary!.pdf))).toBe(sha256((emu.files.get(refs.OrderPDF.FileID) as Rec).content));

			// With Read Retries 0 the item fails, saying what happened.
			emu.failNext(1, kind as 'cut', { pathPrefix: '/v1/files/' });
			const failed = await h.runNode(NODE, download(invoice.OrderID, { files: ['pdf'], options: { maxRetries: 0 } }));
			expect(failed.nodeError(failed.nodeName)).toBeInstanceOf(NodeApiError);
			// A body cut short is not JSON; a connection dropped mid-body is a network failure, named as such.
			const said =
				kind === 'cut'
					? 'failed: the connection was reset by the server'
					: 'returned a body that is not valid JSON \\(HTTP 200\\): an answer cut off in transit, or not the file';
			expect(failed.nodeError(failed.nodeName)?.message).toMatch(new RegExp(`^Get file [0-9a-f-]+ ${said}$`));
		});

		it('an own PDF stored without a size is read only up to Maximum File Size, not whole (#33)', async () => {
			const { restore } = await useFilesystemBinaryMode();
			try {
				const invoice = emu.store.addOrder(party, { OrderType: 'Invoice' }) as Rec;
				emu.files.largePdf(invoice.OrderID, 5 * 1024 * 1024);
				const got = await h.runNode(NODE, download(invoice.OrderID, { files: ['pdf'], options: { maxFileSizeMb: 8 } }));
				const [item] = got.items(got.nodeName);
				expect(item.binary!.pdf.id).toMatch(/^filesystem-v2:/);
				// As a file another node stored without its size.
				const input = [{ json: {}, binary: { invoice: { ...item.binary!.pdf, bytes: undefined } as unknown as IBinaryData } }];
				emu.clearRequests();
				const r = await h.runNode(NODE, createParams({ ownPdf: 'invoice', options: { maxFileSizeMb: 1 } }), input);
				expect(r.status).toBe('error');
				expect(r.nodeError(r.nodeName)?.message).toBe(
					'Item 0: "Own PDF" (binary property "invoice") takes the own PDF and attachments above Maximum File Size (1 MB); it was not read further',
				);
				expect(emu.requests).toEqual([]);
			} finally {
				restore();
			}
		});

		it("in n8n's filesystem binary mode the bytes go to disk: the item holds a reference, byte-identical to the emulator's file", async () => {
			const { service, restore } = await useFilesystemBinaryMode();
			try {
				const invoice = someOrder('Invoice');
				const r = await h.runNode(NODE, download(invoice.OrderID, { files: ['pdf'] }));
				r.assertSuccess();
				const pdf = r.items(r.nodeName)[0].binary!.pdf;
				expect(pdf.data).toBe('filesystem-v2');
				expect(pdf.id).toMatch(/^filesystem-v2:/);
				const refs = emu.files.refs(invoice.OrderID) as Rec;
				expect(sha256(await service.getAsBuffer(pdf))).toBe(sha256((emu.files.get(refs.OrderPDF.FileID) as Rec).content));
			} finally {
				// Back to n8n's in-memory mode for the other tests of this process.
				restore();
			}
		});
	});

	describe('bad inputs are refused before any request (nock sees none)', () => {
		const HOST = 'https://files-refused.nock.test';
		let hits: string[];

		beforeAll(() => {
			nock.disableNetConnect();
			nock.enableNetConnect('127.0.0.1');
		});
		beforeEach(() => {
			hits = [];
			const scope = nock(HOST).persist();
			for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
				scope.intercept(/.*/, method).reply(function (uri) {
					hits.push(`${method} ${uri}`);
					return [500, { errors: [{ Code: 'Unexpected', Description: 'no request was expected' }] }];
				});
			}
		});
		afterEach(() => nock.cleanAll());

		const runOffline = async (parameters: IDataObject, input?: Array<IDataObject | INodeExecutionData>) => {
			const r = await h.runNode(NODE, parameters, input, { runOptions: { credentialsOverride: { environment: 'custom', baseUrl: HOST } } });
			return { r, error: r.nodeError(r.nodeName) };
		};
		const pdfItem = (extra: Record<string, IBinaryData> = {}): INodeExecutionData => ({
			json: {},
			binary: { invoice: binaryOf(ownPdf(), 'invoice.pdf', 'application/pdf'), ...extra },
		});

		it.each([
			[
				'a missing binary property',
				{ ownPdf: 'invoice' },
				[{ json: {}, binary: { data: binaryOf(ownPdf(), 'x.pdf', 'application/pdf') } }],
				/^Item 0: "Own PDF" names binary property "invoice", which the item does not have$/,
			],
			[
				'an empty file',
				{ ownPdf: 'invoice' },
				[{ json: {}, binary: { invoice: binaryOf(Buffer.alloc(0), 'empty.pdf', 'application/pdf') } }],
				/^Item 0: "Own PDF" \(binary property "invoice"\) is empty$/,
			],
			[
				'an own PDF that is not a PDF',
				{ ownPdf: 'invoice' },
				[{ json: {}, binary: { invoice: binaryOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), 'scan.pdf', 'application/pdf') } }],
				/^Item 0: "Own PDF" \(binary property "invoice"\) is not a PDF: its content does not start with %PDF-$/,
			],
			[
				'an attachment of a type the service does not take',
				{ attachmentProperties: 'doc' },
				[{ json: {}, binary: { doc: binaryOf(Buffer.from('hello'), 'terms.docx', 'application/msword') } }],
				/^Item 0: "Attachments" \(binary property "doc"\) is the file "terms\.docx", a type the service does not take as an attachment$/,
			],
			[
				'files adding up to more than Maximum File Size',
				{ ownPdf: 'invoice', attachmentProperties: 'big', options: { maxFileSizeMb: 1 } },
				[pdfItem({ big: { ...binaryOf(Buffer.alloc(1024 * 1024, 7), 'big.csv', 'text/csv'), bytes: undefined } as unknown as IBinaryData })],
				/^Item 0: the own PDF and attachments add up to 1\.0 MB or more, above Maximum File Size \(1 MB\)$/,
			],
		])('Create: %s', async (_what, parameters, input, message) => {
			const { r, error } = await runOffline(createParams(parameters as IDataObject), input as INodeExecutionData[]);
			expect(r.status).toBe('error');
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toMatch(message);
			expect(hits).toEqual([]);
		});

		it('Create and Create and Send: a bad file on the second item sends nothing for the first either', async () => {
			const input = [pdfItem(), { json: {}, binary: { other: binaryOf(ownPdf(), 'x.pdf', 'application/pdf') } }];
			for (const operation of ['create', 'createAndSend']) {
				const { r, error } = await runOffline({ ...createParams(), operation, ownPdf: 'invoice', transportType: 'Email' }, input);
				expect(r.status).toBe('error');
				expect(error?.message).toBe('Item 1: "Own PDF" names binary property "invoice", which the item does not have');
				expect(error?.description).toBe("The item's binary properties: other.");
			}
			expect(hits).toEqual([]);
		});

		it.each([
			[
				'File › Get with a FileID that is a path',
				{ resource: 'file', operation: 'get', fileId: '../orders/1' },
				/^Item 0: "File ID" \.\.\/orders\/1 is not a FileID$/,
			],
			['File › Get without a FileID', { resource: 'file', operation: 'get', fileId: '  ' }, /^Item 0: "File ID" is empty$/],
			['Download Files with no file picked', download(123, { files: [] }), /^Item 0: "Files" is empty$/],
			[
				'Download Files with an unknown kind',
				download(123, { files: '={{ ["pdf", "zip"] }}' }),
				/^Item 0: "Files" has "zip", which is not one of pdf, ubl, attachments, json, messages$/,
			],
			['Download Files with an OrderID that is not one', download('={{ "12x" }}'), /^Item 0: "Order" 12x is not an OrderID$/],
			[
				'Download Files with Maximum File Size 0',
				download(123, { options: { maxFileSizeMb: 0 } }),
				/^Item 0: "Maximum File Size \(MB\)" 0 is not a size from 1 to 256 MB$/,
			],
		])('%s', async (_what, parameters, message) => {
			const { r, error } = await runOffline(parameters as IDataObject);
			expect(r.status).toBe('error');
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toMatch(message);
			expect(hits).toEqual([]);
		});

		it("the published sent invoice: its UBL is read from its Outgoing message's FileID, the JSON is not another attachment; a hostile file answer's name and MIME type are made safe (#32, #33)", async () => {
			const order = publishedSentInvoice();
			const pdf = ownPdf();
			const ubl = Buffer.from('<?xml version="1.0"?><Invoice/>');
			nock.cleanAll();
			nock(HOST)
				.get('/v1/orders/2619898')
				.reply(200, order)
				.get('/v1/files/f23a5e6a-1319-4faf-8b28-7a9f925832ab')
				.reply(200, {
					FileID: 'f23a5e6a-1319-4faf-8b28-7a9f925832ab',
					FileName: `..\\..\\x\r\n\u202Efdp.${'Leverancier '.repeat(30)}.pdf`,
					MimeType: 'application/pdf\r\nX-Injected: 1',
					FileContent: pdf.toString('base64'),
				})
				.get('/v1/files/4809a574-3887-411b-9792-66e0be48d99c')
				.reply(200, {
					FileID: '4809A574-3887-411B-9792-66E0BE48D99C',
					FileName: '227010068_Simple2.xml',
					MimeType: 'application/xml',
					FileContent: ubl.toString('base64'),
				});
			const { r } = await runOffline(
				download(2619898, { files: ['pdf', 'ubl', 'attachments'], options: { singleOrderPath: 'order', allowMissingFiles: true } }),
			);
			r.assertSuccess();
			const [item] = r.items(r.nodeName);
			expect(nock.pendingMocks()).toEqual([]);
			expect(item.json.MissingFiles).toEqual(['attachments']);
			expect((item.json.Files as Rec[]).map((f) => [f.Property, f.FileID])).toEqual([
				['pdf', 'f23a5e6a-1319-4faf-8b28-7a9f925832ab'],
				['ubl', '4809a574-3887-411b-9792-66e0be48d99c'],
			]);
			const name = item.binary!.pdf.fileName!;
			expect(name).toMatch(/^xfdp\.(Leverancier )+.*\.pdf$/);
			expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
			expect(item.binary!.pdf.mimeType).toBe('application/pdf');
			expect(sha256(bytesOf(item.binary!.ubl))).toBe(sha256(ubl));
		});

		it('a file answer naming another FileID than the one asked for is an error, not that file (#33)', async () => {
			nock.cleanAll();
			nock(HOST)
				.get('/v1/files/3f2b8c1e-7d4a-4b2e-9c1f-0a6d5e4b3c2a')
				.reply(200, {
					FileID: '11111111-2222-4333-8444-555555555555',
					FileName: 'other.pdf',
					MimeType: 'application/pdf',
					FileContent: ownPdf().toString('base64'),
				});
			const { error } = await runOffline({ resource: 'file', operation: 'get', fileId: '3f2b8c1e-7d4a-4b2e-9c1f-0a6d5e4b3c2a' });
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error?.message).toBe(
				'Get file 3f2b8c1e-7d4a-4b2e-9c1f-0a6d5e4b3c2a: the answer is the file "11111111-2222-4333-8444-555555555555", not the one asked for',
			);
		});

		it('an order answer naming a FileID that is not safe in a URL reads no file', async () => {
			const order = { OrderID: 5, OrderNumber: 'X-5', OrderPDF: { FileID: '../../v1/orders', FileName: 'x.pdf' }, Attachments: [] };
			nock.cleanAll();
			nock(HOST).get('/v1/orders/5').reply(200, order);
			const { error } = await runOffline(download(5, { files: ['pdf'], options: { singleOrderPath: 'order' } }));
			expect(error?.message).toMatch(/^Item 0: order 5 Main PDF has a FileID "\.\.\/\.\.\/v1\/orders" that is not a FileID$/);
			expect(nock.pendingMocks()).toEqual([]);
		});
	});

	describe('Order Trigger › Include Files', () => {
		const trigger = (parameters: IDataObject = {}) =>
			h.poller({
				type: 'accessPointOrderTrigger',
				parameters: { event: 'newOrder', orderType: 'Invoice', direction: '', includeFiles: ['pdf', 'ubl'], options: { maxRetries: 0 }, ...parameters },
			});

		it('each new order comes with its PDF and UBL; with On File Error › Fail a failed file read fails the poll and the next poll emits the same orders', async () => {
			const poller = trigger({ direction: 'Cost', options: { maxRetries: 0, onFileError: 'fail' } });
			expect((await poller.poll()).items).toBeNull(); // activation: the baseline
			emu.clock.advance(60_000);
			// Purchases: each arrived as a UBL, which it keeps as an .xml attachment.
			const first = emu.store.addOrder(party, { OrderType: 'Invoice', OrderDirection: 'Cost' }) as Rec;
			const second = emu.store.addOrder(party, { OrderType: 'Invoice', OrderDirection: 'Cost' }) as Rec;

			emu.failNext(1, 500, { pathPrefix: '/v1/files/' });
			await expect(poller.poll()).rejects.toThrow(/Get file .* failed with HTTP 500/);

			const polled = await poller.poll();
			const items = polled.data![0];
			expect(items.map((i) => i.json.OrderID)).toEqual([first.OrderID, second.OrderID]);
			for (const item of items) {
				expect(Object.keys(item.binary ?? {})).toEqual(['pdf', 'ubl']);
				const refs = emu.files.refs(item.json.OrderID as number) as Rec;
				expect(sha256(bytesOf(item.binary!.pdf))).toBe(sha256((emu.files.get(refs.OrderPDF.FileID) as Rec).content));
				expect(sha256(bytesOf(item.binary!.ubl))).toBe(sha256((emu.files.get(refs.Attachments[0].FileID) as Rec).content));
				expect((item.json.Files as Rec[]).map((f) => [f.Property, f.FileID])).toEqual([
					['pdf', refs.OrderPDF.FileID],
					['ubl', refs.Attachments[0].FileID],
				]);
			}
			expect((await poller.poll()).items).toBeNull();
		});

		it('an order without a picked file is emitted without it (listed in MissingFiles), never stopping the trigger', async () => {
			const poller = trigger({ orderType: 'Offer' });
			expect((await poller.poll()).items).toBeNull();
			emu.clock.advance(60_000);
			const offer = emu.store.addOrder(party, { OrderType: 'Offer' }) as Rec;
			const polled = await poller.poll();
			expect(polled.data![0]).toEqual([
				expect.objectContaining({
					json: expect.objectContaining({ OrderID: offer.OrderID, MissingFiles: ['ubl'] }),
					binary: { pdf: expect.objectContaining({ mimeType: 'application/pdf' }) },
				}),
			]);
		});

		it.each([
			['over Maximum File Size', (id: number) => emu.files.largePdf(id, 3 * 1024 * 1024), /above Maximum File Size|larger than 1 MB/],
			['removed at the service (404)', (id: number) => emu.files.drop((emu.files.refs(id) as Rec).OrderPDF.FileID), /HTTP 404/],
			['broken base64', (id: number) => emu.files.corrupt((emu.files.refs(id) as Rec).OrderPDF.FileID), /not base64/],
		])("one unreadable file (%s) never stalls the trigger: 4 new invoices, the 2nd one's PDF bad, three polls (#33)", async (_what, spoil, reason) => {
			const poller = trigger({ direction: 'Cost', options: { maxRetries: 0, maxFileSizeMb: 1 } });
			expect((await poller.poll()).items).toBeNull(); // activation: the baseline
			emu.clock.advance(60_000);
			const added = [1, 2, 3, 4].map(() => emu.store.addOrder(party, { OrderType: 'Invoice', OrderDirection: 'Cost' }) as Rec);
			const bad = added[1].OrderID as number;
			spoil(bad);

			const emitted: INodeExecutionData[] = [];
			for (let poll = 1; poll <= 3; poll++) {
				const polled = await poller.poll();
				emitted.push(...(polled.data?.[0] ?? []));
				if (poll === 2) {
					emu.clock.advance(60_000);
					added.push(emu.store.addOrder(party, { OrderType: 'Invoice', OrderDirection: 'Cost' }) as Rec);
				}
			}
			// Every order once, in order, the one after the bad file too.
			expect(emitted.map((i) => i.json.OrderID)).toEqual(added.map((o) => o.OrderID));
			for (const item of emitted) {
				const isBad = item.json.OrderID === bad;
				expect(Object.keys(item.binary ?? {})).toEqual(isBad ? ['ubl'] : ['pdf', 'ubl']);
				if (!isBad) expect(item.json.FileErrors).toBeUndefined();
			}
			const badItem = emitted.find((i) => i.json.OrderID === bad)!;
			expect(badItem.json.FileErrors).toEqual([{ file: 'pdf', fileId: (emu.files.refs(bad) as Rec).OrderPDF.FileID, reason: expect.stringMatching(reason) }]);
			expect((badItem.json.Files as Rec[]).map((f) => f.Property)).toEqual(['ubl']);
		});

		it('Fetch Test Event carries the files too', async () => {
			const polled = await trigger({ direction: 'Cost' }).poll('manual');
			expect(polled.data![0]).toHaveLength(1);
			expect(Object.keys(polled.data![0][0].binary ?? {})).toEqual(['pdf', 'ubl']);
		});
	});
});
