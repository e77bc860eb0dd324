import { receiveInvoice } from '../../emulator/incoming';
import { call, Emu, get, post, qs, start } from './helpers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { allowContractViolations } = require('../harness/contract');

/** Parties and products create/update (emulator/routes/parties.js) and incoming supplier invoices (emulator/incoming.js). */
describe('parties, products and incoming supplier invoices', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 40 });
	});
	afterAll(() => emu.close());
	beforeEach(() => {
		emu.config.changeAnswer = 'body';
	});

	const patch = (path: string, body: unknown) => call(emu, 'PATCH', path, { body });
	const refused = (r: { status: number; json: { errors: Array<{ Description: string }> } }, message: RegExp) => {
		expect(r.status).toBe(400);
		expect(r.json.errors[0].Description).toMatch(message);
	};

	it('POST /v1/parties creates a party and answers its PartyID; the list and the single read find it; an unknown property is dropped', async () => {
		allowContractViolations('sends CustomFlag, not a Party property, to show it is dropped');
		const r = await post(emu, '/v1/parties', { Name: 'Sync Test BV', VATNumber: 'BE0403170701', PartyType: 'Customer', Nr: 'C-17', CustomFlag: 'kept' });
		expect(r.status).toBe(200);
		expect(typeof r.json).toBe('number');
		const one = await get(emu, `/v1/parties/${r.json}`);
		expect(one.json).toMatchObject({
			PartyID: r.json,
			Name: 'Sync Test BV',
			DisplayName: 'Sync Test BV',
			PartyType: 'Customer',
			Nr: 'C-17',
		});
		expect(one.json).not.toHaveProperty('CustomFlag');
		const list = await get(emu, `/v1/parties?${qs({ $filter: "VATNumber eq 'BE0403170701'" })}`);
		expect(list.json.Items.map((p: { PartyID: number }) => p.PartyID)).toEqual([r.json]);
	});

	it('a second POST without PartyID creates a second party (the node looks up first); with PartyID it updates', async () => {
		const a = (await post(emu, '/v1/parties', { Name: 'Twice BV', VATNumber: 'BE0417497106' })).json;
		const b = (await post(emu, '/v1/parties', { Name: 'Twice BV', VATNumber: 'BE0417497106' })).json;
		expect(b).not.toBe(a);
		const u = await post(emu, '/v1/parties', { PartyID: a, Email: 'ap@twice.example' });
		expect(u.json).toBe(a);
		expect((await get(emu, `/v1/parties/${a}`)).json).toMatchObject({ Name: 'Twice BV', Email: 'ap@twice.example' });
		refused(await post(emu, '/v1/parties', { PartyID: 1, Name: 'x' }), /Party 1 does not exist/);
	});

	it('PATCH /v1/parties/{id} changes only the fields sent, moves LastModified, answers the party (or an empty 200)', async () => {
		const id = (await post(emu, '/v1/parties', { Name: 'Patch Me BV', City: 'Gent' })).json;
		const before = (await get(emu, `/v1/parties/${id}`)).json;
		emu.clock.advance(5000);
		const r = await patch(`/v1/parties/${id}`, { City: 'Brussel', Name: 'Patched BV' });
		expect(r.json).toMatchObject({ PartyID: id, Name: 'Patched BV', DisplayName: 'Patched BV', City: 'Brussel', Created: before.Created });
		expect(r.json.LastModified > before.LastModified).toBe(true);
		emu.config.changeAnswer = 'empty';
		expect((await patch(`/v1/parties/${id}`, { City: 'Leuven' })).text).toBe('');
		expect((await patch('/v1/parties/1', { City: 'x' })).status).toBe(404);
		refused(await patch(`/v1/parties/${id}`, {}), /empty/);
		allowContractViolations('PATCHes PartyType, not patchable, to show it is dropped');
		await patch(`/v1/parties/${id}`, { PartyType: 'Friend', City: 'Gent' });
		expect(emu.contract.dropped().pop()).toMatchObject({ method: 'PATCH', dropped: ['PartyType'] });
		expect((await get(emu, `/v1/parties/${id}`)).json.PartyType).toBe(before.PartyType);
		refused(await patch(`/v1/parties/${id}`, { VATNumber: 12 }), /VATNumber must be a string/);
	});

	it('refuses a party without a name and a body that is not an object', async () => {
		allowContractViolations('sends a list where a Party object is published');
		refused(await post(emu, '/v1/parties', { VATNumber: 'BE0403170701' }), /needs a Name/);
		refused(await post(emu, '/v1/parties', [{ Name: 'x' }]), /must be a Party object/);
	});

	it('POST /v1/products takes one Product (answers its ProductID) or {Items: [...]} (a list of ids); with ProductID it updates', async () => {
		const one = await post(emu, '/v1/products', { Reference: 'PAPER-A4', Description: 'Paper', AmountExcl: 4.5, VAT: 21 });
		expect(typeof one.json).toBe('number');
		const many = await post(emu, '/v1/products', {
			Items: [
				{ Reference: 'INK-1', AmountExcl: 20 },
				{ ProductID: one.json, AmountExcl: 4.75 },
			],
		});
		expect(many.json).toEqual([expect.any(Number), one.json]);
		expect((await get(emu, `/v1/products/${one.json}`)).json).toMatchObject({ Reference: 'PAPER-A4', AmountExcl: 4.75, VAT: 21 });
		refused(await post(emu, '/v1/products', { Items: [{ Reference: 'OK-1' }, { ProductID: 1 }] }), /Product 1 does not exist/);
		expect((await get(emu, `/v1/products?${qs({ $filter: "Reference eq 'OK-1'" })}`)).json.Items).toEqual([]);
		refused(await post(emu, '/v1/products', { Reference: 'X', AmountExcl: '4' }), /AmountExcl must be a number/);
		refused(await post(emu, '/v1/products', { Items: [] }), /non-empty list/);
	});

	it('a supplier invoice arrives as a Cost order, not exported, with its PDF and received UBL, and is an Order insert', async () => {
		const events: Array<{ EntityType: string; EntityUpdateType: string; OrderID: number }> = [];
		const stop = emu.store.onChange((e) => events.push(e));
		const order = receiveInvoice(emu.store, emu.credentials.partyId, { supplier: { Name: 'Paper Co NV', VATNumber: 'BE0417497106' } });
		stop();
		expect(order).toMatchObject({
			OrderType: 'Invoice',
			OrderDirection: 'Cost',
			IsSent: false,
			OrderStatus: 'ToPay',
			Supplier: { Name: 'Paper Co NV', PartyType: 'Supplier' },
		});
		expect(events).toEqual([expect.objectContaining({ EntityType: 'Order', EntityUpdateType: 'I', OrderID: order.OrderID })]);
		const full = (await get(emu, `/v1/orders/${order.OrderID}`)).json;
		expect(full.OrderPDF.FileName).toBe(`${order.OrderNumber}.pdf`);
		expect(full.Attachments[0].FileName).toBe(`${order.OrderNumber}.xml`);
		const ubl = (await get(emu, `/v1/files/${full.Attachments[0].FileID}`)).json;
		expect(Buffer.from(ubl.FileContent, 'base64').toString('utf8')).toMatch(/<cac:AccountingSupplierParty>[\s\S]*Paper Co NV/);
		const open = await get(emu, `/v1/orders?${qs({ $filter: "OrderDirection eq 'Cost' and IsSent eq false" })}`);
		expect(open.json.Items.map((o: { OrderID: number }) => o.OrderID)).toContain(order.OrderID);
	});

	it('POST /_emulator/incoming does the same over HTTP, for the master party or a registration, and refuses bad input', async () => {
		const r = await call(emu, 'POST', '/_emulator/incoming', { auth: false, body: { type: 'CreditNote', orderNumber: 'CN-77' } });
		expect(r.json).toMatchObject({
			OrderType: 'CreditNote',
			OrderDirection: 'Cost',
			OrderNumber: 'CN-77',
			IsSent: false,
			CompanyID: Number(emu.credentials.partyId),
		});
		const entity = await call(emu, 'POST', '/_emulator/incoming', { auth: false, body: { partyId: '300001' } });
		expect(entity.json.CompanyID).toBe(300001);
		refused((await call(emu, 'POST', '/_emulator/incoming', { auth: false, body: { type: 'Offer' } })) as never, /Invoice or CreditNote/);
		refused((await call(emu, 'POST', '/_emulator/incoming', { auth: false, body: { partyId: '999' } })) as never, /Unknown party/);
	});
});
