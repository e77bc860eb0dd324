/**
 * The emulator's Peppol inbox (emulator/inbox.js, emulator/routes/inbox.js): the 10 oldest items,
 * confirm and refuse, documents in their SBDH envelope, responses of the delivery flow arriving
 * as IMR/MLR items, the control routes, and POST /v1/peppol/sendxml.
 */
import { readDocument } from '../../nodes/shared/domain/ubl';
import { buildOrder } from '../../emulator/model';
import { renderUbl } from '../../emulator/documents';
import { parseXml } from './documentChecks';
import { Emu, call, get, orderBody, post, start } from './helpers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { allowContractViolations } = require('../harness/contract');

const DEMO_ENTITY = '300001';

describe('emulator: Peppol inbox', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 20 });
	});
	afterAll(() => emu.close());

	const list = async (partyId?: string, query = '') => {
		const r = await get(emu, `/v1/peppol/inbox${query}`, { partyId });
		expect(r.status).toBe(200);
		expect(Object.keys(r.json)).toEqual(['InboxItems']);
		return r.json.InboxItems as Array<Record<string, unknown>>;
	};
	const fileOf = async (fileId: string, partyId?: string) => {
		const r = await get(emu, `/v1/files/${fileId}`, { partyId });
		expect(r.status).toBe(200);
		return Buffer.from(r.json.FileContent, 'base64');
	};
	const read = (bytes: Buffer, hint?: unknown) => {
		const result = readDocument(bytes, { maxChars: 10_000_000, hint });
		if (!result.ok) throw new Error(result.problem);
		return result.doc;
	};
	const empty = async (partyId?: string) => {
		for (const item of emu.inbox.items(partyId)) await post(emu, `/v1/peppol/inbox/${item.InboxItemID}/confirm`, undefined, { partyId });
	};

	it('lists the 10 oldest items in the published shape; a confirmed item makes room for the next', async () => {
		await empty();
		const ids = Array.from({ length: 12 }, (_, i) => emu.inbox.receive({ orderNumber: `SUP-W${i}` }).InboxItemID);
		const window = await list();
		expect(window.map((i) => i.InboxItemID)).toEqual(ids.slice(0, 10));
		expect(Object.keys(window[0])).toEqual([
			'InboxItemID',
			'SenderPeppolID',
			'SenderCompanyID',
			'PeppolDocumentType',
			'ReceiverPeppolID',
			'ReceiverCompanyID',
			'CreationDate',
			'PeppolFileID',
		]);
		expect(window[0]).toMatchObject({
			SenderPeppolID: '0208:0403170701',
			SenderCompanyID: 'BE0403170701',
			PeppolDocumentType:
				'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
			ReceiverPeppolID: '0208:0314159244',
			ReceiverCompanyID: 'BE0314159244',
			CreationDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}$/),
		});
		const confirmed = await post(emu, `/v1/peppol/inbox/${ids[0]}/confirm`);
		expect(confirmed.status).toBe(200);
		expect((await list()).map((i) => i.InboxItemID)).toEqual(ids.slice(1, 11));
		expect(await list(undefined, '?ReceiverCompanyID=BE0000000000')).toEqual([]);
		expect((await list(undefined, '?ReceiverCompanyID=be0314159244')).length).toBe(10);
		await empty();
	});

	it('serves each document in its SBDH envelope by default, well-formed and readable by the nodes', async () => {
		const item = emu.inbox.receive({ orderNumber: 'SUP-ENV-1', type: 'CreditNote' });
		const bytes = await fileOf(item.PeppolFileID);
		expect(() => parseXml(bytes.toString('utf8'))).not.toThrow();
		const doc = read(bytes);
		expect(doc).toMatchObject({ kind: 'CreditNote', envelope: true, invoice: { Number: 'SUP-ENV-1', SupplierName: 'Office Supplies NV' } });
		expect(() => parseXml(doc.unwrapped)).not.toThrow();
		const bare = emu.inbox.receive({ orderNumber: 'SUP-BARE', envelope: false });
		expect(read(await fileOf(bare.PeppolFileID))).toMatchObject({ kind: 'Invoice', envelope: false, invoice: { Number: 'SUP-BARE' } });
		emu.config.inboxEnvelope = 'none';
		const unwrapped = emu.inbox.receive({ type: 'IMR', invoiceNumber: 'INV-X', code: 'UQ' });
		emu.config.inboxEnvelope = 'sbdh';
		expect(read(await fileOf(unwrapped.PeppolFileID))).toMatchObject({ kind: 'IMR', envelope: false, response: { Code: 'UQ', InvoiceNumber: 'INV-X' } });
		await empty();
	});

	it('confirm and refuse: 200 {} once, then 400; another party is 401; RefusalReason is an OPStatusReason code', async () => {
		allowContractViolations("confirms the inbox item 'abc' (not an integer) on purpose");
		const a = emu.inbox.receive({});
		const b = emu.inbox.receive({});
		const imr = emu.inbox.receive({ type: 'IMR' });
		const theirs = emu.inbox.receive({ partyId: DEMO_ENTITY });
		expect(await post(emu, `/v1/peppol/inbox/${a.InboxItemID}/confirm`)).toMatchObject({ status: 200, json: {} });
		expect(await post(emu, `/v1/peppol/inbox/${a.InboxItemID}/confirm`)).toMatchObject({ status: 400, json: { errors: [{ Code: 'GenericError' }] } });
		expect((await post(emu, `/v1/peppol/inbox/${theirs.InboxItemID}/confirm`)).status).toBe(401);
		expect((await post(emu, '/v1/peppol/inbox/abc/confirm')).status).toBe(400);
		expect((await post(emu, `/v1/peppol/inbox/${b.InboxItemID}/refuse`, { RefusalReason: 'Too expensive' })).status).toBe(400);
		expect((await post(emu, `/v1/peppol/inbox/${b.InboxItemID}/refuse`, { RefusalReason: 12 })).status).toBe(400);
		expect((await post(emu, `/v1/peppol/inbox/${imr.InboxItemID}/refuse`, { RefusalReason: 'OTH' })).status).toBe(400);
		expect(await post(emu, `/v1/peppol/inbox/${b.InboxItemID}/refuse`, { RefusalReason: 'PRI' })).toMatchObject({ status: 200, json: {} });
		expect(emu.inbox.refused().at(-1)).toMatchObject({ InboxItemID: b.InboxItemID, RefusalReason: 'PRI' });
		expect((await post(emu, `/v1/peppol/inbox/${b.InboxItemID}/refuse`, {})).status).toBe(400);
		const c = emu.inbox.receive({});
		expect((await call(emu, 'POST', `/v1/peppol/inbox/${c.InboxItemID}/refuse`)).status).toBe(200);
		expect(emu.inbox.refused().at(-1)).toMatchObject({ InboxItemID: c.InboxItemID, RefusalReason: 'OTH' });
		expect((await list(DEMO_ENTITY)).map((i) => i.InboxItemID)).toEqual([theirs.InboxItemID]);
		expect((await post(emu, `/v1/peppol/inbox/${theirs.InboxItemID}/confirm`, undefined, { partyId: DEMO_ENTITY })).status).toBe(200);
		await empty();
	});

	it('a customer refusing a sent invoice puts an IMR RE in the inbox; delivery MLR AB only with inboxResponses "all"', async () => {
		const created = await post(emu, '/v1/orders', orderBody());
		expect(created.status).toBe(200);
		const orderId = created.json as number;
		expect((await post(emu, '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [orderId] })).status).toBe(200);
		const number = (await get(emu, `/v1/orders/${orderId}`)).json.OrderNumber;
		emu.delivery.set(orderId, 'Delivered');
		expect(await list()).toEqual([]);
		emu.delivery.set(orderId, 'Refused', { reason: 'REF', info: 'Unknown purchase order' });
		const [item] = await list();
		expect(item).toMatchObject({ PeppolDocumentType: 'IMR', SenderPeppolID: '0208:0123456749' });
		const doc = read(await fileOf(item.PeppolFileID as string), item.PeppolDocumentType);
		expect(doc).toMatchObject({
			kind: 'IMR',
			envelope: true,
			response: { Code: 'RE', InvoiceNumber: number, Reasons: [{ Code: 'REF', Text: 'Unknown purchase order' }] },
		});
		await empty();

		emu.config.inboxResponses = 'all';
		const second = (await post(emu, '/v1/orders', orderBody({ Customer: { Name: 'Café Zoë BV', VATNumber: 'BE0456789133' } }))).json as number;
		await post(emu, '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [second] });
		emu.delivery.set(second, 'Delivered');
		emu.config.inboxResponses = 'business';
		const [mlr] = await list();
		expect(read(await fileOf(mlr.PeppolFileID as string), 'MLR')).toMatchObject({ kind: 'MLR', response: { Code: 'AB' } });
		await empty();
	});

	it('control routes: a document arrives, the queue is listed', async () => {
		const r = await call(emu, 'POST', '/_emulator/inbox', { auth: false, body: { type: 'IMR', code: 'PD', invoiceNumber: 'INV-77' } });
		expect(r.status).toBe(200);
		expect(r.json).toMatchObject({ PeppolDocumentType: 'IMR' });
		const listed = await call(emu, 'GET', '/_emulator/inbox', { auth: false });
		expect(listed.json.items.map((i: { InboxItemID: number }) => i.InboxItemID)).toContain(r.json.InboxItemID);
		expect((await call(emu, 'POST', '/_emulator/inbox', { auth: false, body: { type: 'Order' } })).status).toBe(400);
		await empty();
	});

	it('POST /v1/peppol/sendxml: a UBL invoice to a registered receiver is sent; anything else is 400', async () => {
		const self = emu.store.selfOf(emu.credentials.partyId);
		const order = buildOrder(
			{ orderId: 1, partyId: emu.credentials.partyId, self, seq: 1, now: new Date('2024-05-01T00:00:00Z') },
			{
				OrderNumber: 'XML-1',
				Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749' },
			},
		);
		const xml = renderUbl(order);
		const sent = await post(emu, '/v1/peppol/sendxml', { XML: xml });
		expect(sent.status).toBe(200);
		expect(typeof sent.json).toBe('number');
		expect(emu.inbox.sent().at(-1)).toMatchObject({ InboxItemID: sent.json, XML: xml, receiver: '0208:0123456749' });
		emu.config.sendXmlAnswer = 'object';
		expect((await post(emu, '/v1/peppol/sendxml', { XML: xml })).json).toEqual({ InboxItemID: expect.any(Number) });
		emu.config.sendXmlAnswer = 'number';

		const unregistered = renderUbl({ ...order, Customer: { Name: 'A+B Consulting', VATNumber: 'BE1002003070' } });
		const cases: Array<[unknown, RegExp]> = [
			[{}, /XML is required/],
			[{ XML: 42 }, /XML is required/],
			[{ XML: xml.replace(/Invoice-2"/, 'Order-2"') }, /not a UBL Invoice or CreditNote/],
			[{ XML: xml.replace(/<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, '') }, /CustomizationID/],
			[{ XML: xml.slice(0, -20) }, /does not end with/],
			[{ XML: unregistered }, /not registered on Peppol for BISv3Invoice/],
		];
		for (const [body, message] of cases) {
			const r = await post(emu, '/v1/peppol/sendxml', body);
			expect([r.status, r.json.errors[0].Description]).toEqual([400, expect.stringMatching(message)]);
		}
	});
});
