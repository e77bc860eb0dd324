import { DEFAULTS } from '../../emulator';
import { call, CallOptions, Emu, get, orderBody, post, start } from './helpers';
import { parseXml, printFigures } from './documentChecks';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { allowContractViolations } = require('../harness/contract');

const SEND = '/v1/orders/commands/send';
const ON_PEPPOL = { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', Email: 'ap@demo.example' };
const NOT_ON_PEPPOL = { Name: 'A+B Consulting', VATNumber: 'BE1002003070', Email: 'billing@ab.example' };
const MINUTE = 60 * 1000;
/** A timestamp as the service writes it (Belgian time, no zone) at this second; the emulator's clock runs on, so milliseconds may follow. */
const at = (second: string) => expect.stringMatching(new RegExp(`^${second}(\\.\\d{1,3})?$`));

describe('changes after sending: PATCH, DELETE, payments, credit notes, delivery status', () => {
	let emu: Emu;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	let events: any[];
	beforeAll(async () => {
		emu = await start({ orders: 120 });
		emu.store.onChange((e) => events.push(e));
	});
	afterAll(() => emu.close());
	beforeEach(() => {
		events = [];
		Object.assign(emu.config, { deliveryOutcome: 'Delivered', deliveryDelayMs: DEFAULTS.config.deliveryDelayMs, changeAnswer: 'body' });
	});

	const patch = (id: number | string, body: unknown, o: CallOptions = {}) => call(emu, 'PATCH', `/v1/orders/${id}`, { ...o, body });
	const del = (id: number | string, o: CallOptions = {}) => call(emu, 'DELETE', `/v1/orders/${id}`, o);
	const pay = (id: number | string, body: unknown, o: CallOptions = {}) => post(emu, `/v1/orders/${id}/payments`, body, o);
	const full = async (id: number, partyId?: string) => (await get(emu, `/v1/orders/${id}`, { partyId })).json;
	const create = async (extra: Record<string, unknown> = {}, partyId?: string) => {
		const r = await post(emu, '/v1/orders', orderBody(extra), { partyId });
		expect(r.status).toBe(200);
		return r.json as number;
	};
	const send = async (id: number, partyId?: string) =>
		// No TransportType: Peppol, else e-mail (the 2026 rules).
		expect((await post(emu, SEND, { OrderIDs: [id] }, { partyId })).status).toBe(200);
	const refused = (r: { status: number; json: { errors: { Code: string; Description: string }[] } }, message: RegExp) => {
		expect(r.status).toBe(400);
		expect(r.json.errors).toEqual([{ Code: 'GenericError', Description: expect.stringMatching(message) }]);
	};

	describe('PATCH /v1/orders/{id}', () => {
		it('changes IsSent and InternalInfo only, answers the full order, moves LastModified and emits an update', async () => {
			emu.clock.set('2024-06-01T10:00:00Z');
			const id = await create();
			emu.clock.set('2024-06-02T09:30:00Z');
			events = [];
			const r = await patch(id, { IsSent: true, InternalInfo: 'exported to books, batch 7' });
			expect(r.status).toBe(200);
			expect(r.json).toMatchObject({
				OrderID: id,
				IsSent: true,
				InternalInfo: 'exported to books, batch 7',
				OrderStatus: 'Draft',
				LastModified: at('2024-06-02T11:30:00'),
				TotalIncl: 131.41,
			});
			expect(events).toEqual([{ EntityType: 'Order', EntityUpdateType: 'U', PartyID: emu.credentials.partyId, OrderID: id, at: '2024-06-02T09:30:00Z' }]);
			const o = await full(id);
			expect(o).toMatchObject({ IsSent: true, InternalInfo: 'exported to books, batch 7' });
			expect((await patch(id, { IsSent: false, InternalInfo: null })).json).toMatchObject({ IsSent: false, InternalInfo: null });
			expect((await get(emu, `/v1/orders/${id}`)).json).toMatchObject({ IsSent: false, InternalInfo: null, ApprovalStatus: null });
			// The service binds names case-insensitively: lower-case names change the same fields, nothing is dropped.
			expect((await patch(id, { isSent: true, internalinfo: 'lower case' })).json).toMatchObject({ IsSent: true, InternalInfo: 'lower case' });
			expect(emu.requests[emu.requests.length - 1].dropped).toBeUndefined();
		});

		it('drops any other field (logged, as the service does), refuses wrong types and an empty change with 400, changing nothing', async () => {
			allowContractViolations('sends fields that are not patchable and wrong types on purpose, to see them dropped or refused');
			const id = await create();
			const before = await full(id);
			const nothing =
				/^Nothing to change: send at least one of Paid, PaidDate, IsSent, ApprovalStatus, AccountCode, InternalInfo, Invoiced, AccountantVerificationNeeded$/;
			// [body, the answer's description, the fields the emulator dropped before its handler saw them]
			const cases: Array<[unknown, RegExp, string[]?]> = [
				[{}, nothing],
				[{ TotalIncl: 1 }, nothing, ['TotalIncl']],
				[{ OrderStatus: 'Canceled' }, nothing, ['OrderStatus']],
				[{ OrderLines: [], Reference: 'x' }, nothing, ['OrderLines', 'Reference']],
				[{ IsSent: 'true' }, /^IsSent must be true or false$/],
				[{ InternalInfo: 42 }, /^InternalInfo must be a string/],
				[{ InternalInfo: 'x'.repeat(2001) }, /longer than 2000 characters/],
				[{ Invoiced: 'yes' }, /^Invoiced must be true or false$/],
				[{ PaidDate: '2024-02-30' }, /^PaidDate must be a date/],
				[{ AccountCode: 7 }, /^AccountCode must be a string/],
				[{ ApprovalStatus: 'Approved' }, /^Approval is not enabled for Order \d+ \(INV-[\d-]+\)/],
				[[{ IsSent: true }], /^The request body must be an object/],
			];
			for (const [body, message, dropped] of cases) {
				refused(await patch(id, body), message);
				expect(emu.requests[emu.requests.length - 1].dropped).toEqual(dropped);
			}
			expect(await full(id)).toEqual(before);
			// Beside a patchable field, the others are dropped: IsSent changes, the amounts, lines, reference and status do not.
			const mixed = await patch(id, { IsSent: true, TotalIncl: 1, OrderLines: [], Reference: 'x', OrderStatus: 'Canceled' });
			expect(mixed.status).toBe(200);
			expect(emu.requests[emu.requests.length - 1].dropped).toEqual(['TotalIncl', 'OrderLines', 'Reference', 'OrderStatus']);
			const { IsSent, LastModified, ...rest } = await full(id);
			const { IsSent: wasSent, LastModified: wasModified, ...unchanged } = before;
			expect([IsSent, wasSent]).toEqual([true, false]);
			expect(LastModified >= wasModified).toBe(true);
			expect(rest).toEqual(unchanged);
			printFigures('PATCH refusals checked', { cases: cases.length });
		});

		it('ApprovalStatus on an order that awaits approval: Approved -> ToPay, Rejected -> Refused, Pending -> ApprovalNeeded', async () => {
			const waiting = emu.store.listOrders(emu.credentials.partyId).filter((o) => o.OrderStatus === 'ApprovalNeeded');
			expect(waiting.length).toBeGreaterThan(0);
			const id = waiting[0].OrderID;
			refused(await patch(id, { ApprovalStatus: 'Maybe' }), /^ApprovalStatus must be one of Approved, Pending, Rejected$/);
			expect((await patch(id, { ApprovalStatus: 'Approved' })).json).toMatchObject({ ApprovalStatus: 'Approved', OrderStatus: 'ToPay' });
			expect((await patch(id, { ApprovalStatus: 'Rejected' })).json).toMatchObject({ ApprovalStatus: 'Rejected', OrderStatus: 'Refused' });
			expect((await patch(id, { ApprovalStatus: 'Pending' })).json).toMatchObject({ ApprovalStatus: 'Pending', OrderStatus: 'ApprovalNeeded' });
		});

		it('the bookkeeping fields of the page "Patchable Properties": Paid, PaidDate, Invoiced, AccountCode, AccountantVerificationNeeded', async () => {
			const id = await create();
			const body = { Paid: true, PaidDate: '2024-06-03', Invoiced: true, AccountCode: '700000', AccountantVerificationNeeded: true };
			expect((await patch(id, body)).json).toMatchObject({ ...body, OrderStatus: 'Paid', ToPay: 0 });
			expect(await full(id)).toMatchObject(body);
		});

		it('404 for an unknown order, 401 for another party\'s, an empty 200 with changeAnswer "empty"', async () => {
			const nf = await patch(999999999, { IsSent: true });
			expect(nf.status).toBe(404);
			expect(nf.json.errors[0]).toEqual({ Code: 'GenericError', Description: 'Order 999999999 not found' });
			const entityOrder = emu.store.listOrders('300001')[0].OrderID;
			expect((await patch(entityOrder, { IsSent: true })).status).toBe(401);
			expect((await patch(entityOrder, { IsSent: true }, { partyId: '300001' })).status).toBe(200);
			emu.config.changeAnswer = 'empty';
			const id = await create();
			const r = await patch(id, { InternalInfo: 'quiet' });
			expect(r).toMatchObject({ status: 200, text: '' });
			expect((await full(id)).InternalInfo).toBe('quiet');
		});
	});

	describe('DELETE /v1/orders/{id}', () => {
		it('deletes a draft (then 404), and says so to change listeners', async () => {
			const id = await create();
			events = [];
			const r = await del(id);
			expect(r).toMatchObject({ status: 200, text: '' });
			expect(events).toEqual([expect.objectContaining({ EntityType: 'Order', EntityUpdateType: 'D', OrderID: id })]);
			expect((await get(emu, `/v1/orders/${id}`)).status).toBe(404);
			expect((await del(id)).status).toBe(404);
			expect(emu.store.findOrder(id)).toBeUndefined();
		});

		it('refuses an order sent over Peppol with a clear error; an order sent by e-mail can go', async () => {
			const peppol = await create({ Customer: ON_PEPPOL });
			await send(peppol);
			const r = await del(peppol);
			refused(r, /^Order \d+ \(INV-[\d-]+\) was sent over Peppol and cannot be deleted: the receiver has it\. Create a credit note for it instead$/);
			expect((await full(peppol)).OrderID).toBe(peppol);
			const seededPeppol = emu.store
				.listOrders(emu.credentials.partyId)
				.find((o) => o.Messages.some((m: { TransportType: string }) => m.TransportType === 'Peppol'));
			refused(await del(seededPeppol!.OrderID), /was sent over Peppol and cannot be deleted/);

			const email = await create({ Customer: NOT_ON_PEPPOL });
			await send(email);
			expect((await full(email)).Messages[0].TransportType).toBe('SMTP');
			expect((await del(email)).status).toBe(200);
		});

		it("401 for another party's order, which stays", async () => {
			const entityOrder = emu.store.listOrders('300001')[1].OrderID;
			expect((await del(entityOrder)).status).toBe(401);
			expect(emu.store.findOrder(entityOrder)).toBeDefined();
		});
	});

	describe('POST /v1/orders/{id}/payments', () => {
		it('a partial payment lowers ToPay; the rest makes the order Paid with its PaidDate; the payment keeps {Amount, Description, Date}', async () => {
			const id = await create();
			const first = await pay(id, { Amount: 100, Date: '2024-06-10', Description: 'Transfer, ref. BANK-1' });
			expect(first.status).toBe(200);
			expect(first.json).toEqual({
				PaymentID: expect.any(Number),
				Amount: 100,
				Date: '2024-06-10',
				Description: 'Transfer, ref. BANK-1',
				OrderID: id,
				ToPay: 31.41,
				Paid: false,
				OrderStatus: 'Draft',
			});
			const rest = await pay(id, { Amount: 31.41, Date: '2024-06-12T00:00:00' });
			expect(rest.json).toMatchObject({ ToPay: 0, Paid: true, OrderStatus: 'Paid', Date: '2024-06-12', Description: null });
			const o = await full(id);
			expect(o).toMatchObject({ ToPay: 0, Paid: true, PaidDate: '2024-06-12', OrderStatus: 'Paid', Overdue: false, DaysOverdue: 0 });
			expect(o.Payments.map((p: { Amount: number; Date: string }) => [p.Amount, p.Date])).toEqual([
				[100, '2024-06-10'],
				[31.41, '2024-06-12'],
			]);
			refused(await pay(id, { Amount: 1, Date: '2024-06-13' }), /is already fully paid$/);
		});

		it('validates amount, date and the order; refuses more than is owed', async () => {
			const id = await create();
			const cases: Array<[unknown, RegExp]> = [
				[{ Date: '2024-06-10' }, /^Amount is required and must be a positive number$/],
				[{ Amount: 0, Date: '2024-06-10' }, /^Amount is required and must be a positive number$/],
				[{ Amount: -5, Date: '2024-06-10' }, /positive number/],
				[{ Amount: '10', Date: '2024-06-10' }, /positive number/],
				[{ Amount: 10.005, Date: '2024-06-10' }, /^Amount 10.005 has more than two decimals$/],
				[{ Amount: 10, Date: '2024-02-30' }, /^Date must be a date/],
				[{ Amount: 10, Date: '10/06/2024' }, /^Date must be a date/],
				[{ Amount: 10, Date: '2024-06-10', Description: 7 }, /^Description must be a string/],
				[{ Amount: 131.42, Date: '2024-06-10' }, /^Amount 131.42 is more than Order \d+ \(INV-[\d-]+\) still owes \(ToPay 131.41\)$/],
			];
			for (const [body, message] of cases) refused(await pay(id, body), message);
			expect(await full(id)).toMatchObject({ ToPay: 131.41, Paid: false });
			const offer = await create({ OrderType: 'Offer' });
			refused(await pay(offer, { Amount: 1, Date: '2024-06-10' }), /is of type Offer; only invoices and credit notes take payments/);
			printFigures('payment refusals checked', { cases: cases.length + 1 });
		});

		it('a reused Idempotency-Key is 409 and records nothing twice; changeAnswer "empty" answers an empty 200', async () => {
			const id = await create();
			const headers = { 'Idempotency-Key': `pay-${id}` };
			expect((await pay(id, { Amount: 10, Date: '2024-06-10' }, { headers })).status).toBe(200);
			const again = await pay(id, { Amount: 10, Date: '2024-06-10' }, { headers });
			expect(again.status).toBe(409);
			expect((await full(id)).ToPay).toBe(121.41);
			emu.config.changeAnswer = 'empty';
			expect(await pay(id, { Amount: 21.41, Date: '2024-06-11' })).toMatchObject({ status: 200, text: '' });
			expect((await full(id)).ToPay).toBe(100);
		});
	});

	describe('credit notes', () => {
		it('accepts OrderType CreditNote with AboutInvoiceNumber; refuses AboutInvoiceNumber elsewhere or empty', async () => {
			const inv = await full(await create());
			const cn = await full(await create({ OrderType: 'CreditNote', AboutInvoiceNumber: inv.OrderNumber }));
			expect(cn).toMatchObject({ OrderType: 'CreditNote', AboutInvoiceNumber: inv.OrderNumber, OrderNumber: expect.stringMatching(/^CN-/), TotalIncl: 131.41 });
			refused(
				await post(emu, '/v1/orders', orderBody({ AboutInvoiceNumber: inv.OrderNumber })),
				/^AboutInvoiceNumber is only for credit notes \(OrderType CreditNote\)$/,
			);
			refused(
				await post(emu, '/v1/orders', orderBody({ OrderType: 'CreditNote', AboutInvoiceNumber: 12 })),
				/^AboutInvoiceNumber must be the number of the invoice/,
			);
			refused(await post(emu, '/v1/orders', orderBody({ OrderType: 'CreditNote', AboutInvoiceNumber: ' ' })), /^AboutInvoiceNumber must be/);
			// a credit note takes refunds like an invoice takes payments
			expect((await pay(cn.OrderID, { Amount: 131.41, Date: '2024-06-10', Description: 'Refund' })).json).toMatchObject({
				Paid: true,
				OrderStatus: 'Paid',
			});
		});
	});

	describe('delivery status (CurrentDocumentDeliveryDetails)', () => {
		const details = async (id: number) => (await full(id)).CurrentDocumentDeliveryDetails;

		/** A message as `code:direction` (the response code starts its Description, the page "Webhooks"). */
		const shape = (m: { Description?: string; MessageDirection: string }) => `${/^([A-Z]{2}):/.exec(m.Description ?? '')?.[1] ?? 'send'}:${m.MessageDirection}`;

		it('unsent: every field null; e-mail: Delivered at once; timestamps are Belgian time without a zone', async () => {
			const id = await create();
			expect(await details(id)).toEqual({
				IsDocumentDelivered: false,
				DocumentDeliveryStatus: null,
				DocumentDeliveryDate: null,
				DocumentDeliveryInfo: null,
				DocumentRefusedDate: null,
				DocumentRefusedInfo: null,
				DocumentRefusedReasonTC: null,
			});
			emu.clock.set('2024-07-01T08:00:00Z');
			const mail = await create({ Customer: NOT_ON_PEPPOL });
			await send(mail);
			expect(await details(mail)).toMatchObject({
				IsDocumentDelivered: true,
				DocumentDeliveryStatus: 'Delivered',
				DocumentDeliveryDate: at('2024-07-01T10:00:00'),
				DocumentDeliveryInfo: expect.stringContaining('billing@ab.example'),
			});
			expect((await full(mail)).Messages).toEqual([
				{
					OrderID: mail,
					Description: expect.stringContaining('billing@ab.example'),
					CreationDate: at('2024-07-01T10:00:00'),
					TransportType: 'SMTP',
					Success: true,
					Trials: 0,
					Destination: 'billing@ab.example',
					MessageDirection: 'Outgoing',
				},
			]);
		});

		it('Peppol: Message I, then U with the UBL sent; Pending, then Delivered when the delay has passed, with an Incoming AB message', async () => {
			emu.clock.set('2024-07-01T08:00:00Z');
			const id = await create({ Customer: ON_PEPPOL });
			events = [];
			await send(id);
			expect(events.map((e) => `${e.EntityType}:${e.EntityUpdateType}`)).toEqual(['Message:I', 'Message:U', 'Order:U']);
			expect(await details(id)).toMatchObject({ IsDocumentDelivered: false, DocumentDeliveryStatus: 'Pending', DocumentDeliveryDate: null });
			emu.clock.set('2024-07-01T08:04:59Z');
			expect((await details(id)).DocumentDeliveryStatus).toBe('Pending');
			emu.clock.set('2024-07-01T09:00:00Z');
			events = [];
			const o = await full(id);
			expect(o.CurrentDocumentDeliveryDetails).toMatchObject({
				IsDocumentDelivered: true,
				DocumentDeliveryStatus: 'Delivered',
				DocumentDeliveryDate: at('2024-07-01T10:05:00'),
				DocumentDeliveryInfo: 'Received',
				DocumentRefusedDate: null,
			});
			expect(o.Messages.map(shape)).toEqual(['send:Outgoing', 'AB:Incoming']);
			const [sent] = o.Messages;
			expect(sent).toEqual({
				OrderID: id,
				FileID: expect.any(String),
				CreationDate: at('2024-07-01T10:00:00'),
				TransportType: 'Peppol',
				Success: true,
				Trials: 0,
				Destination: '9925:BE0123456749',
				MessageDirection: 'Outgoing',
			});
			expect(parseXml(emu.files.get(sent.FileID)!.content.toString('utf8')).Invoice['cbc:ID']).toBe(o.OrderNumber);
			expect(o.Attachments.map((a: { FileName: string }) => a.FileName)).toEqual([expect.stringMatching(/^INV-[\d-]+__1_07_2024 10_00_00\.json$/)]);
			expect(o.LastModified).toEqual(at('2024-07-01T11:00:00'));
			expect(events.map((e) => `${e.EntityType}:${e.EntityUpdateType}`)).toEqual(['Message:I', 'Order:U']);
		});

		it('deliveryOutcome Error: an MLR RE and status Error (final)', async () => {
			emu.config.deliveryOutcome = 'Error';
			emu.config.deliveryDelayMs = 0;
			const id = await create({ Customer: ON_PEPPOL });
			await send(id);
			const o = await full(id);
			expect(o.CurrentDocumentDeliveryDetails).toMatchObject({
				IsDocumentDelivered: false,
				DocumentDeliveryStatus: 'Error',
				DocumentDeliveryInfo: expect.stringMatching(/rejected/),
				DocumentRefusedDate: null,
			});
			const mlr = o.Messages[1];
			expect(mlr).toMatchObject({ Description: expect.stringMatching(/^RE: .*rejected/), MessageDirection: 'Incoming' });
			const xml = parseXml(emu.files.get(mlr.FileID)!.content.toString('utf8'));
			expect(xml.ApplicationResponse['cac:DocumentResponse']['cac:Response']['cbc:ResponseCode']).toBe('RE');
			expect(() => emu.delivery.set(id, 'Delivered')).toThrow(/is Error; it cannot become Delivered/);
		});

		it("deliveryOutcome Refused: delivered, then refused by the buyer (IMR RE with its reason): the page's negative example, order Refused", async () => {
			emu.config.deliveryOutcome = 'Refused';
			emu.config.deliveryDelayMs = MINUTE;
			emu.clock.set('2024-07-02T10:00:00Z');
			const id = await create({ Customer: ON_PEPPOL });
			await send(id);
			emu.clock.advance(2 * MINUTE);
			const o = await full(id);
			expect(o.OrderStatus).toBe('Refused');
			expect(o.CurrentDocumentDeliveryDetails).toEqual({
				IsDocumentDelivered: false,
				DocumentDeliveryStatus: 'Error',
				DocumentDeliveryDate: at('2024-07-02T12:01:00'),
				DocumentDeliveryInfo: 'Received',
				DocumentRefusedDate: at('2024-07-02T12:01:00'),
				DocumentRefusedInfo: 'Refused by the receiver',
				DocumentRefusedReasonTC: 'OTH',
			});
			expect(o.Messages.map(shape)).toEqual(['send:Outgoing', 'AB:Incoming', 'RE:Incoming']);
			const imr = parseXml(emu.files.get(o.Messages[2].FileID)!.content.toString('utf8')).ApplicationResponse;
			expect(imr['cbc:CustomizationID']).toBe('urn:fdc:peppol.eu:poacc:trns:invoice_response:3');
			expect(imr['cac:DocumentResponse']['cac:Response']['cac:Status']['cbc:StatusReasonCode']['#text']).toBe('OTH');
		});

		it('deliveryOutcome Pending stays pending; emu.delivery.set moves it (and refuses impossible moves)', async () => {
			emu.config.deliveryOutcome = 'Pending';
			emu.config.deliveryDelayMs = 0;
			const id = await create({ Customer: ON_PEPPOL });
			await send(id);
			emu.clock.advance(30 * 24 * 60 * MINUTE);
			expect((await details(id)).DocumentDeliveryStatus).toBe('Pending');
			expect(emu.delivery.get(id)).toMatchObject({ DocumentDeliveryStatus: 'Pending' });
			const moved = emu.delivery.set(id, 'Delivered', { info: 'Delivered to AP of Peppol Demo Belgium NV' });
			expect(moved).toMatchObject({ DocumentDeliveryStatus: 'Delivered', DocumentDeliveryInfo: 'Received' });
			expect(await details(id)).toEqual(moved);
			expect((await full(id)).Messages[1].Description).toBe('AB: Delivered to AP of Peppol Demo Belgium NV');
			emu.delivery.set(id, 'Refused', { reason: 'REF', info: 'Unknown purchase order' });
			expect(await details(id)).toMatchObject({
				IsDocumentDelivered: false,
				DocumentDeliveryStatus: 'Error',
				DocumentRefusedReasonTC: 'REF',
				DocumentRefusedInfo: 'Unknown purchase order',
			});
			expect(() => emu.delivery.set(id, 'Refused')).toThrow(/is Refused/);
			expect(() => emu.delivery.set(id, 'Error')).toThrow(/cannot become Error/);
			const unsent = await create();
			expect(() => emu.delivery.set(unsent, 'Delivered')).toThrow(/has not been sent/);
			const mail = await create({ Customer: NOT_ON_PEPPOL });
			await send(mail);
			expect(() => emu.delivery.set(mail, 'Error')).toThrow(/only Peppol deliveries move/);
			expect(() => emu.delivery.set(id, 'Pending' as 'Delivered')).toThrow(/outcome must be/);
		});

		it('messages have the published OrderMessage fields only; the change bus adds MessageID and the flow state; Accepted is an IMR AP', async () => {
			emu.config.deliveryOutcome = 'Pending';
			const id = await create({ Customer: ON_PEPPOL });
			const bus: Array<{ update: string; message?: Record<string, unknown> }> = [];
			const off = emu.store.events.on((e) => bus.push(e));
			await send(id);
			emu.delivery.set(id, 'Accepted', { info: 'Booked' });
			off();
			const o = await full(id);
			expect(o.Messages.map(shape)).toEqual(['send:Outgoing', 'AB:Incoming', 'AP:Incoming']);
			const published = ['OrderID', 'Description', 'FileID', 'CreationDate', 'TransportType', 'Success', 'Trials', 'Destination', 'MessageDirection'];
			for (const m of o.Messages) for (const key of Object.keys(m)) expect(published).toContain(key);
			expect(o.Messages[2]).toMatchObject({ Description: 'AP: Booked', FileID: expect.any(String) });
			const messages = bus.filter((e) => e.message).map((e) => [e.update, e.message?.EInvoiceFlowState ?? null, typeof e.message?.MessageID]);
			expect(messages).toEqual([
				['I', null, 'number'],
				['U', 'Sent', 'number'],
				['I', 'Delivered', 'number'],
				['I', 'Accepted', 'number'],
			]);
			expect(
				emu.store
					.listOrders(emu.credentials.partyId)
					.find((x) => x.OrderID === id)
					?.Messages.every((m: object) => !('MessageID' in m)),
			).toBe(true);
			expect(o).toMatchObject({
				OrderStatus: 'Sent',
				CurrentDocumentDeliveryDetails: { DocumentDeliveryStatus: 'Delivered', DocumentDeliveryInfo: 'Approved', DocumentRefusedDate: null },
			});
			const imr = parseXml(emu.files.get(o.Messages[2].FileID)!.content.toString('utf8')).ApplicationResponse;
			expect(imr['cac:DocumentResponse']['cac:Response']['cbc:ResponseCode']['#text']).toBe('AP');
			expect(() => emu.delivery.set(id, 'Refused')).toThrow(/is Accepted/);
			// the webhook alias moves the same delivery
			const other = await create({ Customer: ON_PEPPOL });
			await send(other);
			expect(emu.webhooks.setMessageStatus(other, 'Error')).toEqual(emu.delivery.get(other));
			expect(emu.delivery.get(other)).toMatchObject({ DocumentDeliveryStatus: 'Error' });
		});

		it('seeded orders: sent ones read as Delivered with the UBL on their send, seeded Refused ones carry the refusal and an IMR', async () => {
			const book = emu.store.listOrders(emu.credentials.partyId);
			const refusedOrder = book.find((o) => o.OrderStatus === 'Refused' && o.Messages.some((m: { TransportType: string }) => m.TransportType === 'Peppol'));
			expect(refusedOrder).toBeDefined();
			const o = await full(refusedOrder!.OrderID);
			expect(o.CurrentDocumentDeliveryDetails).toMatchObject({
				IsDocumentDelivered: false,
				DocumentDeliveryStatus: 'Error',
				DocumentRefusedDate: expect.any(String),
				DocumentRefusedReasonTC: 'OTH',
			});
			expect(o.Messages.map(shape)).toEqual(['send:Outgoing', 'AB:Incoming', 'RE:Incoming']);
			expect(o.Messages[0].FileID).toEqual(expect.any(String));
			// a seeded delivered order can still be refused by hand
			const delivered = book.find((x) => x.OrderStatus === 'Sent' && x.Messages.some((m: { TransportType: string }) => m.TransportType === 'Peppol'));
			emu.delivery.set(delivered!.OrderID, 'Refused');
			const after = await full(delivered!.OrderID);
			expect(after).toMatchObject({ OrderStatus: 'Refused', CurrentDocumentDeliveryDetails: { DocumentRefusedReasonTC: 'OTH' } });
			expect(after.Messages.map(shape)).toEqual(['send:Outgoing', 'AB:Incoming', 'RE:Incoming']);
		});

		it('the access-point path /v1/einvoices/registrations/{id}/orders/{orderId} reads the same full order', async () => {
			emu.config.deliveryDelayMs = 0;
			const id = await create({ Customer: ON_PEPPOL }, '300001');
			await send(id, '300001');
			const r = await get(emu, `/v1/einvoices/registrations/300001/orders/${id}`);
			expect(r.status).toBe(200);
			expect(r.json).toEqual(await full(id, '300001'));
			expect(r.json.CurrentDocumentDeliveryDetails.DocumentDeliveryStatus).toBe('Delivered');
			const masterOrder = emu.store.listOrders(emu.credentials.partyId)[0].OrderID;
			expect((await get(emu, `/v1/einvoices/registrations/300001/orders/${masterOrder}`)).status).toBe(401);
			expect((await get(emu, `/v1/einvoices/registrations/300001/orders/999999999`)).status).toBe(404);
			expect((await get(emu, `/v1/einvoices/registrations/399999/orders/${id}`)).status).toBe(404);
			expect(
				(await get(emu, `/v1/einvoices/registrations/300001/orders/${id}`, { apiKey: emu.otherAccount.apiKey, partyId: emu.otherAccount.partyId })).status,
			).toBe(401);
		});
	});
});
