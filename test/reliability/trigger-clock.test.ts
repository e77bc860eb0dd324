/**
 * Trigger against the clock, through n8n-core's PollTriggerExecutor and the emulator.
 *
 * The emulator's Date header is the real time: that is the API's "now". Its order clock
 * (which stamps seeded orders) is set 30 days back, so the test chooses every
 * LastModified: phase 1 walks simulated seconds in the past, phase 2 stamps orders at
 * the real now (inside the cursor's 60 s margin).
 *
 * 1. Orders stamped ahead of the API's clock (1 hour, 1 year, 9999-12-31T23:59:59) and
 *    then real orders: every real order is emitted exactly once by "New or Updated" and
 *    by "New", each future order once (and once more by "New or Updated" when its stamp
 *    is put right); the stored cursor never stands past the API's now minus 60 s.
 * 2. A stored cursor that is damaged or ahead of the clock: no poll throws, a warning
 *    reaches n8n's log, and the orders changed after the damage (stamped at the API's
 *    now) all come, once.
 */
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness, Poller } from '../harness';
import type { Emu } from './helpers';
import { int, prng } from './helpers';
import { captureLogs, printFigures } from './report';

const TRIGGER = 'accessPointOrderTrigger';
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const realNow = () => Math.floor(Date.now() / 1000);
const versionKey = (o: IDataObject) => `${String(o.OrderID)}@${String(o.LastModified)}`;

