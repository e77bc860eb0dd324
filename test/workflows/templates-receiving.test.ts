/**
 * The receiving and master-data templates (examples/supplier-invoices-to-accounting.json,
 * examples/sync-customers.json) executed by n8n's engine against the emulator, each run twice:
 * nothing is exported or created twice. Their import checks are in templates.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import { receiveInvoice } from '../../emulator/incoming';
import { loadTemplate } from '../../scripts/demo';
import { createHarness } from '../harness';
import type { Harness, HarnessResult, WorkflowJson } from '../harness';

type Emu = Awaited<ReturnType<typeof createEmulator>>;
type Logged = { method: string; path: string; body?: IDataObject };

const template = (file: string): WorkflowJson => loadTemplate(file) as WorkflowJson;

describe('receiving and master-data templates (engine, emulator)', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;

	beforeAll(async () => {
		// The emulator's clock a month back: what it stamps is in the past by the API's Date (see trigger.test.ts).
		h = await createHarness({ emulator: { orders: 300, startTime: Date.now() - 30 * 86_400_000 }, quiet: true });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
	});

	afterAll(async () => {
		await h?.close();
	});

	const requests = (method: string, path: RegExp) => (emu.requests as Logged[]).filter((r) => r.method === method && path.test(r.path));

	describe('supplier-invoices-to-accounting.json', () => {
		it('hands each received invoice with its PDF and UBL to the accounting step, then marks it exported; nothing is exported twice', async () => {
			const poller = h.poller(template('supplier-invoices-to-accounting.json'));
			expect((await poller.poll({ execute: true })).items).toBeNull(); // activation

			emu.clock.advance(60_000);
			const paper = receiveInvoice(emu.store, party, { supplier: { Name: 'Paper Co NV', VATNumber: 'BE0417497106' } });
			const credit = receiveInvoice(emu.store, party, { type: 'CreditNote' });
			emu.store.addOrder(party, { OrderType: 'Invoice', OrderDirection: 'Income' }); // a sale: not for the accounting of purchases
			for (const OrderType of ['OrderForm', 'Offer', 'DeliveryNote']) emu.store.addOrder(party, { OrderType, OrderDirection: 'Cost' }); // purchases, not invoices (#37)
			emu.clearRequests();

			const polled = await poller.poll({ execute: true });
			const run = polled.execution as HarnessResult;
			expect(run.status).toBe('success');
			const handed = run.items('Your accounting tool (replace me)');
			expect(handed.map((i) => [i.json.OrderID, i.json.OrderType, i.json.OrderDirection, i.json.IsSent, (i.json.Supplier as IDataObject).Name])).toEqual([
				[paper.OrderID, 'Invoice', 'Cost', false, 'Paper Co NV'],
				[credit.OrderID, 'CreditNote', 'Cost', false, 'Office Supplies NV'],
			]);
			for (const item of handed) {
				expect(Object.keys(item.binary ?? {})).toEqual(['pdf', 'ubl']);
				expect([item.binary!.pdf.mimeType, item.binary!.ubl.fileName]).toEqual(['application/pdf', `${String(item.json.OrderNumber)}.xml`]);
			}
			const row = (order: IDataObject, type: string, supplier: string, vat: string) => ({
				OrderID: order.OrderID,
				DocumentType: type,
				InvoiceNumber: order.OrderNumber,
				Supplier: supplier,
				SupplierVAT: vat,
				InvoiceDate: order.OrderDate,
				TotalIncl: order.TotalIncl,
				Currency: 'EUR',
				PdfFile: `${String(order.OrderNumber)}.pdf`,
				UblFile: `${String(order.OrderNumber)}.xml`,
				Exported: true,
			});
			expect(run.output('Exported')).toEqual([
				row(paper, 'Invoice', 'Paper Co NV', 'BE0417497106'),
				row(credit, 'CreditNote', 'Office Supplies NV', 'BE0403170701'),
			]);
			expect(requests('PATCH', /^\/v1\/orders\/\d+$/).map((r) => [r.path, r.body])).toEqual([
				[`/v1/orders/${String(paper.OrderID)}`, { IsSent: true }],
				[`/v1/orders/${String(credit.OrderID)}`, { IsSent: true }],
			]);
			for (const order of [paper, credit]) expect(emu.store.getOrder(party, order.OrderID as number)?.IsSent).toBe(true);

			// The next polls: nothing again, even after the marked invoices changed.
			emu.clock.advance(60_000);
			expect((await poller.poll({ execute: true })).items).toBeNull();
			emu.clearRequests();
			const next = receiveInvoice(emu.store, party);
			const later = await poller.poll({ execute: true });
			expect((later.execution as HarnessResult).output('Exported').map((o) => o.OrderID)).toEqual([next.OrderID]);
			expect(requests('PATCH', /^\/v1\/orders\//)).toHaveLength(1);
		});
	});

	it('Execute workflow from the editor (a test run, the accounting step still the placeholder) marks nothing exported', async () => {
		const invoice = receiveInvoice(emu.store, party, { supplier: { Name: 'Try Me NV', VATNumber: 'BE0417497106' } });
		const workflow = template('supplier-invoices-to-accounting.json');
		const tried = await h.poller(workflow).poll({ mode: 'manual' }); // what Execute workflow fetches: the newest not exported
		emu.clearRequests();
		const run = await h.run(workflow, { mode: 'manual', startNode: 'New supplier invoice', input: tried.data![0] });
		expect(run.status).toBe('success');
		expect(run.items('Your accounting tool (replace me)').map((i) => i.json.OrderID)).toEqual([invoice.OrderID]);
		expect(requests('PATCH', /^\/v1\/orders\//)).toEqual([]);
		expect(emu.store.getOrder(party, invoice.OrderID as number)?.IsSent).toBe(false);
	});

	describe('sync-customers.json', () => {
		const VATS = ['BE0123456749', 'BE0700123432', 'BE0654321022'];
		const partiesWith = (vat: string) => emu.store.listParties(party).filter((p: IDataObject) => p.VATNumber === vat);

		it('creates the new customers and updates the existing one; run again, it creates none', async () => {
			const seeded = partiesWith('BE0123456749')[0] as IDataObject;
			emu.clearRequests();
			const first = (await h.run(template('sync-customers.json'))).assertSuccess();
			const rows = first.output('Customer in sync');
			expect(rows.map((r) => [r.crmId, r.Name, r.VATNumber, r.Result])).toEqual([
				['CRM-1001', 'Peppol Demo Belgium NV', 'BE0123456749', 'updated'],
				['CRM-1002', 'Atelier Lumière SRL', 'BE0700123432', 'created'],
				['CRM-1003', 'Groene Tuin BV', 'BE0654321022', 'created'],
			]);
			expect(rows[0].PartyID).toBe(seeded.PartyID);
			expect(rows.map((r) => r.Email)).toEqual(['ap@peppol-demo.example', 'factures@atelier-lumiere.example', 'boekhouding@groene-tuin.example']);
			expect(requests('POST', /^\/v1\/parties$/).map((r) => r.body)).toEqual([
				{
					Name: 'Atelier Lumière SRL',
					VATNumber: 'BE0700123432',
					PartyType: 'Customer',
					City: 'Liège',
					CountryCode: 'BE',
					Email: 'factures@atelier-lumiere.example',
					ExternalProviderID: 'CRM-1002',
					Language: 'FR',
				},
				{
					Name: 'Groene Tuin BV',
					VATNumber: 'BE0654321022',
					PartyType: 'Customer',
					City: 'Gent',
					CountryCode: 'BE',
					Email: 'boekhouding@groene-tuin.example',
					ExternalProviderID: 'CRM-1003',
					Language: 'NL',
				},
			]);
			expect(partiesWith('BE0123456749')).toEqual([
				expect.objectContaining({ Email: 'ap@peppol-demo.example', ExternalProviderID: 'CRM-1001', City: 'Brussel' }),
			]);

			emu.clearRequests();
			const second = (await h.run(template('sync-customers.json'))).assertSuccess();
			expect(second.output('Customer in sync')).toEqual(rows.map((r) => ({ ...r, Result: 'updated' })));
			expect(requests('POST', /^\/v1\/parties/)).toEqual([]);
			for (const vat of VATS) expect(partiesWith(vat)).toHaveLength(1);
		});
	});
});
