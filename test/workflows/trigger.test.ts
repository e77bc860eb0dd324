/**
 * AccessPoint Order Trigger driven through n8n-core's poll context (PollTriggerExecutor
 * for scheduled polls, a manual PollContext for "Fetch Test Event") against the emulator.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import { createHarness } from '../harness';
import type { Harness, Poller } from '../harness';

type Emu = Awaited<ReturnType<typeof createEmulator>>;

const TRIGGER = 'accessPointOrderTrigger';
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('AccessPoint Order Trigger (engine, emulator)', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;
	/**
	 * A second well after every seeded order, so the tests choose every LastModified, and
	 * still in the past by the API's clock (the emulator's Date header is the real time):
	 * the emulator's own clock, which stamps the seeded orders, is set 30 days back.
	 */
	let base: number;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 40, startTime: Date.now() - 30 * 86_400_000 } });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
		base = Math.floor(emu.clock.now().getTime() / 1000) + 86_400;
	});

	afterAll(async () => {
		await h?.close();
	});

	const trigger = (parameters: IDataObject = {}, options: IDataObject = {}): Poller =>
		h.poller({
			type: TRIGGER,
			parameters: { event: 'newOrUpdatedOrder', orderType: '', direction: '', options: { maxRetries: 0, ...options }, ...parameters },
		});

	/** GET /v1/orders requests since the last clear. */
	const orderRequests = () => emu.requests.filter((r) => r.method === 'GET' && r.path === '/v1/orders');

	const add = (seconds: number, extra: IDataObject = {}): number =>
		emu.store.addOrder(party, { Created: iso(seconds), LastModified: iso(seconds), ...extra }).OrderID as number;
	const touch = (id: number, seconds: number, extra: IDataObject = {}) => emu.store.updateOrder(party, id, { LastModified: iso(seconds), ...extra });

	const newestChange = (): string =>
		emu.store
			.listOrders(party)
			.map((o: IDataObject) => o.LastModified as string)
			.sort()
			.pop() as string;

	/**
	 * Runs `action` when the next GET /v1/orders page with this $skip arrives, before the
	 * emulator answers it: the emulator logs a request before it picks a fault and runs it.
	 */
	function onOrdersPage(skip: number, action: () => void) {
		const log = emu.requests;
		const push = log.push;
		log.push = function (...entries) {
			for (const entry of entries) {
				if (entry.path === '/v1/orders' && entry.query.$skip === String(skip)) {
					log.push = push;
					action();
				}
			}
			return push.apply(this, entries);
		};
	}

	/** The next GET /v1/orders whose $skip is `skip` answers 503 (a failure in the middle of paging). */
	const failOrdersPage = (skip: number) => onOrdersPage(skip, () => emu.failNext(1, 503, { method: 'GET', pathPrefix: '/v1/orders' }));

	it('emits every order exactly once across inserts, updates, a 311-order second across pages and a failed poll', async () => {
		const poller = trigger();
		const emitted: IDataObject[] = [];
		const pollAndCollect = async () => {
			emu.clearRequests();
			const result = await poller.poll();
			for (const item of result.items ?? []) emitted.push(item);
			return { result, requests: orderRequests() };
		};

		// First activation: "now" is the newest change in the book; nothing from before is emitted.
		const activation = await pollAndCollect();
		expect(activation.result.items).toBeNull();
		expect(activation.requests).toHaveLength(1);
		expect(activation.requests[0].query).toEqual({ $orderby: 'LastModified desc,OrderID desc' });
		const seededNewest = newestChange();

		// Nothing new: exactly one request, asking only for what changed since the cursor.
		const idle = await pollAndCollect();
		expect(idle.result.items).toBeNull();
		expect(idle.requests).toHaveLength(1);
		expect(idle.requests[0].query).toEqual({
			$filter: `LastModified ge DateTime'${seededNewest.slice(0, 19)}'`,
			$orderby: 'LastModified,OrderID',
		});

		// Five new orders and one update of a seeded order, all in one second.
		const firstFive = [1, 2, 3, 4, 5].map(() => add(base + 1));
		const seeded = emu.store.listOrders(party)[0].OrderID as number;
		touch(seeded, base + 1, { OrderStatus: 'Paid' });
		const third = await pollAndCollect();
		expect(third.result.items?.map((o) => o.OrderID)).toEqual([seeded, ...firstFive].sort((a, b) => a - b));
		expect(third.requests).toHaveLength(1);

		// Two more in the very second the cursor stands on: they come, the six before do not repeat.
		const sameSecond = [add(base + 1), add(base + 1)];
		const fourth = await pollAndCollect();
		expect(fourth.result.items?.map((o) => o.OrderID)).toEqual(sameSecond);

		// 310 orders and one update share the next second: three pages (each from one place back). Page 3 fails.
		const burst = Array.from({ length: 310 }, () => add(base + 2));
		touch(firstFive[0], base + 2, { Reference: 'changed in the burst second' });
		const cursorBefore = poller.nodeStaticData;
		failOrdersPage(238);
		emu.clearRequests();
		const failure = await poller.poll().then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(failure).toBeInstanceOf(NodeApiError);
		expect((failure as NodeApiError).httpCode).toBe('503');
		expect(orderRequests().map((r) => r.query.$skip)).toEqual([undefined, '119', '238']);
		expect(orderRequests().map((r) => r.status)).toEqual([200, 200, 503]);
		expect(poller.nodeStaticData).toEqual(cursorBefore); // a failed poll does not move the cursor

		// The next poll catches up: all 311 changes of that second, once.
		const recovered = await pollAndCollect();
		expect(recovered.result.items).toHaveLength(311);
		expect(new Set(recovered.result.items?.map((o) => o.OrderID))).toEqual(new Set([...burst, firstFive[0]]));
		expect(recovered.requests).toHaveLength(3);

		// Three more land in the burst second and one burst order changes later: only those four.
		const lateInBurst = [add(base + 2), add(base + 2), add(base + 2)];
		touch(burst[200], base + 3);
		const afterBurst = await pollAndCollect();
		expect(afterBurst.result.items?.map((o) => o.OrderID)).toEqual([...lateInBurst, burst[200]]);

		// Quiet again: one request.
		const quiet = await pollAndCollect();
		expect(quiet.result.items).toBeNull();
		expect(quiet.requests).toHaveLength(1);

		// Every change emitted exactly once; every order added or touched is there.
		const versions = emitted.map((o) => `${String(o.OrderID)}@${String(o.LastModified)}`);
		expect(new Set(versions).size).toBe(versions.length);
		const ids = new Set(emitted.map((o) => o.OrderID));
		for (const id of [seeded, ...firstFive, ...sameSecond, ...burst, ...lateInBurst]) expect(ids.has(id)).toBe(true);
		expect(emitted).toHaveLength(6 + 2 + 311 + 4);
	});

	it('manual mode returns the most recent matching order and does not touch the cursor', async () => {
		const poller = trigger({ orderType: 'CreditNote' });
		await poller.poll(); // activation
		const cursor = poller.nodeStaticData;
		expect(cursor.orderCursor).toBeDefined();

		const older = add(base + 10, { OrderType: 'CreditNote' });
		const newest = add(base + 11, { OrderType: 'CreditNote' });
		add(base + 12, { OrderType: 'Invoice' });

		emu.clearRequests();
		const sample = await poller.poll('manual');
		expect(sample.items?.map((o) => o.OrderID)).toEqual([newest]);
		expect(orderRequests()).toHaveLength(1);
		expect(orderRequests()[0].query).toEqual({
			$filter: "OrderType eq 'CreditNote'",
			$orderby: 'LastModified desc,OrderID desc',
			$top: '1',
		});
		expect(poller.nodeStaticData).toEqual(cursor);

		// The scheduled poll still emits both credit notes: the sample consumed nothing.
		const next = await poller.poll();
		expect(next.items?.map((o) => o.OrderID)).toEqual([older, newest]);
	});

	it('"new order" emits created orders only; type, direction and extra conditions narrow the query', async () => {
		const poller = trigger({
			event: 'newOrder',
			orderType: 'Invoice',
			direction: 'Cost',
			filters: { conditions: [{ field: 'Currency', operator: 'eq', value: 'EUR' }] },
		});
		const newestAtActivation = newestChange();
		await poller.poll();
		const existing = add(base + 20, { OrderType: 'Invoice', OrderDirection: 'Cost', Created: iso(base - 86_400 * 30) });
		const fresh = add(base + 21, { OrderType: 'Invoice', OrderDirection: 'Cost' });
		add(base + 21, { OrderType: 'Invoice', OrderDirection: 'Income' });
		add(base + 21, { OrderType: 'Offer', OrderDirection: 'Cost' });
		add(base + 21, { OrderType: 'Invoice', OrderDirection: 'Cost', Currency: 'USD' });

		emu.clearRequests();
		const first = await poller.poll();
		expect(first.items?.map((o) => o.OrderID)).toEqual([fresh]); // `existing` was created long before: an update
		expect(orderRequests()[0].query.$filter).toBe(
			`Currency eq 'EUR' and OrderType eq 'Invoice' and OrderDirection eq 'Cost' and LastModified ge DateTime'${newestAtActivation.slice(0, 19)}'`,
		);

		// An update of an order already emitted is not "new".
		touch(fresh, base + 22, { OrderStatus: 'Paid' });
		touch(existing, base + 22);
		expect((await poller.poll()).items).toBeNull();
	});

	it('1,000 new orders take 9 requests of 120 and come out one item per order', async () => {
		const poller = trigger();
		await poller.poll();
		const ids = Array.from({ length: 1000 }, (_, i) => add(base + 30 + Math.floor(i / 7)));
		emu.clearRequests();
		const result = await poller.poll();
		expect(result.items?.map((o) => o.OrderID)).toEqual(ids);
		expect(orderRequests()).toHaveLength(9);
		expect(result.data?.[0]).toHaveLength(1000);
	});

	it('"Start From" emits the changes since that date on the first poll', async () => {
		const poller = trigger({}, { startFrom: iso(base + 30) });
		emu.clearRequests();
		const first = await poller.poll();
		const since = emu.store.listOrders(party).filter((o: IDataObject) => String(o.LastModified) >= iso(base + 30));
		expect(first.items?.length).toBe(since.length);
		expect(orderRequests()[0].query.$filter).toBe(`LastModified ge DateTime'${iso(base + 30).slice(0, 19)}'`);
		expect((await poller.poll()).items).toBeNull();
	});

	it('"Act for Party" polls the party\'s own order book with its partyID header', async () => {
		const registration = [...emu.store.registrations.values()][0];
		const entity = String(registration.PartyID);
		const poller = trigger({}, { actForParty: entity });
		emu.clearRequests();
		await poller.poll();
		const id = emu.store.addOrder(entity, { LastModified: iso(base + 500), Created: iso(base + 500) }).OrderID;
		add(base + 500); // the master party's order is not this trigger's business
		const next = await poller.poll();
		expect(next.items?.map((o) => o.OrderID)).toEqual([id]);
		expect(orderRequests().every((r) => r.headers.partyid === entity)).toBe(true);
	});

	it('refuses a wrong extra condition before any request', async () => {
		const poller = trigger({ filters: { conditions: [{ field: 'OrderDate', operator: 'ge', value: 'last week' }] } });
		emu.clearRequests();
		await expect(poller.poll()).rejects.toThrow(/"Filters" condition 1 \(OrderDate\)/);
		expect(orderRequests()).toHaveLength(0);
	});

	it('an order changed while the poll pages shifts the pages; the poll reads again from there, nothing lost or repeated', async () => {
		const poller = trigger();
		await poller.poll();
		const orders = Array.from({ length: 250 }, () => add(base + 5000));
		// While page 2 is asked for, an order of page 1 changes: everything after it moves up one place,
		// so page 2 no longer starts with page 1's last order. The poll notices and reads that second again.
		onOrdersPage(119, () => touch(orders[10], base + 5001));
		emu.clearRequests();
		const first = await poller.poll();
		expect(orderRequests().map((r) => r.query.$skip)).toEqual([undefined, '119', undefined, '119', '238']);
		expect(first.items?.map((o) => o.OrderID)).toEqual([...orders.slice(0, 10), ...orders.slice(11), orders[10]].sort((a, b) => a - b));
		expect(first.items?.find((o) => o.OrderID === orders[10])?.LastModified).toBe(iso(base + 5001));
		expect((await poller.poll()).items).toBeNull();
	});

	it('an order deleted while the poll pages: the order that moved onto the page already read still comes, once', async () => {
		const poller = trigger();
		await poller.poll();
		// One order per second: an order lost here would never be read again (the cursor moves past its second).
		const orders = Array.from({ length: 300 }, (_, i) => add(base + 6000 + i));
		onOrdersPage(119, () => {
			emu.store.book(party).delete(orders[5]);
		});
		emu.clearRequests();
		const first = await poller.poll();
		const ids = first.items?.map((o) => o.OrderID) as number[];
		expect(ids).toHaveLength(300); // order 5 was read before it went; order 120 slipped onto page 1 and was read on the second run
		expect(new Set(ids).size).toBe(300);
		expect(ids).toContain(orders[120]);
		// The second run starts at the second of page 1's last order (about 180 orders on, two pages).
		expect(orderRequests().map((r) => r.query.$skip)).toEqual([undefined, '119', undefined, '119']);
		const restart = /^LastModified ge DateTime'(.+)'$/.exec(orderRequests()[2].query.$filter)?.[1];
		expect([iso(base + 6118).slice(0, 19), iso(base + 6119).slice(0, 19)]).toContain(restart);
		expect((await poller.poll()).items).toBeNull();
	});
});