describe('trigger: orders stamped in the future, and a damaged cursor', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 60, seed: 31, startTime: Date.now() - 30 * 86_400_000 }, quiet: true });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
	});

	afterAll(async () => {
		await h?.close();
	});

	const makeTrigger = (event: string): Poller => h.poller({ type: TRIGGER, parameters: { event, orderType: '', direction: '', options: { maxRetries: 0 } } });
	const add = (modified: number | string, created: number | string = modified): number =>
		emu.store.addOrder(party, {
			Created: typeof created === 'number' ? iso(created) : created,
			LastModified: typeof modified === 'number' ? iso(modified) : modified,
		}).OrderID as number;
	const getOrders = () => emu.requests.filter((r) => r.method === 'GET' && r.path === '/v1/orders');

	it("orders stamped ahead of the API's clock are emitted once and hide none of the real orders after them", async () => {
		const rnd = prng(777);
		const both = makeTrigger('newOrUpdatedOrder');
		const created = makeTrigger('newOrder');
		const emitted: Record<'both' | 'created', IDataObject[]> = { both: [], created: [] };
		let polls = 0;
		let maxRequests = 0;
		let pastCeiling = 0;
		const pollBoth = async () => {
			for (const [name, poller] of [
				['both', both],
				['created', created],
			] as const) {
				emu.clearRequests();
				const result = await poller.poll();
				polls++;
				maxRequests = Math.max(maxRequests, getOrders().length);
				emitted[name].push(...(result.items ?? []));
				const from = (poller.nodeStaticData.orderCursor as IDataObject).from as number;
				if (from > realNow() - 60) pastCeiling++;
			}
		};
		await pollBoth(); // activation

		const now = realNow();
		const ahead = [add(now + 3600), add(now + 365 * 86_400), add('9999-12-31T23:59:59')];
		const real: number[] = [];
		// Phase 1: simulated seconds in the past (a day after the seeded orders), a few orders per second.
		let second = Math.floor(emu.clock.now().getTime() / 1000) + 86_400;
		for (let round = 0; round < 40; round++) {
			for (let i = int(rnd, 1, 6); i > 0; i--) {
				if (rnd() < 0.5) second++;
				real.push(add(second));
			}
			await pollBoth();
		}
		// The future order's writer gets its clock put right: its next change carries a real stamp.
		emu.store.updateOrder(party, ahead[1], { LastModified: iso(realNow() - 1), Reference: 'clock fixed' });
		// Phase 2: orders stamped at the API's real now, inside the cursor's margin.
		for (let round = 0; round < 20; round++) {
			for (let i = int(rnd, 1, 4); i > 0; i--) real.push(add(realNow()));
			await pollBoth();
		}
		await pollBoth();

		const count = (list: IDataObject[], id: number) => list.filter((o) => o.OrderID === id).length;
		const lostBoth = real.filter((id) => count(emitted.both, id) === 0);
		const lostCreated = real.filter((id) => count(emitted.created, id) === 0);
		const twiceBoth = emitted.both.length - new Set(emitted.both.map(versionKey)).size;
		const twiceCreated = emitted.created.length - new Set(emitted.created.map((o) => o.OrderID)).size;
		const aheadBoth = ahead.map((id) => count(emitted.both, id));
		const aheadCreated = ahead.map((id) => count(emitted.created, id));

		printFigures('trigger: orders stamped ahead of the API clock (1 h, 1 year, 9999-12-31)', {
			'orders stamped ahead': ahead.length,
			'real orders after them (40 rounds in past seconds, 20 at the real now)': real.length,
			polls: polls,
			'new or updated: real orders emitted / lost / versions twice': `${real.length - lostBoth.length} / ${lostBoth.length} / ${twiceBoth}`,
			'new: real orders emitted / lost / twice': `${real.length - lostCreated.length} / ${lostCreated.length} / ${twiceCreated}`,
			'new or updated: emissions of each future order (the 1-year one also after its stamp was put right)': aheadBoth.join(', '),
			'new: emissions of each future order': aheadCreated.join(', '),
			'polls whose stored cursor stood past the API now - 60 s': pastCeiling,
			'GET /v1/orders per poll (max)': maxRequests,
		});

		expect(lostBoth).toEqual([]);
		expect(lostCreated).toEqual([]);
		expect(twiceBoth).toBe(0);
		expect(twiceCreated).toBe(0);
		expect(aheadBoth).toEqual([1, 2, 1]);
		expect(aheadCreated).toEqual([1, 1, 1]);
		expect(pastCeiling).toBe(0);
		expect(emitted.both).toHaveLength(real.length + 4);
		expect(emitted.created).toHaveLength(real.length + 3);
	});

	it('a damaged or impossible stored cursor: no poll throws, n8n logs a warning, the orders after recovery all come', async () => {
		const logs = captureLogs();
		const variants: Array<[string, unknown]> = [
			['position too large to write into the filter', { from: 1e20, createdFrom: 1e20 }],
			['position as text', { from: 'yesterday' }],
			['not an object', 'garbage'],
			['another shape version', { version: 99 }],
			['list of handled orders unreadable', { seen: [1, 2, 3] }],
			['position a year ahead of the clock', { from: realNow() + 365 * 86_400, createdFrom: realNow() + 365 * 86_400 }],
		];
		const rows: Record<string, string> = {};
		let thrown = 0;
		let lost = 0;
		let twice = 0;
		try {
			for (const [name, damage] of variants) {
				const poller = makeTrigger('newOrUpdatedOrder');
				await poller.poll(); // activation
				const key = `node:${poller.node.name}`;
				const cursor = poller.workflow.staticData[key] as IDataObject;
				cursor.orderCursor = typeof damage === 'object' && damage ? { ...(cursor.orderCursor as IDataObject), ...damage } : (damage as IDataObject);
				const before = logs.lines.length;
				const emitted: IDataObject[] = [];
				const expected: number[] = [];
				const pollCounted = async () => {
					try {
						emitted.push(...((await poller.poll()).items ?? []));
					} catch {
						thrown++;
					}
				};
				for (let round = 0; round < 4; round++) {
					await pollCounted();
					// Stamped at the API's now, as real changes are (a cursor moved back to now - 60 s still sees them).
					expected.push(add(realNow()), add(realNow()));
				}
				await pollCounted();
				const ids = emitted.map((o) => o.OrderID as number);
				const missing = expected.filter((id) => !ids.includes(id));
				lost += missing.length;
				twice += ids.length - new Set(ids).size;
				const warnings = logs.lines.slice(before).filter((l) => l.level === 'warn' && l.text.includes('stored cursor'));
				rows[name] = `${warnings.length} warning(s), ${missing.length} lost: ${warnings[0]?.text.slice(0, 150) ?? '-'}`;
				expect(warnings.length).toBeGreaterThanOrEqual(1);
				expect(warnings.length).toBeLessThanOrEqual(2);
			}
		} finally {
			logs.stop();
		}
		printFigures('trigger: damaged stored cursor (6 kinds, 5 polls each)', {
			...rows,
			'polls that threw': thrown,
			'orders added after the damage: lost / emitted twice': `${lost} / ${twice}`,
		});
		expect(thrown).toBe(0);
		expect(lost).toBe(0);
		expect(twice).toBe(0);
	});
});
