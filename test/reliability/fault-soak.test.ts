/**
 * Fault soak: 1,000+ mixed operations through the engine against the emulator with
 * 10% of /v1 requests faulted (every kind the emulator has except 'timeout', see below),
 * in batches of many items per run:
 *   Order Create (ExternalProviderID + Skip If Already Created), Order Get, Order Get Many
 *   (Limit / Return All, 1-4 pages), Peppol Lookup, Registration Get and Get Many.
 * Half the rounds run with Read Retries 0 (every fault reaches an item), half with 2.
 *
 * Proves: no run crashes (continue-on-fail runs succeed; stop-on-fail runs stop with a
 * NodeApiError on the failing item), every failure is an error item paired with its own
 * input item and stamped with its index, no partial list is output as complete, and after
 * re-running the failed creates (as a user would) every ExternalProviderID has exactly one
 * order: 'after-commit' faults (the order is created, the answer is a 503) never duplicate.
 *
 * 'timeout' is left out: the transport's timeout is a fixed 60 s (ApiRequest.timeoutMs
 * exists but no node exposes it), so one injected timeout would stall the soak for a
 * minute. Latency (1 ms per request) stands in; the gap is in the report.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness, HarnessResult } from '../harness';
import type { Emu, Logged, Rec } from './helpers';
import { apiRequests, errorItemProblem, int, ordersByExternalId, pairedIndex, pick, prng } from './helpers';
import { printFigures } from './report';

// A soak: long by design, and slower on a loaded machine; the assertions are its counts, not its time.
jest.setTimeout(240_000);

const ORDER = 'accessPointOrder';
const PEPPOL = 'accessPointPeppolLookup';
const REG = 'accessPointRegistration';
const KINDS = [500, 502, 503, 504, 429, 'html', 'empty', 'truncated', 'reset', 'after-commit'];
const EXT_PREFIX = 'SOAK-';
const ROUNDS = 10;

const PEPPOL_IDS = [
	'0208:0123456749',
	'9925:BE0123456749',
	'BE0456789133',
	'0208:0887766566',
	'9944:NL123456789B01',
	'0106:12345678',
	'0088:5400000000010',
	'9930:DE123456789',
	'9955:SE556677889901',
	'BE1002003070',
	'BE0998877690',
	'NL999999999B01',
	'0088:8712345000004',
];

type OnError = 'continueErrorOutput' | 'continueRegularOutput';

interface Tally {
	operations: number;
	runs: number;
	okItems: number;
	errorItems: number;
	requests: number;
	faults: Record<string, number>;
	failuresByOp: Record<string, number>;
	problems: string[];
}

describe('fault soak: 1,000 mixed operations at 10% injected faults', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;
	const rnd = prng(20240901);
	const tally: Tally = { operations: 0, runs: 0, okItems: 0, errorItems: 0, requests: 0, faults: {}, failuresByOp: {}, problems: [] };

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 400, seed: 9, config: { retryAfterSeconds: 0, latencyMs: 1 } }, quiet: true });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
	});

	afterAll(async () => {
		await h?.close();
	});

	const faultsOn = () => {
		emu.config.faultRate = 0.1;
		emu.config.faultKinds = [...KINDS] as never;
	};
	const faultsOff = () => {
		emu.config.faultRate = 0;
	};

	/** Runs one batch, checks pairing and error items, and returns the outputs per input index. */
	async function batch(
		op: string,
		type: string,
		parameters: IDataObject,
		input: IDataObject[],
		onError: OnError,
	): Promise<{ result: HarnessResult; perItem: Map<number, { ok: INodeExecutionData[]; failed: INodeExecutionData[] }> }> {
		emu.clearRequests();
		const result = await h.runNode(type, parameters, input, { onError });
		const requests = apiRequests(emu);
		tally.runs++;
		tally.operations += input.length;
		tally.requests += requests.length;
		for (const r of requests) if (r.fault !== undefined) tally.faults[String(r.fault)] = (tally.faults[String(r.fault)] ?? 0) + 1;

		if (result.status !== 'success') {
			tally.problems.push(`${op}: run ended ${result.status}: ${result.error?.message ?? ''}`);
			return { result, perItem: new Map() };
		}
		const name = result.nodeName as string;
		const outputs = result.runData[name]?.[0]?.data?.main ?? [];
		const errorOutput = onError === 'continueErrorOutput' ? outputs.length - 1 : -1;
		const perItem = new Map<number, { ok: INodeExecutionData[]; failed: INodeExecutionData[] }>();
		input.forEach((_, i) => perItem.set(i, { ok: [], failed: [] }));
		outputs.forEach((items, outputIndex) => {
			for (const item of items ?? []) {
				const index = pairedIndex(item);
				const slot = index === undefined ? undefined : perItem.get(index);
				if (!slot) {
					tally.problems.push(`${op}: output ${outputIndex} item without a valid pairedItem: ${JSON.stringify(item.pairedItem)}`);
					continue;
				}
				const isError = outputIndex === errorOutput || (errorOutput === -1 && typeof item.json.error === 'string');
				if (isError) {
					if (errorOutput === -1 && item.json.httpCode === undefined && !/failed: /.test(String(item.json.error))) {
						tally.problems.push(`${op}: error item ${index} has no HTTP status or network reason: ${String(item.json.error)}`);
					}
					const problem = errorItemProblem(item, onError === 'continueErrorOutput' ? 'api' : 'any');
					if (problem) tally.problems.push(`${op}: ${problem}`);
					slot.failed.push(item);
				} else {
					slot.ok.push(item);
				}
			}
		});
		let failures = 0;
		for (const [index, slot] of perItem) {
			if (slot.failed.length > 1) tally.problems.push(`${op}: item ${index} has ${slot.failed.length} error items`);
			if (slot.failed.length && slot.ok.length) {
				tally.problems.push(`${op}: item ${index} failed but also output ${slot.ok.length} results (partial output)`);
			}
			if (slot.failed.length) failures++;
			tally.okItems += slot.ok.length;
		}
		tally.errorItems += failures;
		tally.failuresByOp[op] = (tally.failuresByOp[op] ?? 0) + failures;
		if (failures > 0 && !requests.some((r) => r.fault !== undefined)) {
			tally.problems.push(`${op}: ${failures} items failed in a run without any injected fault`);
		}
		return { result, perItem };
	}

	it('keeps going, reports every failure on its item, and never duplicates an order', async () => {
		faultsOn();
		const started = Date.now();
		/** ExternalProviderID → OrderID once a create (or its re-run) succeeded. */
		const created = new Map<string, number>();
		const pending: string[] = [];
		let nextExt = 0;
		let alreadyExisted = 0;
		/** ExternalProviderIDs whose create acted but answered 503 ('after-commit'). */
		const committedButFailed = new Set<string>();
		const foundOnRerun = new Set<string>();
		const postFaults: Record<string, number> = {};
		const seeded = [...emu.store.book(party).values()].map((o) => (o as Rec).OrderID as number).slice(0, 400);
		const registrations = () => emu.store.registrationsOf(emu.credentials.apiKey).length as number;

		const runCreates = async (exts: string[], options: IDataObject, onError: OnError) => {
			const result = await batch(
				'order create',
				ORDER,
				{
					resource: 'order',
					operation: 'create',
					orderType: 'Invoice',
					orderDirection: 'Income',
					orderDate: '2024-06-01',
					customerName: 'Soak Customer NV',
					orderLines: { lines: [{ description: 'Soak line', quantity: 1, unitPriceExcl: 100, vatPercentage: 21 }] },
					externalProviderId: '={{ $json.ext }}',
					skipIfExists: true,
					options,
				},
				exts.map((ext) => ({ ext })),
				onError,
			);
			for (const r of apiRequests(emu)) {
				if (r.method !== 'POST' || r.fault === undefined) continue;
				postFaults[String(r.fault)] = (postFaults[String(r.fault)] ?? 0) + 1;
				if (r.fault === 'after-commit') committedButFailed.add(String((r.body as Rec)?.ExternalProviderID));
			}
			exts.forEach((ext, i) => {
				const slot = result.perItem.get(i);
				if (!slot) return;
				const [ok] = slot.ok;
				if (ok) {
					const id = Number(ok.json.OrderID);
					if (!Number.isInteger(id) || id <= 0) tally.problems.push(`create ${ext}: success without an OrderID: ${JSON.stringify(ok.json)}`);
					if (ok.json.AlreadyExisted === true) {
						alreadyExisted++;
						if (committedButFailed.has(ext)) foundOnRerun.add(ext);
					}
					const before = created.get(ext);
					if (before !== undefined && before !== id) tally.problems.push(`create ${ext}: OrderID ${id} after ${before}`);
					created.set(ext, id);
				} else if (!created.has(ext) && !pending.includes(ext)) {
					pending.push(ext);
				}
			});
		};

		for (let round = 0; round < ROUNDS; round++) {
			const options: IDataObject = round % 2 === 0 ? { maxRetries: 0, retryDelayMs: 1 } : { maxRetries: 2, retryDelayMs: 1 };
			const onError: OnError = round === 3 ? 'continueRegularOutput' : 'continueErrorOutput';

			// Creates: new IDs (some with quotes, &, + and # in them), the ones still failing, and a few done ones again.
			const fresh = Array.from({ length: 30 }, () => {
				const n = ++nextExt;
				return n % 7 === 0 ? `${EXT_PREFIX}${n} O'Brien & Co +#1` : `${EXT_PREFIX}${n}`;
			});
			const retryNow = pending.splice(0, pending.length);
			const again = [...created.keys()].filter(() => rnd() < 0.05).slice(0, 5);
			await runCreates([...fresh, ...retryNow, ...again], options, onError);

			// Get: existing orders by ID; the output is that order.
			const ids = Array.from({ length: 20 }, () => pick(rnd, seeded));
			const gets = await batch(
				'order get',
				ORDER,
				{ resource: 'order', operation: 'get', orderId: '={{ $json.id }}', options },
				ids.map((id) => ({ id })),
				onError,
			);
			ids.forEach((id, i) => {
				const ok = gets.perItem.get(i)?.ok ?? [];
				if (ok.length && (ok.length !== 1 || ok[0].json.OrderID !== id))
					tally.problems.push(`get ${id}: output ${JSON.stringify(ok.map((o) => o.json.OrderID))}`);
			});

			// Get Many: 1 to 4 pages per item; a list is either complete (Limit or all) or an error item.
			const total = emu.store.book(party).size as number;
			const lists = Array.from({ length: 8 }, () => (rnd() < 0.25 ? { all: true, limit: 50 } : { all: false, limit: pick(rnd, [5, 50, 120, 121, 250, 400]) }));
			const many = await batch(
				'order get many',
				ORDER,
				{ resource: 'order', operation: 'getAll', returnAll: '={{ $json.all }}', limit: '={{ $json.limit }}', options },
				lists,
				onError,
			);
			lists.forEach((list, i) => {
				const slot = many.perItem.get(i);
				if (!slot || slot.failed.length) return;
				const expected = list.all ? total : Math.min(list.limit, total);
				const unique = new Set(slot.ok.map((o) => o.json.OrderID)).size;
				if (slot.ok.length !== expected || unique !== expected) {
					tally.problems.push(`get many item ${i}: ${slot.ok.length} records (${unique} distinct), expected ${expected}`);
				}
			});

			// Peppol Lookup: registered and unregistered participants, in every accepted form.
			const participants = Array.from({ length: 25 }, () => pick(rnd, PEPPOL_IDS));
			await batch(
				'peppol lookup',
				PEPPOL,
				{ identifier: '={{ $json.id }}', options },
				participants.map((id) => ({ id })),
				onError,
			);

			// Registrations: Get Many (Return All) and Get of the seeded one.
			const regCount = registrations();
			const regs = await batch(
				'registration get many',
				REG,
				{ operation: 'getAll', returnAll: true, options },
				Array.from({ length: 5 }, () => ({})),
				onError,
			);
			for (const [i, slot] of regs.perItem) {
				if (!slot.failed.length && slot.ok.length !== regCount) tally.problems.push(`registration get many item ${i}: ${slot.ok.length} of ${regCount}`);
			}
			await batch(
				'registration get',
				REG,
				{ operation: 'get', registrationId: { __rl: true, mode: 'id', value: '300001' }, options },
				Array.from({ length: int(rnd, 4, 6) }, () => ({})),
				onError,
			);
		}

		// A user re-runs the failed creates until each has gone through (faults still on).
		let reruns = 0;
		while (pending.length && reruns < 30) {
			reruns++;
			await runCreates(pending.splice(0, pending.length), { maxRetries: 2, retryDelayMs: 1 }, 'continueErrorOutput');
		}

		// Stop-on-fail runs: a fault stops the node with a NodeApiError naming its item, never anything else.
		let stopRuns = 0;
		let stoppedWithApiError = 0;
		for (let i = 0; i < 15; i++) {
			const ids = Array.from({ length: 20 }, () => pick(rnd, seeded));
			emu.clearRequests();
			const result = await h.runNode(
				ORDER,
				{ resource: 'order', operation: 'get', orderId: '={{ $json.id }}', options: { maxRetries: 0 } },
				ids.map((id) => ({ id })),
			);
			stopRuns++;
			tally.operations += ids.length;
			tally.requests += apiRequests(emu).length;
			if (result.status === 'success') continue;
			const error = result.nodeError(result.nodeName as string) as unknown as NodeApiError;
			const failedAt = apiRequests(emu).length - 1;
			if (!(error instanceof NodeApiError))
				tally.problems.push(`stop-on-fail run stopped with ${String((error as Error)?.constructor?.name)}: ${String((error as Error)?.message)}`);
			else if (error.context.itemIndex !== failedAt)
				tally.problems.push(`stop-on-fail: error on item ${String(error.context.itemIndex)}, the faulted request was item ${failedAt}'s`);
			else stoppedWithApiError++;
			if ((apiRequests(emu) as Logged[])[failedAt]?.fault === undefined) tally.problems.push('stop-on-fail: the last request was not a faulted one');
		}
		faultsOff();

		const groups = ordersByExternalId(emu, party, EXT_PREFIX);
		const duplicates = [...groups.values()].filter((list) => list.length > 1).length;
		const missing = [...created.keys()].filter((ext) => !groups.has(ext)).length + pending.length;
		const mismatched = [...created].filter(([ext, id]) => groups.get(ext)?.[0]?.OrderID !== id).length;

		printFigures('fault soak (1,000 mixed operations, 10% faults)', {
			operations: tally.operations,
			'workflow runs': tally.runs + stopRuns,
			'HTTP requests': tally.requests,
			'injected faults': tally.faults,
			'faults on creates (POST)': postFaults,
			'items output': tally.okItems,
			'items failed (error item on the item)': tally.errorItems,
			'failed items by operation': tally.failuresByOp,
			'stop-on-fail runs / stopped with NodeApiError on the faulted item': `${stopRuns} / ${stoppedWithApiError}`,
			'distinct ExternalProviderIDs created': created.size,
			'creates answered "already existed" on re-run': alreadyExisted,
			"'after-commit' creates (acted, answered 503) / found by the re-run": `${committedButFailed.size} / ${foundOnRerun.size}`,
			're-run rounds for failed creates': reruns,
			crashes: tally.problems.filter((p) => /run ended|NodeOperationError|not NodeApiError|stopped with/.test(p)).length,
			'duplicate orders': duplicates,
			'orders missing': missing,
			problems: tally.problems.length,
			'wall time (s)': ((Date.now() - started) / 1000).toFixed(1),
		});

		expect(tally.problems).toEqual([]);
		expect(tally.operations).toBeGreaterThanOrEqual(1000);
		expect(tally.errorItems).toBeGreaterThan(20); // the faults really reached items
		expect(stoppedWithApiError).toBeGreaterThan(0);
		expect(postFaults['after-commit'] ?? 0).toBeGreaterThan(0); // creates that acted and answered 503
		expect(alreadyExisted).toBeGreaterThan(0);
		expect([...committedButFailed].sort()).toEqual([...foundOnRerun].sort());
		for (const ext of committedButFailed) expect(groups.get(ext)).toHaveLength(1);
		expect(pending).toEqual([]);
		expect(duplicates).toBe(0);
		expect(missing).toBe(0);
		expect(mismatched).toBe(0);
		expect(groups.size).toBe(nextExt);
	});
	describe('each fault kind, deterministically (failNext)', () => {
		const createParams = (ext: string, options: IDataObject = {}): IDataObject => ({
			resource: 'order',
			operation: 'create',
			orderDate: '2024-06-02',
			customerName: 'Deterministic NV',
			orderLines: { lines: [{ description: 'x', quantity: 1, unitPriceExcl: 10, vatPercentage: 21 }] },
			externalProviderId: ext,
			skipIfExists: true,
			options: { maxRetries: 5, retryDelayMs: 1, ...options },
		});
		const byExt = (ext: string) => ordersByExternalId(emu, party, ext).get(ext) ?? [];

		beforeEach(() => {
			faultsOff();
			emu.clearRequests();
		});

		it.each([429, 500, 502, 503, 504, 'html', 'empty', 'truncated', 'reset', 'after-commit'])(
			'a read retries through two %p faults and outputs the order',
			async (kind) => {
				emu.failNext(2, kind as never, { method: 'GET' });
				const result = await h.runNode(ORDER, { resource: 'order', operation: 'get', orderId: '1000007', options: { maxRetries: 2, retryDelayMs: 1 } });
				result.assertSuccess();
				expect(result.output(result.nodeName as string)).toEqual([expect.objectContaining({ OrderID: 1000007 })]);
				const log = apiRequests(emu);
				expect(log.map((r) => r.fault ?? r.status)).toEqual([kind, kind, 200]);
			},
		);

		it.each([429, 500, 502, 503, 504, 'html', 'empty', 'truncated', 'reset'])(
			'a create that meets a %p fault is sent once, fails its item with a NodeApiError, and the re-run creates exactly one order',
			async (kind) => {
				const ext = `${EXT_PREFIX}det-${String(kind)}`;
				emu.failNext(1, kind as never, { method: 'POST' });
				const first = await h.runNode(ORDER, createParams(ext), [{}], { onError: 'continueErrorOutput' });
				first.assertSuccess();
				const [failed] = first.items(first.nodeName as string, 1);
				expect(errorItemProblem(failed)).toBeUndefined();
				expect(apiRequests(emu).filter((r) => r.method === 'POST')).toHaveLength(1); // never retried
				expect(byExt(ext)).toHaveLength(0); // the emulator did not act on this fault

				const rerun = await h.runNode(ORDER, createParams(ext), [{}], { onError: 'continueErrorOutput' });
				expect(byExt(ext)).toHaveLength(1);
				const [made] = byExt(ext);
				// Create outputs the made order read back: its number and totals as the emulator holds them
				expect(rerun.output(rerun.nodeName as string)).toEqual([
					{
						OrderID: made?.OrderID,
						OrderNumber: made?.OrderNumber,
						OrderDate: '2024-06-02',
						TotalExcl: 10,
						TotalVAT: 2.1,
						TotalIncl: 12.1,
						Currency: 'EUR',
						AlreadyExisted: false,
					},
				]);
			},
		);

		it("a create that acted but answered 503 ('after-commit') fails its item; the re-run finds the order instead of creating a second", async () => {
			const ext = `${EXT_PREFIX}det-after-commit`;
			emu.failNext(1, 'after-commit', { method: 'POST' });
			const first = await h.runNode(ORDER, createParams(ext), [{}], { onError: 'continueErrorOutput' });
			const [failed] = first.items(first.nodeName as string, 1);
			expect(failed.json.error).toMatch(/^Create order failed with HTTP 503/);
			expect(byExt(ext)).toHaveLength(1); // it was created all the same

			const rerun = await h.runNode(ORDER, createParams(ext), [{}], { onError: 'continueErrorOutput' });
			expect(rerun.output(rerun.nodeName as string)).toEqual([expect.objectContaining({ OrderID: byExt(ext)[0].OrderID, AlreadyExisted: true })]);
			expect(byExt(ext)).toHaveLength(1);
			expect(apiRequests(emu).filter((r) => r.method === 'POST')).toHaveLength(1);
		});
	});
});
