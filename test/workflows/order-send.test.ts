/**
 * AccessPoint Order › Send and Create and Send against the emulator: Peppol delivery,
 * strict transport failing one order while the rest of the batch goes out, the e-mail
 * fallback report, re-runs that send nothing new, idempotency conflicts, batching by
 * transport type and party, and acting for two parties.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import type { Logged } from '../emulator/helpers';
import { createHarness } from '../harness';
import type { Harness } from '../harness';

const NODE = 'accessPointOrder';
const PEPPOL_VAT = 'BE0123456749';
const NOT_ON_PEPPOL_VAT = 'BE1002003070';
const DEMO_PARTY = '300001';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('AccessPoint Order › Send and Create and Send', () => {
	let h: Harness;
	let counter = 0;
	const uniqueId = (tag: string) => `${tag}-${Date.now().toString(36)}-${++counter}`;

	const logged = (): Logged[] => (h.emulator.requests as Logged[]).filter((r) => r.path.startsWith('/v1/'));
	const sends = () => logged().filter((r) => r.method === 'POST' && r.path === '/v1/orders/commands/send');
	const master = () => h.emulator.credentials.partyId as string;
	const book = (party: string): Rec[] => [...h.emulator.store.book(party).values()];
	const stored = (id: number, party = master()): Rec => h.emulator.store.book(party).get(id);

	/** A draft invoice straight in the emulator's book, for Send. */
	const draft = (vat: string, party = master(), over: Rec = {}): number =>
		h.emulator.store.addOrder(party, {
			OrderType: 'Invoice',
			OrderDirection: 'Income',
			Customer: { Name: `Customer ${vat}`, VATNumber: vat, Email: 'ap@customer.example' },
			OrderStatus: 'Draft',
			IsSent: false,
			...over,
		}).OrderID as number;

	const createAndSendParams = (over: IDataObject = {}): IDataObject => ({
		resource: 'order',
		operation: 'createAndSend',
		orderType: 'Invoice',
		orderDirection: 'Income',
		orderDate: '2024-03-01',
		customerName: 'Peppol Demo Belgium NV',
		customerVatNumber: PEPPOL_VAT,
		orderLines: { lines: [{ description: 'Consulting', quantity: 2, unitPriceExcl: 50, vatPercentage: 21 }] },
		...over,
	});

	const sendParams = (over: IDataObject = {}): IDataObject => ({
		resource: 'order',
		operation: 'send',
		orderIds: '={{ $json.OrderID }}',
		...over,
	});

	async function run(parameters: IDataObject, input?: IDataObject[], nodeOptions: IDataObject = {}) {
		const result = await h.runNode(NODE, parameters, input, nodeOptions);
		const name = result.nodeName as string;
		return { result, name, items: result.output(name) as Rec[], full: result.items(name) };
	}

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 50 } });
	});

	afterAll(async () => {
		await h?.close();
	});

	beforeEach(() => h.emulator.clearRequests());

	describe('Create and Send', () => {
		it('issue 36.2: the default "Peppol, Else E-Mail" sends no TransportType; a Peppol receiver gets it over Peppol, not yet said to be delivered', async () => {
			const externalId = uniqueId('peppol');
			const { items, full } = await run(createAndSendParams({ externalProviderId: externalId }));
			const [order] = book(master()).filter((o) => o.ExternalProviderID === externalId);
			expect(items).toEqual([
				expect.objectContaining({
					OrderID: order.OrderID,
					ExternalProviderID: externalId,
					AlreadyExisted: false,
					sent: true,
					alreadySent: false,
					transportType: null,
					strict: false,
					sentVia: 'Peppol',
					fallback: false,
					sentAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/),
					deliveryStatus: 'Pending',
					OrderStatus: 'Sent',
					IsSent: true,
				}),
			]);
			expect(items[0]).not.toHaveProperty('deliveredAt');
			expect(full[0].pairedItem).toEqual({ item: 0 });
			expect(order.IsSent).toBe(true);
			expect(order.Messages).toEqual([expect.objectContaining({ TransportType: 'Peppol' })]);

			expect(logged().map((r) => `${r.method} ${r.path}`)).toEqual([
				'GET /v1/orders',
				'POST /v1/orders',
				'POST /v1/orders/commands/send',
				`GET /v1/orders/${order.OrderID}`,
			]);
			const [create, send] = logged().filter((r) => r.method === 'POST');
			expect(create.headers['idempotency-key']).toBe(`create-${externalId}`);
			expect(send.body).toEqual({ OrderIDs: [order.OrderID] });
			expect(send.headers['idempotency-key']).toBe(`send-PeppolElseEmail-${order.OrderID}`);
			expect(send.headers.stricttransporttype).toBeUndefined();
		});

		it('a re-run with the same ExternalProviderID sends nothing new', async () => {
			const externalId = uniqueId('rerun');
			const first = await run(createAndSendParams({ externalProviderId: externalId, strictTransportType: true }));
			h.emulator.clearRequests();
			const second = await run(createAndSendParams({ externalProviderId: externalId, strictTransportType: true }));

			const orders = book(master()).filter((o) => o.ExternalProviderID === externalId);
			expect(orders).toHaveLength(1);
			expect(orders[0].Messages).toHaveLength(1);
			expect(first.items[0]).toMatchObject({ OrderID: orders[0].OrderID, AlreadyExisted: false, sent: true, alreadySent: false });
			expect(second.items[0]).toMatchObject({
				OrderID: orders[0].OrderID,
				AlreadyExisted: true,
				sent: true,
				alreadySent: true,
				sentVia: 'Peppol',
			});
			expect(logged().filter((r) => r.method === 'POST')).toEqual([]);
		});

		it('an order created earlier but never sent is found and sent (not created again)', async () => {
			const externalId = uniqueId('created-only');
			await run({ ...createAndSendParams({ externalProviderId: externalId }), operation: 'create' });
			const [created] = book(master()).filter((o) => o.ExternalProviderID === externalId);
			expect(created.IsSent).toBe(false);
			h.emulator.clearRequests();

			const { items } = await run(createAndSendParams({ externalProviderId: externalId }));
			expect(items[0]).toMatchObject({ OrderID: created.OrderID, AlreadyExisted: true, sent: true, alreadySent: false, sentVia: 'Peppol' });
			expect(book(master()).filter((o) => o.ExternalProviderID === externalId)).toHaveLength(1);
			expect(
				logged()
					.filter((r) => r.method === 'POST')
					.map((r) => r.path),
			).toEqual(['/v1/orders/commands/send']);
		});

		it('several items: one create each, then one send call for all; one output per item', async () => {
			const ids = [uniqueId('multi'), uniqueId('multi'), uniqueId('multi')];
			const { items, full } = await run(
				createAndSendParams({ externalProviderId: '={{ $json.ext }}' }),
				ids.map((ext) => ({ ext })),
			);
			expect(items.map((i) => i.ExternalProviderID)).toEqual(ids);
			expect(items.every((i) => i.sent === true && i.sentVia === 'Peppol')).toBe(true);
			expect(full.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(sends()).toHaveLength(1);
			expect(sends()[0].body?.OrderIDs).toEqual(items.map((i) => i.OrderID));
		});

		it('Strict saved by 1.0 (default transport) is Peppol only: to a receiver not on Peppol the order is created, not sent, and the item fails clearly', async () => {
			const externalId = uniqueId('strict-cs');
			const { result, name } = await run(
				createAndSendParams({
					externalProviderId: externalId,
					customerName: 'A+B Consulting',
					customerVatNumber: NOT_ON_PEPPOL_VAT,
					strictTransportType: true,
				}),
			);
			expect(result.status).toBe('error');
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeApiError);
			const [order] = book(master()).filter((o) => o.ExternalProviderID === externalId);
			expect(error?.message).toBe(
				`Order ${order.OrderID} (${order.OrderNumber}) was not sent: A+B Consulting (BE1002003070) is not active on Peppol (TheCustomerIsNotActiveOnPeppol)`,
			);
			expect(String(error?.description)).toContain('Peppol, Else E-Mail');
			expect(sends()[0].body).toEqual({ Transporttype: 'Peppol', OrderIDs: [order.OrderID] });
			expect(order.IsSent).toBe(false);
			expect(sends()[0].headers.stricttransporttype).toBe('true');
		});

		it('validates every item before any request', async () => {
			const { result, name } = await run(createAndSendParams({ externalProviderId: '={{ $json.ext }}', customerName: '={{ $json.name }}' }), [
				{ ext: uniqueId('ok'), name: 'Fine NV' },
				{ ext: uniqueId('bad'), name: '' },
			]);
			expect(result.status).toBe('error');
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toBe('Item 1: "Customer Name" is required');
			expect(logged()).toEqual([]);
		});
	});

	describe('Send', () => {
		it('issue 36.2: Peppol Only, a batch with one customer not on Peppol: the published refusal names no order, so each goes alone; that item fails naming order and customer, the others are sent', async () => {
			const a = draft(PEPPOL_VAT);
			const b = draft(NOT_ON_PEPPOL_VAT);
			const c = draft(PEPPOL_VAT);
			const { items, full } = await run(sendParams({ transportType: 'Peppol' }), [{ OrderID: a }, { OrderID: b }, { OrderID: c }], {
				onError: 'continueRegularOutput',
			});

			expect(items[0]).toMatchObject({ OrderID: a, sent: true, alreadySent: false, transportType: 'Peppol', sentVia: 'Peppol', fallback: false });
			expect(items[2]).toMatchObject({ OrderID: c, sent: true, sentVia: 'Peppol', fallback: false });
			expect(items[1]).toEqual({
				error: `Order ${b} (${stored(b).OrderNumber}) was not sent: Customer BE1002003070 (BE1002003070) is not active on Peppol (TheCustomerIsNotActiveOnPeppol)`,
				description: expect.stringContaining('Peppol, Else E-Mail'),
				httpCode: '400',
				code: 'TheCustomerIsNotActiveOnPeppol',
			});
			expect(full.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);

			expect(stored(a).IsSent).toBe(true);
			expect(stored(b).IsSent).toBe(false);
			expect(stored(c).IsSent).toBe(true);
			const calls = sends();
			expect(calls.map((r) => [r.body?.OrderIDs, r.status])).toEqual([
				[[a, b, c], 400],
				[[a], 200],
				[[b], 400],
				[[c], 200],
			]);
			expect(calls.every((r) => r.body?.Transporttype === 'Peppol' && r.headers.stricttransporttype === undefined)).toBe(true);
		});

		it('Peppol Only without continue on fail: the node fails on that item, the others are still sent', async () => {
			const a = draft(PEPPOL_VAT);
			const b = draft(NOT_ON_PEPPOL_VAT);
			const { result, name } = await run(sendParams({ transportType: 'Peppol' }), [{ OrderID: a }, { OrderID: b }]);
			expect(result.status).toBe('error');
			const error = result.nodeError(name) as unknown as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toContain(`Order ${b} (${stored(b).OrderNumber}) was not sent: Customer BE1002003070 (BE1002003070) is not active on Peppol`);
			expect(error.context.itemIndex).toBe(1);
			expect(stored(a).IsSent).toBe(true);
			expect(stored(b).IsSent).toBe(false);
		});

		it('issue 36.2: "Peppol, Else E-Mail" (no TransportType): the same receiver gets the order by e-mail (SMTP) and the output reports the fallback', async () => {
			const a = draft(PEPPOL_VAT);
			const b = draft(NOT_ON_PEPPOL_VAT);
			const { items } = await run(sendParams(), [{ OrderID: a }, { OrderID: b }]);
			expect(items[0]).toMatchObject({ OrderID: a, sentVia: 'Peppol', fallback: false });
			expect(items[1]).toMatchObject({
				OrderID: b,
				sent: true,
				alreadySent: false,
				transportType: null,
				strict: false,
				sentVia: 'SMTP',
				fallback: true,
				OrderStatus: 'Sent',
			});
			expect(items[1].sentInfo).toContain('not registered on Peppol');
			expect(sends().map((r) => r.body)).toEqual([{ OrderIDs: [a, b] }]);
			expect(sends()[0].headers.stricttransporttype).toBeUndefined();
			expect(stored(b).Messages[0]).toMatchObject({ TransportType: 'SMTP', Destination: 'ap@customer.example' });
		});

		it('an order sent before is reported as alreadySent (AlreadySent answer), the rest of the batch goes out', async () => {
			const a = draft(PEPPOL_VAT);
			const d = draft(PEPPOL_VAT);
			await run(sendParams(), [{ OrderID: a }]);
			h.emulator.clearRequests();

			const { items } = await run(sendParams(), [{ OrderID: a }, { OrderID: d }]);
			expect(items).toEqual([
				expect.objectContaining({ OrderID: a, sent: true, alreadySent: true, sentVia: 'Peppol' }),
				expect.objectContaining({ OrderID: d, sent: true, alreadySent: false, sentVia: 'Peppol' }),
			]);
			expect(stored(a).Messages).toHaveLength(1);
			expect(sends().map((r) => [r.body?.OrderIDs, r.status])).toEqual([
				[[a, d], 400],
				[[d], 200],
			]);
		});

		it('the same send repeated: the reused idempotency key (409) reads as alreadySent, nothing is sent twice', async () => {
			const a = draft(NOT_ON_PEPPOL_VAT);
			const first = await run(sendParams(), [{ OrderID: a }]);
			const second = await run(sendParams(), [{ OrderID: a }]);
			expect(first.items[0]).toMatchObject({ alreadySent: false, sentVia: 'SMTP', fallback: true });
			expect(second.items[0]).toMatchObject({ OrderID: a, sent: true, alreadySent: true, sentVia: 'SMTP', fallback: true });
			expect(sends().map((r) => r.status)).toEqual([200, 409]);
			expect(stored(a).Messages).toHaveLength(1);
		});

		it('continue (using error output): the refused order goes to the error output, the others to the main output', async () => {
			const a = draft(PEPPOL_VAT);
			const b = draft(NOT_ON_PEPPOL_VAT);
			const { result, name } = await run(sendParams({ transportType: 'Peppol' }), [{ OrderID: a }, { OrderID: b }], {
				onError: 'continueErrorOutput',
			});
			expect(result.output(name, 0).map((i) => i.OrderID)).toEqual([a]);
			expect(result.output(name, 1)).toEqual([{ error: expect.stringMatching(new RegExp(`^Order ${b} .* \\(TheCustomerIsNotActiveOnPeppol\\)$`)) }]);
			expect(result.items(name, 1)[0].pairedItem).toEqual({ item: 1 });
		});

		it('Custom Transport Type: a free value is sent as typed (known names in the API spelling)', async () => {
			const a = draft(PEPPOL_VAT);
			const letter = await run(sendParams({ transportType: 'custom', customTransportType: ' letter ' }), [{ OrderID: a }]);
			expect(sends()[0].body).toEqual({ Transporttype: 'Letter', OrderIDs: [a] });
			expect(letter.items[0]).toMatchObject({ OrderID: a, sent: true, transportType: 'Letter', sentVia: 'Letter', fallback: false });

			h.emulator.clearRequests();
			const b = draft(PEPPOL_VAT);
			const sdi = await run(sendParams({ transportType: 'custom', customTransportType: 'SDI' }), [{ OrderID: b }], {
				onError: 'continueRegularOutput',
			});
			expect(sends().map((r) => r.body)).toEqual([{ Transporttype: 'SDI', OrderIDs: [b] }]);
			expect(sdi.items[0].error).toBe(`Send order ${b} failed with HTTP 400 (GenericError): Unknown TransportType 'SDI'; supported: Peppol, SMTP, Letter`);

			const empty = await run(sendParams({ transportType: 'custom', customTransportType: '' }), [{ OrderID: b }]);
			expect(empty.result.nodeError(empty.name)?.message).toBe('Item 0: "Custom Transport Type" is empty');
		});

		it('batches by transport type: 6 items with 2 transport types make 2 send calls; E-Mail is SMTP, a saved "Email" too (issue 36.2)', async () => {
			const ids = [1, 2, 3, 4, 5, 6].map(() => draft(PEPPOL_VAT));
			const input = ids.map((OrderID, i) => ({ OrderID, via: i % 2 ? 'Email' : 'Peppol' }));
			const { items, result } = await run(sendParams({ transportType: '={{ $json.via }}' }), input);
			expect(result.status).toBe('success');
			expect(sends().map((r) => r.body)).toEqual([
				{ Transporttype: 'Peppol', OrderIDs: [ids[0], ids[2], ids[4]] },
				{ Transporttype: 'SMTP', OrderIDs: [ids[1], ids[3], ids[5]] },
			]);
			const sent = (via: string) => (via === 'Email' ? 'SMTP' : via);
			expect(items.map((i) => [i.OrderID, i.transportType, i.sentVia, i.fallback])).toEqual(input.map((x) => [x.OrderID, sent(x.via), sent(x.via), false]));
			expect(stored(ids[1]).Messages[0]).toMatchObject({ TransportType: 'SMTP', Destination: 'ap@customer.example' });
		});

		it('Batch Size splits a group; several IDs in one item give one output each, paired with that item', async () => {
			const ids = [1, 2, 3].map(() => draft(PEPPOL_VAT));
			const { items, full } = await run(sendParams({ orderIds: '={{ $json.ids }}', options: { batchSize: 2, checkDelivery: false } }), [
				{ ids: `${ids[0]}, ${ids[1]}` },
				{ ids: [ids[2]] },
			]);
			expect(sends().map((r) => r.body?.OrderIDs)).toEqual([[ids[0], ids[1]], [ids[2]]]);
			expect(items).toEqual(ids.map((OrderID) => ({ OrderID, sent: true, alreadySent: false, transportType: null, strict: false })));
			expect(full.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }]);
			expect(logged().filter((r) => r.method === 'GET')).toEqual([]);
		});

		it('an unknown OrderID fails only its item; the others are sent', async () => {
			const a = draft(PEPPOL_VAT);
			const { items } = await run(sendParams(), [{ OrderID: a }, { OrderID: 987654321 }], { onError: 'continueRegularOutput' });
			expect(items[0]).toMatchObject({ OrderID: a, sent: true });
			expect(items[1].error).toBe('Send order 987654321 failed with HTTP 400 (GenericError): Order 987654321 not found');
			expect(items[1].description).toContain('Act for Party');
		});

		it('an Order ID that is not a number fails before any request', async () => {
			const a = draft(PEPPOL_VAT);
			const { result, name } = await run(sendParams(), [{ OrderID: a }, { OrderID: 'INV-7' }]);
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toBe('Item 1: "Order IDs" INV-7 is not an OrderID');
			expect(logged()).toEqual([]);
			expect(stored(a).IsSent).toBe(false);
		});

		it('Fetch Full Order outputs the whole order with the outcome', async () => {
			const a = draft(PEPPOL_VAT);
			const { items } = await run(sendParams({ options: { fetchFullOrder: true } }), [{ OrderID: a }]);
			expect(items[0]).toMatchObject({
				OrderID: a,
				OrderNumber: expect.any(String),
				Customer: expect.any(Object),
				Messages: expect.any(Array),
				sent: true,
				sentVia: 'Peppol',
			});
		});
	});

	describe('Act for Party', () => {
		it('one run acting for two parties: each order is created, sent and read in its own book', async () => {
			const ext = uniqueId('two-parties');
			const { items } = await run(createAndSendParams({ externalProviderId: ext, options: { actForParty: '={{ $json.party }}' } }), [
				{ party: '' },
				{ party: DEMO_PARTY },
			]);
			const masterOrders = book(master()).filter((o) => o.ExternalProviderID === ext);
			const demoOrders = book(DEMO_PARTY).filter((o) => o.ExternalProviderID === ext);
			expect(masterOrders).toHaveLength(1);
			expect(demoOrders).toHaveLength(1);
			expect(items.map((i) => [i.OrderID, i.AlreadyExisted, i.sent, i.sentVia])).toEqual([
				[masterOrders[0].OrderID, false, true, 'Peppol'],
				[demoOrders[0].OrderID, false, true, 'Peppol'],
			]);
			expect(masterOrders[0].IsSent && demoOrders[0].IsSent).toBe(true);
			// One send per party, each with its own partyID header.
			expect(sends().map((r) => [r.headers.partyid, r.body?.OrderIDs])).toEqual([
				[master(), [masterOrders[0].OrderID]],
				[DEMO_PARTY, [demoOrders[0].OrderID]],
			]);
			expect(logged().every((r) => r.status !== null && r.status < 400)).toBe(true);
		});

		it("sending another party's order fails that item (401), the party's own order is sent", async () => {
			const own = draft(PEPPOL_VAT, DEMO_PARTY);
			const foreign = draft(PEPPOL_VAT);
			const { items } = await run(sendParams({ options: { actForParty: DEMO_PARTY } }), [{ OrderID: own }, { OrderID: foreign }], {
				onError: 'continueRegularOutput',
			});
			expect(items[0]).toMatchObject({ OrderID: own, sent: true, sentVia: 'Peppol' });
			expect(items[1]).toMatchObject({ httpCode: '401', code: 'Unauthorized' });
			expect(items[1].error).toBe(`Send order ${foreign} failed with HTTP 401 (Unauthorized): Orders ${foreign} do not belong to party ${DEMO_PARTY}`);
			expect(items[1].description).toContain('Act for Party');
			expect(stored(foreign).IsSent).toBe(false);
			expect(stored(own, DEMO_PARTY).IsSent).toBe(true);
			expect(sends().map((r) => [r.headers.partyid, r.body?.OrderIDs, r.status])).toEqual([
				[DEMO_PARTY, [own, foreign], 401],
				[DEMO_PARTY, [own], 200],
			]);
		});

		it('another account with the same ExternalProviderID gets its own order; neither sees the other', async () => {
			const ext = uniqueId('other-account');
			const other = h.emulator.otherAccount as { apiKey: string; partyId: string };
			const mine = await run(createAndSendParams({ externalProviderId: ext }));
			const theirs = await h.runNode(NODE, createAndSendParams({ externalProviderId: ext }), undefined, {
				runOptions: { credentialsOverride: { apiKey: other.apiKey, partyId: other.partyId } },
			});
			const theirItems = theirs.output(theirs.nodeName) as Rec[];
			const otherOrders = book(other.partyId).filter((o) => o.ExternalProviderID === ext);
			expect(otherOrders).toHaveLength(1);
			expect(theirItems[0]).toMatchObject({ OrderID: otherOrders[0].OrderID, AlreadyExisted: false, sent: true });
			expect(theirItems[0].OrderID).not.toBe(mine.items[0].OrderID);
			expect(book(master()).filter((o) => o.ExternalProviderID === ext)).toHaveLength(1);
		});
	});
});
