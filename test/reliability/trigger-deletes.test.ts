/**
 * Trigger against orders deleted while a poll pages, through n8n-core's
 * PollTriggerExecutor and the emulator.
 *
 * The API pages with `$skip`: an order deleted before a page boundary between two page
 * requests moves every later order up one place, so one order slips onto a page already
 * read. Each round inserts 150-420 orders over many seconds (two to four pages per poll),
 * and while a poll asks for a page after the first, 1-3 orders of that round are deleted
 * (some before the boundary, some after). Two triggers ("New or Updated", "New") poll
 * every round.
 *
 * Proves: every inserted order still in the book at the end was emitted exactly once by
 * each trigger, no order twice (deleted ones included), and the shifts were seen (the
 * poll started a run again).
 */
import { createHarness } from '../harness';
import type { Harness, Poller } from '../harness';
import type { Emu, Logged } from './helpers';
import { int, pick, prng } from './helpers';
import { printFigures } from './report';

// A soak: long by design, and slower on a loaded machine; the assertions are its counts, not its time.
jest.setTimeout(240_000);

const TRIGGER = 'accessPointOrderTrigger';
const ROUNDS = 30;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('trigger: orders deleted while a poll pages', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;

	beforeAll(async () => {
		// The emulator's order clock runs 30 days behind its Date header (the real time): the simulated
		// seconds below are in the past by the API's clock, so the cursor follows them.
		h = await createHarness({ emulator: { orders: 80, seed: 99, startTime: Date.now() - 30 * 86_400_000 }, quiet: true });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
	});

	afterAll(async () => {
		await h?.close();
	});

	it('loses no order and emits none twice', async () => {
		const rnd = prng(2024);
		let second = Math.floor(emu.clock.now().getTime() / 1000) + 86_400;
		const inserted = new Set<number>();
		const deleted = new Set<number>();
		let roundIds: number[] = [];
		let deletesMidPaging = 0;
		let deletesBeforeBoundary = 0;

		// Deletes run while a page after the first is asked for (logged, not yet answered).
		const log = emu.requests as Logged[];
		const push = log.push;
		let boundaryOrders: number[] = [];
		log.push = function (...entries: Logged[]) {
			for (const entry of entries) {
				if (entry.method !== 'GET' || entry.path !== '/v1/orders' || entry.query.$skip === undefined || rnd() > 0.7) continue;
				const live = roundIds.filter((id) => !deleted.has(id));
				for (let n = int(rnd, 1, 3); n > 0 && live.length; n--) {
					const id = pick(rnd, live);
					if (deleted.has(id)) continue;
					emu.store.book(party).delete(id);
					deleted.add(id);
					deletesMidPaging++;
					if (boundaryOrders.includes(id)) deletesBeforeBoundary++;
				}
			}
			return push.apply(this, entries);
		};

		const makeTrigger = (event: string): Poller => h.poller({ type: TRIGGER, parameters: { event, orderType: '', direction: '', options: { maxRetries: 0 } } });
		const triggers = { both: makeTrigger('newOrUpdatedOrder'), created: makeTrigger('newOrder') };
		const emitted: Record<keyof typeof triggers, number[]> = { both: [], created: [] };
		let polls = 0;
		let requests = 0;
		let runStarts = 0;
		const pollAll = async () => {
			for (const name of ['both', 'created'] as const) {
				emu.clearRequests();
				const result = await triggers[name].poll();
				polls++;
				const gets = (emu.requests as Logged[]).filter((r) => r.method === 'GET' && r.path === '/v1/orders');
				requests += gets.length;
				runStarts += gets.filter((r) => r.query.$skip === undefined).length;
				for (const o of result.items ?? []) emitted[name].push(o.OrderID as number);
			}
		};
		await pollAll(); // activation

		for (let round = 0; round < ROUNDS; round++) {
			roundIds = [];
			const count = int(rnd, 150, 420);
			for (let i = 0; i < count; i++) {
				if (rnd() < 0.5) second++;
				const id = emu.store.addOrder(party, { Created: iso(second), LastModified: iso(second) }).OrderID as number;
				roundIds.push(id);
				inserted.add(id);
			}
			// The first 119 of the round sit on page 1 (or before the first boundary): deleting them shifts the list.
			boundaryOrders = roundIds.slice(0, 119);
			await pollAll();
		}
		log.push = push;
		await pollAll(); // catch-up, no deletes
		await pollAll();

		const remaining = [...inserted].filter((id) => !deleted.has(id));
		const result = (name: keyof typeof triggers) => {
			const ids = emitted[name];
			const set = new Set(ids);
			return { lost: remaining.filter((id) => !set.has(id)), twice: ids.length - set.size, emitted: ids.length };
		};
		const both = result('both');
		const created = result('created');
		const shiftsSeen = runStarts - polls;

		printFigures(`trigger: deletes while paging (${ROUNDS} rounds, 2 triggers)`, {
			'orders inserted': inserted.size,
			'deleted while a poll paged / of them on page 1 of their round': `${deletesMidPaging} / ${deletesBeforeBoundary}`,
			'orders still in the book': remaining.length,
			'polls / GET /v1/orders': `${polls} / ${requests}`,
			'shifts seen (runs started again)': shiftsSeen,
			'new or updated: emitted / lost / twice': `${both.emitted} / ${both.lost.length} / ${both.twice}`,
			'new: emitted / lost / twice': `${created.emitted} / ${created.lost.length} / ${created.twice}`,
		});

		expect(deletesMidPaging).toBeGreaterThan(30);
		expect(deletesBeforeBoundary).toBeGreaterThan(5);
		expect(shiftsSeen).toBeGreaterThan(5);
		expect(both.lost).toEqual([]);
		expect(created.lost).toEqual([]);
		expect(both.twice).toBe(0);
		expect(created.twice).toBe(0);
	});
});
