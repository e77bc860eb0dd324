/**
 * AccessPoint Order › Send / Create and Send, exact request shape with nock: the send body,
 * StrictTransportType and idempotency headers, batching by transport type, the create
 * idempotency key and its 409, and answers in production's other shapes.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import { DELIVERY_DETAILS, publishedSentInvoice } from '../fixtures/published';

const NODE = 'accessPointOrder';
const BASE = 'https://api.example.test';
const SEND = '/v1/orders/commands/send';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An order just sent, as the service answers it: its Outgoing message (the OpenAPI OrderMessage), delivery Pending. */
const sentOrder = (id: number, via = 'Peppol') => ({
	OrderID: id,
	OrderStatus: 'Sent',
	IsSent: true,
	Messages: [
		{
			OrderID: id,
			Description: `Sent by ${via}`,
			CreationDate: '2024-03-01T10:00:00.12',
			TransportType: via,
			Success: true,
			Trials: 0,
			Destination: '9925:BE0123456749',
			MessageDirection: 'Outgoing',
		},
	],
	CurrentDocumentDeliveryDetails: DELIVERY_DETAILS.pending,
});

describe('AccessPoint Order › Send request shape (nock)', () => {
	let h: Harness;

	async function run(parameters: IDataObject, input?: IDataObject[], nodeOptions: IDataObject = {}) {
		const result = await h.runNode(NODE, { resource: 'order', ...parameters }, input, nodeOptions);
		const name = result.nodeName as string;
		return { result, name, items: result.output(name) as Rec[] };
	}

	beforeAll(async () => {
		h = await createHarness({ emulator: false, credentials: { apiKey: 'secret-key-1', partyId: '100001', environment: 'custom', baseUrl: BASE } });
	});

	beforeAll(() => nock.disableNetConnect());

	afterEach(() => nock.cleanAll());

	afterAll(async () => {
		nock.enableNetConnect();
		await h?.close();
	});

	it('one send call: body, StrictTransportType, Idempotency-Key, partyID; then one read per order', async () => {
		const scope = nock(BASE)
			.post(SEND, { Transporttype: 'Peppol', OrderIDs: [12, 11] })
			.matchHeader('StrictTransportType', 'true')
			.matchHeader('Idempotency-Key', 'send-Peppol-strict-11-12')
			.matchHeader('partyID', '100001')
			.matchHeader('apikey', 'secret-key-1')
			.matchHeader('Content-Type', /application\/json/)
			.reply(200, 'OK', { 'Content-Type': 'text/plain' })
			.get('/v1/orders/12')
			.reply(200, sentOrder(12))
			.get('/v1/orders/11')
			.reply(200, sentOrder(11));
		const { items, result } = await run({ operation: 'send', orderIds: '={{ $json.id }}', strictTransportType: true }, [{ id: 12 }, { id: '11' }]);
		expect(result.status).toBe('success');
		expect(scope.isDone()).toBe(true);
		expect(items).toEqual([
			{
				OrderID: 12,
				sent: true,
				alreadySent: false,
				transportType: 'Peppol',
				strict: true,
				sentVia: 'Peppol',
				fallback: false,
				sentAt: '2024-03-01T10:00:00.12',
				sentInfo: 'Sent by Peppol',
				deliveryStatus: 'Pending',
				OrderStatus: 'Sent',
				IsSent: true,
			},
			expect.objectContaining({ OrderID: 11, sent: true, sentVia: 'Peppol' }),
		]);
	});

	it('says sent when sent and delivered only when the service does (#28): the published sent invoice, then a refused one', async () => {
		const published = publishedSentInvoice();
		const refused = {
			...published,
			CurrentDocumentDeliveryDetails: {
				...DELIVERY_DETAILS.delivered,
				DocumentRefusedDate: '2025-04-24T09:00:00',
				DocumentRefusedInfo: 'Unknown purchase order',
				DocumentRefusedReasonTC: 'REF',
			},
		};
		const scope = nock(BASE)
			.post(SEND, { Transporttype: 'Peppol', OrderIDs: [2619898] })
			.reply(200, 'OK')
			.get('/v1/orders/2619898')
			.reply(200, published)
			.post(SEND, { Transporttype: 'Peppol', OrderIDs: [2619898] })
			.reply(200, 'OK')
			.get('/v1/orders/2619898')
			.reply(200, refused);
		const first = await run({ operation: 'send', orderIds: '2619898', transportType: 'Peppol', options: { idempotencyHeader: 'none' } });
		expect(first.items).toEqual([
			{
				OrderID: 2619898,
				sent: true,
				alreadySent: false,
				transportType: 'Peppol',
				strict: false,
				sentVia: 'Peppol',
				fallback: false,
				sentAt: '2026-06-30T16:52:06.21',
				deliveryStatus: 'Delivered',
				deliveredAt: '2025-04-23T12:57:23.23',
				OrderStatus: 'ToPay',
				IsSent: true,
			},
		]);
		const second = await run({ operation: 'send', orderIds: '2619898', transportType: 'Peppol', options: { idempotencyHeader: 'none' } });
		expect(scope.isDone()).toBe(true);
		expect(second.items[0]).toMatchObject({ sentVia: 'Peppol', deliveryStatus: 'Refused', deliveryInfo: 'Unknown purchase order' });
		expect(second.items[0]).not.toHaveProperty('deliveredAt');
		expect(JSON.stringify([first.items, second.items])).not.toMatch(/deliveredVia/);
	});

	it('the default "Peppol, Else E-Mail" sends no TransportType at all (issue 36.2), and no StrictTransportType header', async () => {
		const scope = nock(BASE, { badheaders: ['StrictTransportType'] })
			.post(SEND, (body) => JSON.stringify(body) === JSON.stringify({ OrderIDs: [5] }))
			.matchHeader('Idempotency-Key', 'send-PeppolElseEmail-5')
			.reply(200, 'OK');
		const { result, items } = await run({ operation: 'send', orderIds: '5', options: { checkDelivery: false } });
		expect(result.status).toBe('success');
		expect(scope.isDone()).toBe(true);
		expect(items).toEqual([{ OrderID: 5, sent: true, alreadySent: false, transportType: null, strict: false }]);
	});

	it('batching: 5 items with 2 transport types make exactly 2 send calls; a saved "Email" is sent as SMTP, the published value', async () => {
		const scope = nock(BASE)
			.post(SEND, { Transporttype: 'Peppol', OrderIDs: [1, 3, 5] })
			.matchHeader('Idempotency-Key', 'send-Peppol-1-3-5')
			.reply(200, 'OK')
			.post(SEND, { Transporttype: 'SMTP', OrderIDs: [2, 4] })
			.matchHeader('Idempotency-Key', 'send-SMTP-2-4')
			.reply(200, 'OK');
		const input = [1, 2, 3, 4, 5].map((id) => ({ id, via: id % 2 ? 'Peppol' : 'Email' }));
		const { items, result } = await run(
			{ operation: 'send', orderIds: '={{ $json.id }}', transportType: '={{ $json.via }}', options: { checkDelivery: false } },
			input,
		);
		expect(result.status).toBe('success');
		expect(scope.isDone()).toBe(true);
		expect(items.map((i) => [i.OrderID, i.transportType, i.sent])).toEqual(input.map((x) => [x.id, x.via === 'Email' ? 'SMTP' : x.via, true]));
	});

	it('the Idempotent-Key spelling, or no key at all', async () => {
		const spelled = nock(BASE, { badheaders: ['Idempotency-Key'] })
			.post(SEND)
			.matchHeader('Idempotent-Key', 'send-Letter-9')
			.reply(200, 'OK');
		await run({ operation: 'send', orderIds: '9', transportType: 'Letter', options: { checkDelivery: false, idempotencyHeader: 'Idempotent-Key' } });
		expect(spelled.isDone()).toBe(true);

		const none = nock(BASE, { badheaders: ['Idempotency-Key', 'Idempotent-Key'] })
			.post(SEND)
			.reply(200, 'OK');
		await run({ operation: 'send', orderIds: '9', options: { checkDelivery: false, idempotencyHeader: 'none' } });
		expect(none.isDone()).toBe(true);
	});

	it('a rejected batch whose entries use Message instead of Description still fails only the named order', async () => {
		const scope = nock(BASE)
			.post(SEND, { Transporttype: 'Peppol', OrderIDs: [21, 22] })
			.reply(400, { errors: [{ Code: 'NoPeppolRoute', Message: 'Order 22 cannot be delivered: receiver unknown on Peppol' }] })
			.post(SEND, { Transporttype: 'Peppol', OrderIDs: [21] })
			.matchHeader('Idempotency-Key', 'send-Peppol-strict-21')
			.reply(200, 'OK');
		const { items } = await run({ operation: 'send', orderIds: '21, 22', strictTransportType: true, options: { checkDelivery: false } }, [{}], {
			onError: 'continueRegularOutput',
		});
		expect(scope.isDone()).toBe(true);
		expect(items).toEqual([
			{ OrderID: 21, sent: true, alreadySent: false, transportType: 'Peppol', strict: true },
			{
				error: 'Send order 22 failed with HTTP 400 (NoPeppolRoute): Order 22 cannot be delivered: receiver unknown on Peppol',
				description: expect.stringContaining('Strict (No Fallback)'),
				httpCode: '400',
				code: 'NoPeppolRoute',
			},
		]);
	});

	it('a refusal naming no order fails every order of the batch, with one call only', async () => {
		const scope = nock(BASE)
			.post(SEND)
			.reply(400, { errors: [{ Code: 'GenericError', Description: 'Sending is not activated for this party' }] });
		const { items } = await run({ operation: 'send', orderIds: '={{ $json.id }}' }, [{ id: 31 }, { id: 32 }], { onError: 'continueRegularOutput' });
		expect(scope.isDone()).toBe(true);
		expect(items.map((i) => i.error)).toEqual([
			'Send orders 31, 32 failed with HTTP 400 (GenericError): Sending is not activated for this party',
			'Send orders 31, 32 failed with HTTP 400 (GenericError): Sending is not activated for this party',
		]);
		expect(JSON.stringify(items)).not.toContain('secret-key-1');
	});

	it('Peppol only: the 2026 refusal names no order, so each order is sent alone; the refused one names its order and customer (issue 36.2)', async () => {
		const notActive = { errors: [{ Code: 'TheCustomerIsNotActiveOnPeppol', Description: 'The customer is not active on Peppol.' }] };
		const scope = nock(BASE)
			.post(SEND, { Transporttype: 'Peppol', OrderIDs: [71, 72] })
			.matchHeader('Idempotency-Key', 'send-Peppol-71-72')
			.reply(400, notActive)
			.post(SEND, { Transporttype: 'Peppol', OrderIDs: [71] })
			.matchHeader('Idempotency-Key', 'send-Peppol-71')
			.reply(200, 'OK')
			.post(SEND, { Transporttype: 'Peppol', OrderIDs: [72] })
			.reply(400, notActive)
			.get('/v1/orders/72')
			.reply(200, { OrderID: 72, OrderNumber: 'INV-72', Customer: { Name: 'A+B Consulting', VATNumber: 'BE1002003070' } });
		const { items } = await run(
			{ operation: 'send', orderIds: '={{ $json.id }}', transportType: 'Peppol', options: { checkDelivery: false } },
			[{ id: 71 }, { id: 72 }],
			{ onError: 'continueRegularOutput' },
		);
		expect(scope.isDone()).toBe(true);
		expect(items).toEqual([
			{ OrderID: 71, sent: true, alreadySent: false, transportType: 'Peppol', strict: false },
			{
				error: 'Order 72 (INV-72) was not sent: A+B Consulting (BE1002003070) is not active on Peppol (TheCustomerIsNotActiveOnPeppol)',
				description: expect.stringContaining('Peppol, Else E-Mail'),
				httpCode: '400',
				code: 'TheCustomerIsNotActiveOnPeppol',
			},
		]);
	});

	it('a 409 whose order turns out never sent is an error, not "already sent"', async () => {
		const scope = nock(BASE)
			.post(SEND)
			.reply(409, { errors: [{ Code: 'Conflict', Description: 'Idempotency key already used' }] })
			.get('/v1/orders/41')
			.reply(200, { OrderID: 41, OrderStatus: 'Draft', IsSent: false, Messages: [] })
			.get('/v1/orders/42')
			.reply(200, sentOrder(42));
		const { items } = await run({ operation: 'send', orderIds: '={{ $json.id }}', transportType: 'Peppol' }, [{ id: 41 }, { id: 42 }], {
			onError: 'continueRegularOutput',
		});
		expect(scope.isDone()).toBe(true);
		expect(items[0].error).toBe('Send order 41 answered HTTP 409, but it is not sent (OrderStatus Draft)');
		expect(items[0].description).toContain('send-Peppol-41');
		expect(items[1]).toMatchObject({ OrderID: 42, sent: true, alreadySent: true, sentVia: 'Peppol' });
	});

	it('a failed read after sending keeps the order sent and says why the delivery is unknown', async () => {
		const scope = nock(BASE)
			.post(SEND)
			.reply(200, 'OK')
			.get('/v1/orders/51')
			.reply(403, { errors: [{ Code: 'Forbidden', Description: 'No read access' }] });
		const { items } = await run({ operation: 'send', orderIds: '51', transportType: 'Peppol', options: { maxRetries: 0 } });
		expect(scope.isDone()).toBe(true);
		expect(items).toEqual([
			{
				OrderID: 51,
				sent: true,
				alreadySent: false,
				transportType: 'Peppol',
				strict: false,
				deliveryCheckError: 'Get order 51 failed with HTTP 403 (Forbidden): No read access',
			},
		]);
	});

	describe('creates', () => {
		const order = {
			orderType: 'Invoice',
			orderDirection: 'Income',
			orderDate: '2024-03-01',
			customerName: 'ACME NV',
			customerVatNumber: 'BE0123456749',
			orderLines: { lines: [{ description: 'Work', quantity: 1, unitPriceExcl: 100, vatPercentage: 21 }] },
		};
		const lookup = (ext: string) => ({ $filter: `ExternalProviderID eq '${ext}'`, $top: '1' });

		it('Create sends Idempotency-Key create-<ExternalProviderID>', async () => {
			const scope = nock(BASE)
				.get('/v1/orders')
				.query(lookup('INV-1'))
				.reply(200, { Items: [] })
				.post('/v1/orders')
				.matchHeader('Idempotency-Key', 'create-INV-1')
				.reply(200, '61');
			const { items } = await run({ operation: 'create', ...order, externalProviderId: 'INV-1' });
			expect(scope.isDone()).toBe(true);
			expect(items).toEqual([{ OrderID: 61, AlreadyExisted: false }]);
		});

		it('Create with Skip If Already Created off sends no key (the user asked for duplicates)', async () => {
			const scope = nock(BASE, { badheaders: ['Idempotency-Key'] })
				.post('/v1/orders')
				.reply(200, '62');
			await run({ operation: 'create', ...order, externalProviderId: 'INV-2', skipIfExists: false });
			expect(scope.isDone()).toBe(true);
		});

		it('Create and Send: a 409 on the create key means created before: the order is looked up, not created again', async () => {
			const scope = nock(BASE)
				.get('/v1/orders')
				.query(lookup('INV-3'))
				.reply(200, { Items: [] })
				.post('/v1/orders')
				.matchHeader('Idempotency-Key', 'create-INV-3')
				.reply(409, { errors: [{ Code: 'Conflict', Description: 'Idempotency key already used for order 63' }] })
				.get('/v1/orders')
				.query(lookup('INV-3'))
				.reply(200, { Items: [{ OrderID: 63, ExternalProviderID: 'INV-3', IsSent: false }] })
				.post(SEND, { Transporttype: 'Peppol', OrderIDs: [63] })
				.matchHeader('Idempotency-Key', 'send-Peppol-63')
				.reply(200, 'OK')
				.get('/v1/orders/63')
				.reply(200, sentOrder(63));
			const { items } = await run({ operation: 'createAndSend', ...order, externalProviderId: 'INV-3', transportType: 'Peppol' });
			expect(scope.isDone()).toBe(true);
			expect(items).toEqual([
				expect.objectContaining({ OrderID: 63, ExternalProviderID: 'INV-3', AlreadyExisted: true, sent: true, alreadySent: false, sentVia: 'Peppol' }),
			]);
		});

		it('Create and Send: a 409 after which the order is found already sent sends nothing', async () => {
			const scope = nock(BASE)
				.get('/v1/orders')
				.query(lookup('INV-4'))
				.reply(200, { Items: [] })
				.post('/v1/orders')
				.reply(409, { errors: [{ Code: 'Conflict', Description: 'Idempotency key already used' }] })
				.get('/v1/orders')
				.query(lookup('INV-4'))
				.reply(200, { Items: [{ OrderID: 64, ExternalProviderID: 'INV-4', IsSent: true }] });
			const { items } = await run({
				operation: 'createAndSend',
				...order,
				externalProviderId: 'INV-4',
				transportType: 'Peppol',
				options: { checkDelivery: false },
			});
			expect(scope.isDone()).toBe(true);
			expect(items).toEqual([
				{ OrderID: 64, ExternalProviderID: 'INV-4', sent: true, alreadySent: true, transportType: 'Peppol', strict: false, AlreadyExisted: true },
			]);
		});

		it('a 409 with no order to find is reported as the API error', async () => {
			nock(BASE)
				.get('/v1/orders')
				.query(true)
				.twice()
				.reply(200, { Items: [] })
				.post('/v1/orders')
				.reply(409, { errors: [{ Code: 'Conflict', Description: 'Idempotency key already used' }] });
			const { items } = await run({ operation: 'createAndSend', ...order, externalProviderId: 'INV-5' }, undefined, { onError: 'continueRegularOutput' });
			expect(items).toEqual([
				expect.objectContaining({ httpCode: '409', error: 'Create order failed with HTTP 409 (Conflict): Idempotency key already used' }),
			]);
		});
	});
});
