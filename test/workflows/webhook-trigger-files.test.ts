/**
 * AccessPoint Trigger › Include Files through n8n-core against the emulator: the files of an
 * event's order as binary data, byte-identical (SHA-256) to what GET /v1/files serves, past
 * the trigger's execute() (binary and pairedItem kept); one order read per event shared with
 * Fetch Full Order; none for a deletion; a file that cannot be read named in FileErrors
 * while the event still reaches the workflow once; bad values refused at activation and in webhook().
 */
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { signature } from '../harness/webhookTrigger';
import type { WebhookTrigger } from '../harness/webhookTrigger';
import { printFigures, sha256 } from './fileSupport';
import type { Emu } from './webhookSuite';
import { NAME, webhookSuite } from './webhookSuite';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('AccessPoint Trigger › Include Files (engine, emulator)', () => {
	const suite = webhookSuite({ orders: 5 });
	let emu: Emu;

	beforeAll(() => {
		emu = suite.emu;
	});

	const trigger = (events: string[], options: IDataObject = {}) => suite.trigger({ events, options });
	const createOrder = (OrderType = 'Invoice') => suite.createOrder({ OrderType });
	/** A purchase invoice: it arrived as a UBL, which it keeps as an .xml attachment (a sale has its UBL only once sent). */
	const addPurchase = () =>
		emu.store.addOrder(suite.party, { OrderType: 'Invoice', OrderDirection: 'Cost', Supplier: { Name: 'Office Supplies NV' } }).OrderID as number;

	const bytesOf = (binary: IBinaryData) => Buffer.from(binary.data, 'base64');
	const served = (fileId: string) => (emu.files.get(fileId) as Rec).content as Buffer;
	const fileReads = () => emu.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/files/'));
	const orderReads = (id: number) => emu.requests.filter((r) => r.method === 'GET' && r.path === `/v1/orders/${id}`);
	const itemOf = (t: WebhookTrigger, index: number): INodeExecutionData => {
		const items = t.executions[index].assertSuccess().items(NAME);
		expect(items).toHaveLength(1);
		return items[0];
	};
	/** The published workflow's trigger options (what the next activation and call read). */
	const optionsOf = (t: WebhookTrigger) => (t.workflow.nodes.find((n) => n.name === NAME)!.parameters as { options: IDataObject }).options;
	const secretOf = (t: WebhookTrigger) => (t.nodeStaticData.webhooks as { webhooks: Array<{ secret: string }> }).webhooks[0].secret;

	it('PDF + UBL: a signed Order Created event gives an item with binary pdf and ubl byte-identical to the files the emulator serves, past execute()', async () => {
		const t = await trigger(['orderCreated'], { includeFiles: ['pdf', 'ubl'] });
		await t.activate();
		const id = addPurchase();
		await emu.webhooks.settle();
		await t.waitForExecutions(1);
		const item = itemOf(t, 0);
		const refs = emu.files.refs(id) as Rec;
		const ubl = (refs.Attachments as Rec[]).find((a) => /\.xml$/i.test(String(a.FileName)))!;
		expect(Object.keys(item.binary ?? {})).toEqual(['pdf', 'ubl']);
		expect(sha256(bytesOf(item.binary!.pdf))).toBe(sha256(served(refs.OrderPDF.FileID)));
		expect(sha256(bytesOf(item.binary!.ubl))).toBe(sha256(served(ubl.FileID)));
		expect(item.binary!.pdf).toMatchObject({ mimeType: 'application/pdf', fileName: refs.OrderPDF.FileName });
		// execute() (receive.ts) passed the item on whole: binary kept, pairedItem set.
		expect(item.pairedItem).toEqual({ item: 0 });
		// The item stays the event (Fetch Full Order is off), with the files listed as the Order Trigger lists them.
		expect(item.json).toMatchObject({ event: 'created', entityType: 'Order', OrderID: id, payload: expect.objectContaining({ UpdatedEntityType: 'Order' }) });
		expect(item.json.OrderLines).toBeUndefined();
		expect((item.json.Files as Rec[]).map((f) => [f.Property, f.Kind, f.FileID, f.FileSize])).toEqual([
			['pdf', 'pdf', refs.OrderPDF.FileID, served(refs.OrderPDF.FileID).length],
			['ubl', 'ubl', ubl.FileID, served(ubl.FileID).length],
		]);
		expect(item.json.MissingFiles).toBeUndefined();
		expect(orderReads(id)).toHaveLength(1);
		expect(fileReads().map((r) => [r.path, r.status])).toEqual([
			[`/v1/files/${refs.OrderPDF.FileID}`, 200],
			[`/v1/files/${ubl.FileID}`, 200],
		]);
		printFigures('AccessPoint Trigger › Include Files (PDF + UBL)', {
			'order reads': orderReads(id).length,
			'file reads': fileReads().length,
			'pdf bytes': bytesOf(item.binary!.pdf).length,
			'ubl bytes': bytesOf(item.binary!.ubl).length,
		});
	});

	it('with Fetch Full Order the order is read once for both; an order without a UBL lists it in MissingFiles', async () => {
		const t = await trigger(['orderCreated'], { fetchFullOrder: true, includeFiles: ['pdf', 'ubl'] });
		await t.activate();
		const offer = await createOrder('Offer');
		await emu.webhooks.settle();
		await t.waitForExecutions(1);
		const created = itemOf(t, 0);
		expect(created.json).toMatchObject({ event: 'created', OrderID: offer, OrderLines: expect.any(Array), delivered: false, MissingFiles: ['ubl'] });
		expect(Object.keys(created.binary ?? {})).toEqual(['pdf']);
		expect(orderReads(offer)).toHaveLength(1);
		expect(fileReads()).toHaveLength(1);
	});

	it('an order gone before its event is read says orderFound: false and reads no file', async () => {
		const t = await trigger(['orderCreated'], { includeFiles: ['pdf'] });
		await t.activate();
		const body = { UpdatedEntityID: 999999, UpdatedEntityType: 'Order', WebhookUpdateTypeTC: 'I', EntityDetail: {} };
		emu.clearRequests();
		const r = await t.post(body, { headers: { 'billit-signature': signature(secretOf(t), body) } });
		expect(r.status).toBe(200);
		const item = r.executions[0].assertSuccess().items(NAME)[0];
		expect(item.json).toMatchObject({ event: 'created', OrderID: 999999, orderFound: false });
		expect(item.binary).toBeUndefined();
		expect(emu.requests.map((q) => [q.method, q.path, q.status])).toEqual([['GET', '/v1/orders/999999', 404]]);
	});

	it.each([
		['over Maximum File Size', (id: number) => emu.files.largePdf(id, 3 * 1024 * 1024), /above Maximum File Size|larger than 1 MB/],
		['removed at the service (404)', (id: number) => emu.files.drop((emu.files.refs(id) as Rec).OrderPDF.FileID), /HTTP 404/],
		['broken base64', (id: number) => emu.files.corrupt((emu.files.refs(id) as Rec).OrderPDF.FileID), /not base64/],
	])(
		"one unreadable file (%s) never loses the event: 4 new invoices, the 2nd one's PDF bad, each reaches the workflow once (#33)",
		async (_what, spoil, reason) => {
			const t = await trigger(['orderCreated'], { includeFiles: ['pdf', 'ubl'], maxFileSizeMb: 1 });
			await t.activate();
			const ids: number[] = [];
			for (let i = 0; i < 4; i++) {
				ids.push(addPurchase());
				// Spoiled before its event is delivered (delivery is asynchronous).
				if (i === 1) spoil(ids[1]);
			}
			await emu.webhooks.settle();
			await t.waitForExecutions(4);
			expect(emu.webhooks.deliveries().map((d) => d.attempts.map((a) => a.status))).toEqual([[200], [200], [200], [200]]);
			expect(t.errors).toEqual([]);
			const items = t.executions.map((_run, i) => itemOf(t, i));
			expect(items.map((item) => item.json.OrderID).sort()).toEqual([...ids].sort());
			for (const item of items) {
				const bad = item.json.OrderID === ids[1];
				expect(Object.keys(item.binary ?? {})).toEqual(bad ? ['ubl'] : ['pdf', 'ubl']);
				expect(item.json.FileErrors).toEqual(
					bad ? [{ file: 'pdf', fileId: (emu.files.refs(ids[1]) as Rec).OrderPDF.FileID, reason: expect.stringMatching(reason) }] : undefined,
				);
			}
			printFigures('AccessPoint Trigger › Include Files: one unreadable file', {
				'delivery attempts': emu.webhooks
					.deliveries()
					.map((d) => d.attempts.length)
					.join(', '),
				executions: t.executions.length,
			});
		},
	);

	it('Include Files unset (the default) reads no file, even with Fetch Full Order; switched on, the next event has its files', async () => {
		const t = await trigger(['orderCreated'], { fetchFullOrder: true });
		await t.activate();
		const plain = await createOrder();
		await emu.webhooks.settle();
		await t.waitForExecutions(1);
		expect(itemOf(t, 0).binary).toBeUndefined();
		expect(itemOf(t, 0).json.Files).toBeUndefined();
		expect(orderReads(plain)).toHaveLength(1);
		expect(fileReads()).toEqual([]);

		// The same workflow published again with Include Files: the webhooks are kept (same events and URL).
		optionsOf(t).includeFiles = ['pdf'];
		emu.clearRequests();
		await t.activate('update');
		expect(emu.requests.filter((r) => r.method === 'POST')).toEqual([]);
		const next = await createOrder();
		await emu.webhooks.settle();
		await t.waitForExecutions(2);
		expect(Object.keys(itemOf(t, 1).binary ?? {})).toEqual(['pdf']);
		expect(fileReads()).toHaveLength(1);
		expect(orderReads(next)).toHaveLength(1);
	});

	it('bad values are refused naming the option: at activation before any request, and in webhook() (500 with the error n8n logs and records; no execution, no request)', async () => {
		const cases: Array<[IDataObject, RegExp]> = [
			[{ includeFiles: 'zip' }, /^"Include Files" has "zip", which is not one of pdf, ubl, attachments, json, messages$/],
			[{ includeFiles: 5 }, /^"Include Files" is not a list of files$/],
			[{ includeFiles: ['pdf', true] }, /^"Include Files" has true, which is not one of/],
			[{ includeFiles: ['pdf'], maxFileSizeMb: 'big' }, /^"Maximum File Size \(MB\)" big is not a size from 1 to 256 MB$/],
			[{ includeFiles: ['pdf'], maxFileSizeMb: 0 }, /^"Maximum File Size \(MB\)" 0 is not a size/],
		];
		for (const [options, message] of cases) {
			const t = await trigger(['orderCreated'], options);
			emu.clearRequests();
			await expect(t.activate()).rejects.toThrow(message);
			expect(emu.requests).toEqual([]);
			expect(emu.webhooks.list()).toEqual([]);
		}

		// Published with a good value, the parameters then give a bad one (an expression's input changed).
		const t = await trigger(['orderCreated'], { includeFiles: ['pdf'] });
		await t.activate();
		optionsOf(t).includeFiles = 'zip';
		emu.clearRequests();
		const body = { UpdatedEntityID: 999998, UpdatedEntityType: 'Order', WebhookUpdateTypeTC: 'I', EntityDetail: {} };
		const r = await t.post(body, { headers: { 'billit-signature': signature(secretOf(t), body) } });
		expect(r.status).toBe(500);
		expect(r.executions).toEqual([]);
		expect(t.errors.map((e) => e.message)).toEqual(['"Include Files" has "zip", which is not one of pdf, ubl, attachments, json, messages']);
		expect(emu.requests).toEqual([]);
	});
});
