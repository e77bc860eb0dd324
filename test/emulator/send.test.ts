import { Emu, get, orderBody, post, register, start } from './helpers';

const SEND = '/v1/orders/commands/send';

describe('send command', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 20 });
	});
	afterAll(() => emu.close());

	const create = async (customer: Record<string, unknown>, extra: Record<string, unknown> = {}, partyId?: string) => {
		const r = await post(emu, '/v1/orders', orderBody({ Customer: customer, ...extra }), { partyId });
		expect(r.status).toBe(200);
		return r.json as number;
	};
	const onPeppol = { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', Email: 'ap@demo.example' };
	const notOnPeppol = { Name: 'A+B Consulting', VATNumber: 'BE1002003070', Email: 'billing@ab.example' };

	it('sends over Peppol and records the delivery on the order', async () => {
		const id = await create(onPeppol);
		emu.clock.set('2024-05-01T08:00:00Z');
		const r = await post(emu, SEND, { Transporttype: 'Peppol', OrderIDs: [id] });
		expect(r.status).toBe(200);
		expect(r.json).toBe('OK');
		expect(r.text).toBe('"OK"');
		const o = (await get(emu, `/v1/orders/${id}`)).json;
		const at = expect.stringMatching(/^2024-05-01T10:00:00(\.\d+)?$/); // Belgian time, no zone
		expect(o).toMatchObject({ IsSent: true, OrderStatus: 'Sent', LastModified: at });
		expect(o.Messages).toEqual([
			{
				OrderID: id,
				FileID: expect.any(String),
				CreationDate: at,
				TransportType: 'Peppol',
				Success: true,
				Trials: 0,
				Destination: '9925:BE0123456749',
				MessageDirection: 'Outgoing',
			},
		]);
	});

	it('takes the OpenAPI spelling (SendRequest: TransportType, OrderIds) as well as Transporttype / OrderIDs', async () => {
		const id = await create(onPeppol);
		expect((await post(emu, SEND, { TransportType: 'Peppol', OrderIds: [id] })).status).toBe(200);
		expect((await get(emu, `/v1/orders/${id}`)).json).toMatchObject({ IsSent: true, OrderStatus: 'Sent' });
		expect((await post(emu, SEND, { TransportType: 'Peppol', OrderIds: [] })).status).toBe(400);
	});

	it('2026 rules: a named Peppol never falls back; without TransportType Peppol, else e-mail, else the published refusal', async () => {
		const named = await create(notOnPeppol);
		const refused = await post(emu, SEND, { TransportType: 'Peppol', OrderIDs: [named] });
		expect(refused.status).toBe(400);
		expect(refused.json.errors).toEqual([{ Code: 'TheCustomerIsNotActiveOnPeppol', Description: 'The customer is not active on Peppol.' }]);
		expect((await get(emu, `/v1/orders/${named}`)).json.IsSent).toBe(false);

		const [viaPeppol, viaMail, noAddress] = [await create(onPeppol), await create(notOnPeppol), await create({ Name: 'No VAT, no e-mail' })];
		expect((await post(emu, SEND, { OrderIDs: [viaPeppol, viaMail] })).status).toBe(200);
		expect((await get(emu, `/v1/orders/${viaPeppol}`)).json.Messages[0]).toMatchObject({ TransportType: 'Peppol', Destination: '9925:BE0123456749' });
		const mailed = (await get(emu, `/v1/orders/${viaMail}`)).json.Messages[0];
		expect(mailed).toMatchObject({ TransportType: 'SMTP', Destination: 'billing@ab.example' });
		expect(mailed.Description).toMatch(/not registered on Peppol/);
		const none = await post(emu, SEND, { OrderIDs: [noAddress] });
		expect(none.status).toBe(400);
		expect(none.json.errors[0].Code).toBe('TheCustomerIsNotActiveOnPeppol');
	});

	it('StrictTransportType forbids the e-mail: the whole batch is refused, one entry per failing order', async () => {
		const good = await create(onPeppol);
		const bad1 = await create(notOnPeppol);
		const bad2 = await create({ Name: 'No VAT' });
		const creditToInvoiceOnly = await create({ Name: 'Nederland Handel BV', VATNumber: 'NL123456789B01' }, { OrderType: 'CreditNote' });
		const r = await post(emu, SEND, { OrderIDs: [good, bad1, bad2, creditToInvoiceOnly] }, { headers: { StrictTransportType: 'true' } });
		expect(r.status).toBe(400);
		expect(r.json.errors).toHaveLength(3);
		for (const e of r.json.errors) expect(e.Code).toBe('TheCustomerIsNotActiveOnPeppol');
		for (const id of [good, bad1, bad2, creditToInvoiceOnly]) expect((await get(emu, `/v1/orders/${id}`)).json.IsSent).toBe(false);
		const retry = await post(emu, SEND, { Transporttype: 'Peppol', OrderIDs: [good] }, { headers: { StrictTransportType: 'true' } });
		expect(retry.status).toBe(200);
		expect((await get(emu, `/v1/orders/${good}`)).json.Messages[0].TransportType).toBe('Peppol');
	});

	it('rejects already sent and unknown orders, naming them', async () => {
		const id = await create(onPeppol);
		expect((await post(emu, SEND, { Transporttype: 'Peppol', OrderIDs: [id] })).status).toBe(200);
		const again = await post(emu, SEND, { Transporttype: 'Peppol', OrderIDs: [id] });
		expect(again.status).toBe(400);
		expect(again.json.errors[0]).toMatchObject({ Code: 'AlreadySent' });
		expect(again.json.errors[0].Description).toContain(String(id));
		const unknown = await post(emu, SEND, { Transporttype: 'Peppol', OrderIDs: [id, 77, 78] });
		expect(unknown.status).toBe(400);
		expect(unknown.json.errors.map((e: { Description: string }) => e.Description).join(' ')).toMatch(/77.*78/);
	});

	it('validates the body', async () => {
		const id = await create(onPeppol);
		for (const [b, re] of [
			[{ Transporttype: 7, OrderIDs: [id] }, /TransportType/],
			[{ Transporttype: 'Fax', OrderIDs: [id] }, /Fax/],
			[{ Transporttype: 'Email', OrderIDs: [id] }, /Email.*SMTP/],
			[{ Transporttype: 'Peppol', OrderIDs: [] }, /OrderIDs/],
			[{ Transporttype: 'Peppol' }, /OrderIDs/],
		] as Array<[Record<string, unknown>, RegExp]>) {
			const r = await post(emu, SEND, b);
			expect(r.status).toBe(400);
			expect(r.json.errors[0].Description).toMatch(re);
		}
	});

	it('sends by e-mail (SMTP, the published value) when asked, even to a customer on Peppol; no address is refused', async () => {
		const id = await create(onPeppol);
		expect((await post(emu, SEND, { Transporttype: 'SMTP', OrderIDs: [String(id)] })).status).toBe(200);
		expect((await get(emu, `/v1/orders/${id}`)).json.Messages[0]).toMatchObject({ TransportType: 'SMTP', Destination: 'ap@demo.example' });
		const noAddress = await create({ Name: 'No e-mail' });
		const r = await post(emu, SEND, { TransportType: 'SMTP', OrderIDs: [noAddress] });
		expect(r.status).toBe(400);
		expect(r.json.errors[0].Description).toMatch(/no e-mail address/);
	});

	it('answers 409 for a reused idempotency key and sends nothing new', async () => {
		const a = await create(onPeppol);
		const b = await create(onPeppol);
		expect((await post(emu, SEND, { Transporttype: 'Peppol', OrderIDs: [a] }, { headers: { 'Idempotency-Key': 'send-1' } })).status).toBe(200);
		const r = await post(emu, SEND, { Transporttype: 'Peppol', OrderIDs: [b] }, { headers: { 'Idempotency-Key': 'send-1' } });
		expect(r.status).toBe(409);
		expect(r.json.errors[0].Code).toBe('Conflict');
		expect((await get(emu, `/v1/orders/${b}`)).json.IsSent).toBe(false);
	});

	it("acts per party: an entity sends its own orders; another party's orders answer 401", async () => {
		const entity = String(await register(emu, 'sender'));
		const own = await create(onPeppol, {}, entity);
		const masterOrder = await create(onPeppol);
		expect((await post(emu, SEND, { Transporttype: 'Peppol', OrderIDs: [own] }, { partyId: entity })).status).toBe(200);
		expect(emu.store.getOrder(entity, own)?.IsSent).toBe(true);
		const foreign = await post(emu, SEND, { Transporttype: 'Peppol', OrderIDs: [masterOrder] }, { partyId: entity });
		expect(foreign.status).toBe(401);
		expect(emu.store.getOrder(emu.credentials.partyId, masterOrder)?.IsSent).toBe(false);
	});
});
