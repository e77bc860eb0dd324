/**
 * AccessPoint Peppol Inbox (List, Get Document, Confirm, Refuse) and Order › Send UBL Document:
 * the exact requests with nock (path, method, body, headers), answers in the published shapes,
 * and bad input refused before any request, naming the field and the item.
 */
import nock from 'nock';
import type { IBinaryData, IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import { bytes, IMR_PAID_SBDH, IMR_REJECTED, INVOICE_SBDH } from './helpers/peppolDocuments';

const BASE = 'https://api.example.test';
const INBOX = 'accessPointInbox';
const FILE_ID = 'cc41ebf6-974c-4f32-8ef2-04d78836d999';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The service's published example: one supplier invoice, one credit note, one IMR. */
const PUBLISHED = {
	InboxItems: [
		{
			InboxItemID: 69791,
			SenderPeppolID: '0208:0759529202',
			PeppolDocumentType:
				'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
			ReceiverPeppolID: '9925:BE0437295999',
			ReceiverCompanyID: 'BE0437295999',
			CreationDate: '2025-04-07T13:30:32.1327398',
			PeppolFileID: 'b155ec2e-a74c-4972-928b-f87d6056f999',
		},
		{
			InboxItemID: 69848,
			SenderPeppolID: '0208:0759529202',
			PeppolDocumentType:
				'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
			ReceiverPeppolID: '9925:BE0437295999',
			ReceiverCompanyID: 'BE0437295999',
			CreationDate: '2025-04-08T09:12:02.5521877',
			PeppolFileID: '0e1f7c33-1f6a-4f1c-9d7e-1b1d2c3e4f5a',
		},
		{
			InboxItemID: 69873,
			SenderPeppolID: '9925:BE0759529202',
			PeppolDocumentType: 'IMR',
			ReceiverPeppolID: '0208:0437295202',
			ReceiverCompanyID: 'BE0437295202',
			CreationDate: '2025-04-09T09:02:10.0168981',
			PeppolFileID: FILE_ID,
		},
	],
};

const fileAnswer = (text: string, name = 'imr.xml', id = FILE_ID) => ({
	FileID: id,
	FileName: name,
	MimeType: 'application/xml',
	FileContent: Buffer.from(text, 'utf8').toString('base64'),
});
const binaryOf = (content: Buffer, fileName: string): IBinaryData => ({
	data: content.toString('base64'),
	mimeType: 'application/xml',
	fileName,
	fileExtension: 'xml',
	bytes: content.length,
});
const bytesOf = (binary: IBinaryData) => Buffer.from(binary.data, 'base64').toString('utf8');

describe('AccessPoint Peppol Inbox and Send UBL Document: request shapes (nock)', () => {
	let h: Harness;

	async function run(
		type: string,
		parameters: IDataObject,
		input?: Array<IDataObject | { json: IDataObject; binary?: Record<string, IBinaryData> }>,
		nodeOptions: IDataObject = {},
	) {
		const result = await h.runNode(type, parameters, input, nodeOptions);
		const name = result.nodeName as string;
		return { result, name, items: result.output(name) as Rec[], full: result.items(name), error: result.nodeError(name) };
	}

	beforeAll(async () => {
		h = await createHarness({ emulator: false, credentials: { apiKey: 'secret-key-1', partyId: '100001', environment: 'custom', baseUrl: BASE } });
		nock.disableNetConnect();
	});
	afterEach(() => nock.cleanAll());
	afterAll(async () => {
		nock.enableNetConnect();
		await h?.close();
	});

	describe('List', () => {
		it('GET /v1/peppol/inbox with the credential headers; every item with its DocumentKind', async () => {
			const scope = nock(BASE).get('/v1/peppol/inbox').matchHeader('apikey', 'secret-key-1').matchHeader('partyID', '100001').reply(200, PUBLISHED);
			const { items, result } = await run(INBOX, { operation: 'list' });
			expect(result.status).toBe('success');
			expect(scope.isDone()).toBe(true);
			expect(items.map((i) => [i.InboxItemID, i.DocumentKind])).toEqual([
				[69791, 'Invoice'],
				[69848, 'CreditNote'],
				[69873, 'IMR'],
			]);
			expect(items[0]).toEqual({ ...PUBLISHED.InboxItems[0], DocumentKind: 'Invoice' });
		});

		it('only invoices and credit notes, or only responses (filtered here), acting for another party', async () => {
			nock(BASE).get('/v1/peppol/inbox').matchHeader('partyID', '300001').twice().reply(200, PUBLISHED);
			const invoices = await run(INBOX, { operation: 'list', documents: 'invoices', options: { actForParty: '300001' } });
			expect(invoices.items.map((i) => i.InboxItemID)).toEqual([69791, 69848]);
			const responses = await run(INBOX, { operation: 'list', documents: 'responses', options: { actForParty: '300001' } });
			expect(responses.items.map((i) => i.InboxItemID)).toEqual([69873]);
		});

		it('an empty inbox gives no items; entries without an InboxItemID are left out; a non-list answer fails', async () => {
			nock(BASE).get('/v1/peppol/inbox').reply(200, { InboxItems: [] });
			expect((await run(INBOX, { operation: 'list' })).items).toEqual([]);
			nock(BASE)
				.get('/v1/peppol/inbox')
				.reply(200, { InboxItems: [null, { PeppolFileID: 'x' }, 'text', { InboxItemID: 5, PeppolDocumentType: 'MLR' }] });
			const notice = 'Not the whole list: 3 entries are not an inbox item (empty, or no usable InboxItemID), left out.';
			expect((await run(INBOX, { operation: 'list' })).items).toEqual([
				{ InboxItemID: 5, PeppolDocumentType: 'MLR', DocumentKind: 'MLR', InboxNotice: notice },
			]);
			// More than 100 entries: the first 100 are output, and each says the list is not whole; none left: an item of its own.
			const many = Array.from({ length: 150 }, (_, i) => ({ InboxItemID: i + 1, PeppolDocumentType: 'MLR' }));
			nock(BASE).get('/v1/peppol/inbox').reply(200, { InboxItems: many });
			const cut = (await run(INBOX, { operation: 'list' })).items;
			expect(cut).toHaveLength(100);
			expect(new Set(cut.map((i) => i.InboxNotice))).toEqual(
				new Set(['Not the whole list: the answer listed 150 entries (the inbox shows 10); only the first 100 were read.']),
			);
			nock(BASE)
				.get('/v1/peppol/inbox')
				.reply(200, { InboxItems: [null] });
			expect((await run(INBOX, { operation: 'list', documents: 'invoices' })).items).toEqual([
				{ InboxNotice: 'Not the whole list: 1 entry is not an inbox item (empty, or no usable InboxItemID), left out.' },
			]);
			nock(BASE).get('/v1/peppol/inbox').reply(200, { InboxItems: 'none' });
			const broken = await run(INBOX, { operation: 'list', options: { maxRetries: 0 } });
			expect(broken.error).toBeInstanceOf(NodeApiError);
			expect(broken.error?.message).toBe('List the Peppol inbox: the answer has no InboxItems list');
		});
	});

	describe('Get Document', () => {
		it('GET /v1/files/{PeppolFileID}: the IMR without its envelope as binary, its answer in JSON, the item fields passed on', async () => {
			const scope = nock(BASE).get(`/v1/files/${FILE_ID}`).reply(200, fileAnswer(IMR_PAID_SBDH));
			const { full, result } = await run(INBOX, { operation: 'getDocument' }, [PUBLISHED.InboxItems[2]]);
			expect(result.status).toBe('success');
			expect(scope.isDone()).toBe(true);
			const [item] = full;
			expect(item.json).toMatchObject({
				...PUBLISHED.InboxItems[2],
				DocumentKind: 'IMR',
				Envelope: 'removed',
				Response: { Type: 'IMR', Code: 'PD', Meaning: 'Paid', InvoiceNumber: 'INV-2024-0007' },
				File: { Property: 'data', FileID: FILE_ID, FileName: 'imr.xml', MimeType: 'application/xml' },
			});
			const xml = bytesOf(item.binary!.data);
			expect(xml).not.toContain('StandardBusinessDocument');
			expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<ApplicationResponse')).toBe(true);
			expect((item.json.File as Rec).FileSize).toBe(Buffer.byteLength(xml));
			expect(item.pairedItem).toEqual({ item: 0 });
		});

		it('Keep Peppol Envelope hands on the file as it came; another field name; a mapped file ID', async () => {
			nock(BASE).get(`/v1/files/${FILE_ID}`).reply(200, fileAnswer(INVOICE_SBDH, 'inv.xml'));
			const { full } = await run(INBOX, { operation: 'getDocument', peppolFileId: FILE_ID, binaryPropertyName: 'ubl', options: { keepEnvelope: true } }, [{}]);
			expect(full[0].json).toMatchObject({
				DocumentKind: 'Invoice',
				Envelope: 'kept',
				Invoice: { Number: 'SUP-00017', SupplierName: 'Office Supplies NV', PayableAmount: '59.29' },
			});
			expect(bytesOf(full[0].binary!.ubl)).toBe(INVOICE_SBDH);
		});

		it('a file that is not XML is handed on as it came, with DocumentProblem', async () => {
			nock(BASE)
				.get(`/v1/files/${FILE_ID}`)
				.reply(200, { FileID: FILE_ID, FileName: 'x.pdf', MimeType: 'application/pdf', FileContent: Buffer.from('%PDF-1.4 \u00e9').toString('base64') });
			const { full } = await run(INBOX, { operation: 'getDocument' }, [PUBLISHED.InboxItems[2]]);
			expect(full[0].json).toMatchObject({
				DocumentKind: 'IMR',
				DocumentProblem: 'The document is not well-formed XML: text before the root element (line 1, column 1); it is passed on as it came.',
			});
			expect(full[0].binary!.data.mimeType).toBe('application/pdf');
		});
	});

	describe('Confirm and Refuse', () => {
		it('Confirm: POST …/{InboxItemID}/confirm without a body; the item fields go on with Confirmed', async () => {
			const scope = nock(BASE)
				.post('/v1/peppol/inbox/69873/confirm', (body) => body === '' || body === undefined || Object.keys(body).length === 0)
				.matchHeader('partyID', '100001')
				.reply(200, 'OK', { 'Content-Type': 'text/plain' });
			const { items, result } = await run(INBOX, { operation: 'confirm' }, [{ ...PUBLISHED.InboxItems[2], Response: { Code: 'RE' } }]);
			expect(result.status).toBe('success');
			expect(scope.isDone()).toBe(true);
			expect(items).toEqual([{ ...PUBLISHED.InboxItems[2], Confirmed: true }]);
		});

		it('Refuse: POST …/refuse {RefusalReason}, the code chosen (default OTH)', async () => {
			const scope = nock(BASE)
				.post('/v1/peppol/inbox/69791/refuse', { RefusalReason: 'PRI' })
				.reply(200, {})
				.post('/v1/peppol/inbox/7/refuse', { RefusalReason: 'OTH' })
				.reply(200, {});
			const first = await run(INBOX, { operation: 'refuse', refusalReason: 'PRI' }, [PUBLISHED.InboxItems[0]]);
			expect(first.items).toEqual([{ ...PUBLISHED.InboxItems[0], Refused: true, RefusalReason: 'PRI' }]);
			const second = await run(INBOX, { operation: 'refuse', inboxItemId: '7' }, [{}]);
			expect(second.items).toEqual([{ InboxItemID: 7, Refused: true, RefusalReason: 'OTH' }]);
			expect(scope.isDone()).toBe(true);
		});

		it("the service's 400 is a NodeApiError with its description; with Continue, an error item", async () => {
			const answer = { errors: [{ Code: 'GenericError', Description: 'Inbox item 69873 was already confirmed' }] };
			nock(BASE).post('/v1/peppol/inbox/69873/confirm').twice().reply(400, answer);
			const failed = await run(INBOX, { operation: 'confirm' }, [PUBLISHED.InboxItems[2]]);
			expect(failed.error).toBeInstanceOf(NodeApiError);
			expect((failed.error as unknown as NodeApiError).httpCode).toBe('400');
			expect(failed.error?.message).toContain('Confirm inbox item 69873');
			const continued = await run(INBOX, { operation: 'confirm' }, [PUBLISHED.InboxItems[2]], { onError: 'continueRegularOutput' });
			expect(continued.items).toEqual([expect.objectContaining({ httpCode: '400', code: 'GenericError' })]);
		});
	});

	describe('bad input is refused before any request, naming field and item', () => {
		it.each([
			[
				'an Inbox Item ID that is not a number',
				{ operation: 'confirm', inboxItemId: 'abc' },
				'Item 0: "Inbox Item ID" abc is not a valid InboxItemID (a positive whole number)',
			],
			[
				'an Inbox Item ID mapped from an object',
				{ operation: 'refuse', inboxItemId: '={{ { a: 1 } }}' },
				'Item 0: "Inbox Item ID" {"a":1} is an object, not a InboxItemID',
			],
			[
				'a Refusal Reason no code list has',
				{ operation: 'refuse', inboxItemId: '5', refusalReason: '={{ "too expensive" }}' },
				'Item 0: "Refusal Reason" too expensive is not one of DEL, FIN',
			],
			['a Peppol File ID with a slash', { operation: 'getDocument', peppolFileId: '../v1/orders' }, 'Item 0: "Peppol File ID" ../v1/orders is not a FileID'],
			['an empty Peppol File ID (no item to map from)', { operation: 'getDocument' }, 'Item 0: "Peppol File ID" is empty'],
			[
				'a binary field name with a space',
				{ operation: 'getDocument', peppolFileId: FILE_ID, binaryPropertyName: 'my file' },
				'Item 0: "Put Output File in Field" my file is not a binary field name',
			],
			[
				'a Documents choice from an expression',
				{ operation: 'list', documents: '={{ "some" }}' },
				'Item 0: "Documents" some is not one of all, invoices, responses',
			],
		])('%s', async (_what, parameters, message) => {
			const { error } = await run(INBOX, parameters, [{}]);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toContain(message);
			expect(nock.pendingMocks()).toEqual([]);
		});
	});

	describe('Peppol Inbox Trigger', () => {
		const item = (id: number) => ({ ...PUBLISHED.InboxItems[2], InboxItemID: id, PeppolFileID: `0000${id}-974c-4f32-8ef2-04d78836d999` });
		const files = (ids: number[]) => {
			const scope = nock(BASE);
			for (const id of ids) scope.get(`/v1/files/${item(id).PeppolFileID}`).reply(200, fileAnswer(IMR_REJECTED, 'imr.xml', item(id).PeppolFileID));
			return scope;
		};

		it('the list, one file read per new item (at most 20 a poll), confirms at the next poll, a full list read again after them', async () => {
			const all = Array.from({ length: 30 }, (_, i) => 70000 + i);
			const poller = h.poller({ type: 'accessPointInboxTrigger', parameters: { confirmAfterEmitting: true, options: { maxRetries: 0 } } });
			// A server listing more than the 10 it documents: 20 are read and emitted, the rest next time.
			const first = nock(BASE)
				.get('/v1/peppol/inbox')
				.matchHeader('partyID', '100001')
				.reply(200, { InboxItems: all.map(item) });
			const firstFiles = files(all.slice(0, 20));
			expect((await poller.poll()).items?.map((i) => i.InboxItemID)).toEqual(all.slice(0, 20));
			expect(first.isDone() && firstFiles.isDone()).toBe(true);

			const confirms = nock(BASE);
			for (const id of all.slice(0, 20)) confirms.post(`/v1/peppol/inbox/${id}/confirm`).reply(200, {});
			const lists = nock(BASE)
				.get('/v1/peppol/inbox')
				.reply(200, { InboxItems: all.map(item) })
				.get('/v1/peppol/inbox')
				.reply(200, { InboxItems: all.slice(20).map(item) });
			const secondFiles = files(all.slice(20));
			const second = await poller.poll();
			expect(second.items?.map((i) => i.InboxItemID)).toEqual(all.slice(20));
			expect(second.items?.[0]).toMatchObject({ DocumentKind: 'IMR', Response: { Code: 'RE', InvoiceNumber: 'INV-2024-0042' } });
			expect(confirms.isDone() && lists.isDone() && secondFiles.isDone()).toBe(true);

			const last = nock(BASE)
				.get('/v1/peppol/inbox')
				.reply(200, { InboxItems: all.slice(20).map(item) });
			for (const id of all.slice(20)) last.post(`/v1/peppol/inbox/${id}/confirm`).reply(200, {});
			last.get('/v1/peppol/inbox').reply(200, { InboxItems: [] });
			expect((await poller.poll()).items).toBeNull();
			expect(last.isDone()).toBe(true);
			expect(poller.nodeStaticData.inboxState).toMatchObject({ toConfirm: [] });
		});
	});

	describe('Order › Send UBL Document', () => {
		const ORDER = 'accessPointOrder';
		const invoice = (() => {
			const start = INVOICE_SBDH.indexOf('<Invoice ');
			return `<?xml version="1.0" encoding="UTF-8"?>\n${INVOICE_SBDH.slice(start, INVOICE_SBDH.indexOf('</Invoice>') + 10)}`;
		})();
		const withFile = (content: string, property = 'data') => [{ json: {}, binary: { [property]: binaryOf(bytes(content), 'invoice.xml') } }];

		it('POST /v1/peppol/sendxml {XML}: the document as text; the InboxItemID answered (bare or in an object)', async () => {
			const scope = nock(BASE)
				.post('/v1/peppol/sendxml', { XML: invoice })
				.matchHeader('Content-Type', /application\/json/)
				.reply(200, '70001', { 'Content-Type': 'application/json' })
				.post('/v1/peppol/sendxml', { XML: invoice })
				.reply(200, { InboxItemID: 70002 });
			const first = await run(ORDER, { resource: 'order', operation: 'sendUbl' }, withFile(invoice));
			expect(first.items).toEqual([{ Sent: true, DocumentKind: 'Invoice', DocumentNumber: 'SUP-00017', InboxItemID: 70001 }]);
			const second = await run(ORDER, { resource: 'order', operation: 'sendUbl' }, withFile(invoice));
			expect(second.items[0].InboxItemID).toBe(70002);
			expect(scope.isDone()).toBe(true);
		});

		it('the path can be overridden (still on the Base URL); another binary field', async () => {
			const scope = nock(BASE).post('/v1/peppol/sendXML', { XML: invoice }).reply(200, 'OK', { 'Content-Type': 'text/plain' });
			const { items } = await run(
				ORDER,
				{ resource: 'order', operation: 'sendUbl', binaryPropertyName: 'ubl', ublOptions: { sendPath: '/v1/peppol/sendXML' } },
				withFile(invoice, 'ubl'),
			);
			expect(items).toEqual([{ Sent: true, DocumentKind: 'Invoice', DocumentNumber: 'SUP-00017', Answer: 'OK' }]);
			expect(scope.isDone()).toBe(true);
		});

		it.each([
			['no binary field', {}, [{}], 'Item 0: "Input Binary Field" data is not a binary field of this item'],
			['a document in its envelope', {}, withFile(INVOICE_SBDH), 'Item 0: "Input Binary Field" data holds a file that is wrapped in a Peppol envelope (SBDH)'],
			['an IMR', {}, withFile(IMR_REJECTED), 'holds a file that has the root element ApplicationResponse'],
			['XML that is not well-formed', {}, withFile(invoice.replace('</cbc:ID>', '')), 'holds a file that is not well-formed XML'],
			[
				'a file over the size limit',
				{ ublOptions: { maxSizeMb: 1 } },
				withFile(invoice + ' '.repeat(1024 * 1024)),
				'holds 1.0 MB, above Maximum Document Size',
			],
			[
				'a path to another host',
				{ ublOptions: { sendPath: 'https://evil.example/v1/x' } },
				withFile(invoice),
				'Item 0: "Send Path" https://evil.example/v1/x is not an API path',
			],
		])('%s is refused before sending', async (_what, extra, input, message) => {
			const { error } = await run(ORDER, { resource: 'order', operation: 'sendUbl', ...extra }, input as never);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toContain(message);
		});

		it("the service's refusal (a Peppol rule) is a NodeApiError with its description", async () => {
			nock(BASE)
				.post('/v1/peppol/sendxml')
				.reply(400, { errors: [{ Code: 'GenericError', Description: '[BR-CO-15] Invoice total amount with VAT = ...' }] });
			const { error } = await run(ORDER, { resource: 'order', operation: 'sendUbl' }, withFile(invoice));
			expect(error).toBeInstanceOf(NodeApiError);
			expect((error as unknown as NodeApiError).httpCode).toBe('400');
			expect(JSON.stringify(error)).toContain('BR-CO-15');
		});
	});
});
