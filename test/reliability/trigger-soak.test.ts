/**
 * Trigger soak: two Order Triggers ("New or Updated Order" and "New Order") polled 200
 * times each through n8n-core's PollTriggerExecutor against the emulator with 10% of
 * requests faulted, while orders are inserted and updated between polls AND while a poll
 * is paging (the change lands after one page was read and before the next is answered).
 * LastModified has one-second resolution and many changes share a second, including the
 * second the cursor stands on; now and then a burst of 130-260 orders fills one second
 * across several pages.
 *
 * Proves: a poll either succeeds or fails with a NodeApiError (never anything else) and a
 * failed poll loses nothing; after a final fault-free catch-up, every inserted order and
 * the latest version of every updated order was emitted by the "New or Updated" trigger,
 * no version twice; the "New Order" trigger emitted every inserted order exactly once and
 * no seeded (pre-activation) order.
 *
 * Not covered (a limit of a one-second LastModified, see the report): two changes of the
 * same order within the same second, after the first was emitted. Updates here always move
 * an order to a later second than its previous version.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness, Poller } from '../harness';
import type { Emu, Logged, Rec } from './helpers';
import { int, pick, prng } from './helpers';
import { printFigures } from './report';

// A soak: long by design, and slower on a loaded machine; the assertions are its counts, not its time.
jest.setTimeout(240_000);

const TRIGGER = 'accessPointOrderTrigger';
const KINDS = [500, 502, 503, 504, 429, 'html', 'empty', 'truncated', 'reset', 'after-commit'];
const POLLS = 200;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface TriggerStats {
	polls: number;
	failed: number;
	emittedPolls: number;
	emitted: IDataObject[];
	wrongErrors: string[];
}

describe('trigger soak: 200 polls with concurrent inserts/updates, shared seconds and 10% faults', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;

	beforeAll(async () => {
		// The emulator's clock (which stamps the seeded orders) runs 30 days behind its Date header (the real time),
		// so the simulated seconds below, a day after the seeded orders, are still in the past by the API's clock.
		h = await createHarness({
			emulator: { orders: 150, seed: 17, startTime: Date.now() - 30 * 86_400_000, config: { retryAfterSeconds: 0 } },
			quiet: true,
		});
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
	});

	afterAll(async () => {
		await h?.close();
	});

	it('loses no order and emits none twice', async () => {
		const rnd = prng(424242);
		const started = Date.now();
		/** The simulated "now", in whole seconds: well after every seeded change. */
		let now = Math.floor(emu.clock.now().getTime() / 1000) + 86_400;
		const firstSecond = now;
		const inserted = new Set<number>();
		const seededIds = (emu.store.listOrders(party) as Rec[]).map((o) => o.OrderID as number);
		const seededSet = new Set(seededIds);
		let updates = 0;
		let concurrentChanges = 0;
		let midPaging = 0;
		let bursts = 0;

		const insert = (count: number) => {
			for (let i = 0; i < count; i++) {
				const order = emu.store.addOrder(party, { Created: iso(now), LastModified: iso(now), OrderType: pick(rnd, ['Invoice', 'CreditNote']) });
				inserted.add(order.OrderID as number);
			}
		};
		/** Moves random orders (seeded or new) to the current second; never one already there. */
		const update = (count: number) => {
			const pool = [...seededIds, ...inserted];
			for (let i = 0; i < count; i++) {
				const id = pick(rnd, pool);
				const order = emu.store.getOrder(party, id) as Rec;
				if (Date.parse(order.LastModified) >= now * 1000) continue;
				emu.store.updateOrder(party, id, { LastModified: iso(now), Reference: `changed at ${now}` });
				updates++;
			}
		};

		// Concurrent changes: run while a poll's GET /v1/orders is in flight (logged, not yet answered).
		const log = emu.requests as Logged[];
		const push = log.push;
		let concurrency = false;
		log.push = function (...entries: Logged[]) {
			for (const entry of entries) {
				if (concurrency && entry.method === 'GET' && entry.path === '/v1/orders' && rnd() < 0.35) {
					concurrentChanges++;
					if (entry.query.$skip !== undefined) midPaging++;
					if (rnd() < 0.3) now++;
					insert(int(rnd, 0, 3));
					update(int(rnd, 0, 2));
				}
			}
			return push.apply(this, entries);
		};

		const makeTrigger = (event: string, maxRetries: number): Poller =>
			h.poller({ type: TRIGGER, parameters: { event, orderType: '', direction: '', options: { maxRetries, retryDelayMs: 1 } } });
		const triggers: Array<{ name: string; poller: Poller; stats: TriggerStats }> = [
			{
				name: 'new or updated (Read Retries 0)',
				poller: makeTrigger('newOrUpdatedOrder', 0),
				stats: { polls: 0, failed: 0, emittedPolls: 0, emitted: [], wrongErrors: [] },
			},
			{ name: 'new (Read Retries 1)', poller: makeTrigger('newOrder', 1), stats: { polls: 0, failed: 0, emittedPolls: 0, emitted: [], wrongErrors: [] } },
		];

		const pollOnce = async (t: (typeof triggers)[number]) => {
			t.stats.polls++;
			try {
				const result = await t.poller.poll();
				if (result.items?.length) {
					t.stats.emittedPolls++;
					t.stats.emitted.push(...result.items);
				}
			} catch (error) {
				t.stats.failed++;
				if (!(error instanceof NodeApiError)) t.stats.wrongErrors.push(`${(error as Error)?.constructor?.name}: ${(error as Error)?.message}`);
			}
		};

		// Activation (fault-free, no concurrent changes): the newest change in the book is "now"; nothing up to it is emitted.
		for (const t of triggers) {
			await t.poller.poll();
			expect(t.poller.nodeStaticData.orderCursor).toBeDefined();
		}

		concurrency = true;
		emu.config.faultRate = 0.1;
		emu.config.faultKinds = [...KINDS] as never;
		for (let step = 0; step < POLLS; step++) {
			if (rnd() < 0.4) now++;
			if (rnd() < 0.04) {
				bursts++;
				insert(int(rnd, 130, 260));
			} else {
				insert(int(rnd, 0, 6));
			}
			update(int(rnd, 0, 3));
			for (const t of triggers) await pollOnce(t);
		}

		// Catch-up: no more faults or changes; poll until each trigger is quiet twice in a row.
		emu.config.faultRate = 0;
		concurrency = false;
		let catchUpPolls = 0;
		for (const t of triggers) {
			let quiet = 0;
			while (quiet < 2 && catchUpPolls < 50) {
				catchUpPolls++;
				const result = await t.poller.poll();
				if (result.items?.length) t.stats.emitted.push(...result.items);
				quiet = result.items?.length ? 0 : quiet + 1;
			}
		}
		log.push = push;

		const book = emu.store.listOrders(party) as Rec[];
		const [both, created] = triggers;
		const versionKey = (o: IDataObject) => `${String(o.OrderID)}@${String(o.LastModified)}`;

		// New or Updated: the final version of every changed order, no version twice.
		const bothKeys = both.stats.emitted.map(versionKey);
		const bothDuplicates = bothKeys.length - new Set(bothKeys).size;
		const emittedKeys = new Set(bothKeys);
		const finalVersionsMissing = book.filter(
			(o) => (inserted.has(o.OrderID) || /^changed at/.test(String(o.Reference ?? ''))) && !emittedKeys.has(versionKey(o)),
		);
		const seededNeverChangedEmitted = both.stats.emitted.filter((o) => seededSet.has(o.OrderID as number) && !/^changed at/.test(String(o.Reference ?? '')));

		// New: every inserted order once, nothing else.
		const createdIds = created.stats.emitted.map((o) => o.OrderID as number);
		const newDuplicates = createdIds.length - new Set(createdIds).size;
		const newMissing = [...inserted].filter((id) => !createdIds.includes(id));
		const newUnexpected = createdIds.filter((id) => !inserted.has(id));

		printFigures('trigger soak (200 polls per trigger, 10% faults)', {
			'orders inserted': inserted.size,
			'updates (moved to a later second)': updates,
			'bursts of 130-260 orders in one second': bursts,
			'changes made while a poll request was in flight / of them mid-paging': `${concurrentChanges} / ${midPaging}`,
			'seconds simulated (changes share them)': now - firstSecond + 1,
			[`${both.name}: polls / failed (NodeApiError) / with items`]: `${both.stats.polls} / ${both.stats.failed} / ${both.stats.emittedPolls}`,
			[`${created.name}: polls / failed (NodeApiError) / with items`]: `${created.stats.polls} / ${created.stats.failed} / ${created.stats.emittedPolls}`,
			'catch-up polls after the soak': catchUpPolls,
			'new or updated: versions emitted': bothKeys.length,
			'new or updated: final versions lost': finalVersionsMissing.length,
			'new or updated: versions emitted twice': bothDuplicates,
			'new: orders emitted': createdIds.length,
			'new: lost / duplicated / not new': `${newMissing.length} / ${newDuplicates} / ${newUnexpected.length}`,
			'polls failing with something other than NodeApiError': both.stats.wrongErrors.length + created.stats.wrongErrors.length,
			'wall time (s)': ((Date.now() - started) / 1000).toFixed(1),
		});

		expect(both.stats.wrongErrors).toEqual([]);
		expect(created.stats.wrongErrors).toEqual([]);
		expect(both.stats.failed).toBeGreaterThan(5); // faults really failed polls
		expect(created.stats.failed).toBeGreaterThan(0);
		expect(concurrentChanges).toBeGreaterThan(20);
		expect(bursts).toBeGreaterThan(0);
		expect(midPaging).toBeGreaterThan(0);
		expect(finalVersionsMissing.map(versionKey)).toEqual([]);
		expect(bothDuplicates).toBe(0);
		expect(seededNeverChangedEmitted).toEqual([]);
		expect(newMissing).toEqual([]);
		expect(newDuplicates).toBe(0);
		expect(newUnexpected).toEqual([]);
	});
});
