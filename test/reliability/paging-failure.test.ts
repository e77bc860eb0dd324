/**
 * Paging that fails mid-way: Return All over 4 pages, page 3 keeps failing until the
 * read retries are exhausted. The item fails (stop on fail: NodeApiError on the item, no
 * output; continue: exactly one error item for it, none of the 240 records read before),
 * other items of the same run keep their complete lists, and a page that fails fewer
 * times than the retries allow still yields the complete list with no record twice.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import type { Emu, Logged, Rec } from './helpers';
import { apiRequests, errorItemProblem, pairedIndex } from './helpers';
import { printFigures } from './report';

const ORDER = 'accessPointOrder';
const PAGE = 120;

describe('paging that fails mid-way never emits a partial list as complete', () => {
	let h: Harness;
	let emu: Emu;
	let total: number;
	const figures: Record<string, string> = {};

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 400, config: { retryAfterSeconds: 0 } }, quiet: true });
		emu = h.emulator as Emu;
		total = emu.store.book(emu.credentials.partyId).size as number;
	});
	afterAll(async () => {
		printFigures('paging failure mid-way (Return All, 4 pages, page 3 fails)', figures);
		await h?.close();
	});
	beforeEach(() => {
		emu.clearRequests();
		emu.config.pageSize = PAGE;
		emu.config.linkForm = 'relative';
	});

	/**
	 * The first `n` requests for `path` with this $skip meet the fault: each is queued as that request is
	 * logged, before the emulator picks its fault, so the pages asked in parallel never take it.
	 */
	function failPage(path: string, skip: number, n: number, kind: unknown) {
		const log = emu.requests as Logged[];
		const push = log.push;
		let left = n;
		log.push = function (...entries: Logged[]) {
			for (const entry of entries) {
				if (left > 0 && entry.path === path && entry.query.$skip === String(skip)) {
					if (--left === 0) log.push = push;
					emu.failNext(1, kind as never, { method: 'GET', pathPrefix: path });
				}
			}
			return push.apply(this, entries);
		};
	}

	const listRequests = () => apiRequests(emu).map((r) => `${r.query.$skip ?? '0'}:${r.fault ?? r.status}`);
	/** The answers each page got, by $skip, in the order asked (pages run in parallel, so only each page's own order is fixed). */
	const perPage = () => {
		const pages: Record<string, string[]> = {};
		for (const r of apiRequests(emu)) (pages[r.query.$skip ?? '0'] ??= []).push(String(r.fault ?? r.status));
		return pages;
	};

	it.each([503, 'html', 'truncated', 'cut', 'empty', 'reset', 429])(
		'stop on fail: page 3 failing with %p after 1 retry stops the node with a NodeApiError on the item and outputs nothing',
		async (kind) => {
			failPage('/v1/orders', 2 * PAGE, 2, kind);
			const result = await h.runNode(ORDER, { resource: 'order', operation: 'getAll', returnAll: true, options: { maxRetries: 1, retryDelayMs: 1 } });
			expect(result.status).toBe('error');
			const error = result.nodeError(result.nodeName as string) as unknown as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.context.itemIndex).toBe(0);
			expect(error.message).toMatch(/^List orders (failed|returned)/); // names the call, for network failures too
			expect(result.output(result.nodeName as string)).toEqual([]);
			// Page 3 asked twice (1 retry), every other page at most once; page 4 may have been asked in parallel, never again.
			const { 360: fourth, ...pages } = perPage();
			expect(pages).toEqual({ 0: ['200'], 120: ['200'], 240: [String(kind), String(kind)] });
			expect((fourth ?? []).length).toBeLessThanOrEqual(1);
			figures[`stop on fail, ${String(kind)}`] = `node error "${error.message}", 0 records output, requests ${listRequests().join(' ')}`;
		},
	);

	it.each(['continueRegularOutput', 'continueErrorOutput'] as const)(
		'%s: the failing item is one error item, the other items keep their complete lists',
		async (onError) => {
			// Item 2 pages through everything and fails on page 3; items 1 and 3 want one page.
			failPage('/v1/orders', 2 * PAGE, 3, 503);
			const input: IDataObject[] = [
				{ all: false, limit: 50 },
				{ all: true, limit: 50 },
				{ all: false, limit: 130 },
			];
			const result = await h.runNode(
				ORDER,
				{ resource: 'order', operation: 'getAll', returnAll: '={{ $json.all }}', limit: '={{ $json.limit }}', options: { maxRetries: 2, retryDelayMs: 1 } },
				input,
				{ onError },
			);
			result.assertSuccess();
			const outputs = result.runData[result.nodeName as string][0].data?.main ?? [];
			const all = outputs.flatMap((items, outputIndex) => (items ?? []).map((item) => ({ item, outputIndex })));
			const of = (index: number) => all.filter(({ item }) => pairedIndex(item) === index);
			const isError = ({ item, outputIndex }: { item: { json: IDataObject }; outputIndex: number }) =>
				onError === 'continueErrorOutput' ? outputIndex === 1 : typeof item.json.error === 'string';

			expect(of(0)).toHaveLength(50);
			expect(of(0).every((x) => !isError(x))).toBe(true);
			expect(of(2)).toHaveLength(130);
			expect(new Set(of(2).map(({ item }) => item.json.OrderID)).size).toBe(130);
			const second = of(1);
			expect(second).toHaveLength(1); // not 240 records and an error: only the error
			expect(isError(second[0])).toBe(true);
			expect(second[0].item.json.error).toMatch(/^List orders failed with HTTP 503/);
			expect(errorItemProblem(second[0].item, onError === 'continueErrorOutput' ? 'api' : 'any')).toBeUndefined();
			figures[`${onError}, 3 items`] =
				`item 1: ${of(0).length} records, item 2: ${second.length} error item ("${String(second[0].item.json.error)}"), item 3: ${of(2).length} records`;
		},
	);

	it('page 3 failing twice with 2 retries: the complete list, no record twice', async () => {
		failPage('/v1/orders', 2 * PAGE, 2, 502);
		const result = await h.runNode(ORDER, { resource: 'order', operation: 'getAll', returnAll: true, options: { maxRetries: 2, retryDelayMs: 1 } });
		result.assertSuccess();
		const ids = result.output(result.nodeName as string).map((o) => o.OrderID);
		expect(ids).toHaveLength(total);
		expect(new Set(ids).size).toBe(total);
		expect(perPage()).toEqual({ 0: ['200'], 120: ['200'], 240: ['502', '502', '200'], 360: ['200'] });
		figures['page 3 fails twice, 2 retries'] = `${ids.length} of ${total} records, ${new Set(ids).size} distinct, requests ${listRequests().join(' ')}`;
	});

	it('page 3 dropped mid-body once with 1 retry: read again, the complete list, no record twice', async () => {
		failPage('/v1/orders', 2 * PAGE, 1, 'cut');
		const result = await h.runNode(ORDER, { resource: 'order', operation: 'getAll', returnAll: true, options: { maxRetries: 1, retryDelayMs: 1 } });
		result.assertSuccess();
		const ids = result.output(result.nodeName as string).map((o) => o.OrderID);
		expect(ids).toHaveLength(total);
		expect(new Set(ids).size).toBe(total);
		expect(perPage()).toEqual({ 0: ['200'], 120: ['200'], 240: ['cut', '200'], 360: ['200'] });
	});

	it('parties: page 3 of 4 failing fails the item just the same', async () => {
		emu.config.pageSize = 50;
		failPage('/v1/parties', 100, 1, 500);
		const result = await h.runNode(ORDER, { resource: 'party', operation: 'getAll', returnAll: true, options: { maxRetries: 0 } }, [{}], {
			onError: 'continueErrorOutput',
		});
		const [ok, failed] = result.outputs(result.nodeName as string);
		expect(ok).toEqual([]);
		expect(failed).toHaveLength(1);
		expect(failed[0].error).toMatch(/^List parties failed with HTTP 500/);
		figures['parties, page 3 of 4 fails, no retries'] = `${ok.length} records, ${failed.length} error item`;
	});

	it('a next-page link to another host fails the item; the records before it are not output', async () => {
		emu.config.linkForm = 'foreign';
		const result = await h.runNode(ORDER, { resource: 'order', operation: 'getAll', returnAll: true }, [{}], { onError: 'continueErrorOutput' });
		const [ok, failed] = result.outputs(result.nodeName as string);
		expect(ok).toEqual([]);
		expect(failed).toHaveLength(1);
		expect(String(failed[0].error)).toMatch(/next-page link to another host/);
		expect(apiRequests(emu).filter((r) => r.path === '/v1/orders')).toHaveLength(1);
		figures['foreign next-page link'] = `${ok.length} records, error "${String(failed[0].error)}"`;
	});

	it('a failing page of the trigger leaves the list unread and the cursor unmoved (see trigger soak for the full proof)', async () => {
		const poller = h.poller({
			type: 'accessPointOrderTrigger',
			parameters: { event: 'newOrUpdatedOrder', orderType: '', direction: '', options: { maxRetries: 0, startFrom: '2000-01-01' } },
		});
		failPage('/v1/orders', 2 * (PAGE - 1), 1, 504); // the trigger asks each page from one place back (overlap check)
		const failure = await poller.poll().then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(failure).toBeInstanceOf(NodeApiError);
		expect(poller.nodeStaticData.orderCursor).toBeUndefined();
		const next = await poller.poll();
		expect(next.items).toHaveLength(total);
		figures['trigger, page 3 fails'] = `poll failed with NodeApiError, cursor not written; next poll emitted ${String(next.items?.length)} of ${total}`;
		expect((next.items as Rec[]).map((o) => o.OrderID).length).toBe(new Set((next.items as Rec[]).map((o) => o.OrderID)).size);
	});
});
