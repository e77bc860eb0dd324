import { Emu, get, orderBody, post, register, start } from './helpers';

describe('orders', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 50 });
	});
	afterAll(() => emu.close());

	it('reads one order by /v1/orders/{id}; /v1/order/{id} is not a path of the service (issue 36.5)', async () => {
		const id = emu.store.listOrders(emu.credentials.partyId)[0].OrderID;
		const b = await get(emu, `/v1/orders/${id}`);
		expect(b.status).toBe(200);
		expect(b.json).toMatchObject({ OrderID: id, OrderLines: expect.any(Array), Customer: expect.any(Object), CounterParty: expect.any(Object) });
		expect((await get(emu, `/v1/order/${id}`)).status).toBe(404);
		const nf = await get(emu, '/v1/orders/42');
		expect(nf.status).toBe(404);
		expect(nf.json.errors[0]).toMatchObject({ Code: 'GenericError' });
		expect(nf.json.errors[0].Description).toMatch(/42/);
	});

	it('creates an order: computed totals, Draft, timestamps, bare integer answer', async () => {
		emu.clock.set('2024-03-01T12:00:00.500Z');
		const r = await post(emu, '/v1/orders', orderBody({ ExternalProviderID: 'MY-1' }));
		expect(r.status).toBe(200);
		expect(r.text).toMatch(/^\d+$/);
		expect(typeof r.json).toBe('number');
		const o = (await get(emu, `/v1/orders/${r.json}`)).json;
		expect(o).toMatchObject({
			OrderID: r.json,
			OrderType: 'Invoice',
			OrderDirection: 'Income',
			OrderDate: '2024-03-01',
			ExpiryDate: '2024-03-31',
			OrderStatus: 'Draft',
			IsSent: false,
			ExternalProviderID: 'MY-1',
			TotalExcl: 121,
			TotalVAT: 10.41,
			TotalIncl: 131.41,
			Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
			CounterParty: { DisplayName: 'Peppol Demo Belgium NV', PartyType: 'Customer' },
			// As the service writes them: Belgian time (CET in March), milliseconds, no zone.
			Created: expect.stringMatching(/^2024-03-01T13:00:0\d\.\d+$/),
			LastModified: expect.stringMatching(/^2024-03-01T13:00:0\d\.\d+$/),
		});
		expect(o.OrderLines[0]).toMatchObject({ Quantity: 2, UnitPriceExcl: 10.5, VATPercentage: 21, AmountExcl: 21, AmountVAT: 4.41 });
		const slash = await post(emu, '/v1/orders/', orderBody());
		expect(slash.status).toBe(200);
		expect(slash.json).toBe(r.json + 1);
		const listed = await get(emu, `/v1/orders?$filter=${encodeURIComponent("ExternalProviderID eq 'MY-1'")}`);
		expect(listed.json.Items.map((x: { OrderID: number }) => x.OrderID)).toEqual([r.json]);
	});

	it.each([
		[{ OrderType: 'Bill' }, /OrderType/],
		[{ OrderType: undefined }, /OrderType/],
		[{ OrderDirection: 'Sideways' }, /OrderDirection/],
		[{ OrderDate: '01/03/2024' }, /OrderDate/],
		[{ OrderDate: '2024-02-30' }, /OrderDate/],
		[{ ExpiryDate: 'tomorrow' }, /ExpiryDate/],
		[{ OrderLines: [] }, /OrderLines/],
		[{ OrderLines: [{ Quantity: 1, Description: 'x', VATPercentage: 21 }] }, /OrderLines\[0\]\.UnitPriceExcl/],
		[{ OrderLines: [{ Quantity: '1', Description: 'x', UnitPriceExcl: 1, VATPercentage: 21 }] }, /OrderLines\[0\]\.Quantity/],
		[{ Customer: { VATNumber: 'BE0123456749' } }, /Customer must be a party object with a Name/],
		[{ Customer: undefined }, /Customer \(or CounterParty, or its ID\) is required/],
		[{ Customer: undefined, CustomerID: 999999 }, /CustomerID 999999 is not a party/],
		[{ OrderLines: [{ ProductID: 999999 }] }, /OrderLines\[0\]\.ProductID 999999 is not a product/],
	])('rejects invalid create %#', async (extra, re) => {
		const r = await post(emu, '/v1/orders', orderBody(extra));
		expect(r.status).toBe(400);
		expect(r.json.errors[0].Code).toBe('GenericError');
		expect(r.json.errors[0].Description).toMatch(re);
	});

	it('takes what the OpenAPI Order documents: IDs for customer and products, CounterParty, PaymentMethod, CustomFields, a date-time OrderDate', async () => {
		const party = emu.store.listParties(emu.credentials.partyId)[0];
		const product = emu.store.listProducts(emu.credentials.partyId)[0];
		const byId = await post(emu, '/v1/orders', {
			OrderType: 'Invoice',
			OrderDirection: 'Income',
			OrderDate: '2024-03-01T00:00:00',
			CustomerID: party.PartyID,
			OrderLines: [{ ProductID: product.ProductID }],
			PaymentMethod: 'Transfer',
			CustomFields: { Project: 'P-7' },
			Undocumented: 'dropped',
		});
		expect(byId.status).toBe(200);
		const o = (await get(emu, `/v1/orders/${byId.json}`)).json;
		expect(o).toMatchObject({ OrderDate: '2024-03-01', PaymentMethod: 'Transfer', CustomFields: { Project: 'P-7' }, Customer: { Name: party.Name } });
		expect(o.OrderLines[0]).toMatchObject({
			Quantity: 1,
			Description: product.Description,
			UnitPriceExcl: product.UnitPriceExcl,
			VATPercentage: product.VATPercentage,
		});
		expect(o).not.toHaveProperty('Undocumented');
		const purchase = await post(
			emu,
			'/v1/orders',
			orderBody({ OrderDirection: 'Cost', Customer: undefined, CounterParty: { Name: 'Office Supplies NV', VATNumber: 'BE0456789133' } }),
		);
		expect(purchase.status).toBe(200);
		expect((await get(emu, `/v1/orders/${purchase.json}`)).json.Supplier).toMatchObject({ Name: 'Office Supplies NV' });
	});

	it('answers 409 for a reused Idempotency-Key / Idempotent-Key, per party', async () => {
		const first = await post(emu, '/v1/orders', orderBody(), { headers: { 'Idempotency-Key': 'key-1' } });
		expect(first.status).toBe(200);
		const before = emu.store.listOrders(emu.credentials.partyId).length;
		const again = await post(emu, '/v1/orders', orderBody(), { headers: { 'Idempotency-Key': 'key-1' } });
		expect(again.status).toBe(409);
		expect(again.json).toEqual({ errors: [{ Code: 'Conflict', Description: `Idempotency key already used for order ${first.json}` }] });
		const alt = await post(emu, '/v1/orders', orderBody(), { headers: { 'Idempotent-Key': 'key-1' } });
		expect(alt.status).toBe(409);
		expect(emu.store.listOrders(emu.credentials.partyId).length).toBe(before);
		const invalid = await post(emu, '/v1/orders', orderBody({ OrderType: 'x' }), { headers: { 'Idempotency-Key': 'key-2' } });
		expect(invalid.status).toBe(400);
		expect((await post(emu, '/v1/orders', orderBody(), { headers: { 'Idempotency-Key': 'key-2' } })).status).toBe(200);
		const entity = String(await register(emu, 'idem'));
		expect((await post(emu, '/v1/orders', orderBody(), { partyId: entity, headers: { 'Idempotency-Key': 'key-1' } })).status).toBe(200);
	});

	it("keeps per-party order books apart; another party's order answers 401", async () => {
		const entity = String(await register(emu, 'books'));
		const empty = await get(emu, '/v1/orders', { partyId: entity });
		expect(empty.json).toMatchObject({ Items: [], Count: 0 });
		const created = await post(emu, '/v1/orders', orderBody({ ExternalProviderID: 'ENT-1' }), { partyId: entity });
		expect(created.status).toBe(200);
		const mine = await get(emu, '/v1/orders', { partyId: entity });
		expect(mine.json.Items.map((o: { OrderID: number }) => o.OrderID)).toEqual([created.json]);
		expect(mine.json.Items[0].CompanyID).toBe(Number(entity));
		const masterView = await get(emu, `/v1/orders/${created.json}`);
		expect(masterView.status).toBe(401);
		expect(masterView.json.errors[0].Code).toBe('Unauthorized');
		const masterList = await get(emu, `/v1/orders?$filter=${encodeURIComponent("ExternalProviderID eq 'ENT-1'")}`);
		expect(masterList.json.Count).toBe(0);
		expect(emu.store.listOrders(entity)).toHaveLength(1);
		const otherOrder = emu.store.listOrders(emu.otherAccount.partyId)[0].OrderID;
		expect((await get(emu, `/v1/orders/${otherOrder}`)).status).toBe(401);
		expect((await get(emu, `/v1/orders/${otherOrder}`, { apiKey: emu.otherAccount.apiKey, partyId: emu.otherAccount.partyId })).status).toBe(200);
	});
});
