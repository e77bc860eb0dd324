/**
 * AccessPoint Order › Create and Get against the emulator (and nock for the single-order
 * path fallback): "skip if already created", JSON mode, validation before any request,
 * continueOnFail, fetch full order, Act for Party.
 */
import nock from 'nock';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import type { Logged } from '../emulator/helpers';
import { createHarness } from '../harness';
import type { Harness } from '../harness';

const NODE = 'accessPointOrder';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('AccessPoint Order › Create and Get', () => {
	let h: Harness;
	let counter = 0;
	const uniqueId = (tag: string) => `${tag}-${Date.now().toString(36)}-${++counter}`;

	const createParams = (over: IDataObject = {}): IDataObject => ({
		resource: 'order',
		operation: 'create',
		orderType: 'Invoice',
		orderDirection: 'Income',
		orderDate: '2024-03-01',
		customerName: 'ACME NV',
		customerVatNumber: 'BE0123456749',
		orderLines: { lines: [{ description: 'Consulting', quantity: 2, unitPriceExcl: 50, vatPercentage: 21 }] },
		...over,
	});

	const logged = (): Logged[] => (h.emulator.requests as Logged[]).filter((r) => r.path.startsWith('/v1/'));
	const masterOrders = (): Rec[] => [...h.emulator.store.book(h.emulator.credentials.partyId).values()];
	const byExternalId = (id: string, orders = masterOrders()) => orders.filter((o) => o.ExternalProviderID === id);
	// Issue 39: a made order outputs the number and totals the service holds (1.250,00 checked at a glance).
	const summary = (o: Rec) => ({
		OrderID: o.OrderID,
		OrderNumber: o.OrderNumber,
		OrderDate: o.OrderDate,
		TotalExcl: o.TotalExcl,
		TotalVAT: o.TotalVAT,
		TotalIncl: o.TotalIncl,
		Currency: o.Currency,
	});

	async function run(parameters: IDataObject, input?: IDataObject[], nodeOptions: IDataObject = {}) {
		const result = await h.runNode(NODE, parameters, input, nodeOptions);
		const name = result.nodeName as string;
		return { result, name, items: result.output(name) as Rec[] };
	}

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 200 } });
	});

	afterAll(async () => {
		nock.cleanAll();
		await h?.close();
	});

	beforeEach(() => h.emulator.clearRequests());

	describe('Create', () => {
		it('sends the order body and outputs the OrderID from the bare-integer answer, with the number and totals read back', async () => {
			const externalId = uniqueId('plain');
			const { items } = await run(
				createParams({ externalProviderId: externalId, additionalFields: { OrderNumber: 'INV-X1', ExpiryDate: '2024-03-31T00:00:00' } }),
			);
			const [created] = byExternalId(externalId);
			expect(items).toEqual([{ ...summary(created), AlreadyExisted: false }]);
			expect(items[0]).toMatchObject({ OrderNumber: 'INV-X1', TotalExcl: 100, TotalIncl: 121, Currency: 'EUR' });
			const post = logged().find((r) => r.method === 'POST');
			expect(post?.body).toEqual({
				OrderType: 'Invoice',
				OrderDirection: 'Income',
				OrderDate: '2024-03-01',
				ExpiryDate: '2024-03-31',
				OrderNumber: 'INV-X1',
				ExternalProviderID: externalId,
				Customer: { Name: 'ACME NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
				OrderLines: [{ Quantity: 2, Description: 'Consulting', VATPercentage: 21, UnitPriceExcl: 50 }],
			});
		});

		it('issue 28.2: line amounts typed with a decimal comma or grouped thousands are sent as typed, and the totals follow', async () => {
			const externalId = uniqueId('comma');
			const lines = [
				{ description: 'Consulting', quantity: '1,5', unitPriceExcl: '1.250,00', vatPercentage: '21' },
				{ description: 'Licence', quantity: '2', unitPriceExcl: '12,50', vatPercentage: '5,5' },
			];
			await run(createParams({ externalProviderId: externalId, orderLines: { lines } }));
			const post = logged().find((r) => r.method === 'POST');
			expect((post?.body as Rec).OrderLines).toEqual([
				{ Quantity: 1.5, Description: 'Consulting', VATPercentage: 21, UnitPriceExcl: 1250 },
				{ Quantity: 2, Description: 'Licence', VATPercentage: 5.5, UnitPriceExcl: 12.5 },
			]);
			expect(byExternalId(externalId)[0]).toMatchObject({ TotalExcl: 1900 });
		});

		it('issue 28.2: a line price that could be thousands or decimals ("1,250") is refused before any request, naming line and field', async () => {
			const { result, name } = await run(
				createParams({ orderLines: { lines: [{ description: 'x', quantity: '1', unitPriceExcl: '1,250', vatPercentage: '21' }] } }),
			);
			expect(result.nodeError(name)?.message).toBe(
				'Item 0: "Order Lines › Line 1 › Unit Price Excl. VAT" 1,250 is ambiguous ("," may separate thousands or decimals)',
			);
			expect(result.nodeError(name)?.description).toBe('Write 1250 for thousands or 1.25 for decimals.');
			expect(logged()).toEqual([]);
		});

		it('Skip If Already Created: running twice creates one order and returns it the second time', async () => {
			const externalId = uniqueId("ERP-'quoted' & #1");
			const first = await run(createParams({ externalProviderId: externalId }));
			const second = await run(createParams({ externalProviderId: externalId }));
			const matches = byExternalId(externalId);
			expect(matches).toHaveLength(1);
			expect(first.items[0]).toEqual({ ...summary(matches[0]), AlreadyExisted: false });
			expect(second.items[0]).toMatchObject({ OrderID: matches[0].OrderID, AlreadyExisted: true, ExternalProviderID: externalId });
			const posts = logged().filter((r) => r.method === 'POST');
			expect(posts).toHaveLength(1);
			const lookups = logged().filter((r) => r.method === 'GET' && r.path === '/v1/orders');
			expect(lookups).toHaveLength(2);
			expect(lookups[0].query.$filter).toBe(`ExternalProviderID eq '${externalId.replace(/'/g, "''")}'`);
		});

		it('Skip If Already Created also holds between items of one run', async () => {
			const externalId = uniqueId('same-run');
			const { items } = await run(createParams({ externalProviderId: '={{ $json.ext }}' }), [{ ext: externalId }, { ext: externalId }]);
			expect(byExternalId(externalId)).toHaveLength(1);
			expect(items.map((i) => i.AlreadyExisted)).toEqual([false, true]);
			expect(items[0].OrderID).toBe(items[1].OrderID);
		});

		it('with Skip If Already Created off, running twice creates two orders', async () => {
			const externalId = uniqueId('twice');
			await run(createParams({ externalProviderId: externalId, skipIfExists: false }));
			await run(createParams({ externalProviderId: externalId, skipIfExists: false }));
			expect(byExternalId(externalId)).toHaveLength(2);
			expect(logged().filter((r) => r.method === 'GET' && r.path === '/v1/orders')).toHaveLength(0); // no lookup; each made order is read back
		});

		it('without an External Provider ID there is no lookup (the made order is read back for its number and totals)', async () => {
			const { items } = await run(createParams());
			expect(logged().map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/orders', `GET /v1/orders/${String(items[0].OrderID)}`]);
		});

		it('Fetch Full Order reads the created order (GET /v1/orders/{id}, the published path)', async () => {
			const externalId = uniqueId('full');
			const { items } = await run(createParams({ externalProviderId: externalId, options: { fetchFullOrder: true } }));
			const [created] = byExternalId(externalId);
			expect(items[0]).toMatchObject({ OrderID: created.OrderID, TotalExcl: 100, TotalIncl: 121, AlreadyExisted: false });
			expect(items[0].OrderNumber).toEqual(expect.any(String));
			expect(logged().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/orders', 'POST /v1/orders', `GET /v1/orders/${created.OrderID}`]);
		});

		it('JSON mode creates from an order mapped from the input item', async () => {
			const externalId = uniqueId('json');
			const order = {
				OrderType: 'CreditNote',
				OrderDirection: 'Income',
				OrderDate: '2024-04-02',
				ExpiryDate: '2024-05-02',
				ExternalProviderID: externalId,
				Customer: { Name: "O'Brien & Sons Ltd", VATNumber: 'IE1234567T', PartyType: 'Customer' },
				OrderLines: [
					{ Quantity: 1, Description: 'Refund', VATPercentage: 21, UnitPriceExcl: 10 },
					{ Quantity: '3', Description: 'Parts', VATPercentage: '6', UnitPriceExcl: '2.5' },
				],
			};
			const { items } = await run({ resource: 'order', operation: 'create', inputMode: 'json', orderJson: '={{ $json.order }}' }, [{ order }]);
			const [created] = byExternalId(externalId);
			expect(created).toMatchObject({ OrderType: 'CreditNote', OrderDate: '2024-04-02', TotalExcl: 17.5 });
			expect(items).toEqual([{ ...summary(created), AlreadyExisted: false }]);
			expect(logged().find((r) => r.method === 'POST')?.body?.OrderLines[1]).toEqual({
				Quantity: 3,
				Description: 'Parts',
				VATPercentage: 6,
				UnitPriceExcl: 2.5,
			});
		});

		it.each<[string, IDataObject, string]>([
			[
				'expiry before the order date',
				{ additionalFields: { ExpiryDate: '2024-02-01' } },
				'Item 0: "Expiry Date" 2024-02-01 is before the order date 2024-03-01',
			],
			['an order date that is not a date', { orderDate: '01/03/2024' }, 'Item 0: "Order Date" 01/03/2024 is not a real date in the form YYYY-MM-DD'],
			['no order lines', { orderLines: {} }, 'Item 0: "Order Lines" needs at least one line'],
			[
				'a quantity that is not a number',
				{ orderLines: { lines: [{ description: 'x', quantity: '={{ "two" }}', unitPriceExcl: 1, vatPercentage: 21 }] } },
				'Item 0: "Order Lines › Line 1 › Quantity" two is not a number',
			],
			['no customer name (mapped empty)', { customerName: '={{ "" }}' }, 'Item 0: "Customer Name" is required'],
		])('rejects %s before any request', async (_name, over, message) => {
			const { result, name } = await run(createParams({ externalProviderId: uniqueId('bad'), ...over }));
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toBe(message);
			expect(logged()).toHaveLength(0);
		});

		it('rejects invalid JSON text in JSON mode', async () => {
			const { result, name } = await run({ resource: 'order', operation: 'create', inputMode: 'json', orderJson: '{ "OrderType": ' });
			expect(result.nodeError(name)?.message).toMatch(/^Item 0: "Order \(JSON\)" is not valid JSON/);
			expect(logged()).toHaveLength(0);
		});

		it('with continueOnFail a bad item becomes an error item paired to it and the others are created', async () => {
			const ids = [uniqueId('cof-a'), uniqueId('cof-b'), uniqueId('cof-c')];
			const { result, name } = await run(
				createParams({ externalProviderId: '={{ $json.ext }}', orderDate: '={{ $json.date }}' }),
				[
					{ ext: ids[0], date: '2024-03-01' },
					{ ext: ids[1], date: '2024-02-30' },
					{ ext: ids[2], date: '2024-03-02' },
				],
				{ onError: 'continueRegularOutput' },
			);
			const items = result.items(name);
			expect(items).toHaveLength(3);
			expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(items[1].json.error).toBe('Item 1: "Order Date" 2024-02-30 is not a real date in the form YYYY-MM-DD');
			expect(items[0].json.OrderID).toBe(byExternalId(ids[0])[0].OrderID);
			expect(items[2].json.OrderID).toBe(byExternalId(ids[2])[0].OrderID);
			expect(byExternalId(ids[1])).toHaveLength(0);
		});

		it('a server error on create is a NodeApiError and the create is not retried blindly', async () => {
			h.emulator.failNext(1, 503, { method: 'POST', pathPrefix: '/v1/orders' });
			const { result, name } = await run(createParams({ skipIfExists: false }));
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeApiError);
			expect((error as unknown as NodeApiError).httpCode).toBe('503');
			expect(logged().filter((r) => r.method === 'POST')).toHaveLength(1);
		});
	});

	describe('Get', () => {
		it('reads one order by ID with GET /v1/orders/{ID} only, the published path (issue 36.5): one request', async () => {
			const [order] = masterOrders();
			const { items } = await run({ resource: 'order', operation: 'get', orderId: String(order.OrderID) });
			expect(items).toEqual([expect.objectContaining({ OrderID: order.OrderID, OrderNumber: order.OrderNumber })]);
			expect(logged().map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/orders/${order.OrderID}`]);
		});

		it('rejects an Order that is not an OrderID before any request', async () => {
			const { result, name } = await run({ resource: 'order', operation: 'get', orderId: 'INV-1' });
			expect(result.nodeError(name)?.message).toBe('Item 0: "Order" INV-1 is not an OrderID');
			expect(logged()).toHaveLength(0);
		});

		describe('path (nock)', () => {
			const base = 'https://api.example.test';
			const runOptions = { credentialsOverride: { environment: 'custom', baseUrl: base, apiKey: 'k', partyId: '1' } };

			afterEach(() => nock.cleanAll());

			it('a 404 is the answer: no other path is tried; a saved Single Order Path of 1.0 changes nothing', async () => {
				const scope = nock(base)
					.get('/v1/orders/77')
					.reply(404, { errors: [{ Code: 'GenericError', Description: 'Order 77 not found' }] });
				const { result, name } = await run({ resource: 'order', operation: 'get', orderId: '77', options: { singleOrderPath: 'order' } }, undefined, {
					runOptions,
				});
				expect(result.nodeError(name)).toBeInstanceOf(NodeApiError);
				expect(scope.isDone()).toBe(true);
				expect(nock.pendingMocks()).toHaveLength(0);
			});
		});
	});

	describe('Act for Party', () => {
		const demoParty = (): string => {
			const regs = [...h.emulator.store.registrations.values()] as Rec[];
			return String(regs.find((r) => r.details?.CompanyName === 'Demo Entity BV')?.PartyID);
		};

		it('lists and creates in the chosen party’s order book, not the master’s', async () => {
			const party = demoParty();
			const book = () => [...h.emulator.store.book(party).values()] as Rec[];
			const { items } = await run({ resource: 'order', operation: 'getAll', returnAll: true, options: { actForParty: party } });
			expect(items.map((o) => o.OrderID).sort()).toEqual(
				book()
					.map((o) => o.OrderID)
					.sort(),
			);
			expect(logged()[0].headers.partyid).toBe(party);

			const externalId = uniqueId('demo');
			await run(createParams({ externalProviderId: externalId, options: { actForParty: '={{ $json.party }}' } }), [{ party }]);
			expect(byExternalId(externalId, book())).toHaveLength(1);
			expect(byExternalId(externalId)).toHaveLength(0);
			expect(logged().every((r) => r.headers.partyid === party)).toBe(true);
		});
	});
});
