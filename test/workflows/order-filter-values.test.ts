/**
 * Issue 24 points 3 and 4 in a run (n8n-core's WorkflowExecute, the emulator): a filter
 * value typed the way a user reads it finds the orders the API's spelling finds, a value
 * that is none of the API's says so in the output's hints, and Raw mode sends only the
 * raw filter even with conditions left in the parameters.
 */
import { createHarness } from '../harness';
import type { Harness } from '../harness';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Order › Get Many: enumerated values and the filter mode (engine, emulator)', () => {
	let h: Harness;
	let orders: Rec[];

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 300 } });
		orders = [...h.emulator.store.book(h.emulator.credentials.partyId).values()];
	});
	afterAll(async () => {
		await h?.close();
	});

	const run = async (parameters: Rec) => {
		h.emulator.clearRequests();
		const result = await h.runNode('accessPointOrder', { resource: 'order', operation: 'getAll', returnAll: true, simplify: false, ...parameters });
		result.assertSuccess();
		const name = result.nodeName as string;
		const hints = (result.task(name)?.hints ?? []).map((hint) => `${hint.type}: ${hint.message}`);
		const filters = (h.emulator.requests as Array<{ path: string; query: Record<string, string> }>)
			.filter((r) => r.path === '/v1/orders')
			.map((r) => r.query.$filter);
		return { items: result.output(name) as Rec[], hints, filters };
	};
	const ids = (list: Rec[]) => list.map((o) => o.OrderID as number).sort((a, b) => a - b);
	const condition = (field: string, value: string) => ({ filters: { conditions: [{ field, operator: 'eq', value }] } });

	it('Order Type "credit note" (typed) finds exactly the CreditNote orders and says it was respelled', async () => {
		const creditNotes = orders.filter((o) => o.OrderType === 'CreditNote');
		expect(creditNotes.length).toBeGreaterThan(0);
		const typed = await run(condition('OrderType', 'credit note'));
		expect(ids(typed.items)).toEqual(ids(creditNotes));
		expect(typed.filters[0]).toBe("OrderType eq 'CreditNote'");
		expect(typed.hints).toContain("info: Order Type \"credit note\" was sent as 'CreditNote', the API's spelling");
		const picked = await run(condition('OrderType', 'CreditNote'));
		expect(ids(picked.items)).toEqual(ids(creditNotes));
		expect(picked.hints.filter((hint) => hint.startsWith('warning'))).toEqual([]);
	});

	it('a value that is none of the API values (from an expression) is sent as given, with a warning', async () => {
		const { items, hints, filters } = await run(condition('OrderStatus', '={{ "Overdue" }}'));
		expect(items).toEqual([]);
		expect(filters[0]).toBe("OrderStatus eq 'Overdue'");
		expect(hints).toContain(
			'warning: Order Status "Overdue" is not one of the API\'s values (Draft, ToSend, ToPay, Sent, Paid, Credited, Refused, Canceled, ApprovalNeeded); it was sent as given and may match nothing',
		);
	});

	it("a condition left as added (empty value) is refused before any request, naming the condition; it is not sent as eq ''", async () => {
		h.emulator.clearRequests();
		const result = await h.runNode('accessPointOrder', {
			resource: 'order',
			operation: 'getAll',
			filters: { conditions: [{ field: 'OrderNumber', operator: 'eq', value: '' }] },
		});
		expect(result.nodeError(result.nodeName as string)?.message).toMatch(/"Filters" condition 1 \(OrderNumber\): the value is empty/);
		expect((h.emulator.requests as Array<{ path: string }>).filter((r) => r.path === '/v1/orders')).toEqual([]);
	});

	it('Raw mode sends the raw filter only, even with builder conditions still in the parameters', async () => {
		const { items, filters } = await run({ ...condition('OrderType', 'Invoice'), filterMode: 'raw', rawFilter: "OrderType eq 'Offer'" });
		expect(filters).toEqual(["OrderType eq 'Offer'"]);
		expect(ids(items)).toEqual(ids(orders.filter((o) => o.OrderType === 'Offer')));
	});

	it('Builder mode does not send a raw filter left from Raw mode', async () => {
		const { filters } = await run({ ...condition('OrderType', 'Invoice'), filterMode: 'builder', rawFilter: "OrderType eq 'Offer'" });
		expect(filters[0]).toBe("OrderType eq 'Invoice'");
	});
});
