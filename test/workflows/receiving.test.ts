/**
 * Receiving supplier invoices as orders, and parties and products kept in sync, run by n8n-core
 * against the emulator: the Order Trigger's New Incoming Supplier Invoice event with Mark as (Not)
 * Exported, and every write run twice (nothing is created twice).
 */
import type { IDataObject } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import { receiveInvoice } from '../../emulator/incoming';
import { createHarness } from '../harness';
import type { Harness } from '../harness';

type Emu = Awaited<ReturnType<typeof createEmulator>>;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ORDER = 'accessPointOrder';

describe('receiving supplier invoices, parties and products (engine, emulator)', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;

	beforeAll(async () => {
		// The emulator's clock a month back: the orders it stamps are in the past by the API's Date (see trigger.test.ts).
		h = await createHarness({ emulator: { orders: 40, startTime: Date.now() - 30 * 86_400_000 } });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
	});

	afterAll(async () => {
		await h?.close();
	});

	const posts = (path: string) => emu.requests.filter((r: { method: string; path: string }) => r.method === 'POST' && r.path === path);
	const node = async (parameters: IDataObject, input?: IDataObject[]) => {
		const result = await h.runNode(ORDER, parameters, input);
		return { result, items: result.status === 'success' ? (result.output(result.nodeName as string) as Rec[]) : [] };
	};

	describe('Order Trigger › New Incoming Supplier Invoice, Order › Mark as Exported / Not Exported', () => {
		it('emits each received invoice once with its PDF and UBL; marked exported it does not come again, marked not exported it does', async () => {
			// Direction is hidden for this event: a value saved before is ignored (Cost is the event's).
			const poller = h.poller({
				type: 'accessPointOrderTrigger',
				parameters: { event: 'newIncomingInvoice', orderType: '', direction: 'Income', includeFiles: ['pdf', 'ubl'], options: { maxRetries: 0 } },
			});
			expect((await poller.poll()).items).toBeNull(); // activation: the baseline
			emu.clock.advance(60_000);
			const invoice = receiveInvoice(emu.store, party, { supplier: { Name: 'Paper Co NV', VATNumber: 'BE0417497106' } });
			const creditNote = receiveInvoice(emu.store, party, { type: 'CreditNote' });
			emu.store.addOrder(party, { OrderType: 'Invoice', OrderDirection: 'Income' }); // a sale
			emu.store.addOrder(party, { OrderType: 'Invoice', OrderDirection: 'Cost', IsSent: true }); // exported already
			for (const OrderType of ['OrderForm', 'Offer', 'DeliveryNote']) emu.store.addOrder(party, { OrderType, OrderDirection: 'Cost' }); // not invoices (#37)
			emu.clearRequests();

			const polled = await poller.poll();
			const [list] = emu.requests.filter((r: { path: string }) => r.path === '/v1/orders');
			expect(list.query.$filter).toMatch(
				/^\(OrderType eq 'Invoice' or OrderType eq 'CreditNote'\) and OrderDirection eq 'Cost' and IsSent eq false and LastModified ge DateTime'[\dT:-]+'$/,
			);
			const items = polled.data![0];
			expect(items.map((i) => [i.json.OrderID, i.json.OrderDirection, i.json.IsSent])).toEqual([
				[invoice.OrderID, 'Cost', false],
				[creditNote.OrderID, 'Cost', false],
			]);
			for (const item of items) expect(Object.keys(item.binary ?? {})).toEqual(['pdf', 'ubl']);
			expect(items[0].binary!.ubl.fileName).toBe(`${String(invoice.OrderNumber)}.xml`);
			expect((await poller.poll()).items).toBeNull(); // nothing twice, even before it is marked

			emu.clock.advance(2000);
			const marked = await node(
				{ resource: 'order', operation: 'markExported', orderId: '={{ $json.OrderID }}' },
				items.map((i) => i.json),
			);
			expect(marked.items.map((o) => [o.OrderID, o.IsSent])).toEqual([
				[invoice.OrderID, true],
				[creditNote.OrderID, true],
			]);
			expect(emu.store.getOrder(party, invoice.OrderID as number)?.IsSent).toBe(true);
			expect((await poller.poll()).items).toBeNull();
			// Marking twice changes nothing and fails nothing.
			expect((await node({ resource: 'order', operation: 'markExported', orderId: invoice.OrderID })).items).toEqual([
				expect.objectContaining({ OrderID: invoice.OrderID, IsSent: true }),
			]);

			emu.clock.advance(2000);
			await node({ resource: 'order', operation: 'markNotExported', orderId: String(creditNote.OrderID) });
			expect(emu.store.getOrder(party, creditNote.OrderID as number)?.IsSent).toBe(false);
			expect((await poller.poll()).items?.map((o) => o.OrderID)).toEqual([creditNote.OrderID]);
			expect((await poller.poll()).items).toBeNull();
		});

		it('an Order Type that is not an invoice is refused with this event, before any request', async () => {
			emu.clearRequests();
			const poller = h.poller({ type: 'accessPointOrderTrigger', parameters: { event: 'newIncomingInvoice', orderType: 'Offer', options: { maxRetries: 0 } } });
			await expect(poller.poll()).rejects.toThrow('"Order Type" Offer is not a supplier invoice');
			expect(emu.requests.filter((r: { path: string }) => r.path.startsWith('/v1/'))).toEqual([]);
		});

		it('Mark as Exported refuses a sales invoice (a Draft Income invoice stays unmarked)', async () => {
			const sale = emu.store.addOrder(party, { OrderType: 'Invoice', OrderDirection: 'Income', OrderStatus: 'Draft', IsSent: false });
			emu.clearRequests();
			const refused = await node({ resource: 'order', operation: 'markExported', orderId: sale.OrderID });
			expect(refused.result.nodeError(refused.result.nodeName as string)?.message).toBe(
				`Item 0: "Order" ${String(sale.OrderID)} is not a document you received (OrderDirection Income, not Cost): it was not marked`,
			);
			expect(emu.requests.filter((r: { method: string }) => r.method === 'PATCH')).toEqual([]);
			expect(emu.store.getOrder(party, sale.OrderID as number)?.IsSent).toBe(false);
		});

		it('Fetch Test Event shows the latest received invoice not exported yet', async () => {
			emu.clock.advance(60_000);
			const latest = receiveInvoice(emu.store, party);
			emu.clock.advance(1000);
			emu.store.addOrder(party, { OrderType: 'Invoice', OrderDirection: 'Income' }); // newer, but a sale
			const polled = await h
				.poller({ type: 'accessPointOrderTrigger', parameters: { event: 'newIncomingInvoice', options: { maxRetries: 0 } } })
				.poll('manual');
			expect(polled.items?.map((o) => o.OrderID)).toEqual([latest.OrderID]);
		});
	});

	describe('Party', () => {
		const create = (extra: IDataObject = {}) => ({
			resource: 'party',
			operation: 'create',
			name: 'Sync Twice BV',
			vatNumber: 'BE 0477.123.402',
			partyFields: { email: 'ap@sync-twice.example', city: 'Gent' },
			...extra,
		});
		const stored = () => emu.store.listParties(party).filter((p: Rec) => p.VATNumber === 'BE0477123402');

		it('Create run twice creates one party; the second run finds it, and with Update It changes it', async () => {
			emu.clearRequests();
			const first = await node(create());
			expect(first.items).toEqual([
				expect.objectContaining({
					Name: 'Sync Twice BV',
					VATNumber: 'BE0477123402',
					PartyType: 'Customer',
					Email: 'ap@sync-twice.example',
					City: 'Gent',
					AlreadyExisted: false,
				}),
			]);
			const again = await node(create());
			expect(again.items).toEqual([{ ...first.items[0], AlreadyExisted: true }]);
			expect(posts('/v1/parties')).toHaveLength(1);
			expect(stored()).toHaveLength(1);

			emu.clock.advance(2000);
			const updated = await node(
				create({ ifFound: 'update', partyFields: { email: 'finance@sync-twice.example', city: 'Gent', website: 'https://sync-twice.example' } }),
			);
			expect(updated.items).toEqual([expect.objectContaining({ PartyID: first.items[0].PartyID, Email: 'finance@sync-twice.example', AlreadyExisted: true })]);
			// Only what a party PATCH may change (the page "Patchable Properties"): not Party Type, not Website.
			const patches = emu.requests.filter((r: { method: string }) => r.method === 'PATCH');
			expect(patches.map((r) => Object.keys(r.body as IDataObject).sort())).toEqual([['City', 'Email', 'Name', 'VATNumber']]);
			expect(stored()).toEqual([expect.objectContaining({ Email: 'finance@sync-twice.example' })]);
			expect(posts('/v1/parties')).toHaveLength(1);
		});

		it('the same VAT number as a Supplier is another party; Find by VAT Number, Get and Update reach them', async () => {
			const supplier = await node(create({ partyType: 'Supplier' }));
			expect(supplier.items[0]).toMatchObject({ PartyType: 'Supplier', AlreadyExisted: false });
			const found = await node({ resource: 'party', operation: 'findByVat', vatNumber: 'BE0477123402' });
			expect(found.items.map((p) => p.PartyType).sort()).toEqual(['Customer', 'Supplier']);
			const seeded = await node({ resource: 'party', operation: 'findByVat', vatNumber: 'BE0123456749', partyType: 'Customer' });
			expect(seeded.items).toEqual([expect.objectContaining({ DisplayName: 'Peppol Demo Belgium NV' })]);

			// No match: nothing by default (n8n stops there); If None Found › Output a Not-Found Item lets the workflow go on.
			const none = { resource: 'party', operation: 'findByVat', vatNumber: 'BE0876543270' };
			expect((await node(none)).items).toEqual([]);
			expect((await node({ ...none, ifNone: 'item' })).items).toEqual([{ Found: false, VATNumber: 'BE0876543270' }]);
			expect((await node({ ...none, vatNumber: 'BE0123456749', ifNone: 'item' })).items).toEqual([expect.objectContaining({ VATNumber: 'BE0123456749' })]);

			const id = String(supplier.items[0].PartyID);
			const changed = await node({ resource: 'party', operation: 'update', partyId: id, updateFields: { iban: 'BE68 5390 0754 7034', language: 'fr' } });
			expect(changed.items).toEqual([expect.objectContaining({ PartyID: Number(id), IBAN: 'BE68539007547034', Language: 'FR', Name: 'Sync Twice BV' })]);
			expect((await node({ resource: 'party', operation: 'get', partyId: id })).items).toEqual(changed.items);
		});

		it('a bad field on item 2 sends nothing for any item', async () => {
			emu.clearRequests();
			const { result } = await node(create({ partyFields: { iban: '={{ $itemIndex === 1 ? "BE00 1234" : "BE68 5390 0754 7034" }}' } }), [{}, {}]);
			expect(result.nodeError(result.nodeName as string)?.message).toMatch(/^Item 1: "IBAN" BE00 1234 is not a valid IBAN/);
			expect(emu.requests).toEqual([]);
		});
	});

	describe('Product', () => {
		it('Create or Update run twice creates one product, then updates it; Get reads it', async () => {
			emu.clearRequests();
			const params = {
				resource: 'product',
				operation: 'createOrUpdate',
				reference: 'SYNC-PAPER',
				productFields: { description: 'Paper A4', amountExcl: 4.5, vat: 21, unit: 'box' },
			};
			const first = await node(params);
			expect(first.items).toEqual([expect.objectContaining({ Reference: 'SYNC-PAPER', AmountExcl: 4.5, VAT: 21, Unit: 'box', AlreadyExisted: false })]);
			const again = await node({ ...params, productFields: { ...params.productFields, amountExcl: 4.75 } });
			expect(again.items).toEqual([expect.objectContaining({ ProductID: first.items[0].ProductID, AmountExcl: 4.75, AlreadyExisted: true })]);
			expect(posts('/v1/products').map((r: { body?: Rec }) => r.body?.ProductID)).toEqual([undefined, first.items[0].ProductID]);
			expect(emu.store.listProducts(party).filter((p: Rec) => p.Reference === 'SYNC-PAPER')).toHaveLength(1);
			const items = await node({ ...params, bodyForm: 'items' });
			expect(items.items[0]).toMatchObject({ ProductID: first.items[0].ProductID, AmountExcl: 4.5, AlreadyExisted: true });
			expect((await node({ resource: 'product', operation: 'get', productId: String(first.items[0].ProductID) })).items).toEqual([
				expect.objectContaining({ Reference: 'SYNC-PAPER', Description: 'Paper A4' }),
			]);
		});

		it('reads prices and quantities typed the Belgian way (2,35 and 1.250,00), a number saved before as it is, and refuses 1,250', async () => {
			const stored = (reference: string) => emu.store.listProducts(party).find((p: Rec) => p.Reference === reference);
			const typed = await node({
				resource: 'product',
				operation: 'createOrUpdate',
				reference: 'BE-TYPED',
				productFields: { amountExcl: '2,35', buyExcl: '1.250,00', stockQuantity: '1 250,5', minimumBilledQuantity: '0,25', vat: '5,5' },
			});
			expect(typed.result.status).toBe('success');
			expect(stored('BE-TYPED')).toMatchObject({ AmountExcl: 2.35, BuyExcl: 1250, StockQuantity: 1250.5, MinimumBilledQuantity: 0.25, VAT: 5.5 });
			// A workflow saved while these were number fields holds numbers: they are read as they are.
			await node({ resource: 'product', operation: 'createOrUpdate', reference: 'BE-SAVED', productFields: { amountExcl: 4.5, stockQuantity: 0 } });
			expect(stored('BE-SAVED')).toMatchObject({ AmountExcl: 4.5, StockQuantity: 0 });
			emu.clearRequests();
			const ambiguous = await node({ resource: 'product', operation: 'createOrUpdate', reference: 'BE-AMBIGUOUS', productFields: { amountExcl: '1,250' } });
			expect(ambiguous.result.nodeError(ambiguous.result.nodeName as string)?.message).toMatch(/"Amount Excl\. VAT" 1,250 is ambiguous/);
			expect(emu.requests).toEqual([]);
		});
	});
});
