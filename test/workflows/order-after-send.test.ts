/**
 * AccessPoint Order after Send (#25), run by n8n's engine against the emulator (and nock
 * where a request must not happen): Get Delivery Status on its three outputs, Update,
 * Delete, Record Payment, Create Credit Note, and the Order picker's list search.
 */
import nock from 'nock';
import { LoadOptionsContext } from 'n8n-core';
import type { IDataObject, INode, INodeListSearchResult, INodeTypeDescription } from 'n8n-workflow';
import { NodeApiError, NodeHelpers, NodeOperationError, Workflow } from 'n8n-workflow';

import { DEFAULTS } from '../../emulator';
import { orderBody, post } from '../emulator/helpers';
import type { Emu, Logged } from '../emulator/helpers';
import { createHarness } from '../harness';
import type { Harness } from '../harness';

const NODE = 'accessPointOrder';
const ON_PEPPOL = { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' };
const OFFLINE_BASE = 'https://api.example.test';
/** A credential pointing at a host nock answers for: with no interceptor, any request fails the run differently. */
const offline = { runOptions: { credentialsOverride: { environment: 'custom', baseUrl: OFFLINE_BASE, apiKey: 'k', partyId: '1' } } };
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('AccessPoint Order after Send: delivery status, update, delete, payments, credit notes', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;

	const logged = (): Logged[] => (emu.requests as Logged[]).filter((r) => r.path.startsWith('/v1/'));
	const stored = (id: number): Rec | undefined => emu.store.findOrder(id)?.order;

	async function run(parameters: IDataObject, input?: IDataObject[], nodeOptions: IDataObject = {}) {
		const result = await h.runNode(NODE, { resource: 'order', ...parameters }, input, nodeOptions);
		const name = result.nodeName as string;
		return { result, name, items: result.output(name) as Rec[] };
	}

	/** An invoice created through the API (as the Create operation would); set-up calls leave the request log empty. */
	async function createInvoice(extra: Record<string, unknown> = {}): Promise<number> {
		const r = await post(emu, '/v1/orders', orderBody({ Customer: ON_PEPPOL, ...extra }));
		expect(r.status).toBe(200);
		emu.clearRequests();
		return r.json as number;
	}

	async function sendOverPeppol(id: number) {
		const r = await post(emu, '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [id] });
		expect(r.status).toBe(200);
		emu.clearRequests();
	}

	/** The error a NodeOperationError run stops with, after proving no request went out (nock has no interceptor). */
	async function refusedOffline(parameters: IDataObject, input?: IDataObject[]) {
		nock.disableNetConnect();
		nock.enableNetConnect('127.0.0.1');
		try {
			const { result, name } = await run(parameters, input, offline);
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(nock.pendingMocks()).toEqual([]);
			return error as unknown as NodeOperationError;
		} finally {
			nock.cleanAll();
			nock.enableNetConnect();
		}
	}

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 120 }, quiet: true });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
	});

	afterAll(async () => {
		nock.cleanAll();
		await h?.close();
	});

	beforeEach(() => {
		// Peppol sends stay Pending until a test moves them.
		Object.assign(emu.config, { deliveryOutcome: 'Pending', deliveryDelayMs: DEFAULTS.config.deliveryDelayMs, changeAnswer: 'body' });
		emu.clearRequests();
	});

	describe('Get Delivery Status', () => {
		it('routes each order to Delivered, Pending or Error / Refused, a refusal first; a refused invoice is never Delivered: true (#28)', async () => {
			const ids = [];
			for (let i = 0; i < 4; i++) {
				const id = await createInvoice();
				await sendOverPeppol(id);
				ids.push(id);
			}
			const [delivered, pending, failed, refused] = ids;
			emu.delivery.set(delivered, 'Delivered');
			emu.delivery.set(failed, 'Error', { info: 'Receiver AP rejected the document' });
			emu.delivery.set(refused, 'Refused', { reason: 'REF', info: 'Wrong purchase order' });
			emu.clearRequests();

			const { result, name } = await run(
				{ operation: 'getDeliveryStatus', orderId: '={{ $json.id }}' },
				ids.map((id) => ({ id })),
			);
			const [onDelivered, onPending, onNotDelivered] = result.outputs(name) as Rec[][];
			expect(onDelivered).toEqual([
				expect.objectContaining({
					OrderID: delivered,
					Status: 'Delivered',
					Delivered: true,
					DeliveryStatus: 'Delivered',
					Refused: false,
					DeliveryDate: expect.any(String),
				}),
			]);
			expect(onPending).toEqual([
				expect.objectContaining({ OrderID: pending, Status: 'Pending', Delivered: false, DeliveryStatus: 'Pending', DeliveryDate: null }),
			]);
			expect(onNotDelivered.map((o) => [o.OrderID, o.Status])).toEqual([
				[failed, 'Error'],
				[refused, 'Refused'],
			]);
			expect(onNotDelivered[0]).toMatchObject({ Delivered: false, DeliveryStatus: 'Error', DeliveryInfo: 'Receiver AP rejected the document' });
			// The page "Get status info of a sales invoice": a negative outcome is Error with the Refused fields set.
			expect(onNotDelivered[1]).toMatchObject({
				Delivered: false,
				DeliveryStatus: 'Error',
				ResponseCode: 'RE',
				Response: 'Wrong purchase order',
				Refused: true,
				RefusedReason: 'REF',
				RefusedInfo: 'Wrong purchase order',
				RefusedDate: expect.any(String),
				OrderStatus: 'Refused',
				CounterParty: 'Peppol Demo Belgium NV',
			});
			expect(Object.keys(onPending[0])).toEqual([
				'OrderID',
				'OrderNumber',
				'OrderType',
				'OrderStatus',
				'IsSent',
				'CounterParty',
				'Status',
				'Delivered',
				'DeliveryStatus',
				'DeliveryDate',
				'DeliveryInfo',
				'Refused',
				'RefusedDate',
				'RefusedReason',
				'RefusedInfo',
				'SentVia',
				'SentAt',
				'ResponseCode',
				'Response',
			]);
			expect(onPending[0]).toMatchObject({ SentVia: 'Peppol', SentAt: expect.any(String), ResponseCode: null });
			// Each output item is paired with the input item that named it.
			expect(result.items(name, 2).map((i) => i.pairedItem)).toEqual([{ item: 2 }, { item: 3 }]);
			expect(result.items(name, 0).map((i) => i.pairedItem)).toEqual([{ item: 0 }]);
			expect(logged().map((r) => `${r.method} ${r.path}`)).toEqual(ids.map((id) => `GET /v1/orders/${id}`));
		});

		it('puts an order never sent (all delivery fields null) on Pending / Not Sent as "NotSent" (#28)', async () => {
			const id = await createInvoice();
			const { result, name } = await run({ operation: 'getDeliveryStatus', orderId: String(id) });
			expect(result.outputs(name).map((o) => o.length)).toEqual([0, 1, 0]);
			expect(result.output(name, 1)[0]).toMatchObject({
				OrderID: id,
				IsSent: false,
				Status: 'NotSent',
				Delivered: false,
				DeliveryStatus: null,
				Refused: false,
			});
		});

		it('the node has three named outputs for this operation only, so the editor shows them and templates connect to them', () => {
			const type = h.nodeTypes.getByNameAndVersion(h.type(NODE), 1);
			const outputsFor = (operation: string) => {
				const node = { id: '1', name: 'Order', type: h.type(NODE), typeVersion: 1, position: [0, 0], parameters: { resource: 'order', operation } } as INode;
				const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: h.nodeTypes });
				return NodeHelpers.getNodeOutputs(workflow, workflow.getNode('Order')!, type.description as INodeTypeDescription);
			};
			expect(outputsFor('getDeliveryStatus')).toEqual([
				{ type: 'main', displayName: 'Delivered' },
				{ type: 'main', displayName: 'Pending / Not Sent' },
				{ type: 'main', displayName: 'Error / Refused' },
			]);
			for (const operation of ['get', 'getAll', 'update', 'delete', 'recordPayment', 'createCreditNote', 'send'])
				expect(outputsFor(operation)).toEqual(['main']);
		});

		it('a workflow connects each output to its own branch', async () => {
			const id = await createInvoice();
			await sendOverPeppol(id);
			emu.delivery.set(id, 'Refused');
			const wf = h.chain([
				{ type: NODE, name: 'Status', parameters: { resource: 'order', operation: 'getDeliveryStatus', orderId: String(id) } },
				{ type: 'noOp', name: 'Follow up', output: 2 },
			]);
			const result = (await h.run(wf)).assertSuccess();
			expect(result.output('Follow up')).toEqual([expect.objectContaining({ OrderID: id, Status: 'Refused' })]);
		});

		it('reads through the access-point path of a registered entity', async () => {
			const [order] = emu.store.listOrders('300001') as Rec[];
			const { result, name } = await run({
				operation: 'getDeliveryStatus',
				orderId: { __rl: true, mode: 'id', value: String(order.OrderID) },
				readThrough: 'registration',
				registrationId: { __rl: true, mode: 'id', value: '300001' },
			});
			const all = (result.outputs(name) as Rec[][]).flat();
			expect(all).toEqual([expect.objectContaining({ OrderID: order.OrderID, RegistrationID: 300001, OrderNumber: order.OrderNumber })]);
			expect(logged().map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/einvoices/registrations/300001/orders/${order.OrderID}`]);
			expect(logged()[0].headers.partyid).toBe(party);
		});

		it('an order not of that registration fails with the API status on its item', async () => {
			const id = await createInvoice();
			const { result, name } = await run({
				operation: 'getDeliveryStatus',
				orderId: String(id),
				readThrough: 'registration',
				registrationId: { __rl: true, mode: 'id', value: '300001' },
			});
			const error = result.nodeError(name) as unknown as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('401');
		});

		it('with Continue, a bad OrderID leaves through Error / Refused (it is not known to be delivered) and the others are read', async () => {
			const id = await createInvoice();
			const { result, name } = await run({ operation: 'getDeliveryStatus', orderId: '={{ $json.id }}' }, [{ id }, { id: 'INV-9' }, { id: 99999999 }], {
				onError: 'continueRegularOutput',
			});
			const [, pending, notDelivered] = result.outputs(name) as Rec[][];
			expect(pending.map((o) => o.OrderID)).toEqual([id]);
			expect(notDelivered).toEqual([
				expect.objectContaining({ error: 'Item 1: "Order" INV-9 is not an OrderID' }),
				expect.objectContaining({ error: expect.stringContaining('HTTP 404'), httpCode: '404' }),
			]);
			expect(result.items(name, 2).map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
			expect(logged().map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/orders/${id}`, 'GET /v1/orders/99999999']); // one read each (issue 36.5)
		});

		it('with Continue (using error output), failures go to the error output', async () => {
			const id = await createInvoice();
			const { result, name } = await run({ operation: 'getDeliveryStatus', orderId: '={{ $json.id }}' }, [{ id }, { id: 0 }], {
				onError: 'continueErrorOutput',
			});
			const outputs = result.outputs(name) as Rec[][];
			expect(outputs.map((o) => o.length)).toEqual([0, 1, 0, 1]);
			expect(outputs[3][0].error).toBe('Item 1: "Order" 0 is not an OrderID');
		});

		it('a bad OrderID on item 2 stops the run before any request, naming field and item', async () => {
			const error = await refusedOffline({ operation: 'getDeliveryStatus', orderId: '={{ $json.id }}' }, [{ id: 5 }, { id: '9007199254740993' }]);
			expect(error.message).toBe('Item 1: "Order" 9007199254740993 is too large to be an OrderID');
			expect(error.context.itemIndex).toBe(1);
		});

		it('an empty Registration is refused before any request', async () => {
			const error = await refusedOffline({
				operation: 'getDeliveryStatus',
				orderId: '5',
				readThrough: 'registration',
				registrationId: { __rl: true, mode: 'id', value: '={{ "" }}' },
			});
			expect(error.message).toBe('Item 0: "Registration" is empty');
		});

		it('without delivery details a sent order is Pending (Unknown); a status it does not know goes to Error / Refused', async () => {
			nock(OFFLINE_BASE)
				.get('/v1/orders/41')
				.reply(200, { OrderID: 41, IsSent: true })
				.get('/v1/orders/42')
				.reply(200, { OrderID: 42, IsSent: true, CurrentDocumentDeliveryDetails: { IsDocumentDelivered: false, DocumentDeliveryStatus: 'Quarantined' } })
				.get('/v1/orders/43')
				.reply(200, { OrderID: 43, IsSent: true, CurrentDocumentDeliveryDetails: { IsDocumentDelivered: true } });
			try {
				const { result, name } = await run({ operation: 'getDeliveryStatus', orderId: '={{ $json.id }}' }, [{ id: 41 }, { id: 42 }, { id: 43 }], offline);
				const outputs = result.outputs(name) as Rec[][];
				expect(outputs.map((list) => list.map((o) => [o.OrderID, o.Status]))).toEqual([[[43, 'Delivered']], [[41, 'Unknown']], [[42, 'Quarantined']]]);
				expect(nock.pendingMocks()).toEqual([]);
			} finally {
				nock.cleanAll();
			}
		});
	});

	describe('Update', () => {
		it('sends only the fields set (Is Sent, Internal Info) and outputs the order the API answers', async () => {
			const id = await createInvoice();
			const { items } = await run({ operation: 'update', orderId: String(id), updateFields: { isSent: true, internalInfo: 'Booked, batch 7' } });
			const [patch] = logged();
			expect(`${patch.method} ${patch.path}`).toBe(`PATCH /v1/orders/${id}`);
			expect(patch.body).toEqual({ IsSent: true, InternalInfo: 'Booked, batch 7' });
			expect(items).toEqual([expect.objectContaining({ OrderID: id, IsSent: true, InternalInfo: 'Booked, batch 7', OrderStatus: 'Draft' })]);
			expect(stored(id)).toMatchObject({ IsSent: true, InternalInfo: 'Booked, batch 7' });
		});

		it('an empty Internal Info clears the note (null); Approval Status on an order awaiting approval', async () => {
			const id = await createInvoice();
			await run({ operation: 'update', orderId: String(id), updateFields: { internalInfo: 'temporary' } });
			emu.clearRequests();
			await run({ operation: 'update', orderId: String(id), updateFields: { internalInfo: '' } });
			expect(logged()[0].body).toEqual({ InternalInfo: null });
			expect(stored(id)?.InternalInfo).toBeNull();

			const waiting = (emu.store.listOrders(party) as Rec[]).find((o) => o.OrderStatus === 'ApprovalNeeded')!;
			emu.clearRequests();
			const { items } = await run({ operation: 'update', orderId: String(waiting.OrderID), updateFields: { approvalStatus: 'Approved' } });
			expect(logged()[0].body).toEqual({ ApprovalStatus: 'Approved' });
			expect(items[0]).toMatchObject({ OrderID: waiting.OrderID, ApprovalStatus: 'Approved', OrderStatus: 'ToPay' });
		});

		it('issue 36.4: the bookkeeping fields the service lets a PATCH change reach the order (Paid, Paid Date, Invoiced, Account Code, Accountant Verification Needed)', async () => {
			const id = await createInvoice();
			const updateFields = { paid: true, paidDate: '2024-03-10', invoiced: true, accountCode: '700000', accountantVerificationNeeded: true };
			const { items } = await run({ operation: 'update', orderId: String(id), updateFields });
			const body = { Paid: true, PaidDate: '2024-03-10', Invoiced: true, AccountCode: '700000', AccountantVerificationNeeded: true };
			expect(logged()[0].body).toEqual(body);
			expect(items[0]).toMatchObject({ OrderID: id, ...body });
			expect(stored(id)).toMatchObject(body);
		});

		it('an empty 200 answer outputs the OrderID and what was changed', async () => {
			emu.config.changeAnswer = 'empty';
			const id = await createInvoice();
			const { items } = await run({ operation: 'update', orderId: String(id), updateFields: { isSent: true, invoiced: false } });
			expect(items).toEqual([{ OrderID: id, IsSent: true, Invoiced: false }]);
			expect(stored(id)).toMatchObject({ IsSent: true, Invoiced: false });
		});

		it('issue 36.4: a Cancel saved by 1.0 (OrderStatus is not patchable) is refused before any request, saying to create a credit note', async () => {
			const error = await refusedOffline({ operation: 'update', orderId: '5', updateFields: { cancel: true, isSent: true } });
			expect(error.message).toBe('Item 0: "Cancel" true is no longer offered: the service does not cancel by Update');
			expect(error.description).toMatch(/create a credit note for it \(Create Credit Note\)/);
		});

		it.each([
			['nothing set', {}, 'Item 0: "Update Fields" has nothing to change'],
			['Cancel off, saved by 1.0', { cancel: false }, 'Item 0: "Cancel" false is no longer offered: the service does not cancel by Update'],
			['Paid as text', { paid: '={{ "yes" }}' }, 'Item 0: "Paid" yes is not true or false'],
			['Paid Date not a date', { paidDate: '2024-02-30' }, 'Item 0: "Paid Date" 2024-02-30 is not a real date in the form YYYY-MM-DD'],
			['Is Sent as text', { isSent: '={{ "yes" }}' }, 'Item 0: "Is Sent" yes is not true or false'],
			['Approval Status unknown', { approvalStatus: '={{ "Maybe" }}' }, 'Item 0: "Approval Status" Maybe is not one of Approved, Pending, Rejected'],
			['Internal Info too long', { internalInfo: 'x'.repeat(2001) }, /^Item 0: "Internal Info" x{40}… is longer than 2000 characters \(2001\)$/],
			['Internal Info a number', { internalInfo: '={{ 42 }}' }, 'Item 0: "Internal Info" 42 is not text'],
		])('refuses %s before any request', async (_label, updateFields, message) => {
			const error = await refusedOffline({ operation: 'update', orderId: '5', updateFields });
			if (typeof message === 'string') expect(error.message).toBe(message);
			else expect(error.message).toMatch(message);
		});

		it('a bad item 3 stops the run before item 1 is updated', async () => {
			const error = await refusedOffline({ operation: 'update', orderId: '={{ $json.id }}', updateFields: { isSent: true } }, [
				{ id: 1 },
				{ id: 2 },
				{ id: 'x' },
			]);
			expect(error.message).toBe('Item 2: "Order" x is not an OrderID');
		});
	});

	describe('Delete', () => {
		it('deletes an order that was not sent over Peppol', async () => {
			const id = await createInvoice();
			const { items } = await run({ operation: 'delete', orderId: { __rl: true, mode: 'list', value: String(id) } });
			expect(items).toEqual([{ OrderID: id, Deleted: true }]);
			expect(logged().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`DELETE /v1/orders/${id} 200`]);
			expect(stored(id)).toBeUndefined();
		});

		it('a refusal (sent over Peppol) is a clear message pointing to a credit note, and the order stays', async () => {
			const id = await createInvoice();
			await sendOverPeppol(id);
			const { result, name } = await run({ operation: 'delete', orderId: String(id) });
			const error = result.nodeError(name) as unknown as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toMatch(
				new RegExp(
					`^Order ${id} was not deleted: Order ${id} \\(INV-[\\d-]+\\) was sent over Peppol and cannot be deleted: the receiver has it\\. Create a credit note for it instead \\(HTTP 400, GenericError\\)$`,
				),
			);
			expect(error.description).toBe('An order sent over Peppol cannot be deleted: create a credit note for it instead.');
			expect(stored(id)).toBeDefined();
		});

		it('an unknown order keeps the API’s 404 error; with Continue the other items are deleted', async () => {
			const id = await createInvoice();
			const { result, name } = await run({ operation: 'delete', orderId: '={{ $json.id }}' }, [{ id: 99999998 }, { id }], { onError: 'continueRegularOutput' });
			expect(result.output(name)).toEqual([
				expect.objectContaining({ httpCode: '404', error: expect.stringContaining('Delete order 99999998 failed with HTTP 404') }),
				{ OrderID: id, Deleted: true },
			]);
		});

		it('refuses a bad OrderID before any request', async () => {
			const error = await refusedOffline({ operation: 'delete', orderId: '={{ $json.id }}' }, [{ id: 7 }, { id: -7 }]);
			expect(error.message).toBe('Item 1: "Order" -7 is not an OrderID');
		});
	});

	describe('Record Payment', () => {
		const pay = (orderId: number, over: IDataObject = {}) => ({
			operation: 'recordPayment',
			orderId: String(orderId),
			amount: 40,
			paymentDate: '2024-03-10',
			paymentType: 'Bank transfer',
			reference: 'BANK-TX-0001',
			...over,
		});

		it('issue 36.1: sends the published {Amount, Description, Date}; the service keeps the date and the type and reference in Description; a retried run records nothing twice', async () => {
			const id = await createInvoice(); // 131.41 incl. VAT
			const first = await run(pay(id));
			const [request] = logged();
			expect(`${request.method} ${request.path}`).toBe(`POST /v1/orders/${id}/payments`);
			expect(request.body).toEqual({ Amount: 40, Date: '2024-03-10', Description: 'Bank transfer, ref. BANK-TX-0001' });
			expect(stored(id)?.Payments).toEqual([expect.objectContaining({ Amount: 40, Date: '2024-03-10', Description: 'Bank transfer, ref. BANK-TX-0001' })]);
			expect(request.headers['idempotency-key']).toBe(`payment-${id}-40-2024-03-10-BANK-TX-0001`);
			expect(first.items).toEqual([
				expect.objectContaining({
					OrderID: id,
					PaymentID: expect.any(Number),
					Amount: 40,
					Date: '2024-03-10',
					Description: 'Bank transfer, ref. BANK-TX-0001',
					ToPay: 91.41,
					Paid: false,
					AlreadyRecorded: false,
				}),
			]);

			emu.clearRequests();
			const again = await run(pay(id));
			expect(again.items).toEqual([
				{
					OrderID: id,
					Amount: 40,
					Date: '2024-03-10',
					Description: 'Bank transfer, ref. BANK-TX-0001',
					ToPay: 91.41,
					Paid: false,
					OrderStatus: 'Draft',
					AlreadyRecorded: true,
				},
			]);
			expect(logged().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 409', 'GET 200']);
			expect(stored(id)?.Payments).toHaveLength(1);

			const rest = await run(pay(id, { amount: '={{ 91.41 }}', reference: 'BANK-TX-0002', paymentDate: '2024-03-20T15:00:00' }));
			expect(rest.items[0]).toMatchObject({ Amount: 91.41, ToPay: 0, Paid: true, OrderStatus: 'Paid', AlreadyRecorded: false });
			expect(stored(id)).toMatchObject({ Paid: true, PaidDate: '2024-03-20', OrderStatus: 'Paid' });
		});

		it.each([
			['12,50', 12.5],
			['12.50', 12.5],
			['1.250,00', 1250],
			['1,250.00', 1250],
			['1 250,5', 1250.5],
			['={{ 12.5 }}', 12.5],
		])('issue 28.2: Amount %s is recorded as %d, never reinterpreted', async (typed, amount) => {
			const id = await createInvoice({ OrderLines: [{ Quantity: 1, Description: 'Machine', UnitPriceExcl: 2000, VATPercentage: 21 }] }); // 2,420.00 incl. VAT
			const { items } = await run(pay(id, { amount: typed, reference: '' }));
			expect(logged()[0].body).toEqual({ Amount: amount, Date: '2024-03-10', Description: 'Bank transfer' });
			expect(items[0]).toMatchObject({ Amount: amount, ToPay: 2420 - amount });
			expect(stored(id)?.ToPay).toBe(2420 - amount);
		});

		it('without a Reference no idempotency key is sent; an empty 200 outputs the payment without ToPay', async () => {
			emu.config.changeAnswer = 'empty';
			const id = await createInvoice();
			const { items } = await run(pay(id, { reference: '', paymentType: '', amount: 10.5 }));
			expect(logged()[0].headers['idempotency-key']).toBeUndefined();
			expect(logged()[0].body).toEqual({ Amount: 10.5, Date: '2024-03-10' });
			expect(items).toEqual([{ OrderID: id, Amount: 10.5, Date: '2024-03-10', AlreadyRecorded: false }]);
			expect(stored(id)?.ToPay).toBe(120.91);
		});

		it('a refusal (more than the order owes) says the payment was not recorded and why', async () => {
			const id = await createInvoice();
			const { result, name } = await run(pay(id, { amount: 500 }));
			const error = result.nodeError(name) as unknown as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toMatch(
				new RegExp(
					`^The payment of order ${id} was not recorded: Amount 500\\.00 is more than Order ${id} \\(INV-[\\d-]+\\) still owes \\(ToPay 131\\.41\\) \\(HTTP 400, GenericError\\)$`,
				),
			);
			expect(stored(id)?.Payments ?? []).toHaveLength(0);
		});

		it.each([
			['zero', { amount: 0 }, 'Item 0: "Amount" 0 is not more than 0'],
			['negative', { amount: '-5' }, 'Item 0: "Amount" -5 is not more than 0'],
			['three decimals', { amount: 12.345 }, 'Item 0: "Amount" 12.345 has more than 2 decimals'],
			['text', { amount: 'lots' }, 'Item 0: "Amount" lots is not a number'],
			['ambiguous "1,250" (thousands or decimals?)', { amount: '1,250' }, 'Item 0: "Amount" 1,250 is ambiguous ("," may separate thousands or decimals)'],
			['ambiguous "1.250"', { amount: '1.250' }, 'Item 0: "Amount" 1.250 is ambiguous ("." may separate thousands or decimals)'],
			['thousands badly grouped', { amount: '1,25,000.00' }, 'Item 0: "Amount" 1,25,000.00 is not a number (its thousands are not grouped by three)'],
			['a currency sign', { amount: '€ 12,50' }, 'Item 0: "Amount" € 12,50 is not a number'],
			['no date (mapped empty)', { paymentDate: '={{ "" }}' }, 'Item 0: "Payment Date" is empty'],
			['30 February', { paymentDate: '2024-02-30' }, 'Item 0: "Payment Date" 2024-02-30 is not a real date in the form YYYY-MM-DD'],
			['a time that does not exist', { paymentDate: '2026-02-28T99:99' }, 'Item 0: "Payment Date" 2026-02-28T99:99 is not a real date in the form YYYY-MM-DD'],
			['payment type too long', { paymentType: 'x'.repeat(51) }, /^Item 0: "Payment Type" x{51} is longer than 50 characters$/],
			['reference a number', { reference: '={{ 12345 }}' }, 'Item 0: "Reference" 12345 is not text'],
		])('refuses an amount/date/text that is %s before any request', async (_label, over, message) => {
			const error = await refusedOffline(pay(5, over));
			if (typeof message === 'string') expect(error.message).toBe(message);
			else expect(error.message).toMatch(message);
		});
	});

	describe('Create Credit Note', () => {
		let counter = 0;
		const unique = (tag: string) => `${tag}-${Date.now().toString(36)}-${++counter}`;
		const invoiceLines = [
			{ Quantity: 4, Description: 'Consulting', UnitPriceExcl: 100, VATPercentage: 21 },
			{ Quantity: 2, Description: 'Licence', UnitPriceExcl: 50, VATPercentage: 6 },
			{ Quantity: 1, Description: 'Travel', UnitPriceExcl: 30, VATPercentage: 0 },
		];
		const creditNotesAbout = (number: string) =>
			(emu.store.listOrders(party) as Rec[]).filter((o) => o.OrderType === 'CreditNote' && o.AboutInvoiceNumber === number);
		// Issue 39: the credit note's number and totals as the service holds them, created or found alike.
		const totals = (o: Rec) => ({
			OrderNumber: o.OrderNumber,
			OrderDate: o.OrderDate,
			TotalExcl: o.TotalExcl,
			TotalVAT: o.TotalVAT,
			TotalIncl: o.TotalIncl,
			Currency: o.Currency,
		});

		it('credits the whole invoice by OrderID: a CreditNote about its number, its customer and every line', async () => {
			const invoiceId = await createInvoice({ OrderLines: invoiceLines, Currency: 'EUR' });
			const invoice = stored(invoiceId)!;
			const { items } = await run({ operation: 'createCreditNote', orderId: String(invoiceId), creditNoteDate: '2024-04-02' });
			const [note] = creditNotesAbout(invoice.OrderNumber);
			expect(items).toEqual([
				{
					...totals(note),
					OrderID: note.OrderID,
					ExternalProviderID: `credit-${invoiceId}`,
					AboutInvoiceNumber: invoice.OrderNumber,
					InvoiceOrderID: invoiceId,
					Outcome: 'created',
					AlreadyExisted: false,
				},
			]);
			expect(logged().map((r) => `${r.method} ${r.path}`)).toEqual([
				`GET /v1/orders/${invoiceId}`,
				'GET /v1/orders',
				'POST /v1/orders',
				`GET /v1/orders/${String(note.OrderID)}`,
			]);
			expect(logged()[1].query.$filter).toBe(`ExternalProviderID eq 'credit-${invoiceId}'`);
			const create = logged().find((r) => r.method === 'POST')!;
			expect(create.headers['idempotency-key']).toBe(`create-credit-${invoiceId}`);
			expect(create.body).toEqual({
				OrderType: 'CreditNote',
				OrderDirection: 'Income',
				OrderDate: '2024-04-02',
				AboutInvoiceNumber: invoice.OrderNumber,
				Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
				Currency: 'EUR',
				ExternalProviderID: `credit-${invoiceId}`,
				OrderLines: invoiceLines,
			});
			expect(note).toMatchObject({ OrderType: 'CreditNote', TotalExcl: invoice.TotalExcl, TotalIncl: invoice.TotalIncl });
		});

		it('by invoice number, with picked lines (one whole, one in part)', async () => {
			const number = unique('INV-CN');
			const invoiceId = await createInvoice({ OrderLines: invoiceLines, OrderNumber: number });
			const { items } = await run({
				operation: 'createCreditNote',
				invoiceBy: 'invoiceNumber',
				invoiceNumber: number,
				creditLines: 'pick',
				pickedLines: { line: [{ lineNumber: 2 }, { lineNumber: 1, quantity: '1,5' }] },
				creditNoteDate: '2024-04-03',
				creditNoteFields: { orderNumber: `CN-${number}`, reference: 'Returned licences' },
			});
			const made = `GET /v1/orders/${String(creditNotesAbout(number)[0].OrderID)}`; // the credit note read back
			expect(logged().map((r) => `${r.method} ${r.path}`)).toEqual([
				'GET /v1/orders',
				`GET /v1/orders/${invoiceId}`,
				'GET /v1/orders',
				'POST /v1/orders',
				made,
			]);
			expect(logged()[0].query.$filter).toBe(`OrderNumber eq '${number}' and OrderType eq 'Invoice'`);
			expect(logged()[3].body).toMatchObject({
				OrderNumber: `CN-${number}`,
				Reference: 'Returned licences',
				AboutInvoiceNumber: number,
				OrderLines: [invoiceLines[1], { ...invoiceLines[0], Quantity: 1.5 }],
			});
			const [note] = creditNotesAbout(number);
			expect(items[0]).toEqual({
				...totals(note),
				OrderID: note.OrderID,
				ExternalProviderID: `credit-${invoiceId}`,
				AboutInvoiceNumber: number,
				InvoiceOrderID: invoiceId,
				Outcome: 'created',
				AlreadyExisted: false,
			});
			expect(note.TotalExcl).toBe(250);
		});

		it('issue 28.1: Execute step twice without an External Provider ID credits the invoice once; the re-run outputs that credit note in the same shape', async () => {
			const number = unique('INV-TWICE');
			const invoiceId = await createInvoice({ OrderLines: invoiceLines, OrderNumber: number });
			const params = { operation: 'createCreditNote', invoiceBy: 'invoiceNumber', invoiceNumber: number };
			const first = await run(params);
			emu.clearRequests();
			const second = await run(params);
			const [note, ...more] = creditNotesAbout(number);
			expect(more).toEqual([]);
			expect(note.ExternalProviderID).toBe(`credit-${invoiceId}`);
			const shape = {
				...totals(note),
				OrderID: note.OrderID,
				ExternalProviderID: `credit-${invoiceId}`,
				AboutInvoiceNumber: number,
				InvoiceOrderID: invoiceId,
			};
			expect(first.items).toEqual([{ ...shape, Outcome: 'created', AlreadyExisted: false }]);
			expect(second.items).toEqual([{ ...shape, Outcome: 'found', AlreadyExisted: true }]);
			expect(logged().filter((r) => r.method === 'POST')).toEqual([]);

			// Fetch Full Order: the whole credit note, created or found alike.
			const again = await run({ ...params, options: { fetchFullOrder: true } });
			expect(again.items[0]).toMatchObject({ ...shape, OrderType: 'CreditNote', TotalIncl: note.TotalIncl, Outcome: 'found' });
			expect(creditNotesAbout(number)).toHaveLength(1);
		});

		it('If Already Credited: Create Another makes a deliberate second (partial) credit note, once, under its own External Provider ID', async () => {
			const number = unique('INV-PART');
			const invoiceId = await createInvoice({ OrderLines: invoiceLines, OrderNumber: number });
			await run({ operation: 'createCreditNote', orderId: String(invoiceId), creditLines: 'pick', pickedLines: { line: [{ lineNumber: 1, quantity: '1' }] } });
			const another = {
				operation: 'createCreditNote',
				orderId: String(invoiceId),
				ifCredited: 'another',
				externalProviderId: `${number}-CN2`,
				creditLines: 'pick',
				pickedLines: { line: [{ lineNumber: 1, quantity: '2' }] },
			};
			const second = await run(another);
			const third = await run(another);
			expect(second.items[0]).toMatchObject({ ExternalProviderID: `${number}-CN2`, Outcome: 'created' });
			expect(third.items[0]).toMatchObject({ OrderID: second.items[0].OrderID, Outcome: 'found' });
			expect(creditNotesAbout(number).map((n) => [n.ExternalProviderID, n.OrderLines[0].Quantity])).toEqual([
				[`credit-${invoiceId}`, 1],
				[`${number}-CN2`, 2],
			]);
		});

		it('If Already Credited: Fail the Item fails a re-run, naming the credit note made before; nothing is created', async () => {
			const invoiceId = await createInvoice({ OrderLines: invoiceLines });
			const first = await run({ operation: 'createCreditNote', orderId: String(invoiceId), ifCredited: 'fail' });
			emu.clearRequests();
			const { result, name } = await run({ operation: 'createCreditNote', orderId: String(invoiceId), ifCredited: 'fail' });
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toMatch(
				new RegExp(
					`^Item 0: invoice INV-[\\d-]+ already has credit note ${String(first.items[0].OrderID)} \\(External Provider ID credit-${invoiceId}\\); nothing was created$`,
				),
			);
			expect(logged().filter((r) => r.method === 'POST')).toEqual([]);
		});

		it('an invoice already Credited by a credit note made elsewhere is not credited again; Create Another does it on purpose', async () => {
			const credited = (emu.store.listOrders(party) as Rec[]).find((o) => o.OrderType === 'Invoice' && o.OrderStatus === 'Credited' && o.OrderLines?.length)!;
			const { result, name } = await run({ operation: 'createCreditNote', orderId: String(credited.OrderID) });
			expect(result.nodeError(name)?.message).toBe(`Item 0: invoice ${credited.OrderNumber} is already credited, not by this node; nothing was created`);
			expect(result.nodeError(name)?.description).toMatch(/Create Another Credit Note/);
			expect(logged().filter((r) => r.method === 'POST')).toEqual([]);
			const { items } = await run({
				operation: 'createCreditNote',
				orderId: String(credited.OrderID),
				ifCredited: 'another',
				externalProviderId: unique('CN-AGAIN'),
			});
			expect(items[0]).toMatchObject({ AboutInvoiceNumber: credited.OrderNumber, Outcome: 'created' });
		});

		it('is idempotent like Create: the same External Provider ID twice creates one credit note', async () => {
			const invoiceId = await createInvoice({ OrderLines: invoiceLines });
			const externalId = unique('CN-EXT');
			const params = { operation: 'createCreditNote', orderId: String(invoiceId), externalProviderId: externalId };
			const first = await run(params);
			const firstPost = logged().find((r) => r.method === 'POST')!;
			expect(firstPost.headers['idempotency-key']).toBe(`create-${externalId}`);
			emu.clearRequests();
			const second = await run(params);
			const notes = (emu.store.listOrders(party) as Rec[]).filter((o) => o.ExternalProviderID === externalId);
			expect(notes).toHaveLength(1);
			expect(first.items[0]).toMatchObject({ OrderID: notes[0].OrderID, AlreadyExisted: false });
			expect(second.items[0]).toEqual({ ...first.items[0], Outcome: 'found', AlreadyExisted: true });
			expect(logged().filter((r) => r.method === 'POST')).toHaveLength(0);
		});

		it.each([
			[
				'more of a line than invoiced',
				[{ lineNumber: 3, quantity: 2 }],
				'Item 0: "Picked Lines › Line 1 › Quantity" 2 is more than line 3 of invoice NUMBER holds (1 invoiced)',
			],
			[
				'the same line twice, together too much',
				[
					{ lineNumber: 1, quantity: 3 },
					{ lineNumber: 1, quantity: 2 },
				],
				'Item 0: "Picked Lines › Line 2 › Quantity" 2 is more than line 1 of invoice NUMBER holds (1 left after the lines above)',
			],
			['a line the invoice does not have', [{ lineNumber: 4 }], 'Item 0: "Picked Lines › Line 1 › Line Number" 4 is not a line of invoice NUMBER (it has 3)'],
		])('refuses %s after reading the invoice, creating nothing', async (_label, line, message) => {
			const number = unique('INV-OVER');
			const invoiceId = await createInvoice({ OrderLines: invoiceLines, OrderNumber: number });
			const { result, name } = await run({ operation: 'createCreditNote', orderId: String(invoiceId), creditLines: 'pick', pickedLines: { line } });
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toBe(message.replace('NUMBER', number));
			expect(logged().map((r) => r.method)).toEqual(['GET']);
			expect(creditNotesAbout(number)).toHaveLength(0);
		});

		it('refuses lines that together exceed the invoice total (a discount line left out)', async () => {
			const number = unique('INV-DISC');
			const invoiceId = await createInvoice({
				OrderNumber: number,
				OrderLines: [
					{ Quantity: 1, Description: 'Machine', UnitPriceExcl: 100, VATPercentage: 21 },
					{ Quantity: -1, Description: 'Discount', UnitPriceExcl: 20, VATPercentage: 21 },
				],
			});
			const { result, name } = await run({
				operation: 'createCreditNote',
				orderId: String(invoiceId),
				creditLines: 'pick',
				pickedLines: { line: [{ lineNumber: 1 }] },
			});
			expect(result.nodeError(name)?.message).toBe(`Item 0: "Credit Note Lines" 121 exceed invoice ${number} (total 96.80 incl. VAT)`);
			expect(logged().map((r) => r.method)).toEqual(['GET']);
		});

		it('refuses an order that is not an invoice, and an invoice number nobody has', async () => {
			const creditNote = await createInvoice({ OrderType: 'CreditNote' });
			const { result, name } = await run({ operation: 'createCreditNote', orderId: String(creditNote) });
			expect(result.nodeError(name)?.message).toBe(`Item 0: "Invoice" ${creditNote} is a CreditNote, not an invoice`);
			const missing = await run({ operation: 'createCreditNote', invoiceBy: 'invoiceNumber', invoiceNumber: 'NO-SUCH-INVOICE' });
			expect(missing.result.nodeError(missing.name)?.message).toBe('Item 0: "Invoice Number" NO-SUCH-INVOICE matches no invoice of this party');
			expect(logged().filter((r) => r.method === 'POST')).toHaveLength(0);
		});

		it.each([
			['an empty invoice number', { invoiceBy: 'invoiceNumber', invoiceNumber: '={{ "  " }}' }, 'Item 0: "Invoice Number" is empty'],
			['an Invoice that is not an OrderID', { orderId: 'INV-1' }, 'Item 0: "Invoice" INV-1 is not an OrderID'],
			[
				'line number 0',
				{ orderId: '5', creditLines: 'pick', pickedLines: { line: [{ lineNumber: 0 }] } },
				'Item 0: "Picked Lines › Line 1 › Line Number" 0 is not a line number (1 is the first line)',
			],
			[
				'a negative quantity',
				{ orderId: '5', creditLines: 'pick', pickedLines: { line: [{ lineNumber: 1, quantity: '-1' }] } },
				'Item 0: "Picked Lines › Line 1 › Quantity" -1 is negative',
			],
			[
				'an ambiguous quantity',
				{ orderId: '5', creditLines: 'pick', pickedLines: { line: [{ lineNumber: 1, quantity: '1.500' }] } },
				'Item 0: "Picked Lines › Line 1 › Quantity" 1.500 is ambiguous ("." may separate thousands or decimals)',
			],
			['Create Another without its own External Provider ID', { orderId: '5', ifCredited: 'another' }, 'Item 0: "External Provider ID" is empty'],
			[
				'an External Provider ID on two lines',
				{ orderId: '5', externalProviderId: 'CN-1\nCN-2' },
				'Item 0: "External Provider ID" CN-1\\nCN-2 contains a line break or another control character',
			],
			[
				'a date that does not exist',
				{ orderId: '5', creditNoteDate: '2024-02-30' },
				'Item 0: "Credit Note Date" 2024-02-30 is not a real date in the form YYYY-MM-DD',
			],
		])('refuses %s before any request', async (_label, over, message) => {
			const error = await refusedOffline({ operation: 'createCreditNote', ...over });
			expect(error.message).toBe(message);
		});
	});

	describe('the Order picker', () => {
		/** A list search of the Order node as n8n's editor calls it: a LoadOptionsContext on the node. */
		function searchContext(method = 'searchOrders', operation = 'update', parameter = 'orderId') {
			const node = {
				id: 'a0a0a0a0-0000-4000-8000-000000000001',
				name: 'Order',
				type: h.type(NODE),
				typeVersion: 1,
				position: [0, 0],
				parameters: { resource: 'order', operation },
				credentials: { accessPointApi: { id: '', name: 'AccessPoint account' } },
			} as INode;
			const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: h.nodeTypes });
			const context = new LoadOptionsContext(
				workflow,
				workflow.getNode('Order')!,
				// eslint-disable-next-line @typescript-eslint/no-explicit-any
				{ credentialsHelper: h.credentialsHelper } as any,
				`parameters.${parameter}`,
			);
			const search = h.nodeTypes.getByNameAndVersion(h.type(NODE), 1).methods!.listSearch![method];
			return (filter?: string, token?: string) => search.call(context, filter, token) as Promise<INodeListSearchResult>;
		}

		it('Get Delivery Status offers the registered entities to read through', async () => {
			const search = searchContext('searchRegistrations', 'getDeliveryStatus', 'registrationId');
			expect((await search('demo entity')).results).toEqual([{ name: expect.stringContaining('Demo Entity BV'), value: '300001' }]);
		});

		it('lists the newest orders a page at a time and finds one by number, customer or #OrderID', async () => {
			while (emu.store.listOrders(party).length <= DEFAULTS.config.pageSize) emu.store.addOrder(party, {});
			const search = searchContext();
			const first = await search();
			const newest = [...(emu.store.listOrders(party) as Rec[])].sort(
				(a, b) => String(b.LastModified).localeCompare(String(a.LastModified)) || a.OrderID - b.OrderID,
			); // ties: OrderID ascending, as the service
			expect(first.results).toHaveLength(DEFAULTS.config.pageSize);
			expect(new Set(first.results.map((r) => r.value)).size).toBe(first.results.length);
			expect(first.results[0].value).toBe(String(newest[0].OrderID));
			expect(first.results[0].name).toContain(`#${newest[0].OrderID}`);
			expect(first.paginationToken).toEqual(expect.stringContaining('$skip=120'));
			const second = await search(undefined, first.paginationToken as string);
			expect(second.results.length).toBeGreaterThan(0);
			expect(second.results.map((r) => r.value)).not.toContain(first.results[0].value);

			const target = newest[3];
			const customer = String(target.CounterParty.DisplayName);
			expect((await search(customer.toUpperCase())).results.map((r) => r.value)).toContain(String(target.OrderID));
			expect((await search(target.OrderNumber)).results.map((r) => r.value)).toContain(String(target.OrderID));
			expect((await search(`#${target.OrderID}`)).results).toEqual([{ name: expect.stringContaining(target.OrderNumber), value: String(target.OrderID) }]);
		});

		it('issue 36.3: a search asks the service with fullTextSearch, never a CounterParty/DisplayName filter, and finds an old order (behind 4 pages) by number or customer', async () => {
			const seeded = [...(emu.store.listOrders(party) as Rec[])].sort((a, b) => String(a.LastModified).localeCompare(String(b.LastModified)));
			const old = seeded.find((o) => o.OrderNumber && o.CounterParty?.DisplayName)!;
			const sameCustomer = seeded.filter((o) => o.CounterParty?.DisplayName === old.CounterParty.DisplayName).length;
			for (let n = emu.store.listOrders(party).length; n <= DEFAULTS.config.pageSize * 4; n++) emu.store.addOrder(party, {});
			const search = searchContext();
			const found = async (text: string) => (await search(text)).results.map((r) => r.value);
			emu.clearRequests();
			expect(await found(old.OrderNumber)).toContain(String(old.OrderID));
			expect(logged().map((r) => r.query)).toEqual([{ fullTextSearch: old.OrderNumber, $orderby: 'LastModified desc' }]);
			expect((await search(old.OrderNumber)).results[0]).toEqual({ name: expect.stringContaining(`#${old.OrderID}`), value: String(old.OrderID) });
			if (sameCustomer <= DEFAULTS.config.pageSize) expect(await found(old.CounterParty.DisplayName)).toContain(String(old.OrderID));
			expect(await found(`#${old.OrderID}`)).toEqual([String(old.OrderID)]);
			expect(logged().filter((r) => /DisplayName/.test(String(r.query.$filter ?? '')))).toEqual([]);
			// Without a search: newest change first, as the placeholder says; the old order is not on the first page.
			expect((await search()).results.map((r) => r.value)).not.toContain(String(old.OrderID));
		});

		it('a value picked from the list is the OrderID the operations read', async () => {
			const search = searchContext();
			const id = await createInvoice();
			const [picked] = (await search(`#${id}`)).results;
			const { items } = await run({
				operation: 'update',
				orderId: { __rl: true, mode: 'list', value: picked.value, cachedResultName: picked.name },
				updateFields: { isSent: true },
			});
			expect(items[0]).toMatchObject({ OrderID: id, IsSent: true });
		});
	});
});
