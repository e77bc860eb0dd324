/**
 * The Order Trigger on timestamps as the service writes them: Belgian time without a zone
 * ("2026-05-04T09:55:34.063", the service's pages "Webhooks" and "Get status info of a sales
 * invoice"; the emulator writes them so). The cursor compares LastModified as written and
 * moves the clocks (the API's Date header, n8n's) into Belgian time: an order changed five
 * minutes ago moves the cursor past it, instead of reading one or two hours ahead of every
 * clock and being read again by every poll (README "Order Trigger").
 */
import type { IDataObject } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import { serviceTime } from '../../emulator/util';
import { createHarness } from '../harness';
import type { Harness } from '../harness';

type Emu = Awaited<ReturnType<typeof createEmulator>>;

describe('Order Trigger on zoneless Belgian timestamps (engine, emulator)', () => {
	let h: Harness;
	let emu: Emu;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 20 } });
		emu = h.emulator as Emu;
	});

	afterAll(async () => {
		await h?.close();
	});

	it('emits each order once and moves its cursor past orders changed minutes ago, reading only what changed since', async () => {
		const party = emu.credentials.partyId;
		const poller = h.poller({ type: 'accessPointOrderTrigger', parameters: { event: 'newOrder', orderType: '', direction: '', options: { maxRetries: 0 } } });
		expect((await poller.poll()).items).toBeNull(); // activation: the baseline

		const fiveMinutesAgo = serviceTime(Date.now() - 5 * 60_000);
		expect(fiveMinutesAgo).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/);
		const added = [1, 2, 3].map(() => emu.store.addOrder(party, { Created: fiveMinutesAgo, LastModified: fiveMinutesAgo }).OrderID as number);
		const polled = await poller.poll();
		expect((polled.items as IDataObject[]).map((o) => o.OrderID)).toEqual(added);

		// The cursor stands on their second: the next poll asks from there, and emits nothing again.
		emu.clearRequests();
		expect((await poller.poll()).items).toBeNull();
		const filter = String(emu.requests.find((r) => r.path === '/v1/orders')?.query.$filter);
		expect(filter).toBe(`LastModified ge DateTime'${fiveMinutesAgo.slice(0, 19)}'`);
	});
});
