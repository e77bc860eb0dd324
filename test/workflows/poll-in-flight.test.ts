/**
 * Issue 37 item 3, through n8n-core's poll against the emulator: a poll that lasts longer than 10 minutes. The clock
 * (Date.now) runs ahead in the test; the emulator answers slowly so two polls overlap on the same static data, as n8n
 * 2.41 lets them. A poll that goes on making steps keeps its in-flight marker fresh: the next one steps aside. A poll
 * that made no step for 10 minutes is taken over: the later poll emits, the stalled one emits nothing when it ends.
 * Either way every item is emitted once (nodes/shared/node/inFlight.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import type { Emu } from '../reliability/helpers';

const MINUTE = 60_000;

describe('a poll lasting over 10 minutes is not taken for dead, and never emits twice', () => {
	let h: Harness;
	let emu: Emu;
	/** How far ahead of the real clock Date.now runs. */
	let offset = () => 0;
	const realNow = Date.now.bind(Date);

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 3 }, quiet: true });
		emu = h.emulator as Emu;
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset());
	});
	afterAll(async () => {
		jest.restoreAllMocks();
		await h?.close();
	});

	const drain = async () => {
		for (const item of emu.inbox.items()) {
			await fetch(`${emu.url}/v1/peppol/inbox/${item.InboxItemID}/confirm`, {
				method: 'POST',
				headers: { apikey: emu.credentials.apiKey, partyID: emu.credentials.partyId },
			});
		}
	};
	const fileReads = () => (emu.requests as Array<{ path: string }>).filter((r) => r.path.startsWith('/v1/files/')).length;
	const until = async (done: () => boolean) => {
		for (let i = 0; i < 400 && !done(); i++) await sleep(25);
		expect(done()).toBe(true);
	};
	const ids = (items: IDataObject[] | null | undefined) => (items ?? []).map((item) => item.InboxItemID);

	it('a slow poll that goes on (a step every 4 minutes, 20 in all) keeps the next poll aside', async () => {
		await drain();
		offset = () => 0;
		const arrived = Array.from({ length: 5 }, (_, n) => emu.inbox.receive({ orderNumber: `SLOW-${n}` }).InboxItemID);
		const poller = h.poller({ type: 'accessPointInboxTrigger', parameters: { options: { maxRetries: 0 } } });
		emu.config.latencyMs = 200;
		const reads = fileReads();
		const first = poller.poll();
		offset = () => (fileReads() - reads) * 4 * MINUTE; // each document read takes "4 minutes"
		await until(() => fileReads() - reads >= 3);
		expect(offset()).toBeGreaterThanOrEqual(12 * MINUTE);
		const second = await poller.poll(); // n8n's next scheduled poll, 12 minutes after the first started
		emu.config.latencyMs = 0;
		const a = await first;
		expect(second.items).toBeNull();
		expect(ids(a.items)).toEqual(arrived);
		expect((await poller.poll()).items).toBeNull();
	});

	it('a poll stalled for over 10 minutes is taken over: the later poll emits, the stalled one nothing', async () => {
		await drain();
		offset = () => 0;
		const arrived = Array.from({ length: 3 }, (_, n) => emu.inbox.receive({ orderNumber: `STALL-${n}` }).InboxItemID);
		const poller = h.poller({ type: 'accessPointInboxTrigger', parameters: { options: { maxRetries: 0 } } });
		emu.config.latencyMs = 300;
		const reads = fileReads();
		const first = poller.poll();
		await until(() => fileReads() > reads);
		offset = () => 11 * MINUTE; // the first poll's current step "lasted" 11 minutes
		emu.config.latencyMs = 0;
		const second = await poller.poll();
		const a = await first;
		expect(ids(second.items)).toEqual(arrived);
		expect(a.items).toBeNull();
		expect((await poller.poll()).items).toBeNull();
	});
});
