/**
 * Hostile server: list links. Through n8n-core's engine against a loopback server:
 * - endless links: every page links to a new one; a list read stops after MAX_PAGES
 *   (5,000) requests with a NodeApiError, Return All (pages in parallel) and the trigger alike;
 * - cycling links: the last page links back to the first (as sent, with `$skip=0`, with its
 *   options reordered or spelled `%24`): the list fails and no record is output twice,
 *   even when a Limit would be reached with the repeated records.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGES } from '../../nodes/shared/http/paging';
import { MAX_PAGES_PER_POLL } from '../../nodes/OrderTrigger/poll';
import { createHarness } from '../harness';
import type { Harness } from '../harness';
import { serveHostile } from './hostile-server';
import type { HostileServer } from './hostile-server';
import { printFigures } from './report';

const CANARY = 'HOSTILE-PAGING-KEY-19c0aa';
const ORDER = 'accessPointOrder';
const TRIGGER = 'accessPointOrderTrigger';
const opts = { maxRetries: 0 };

const orders = (from: number, count: number) =>
	Array.from({ length: count }, (_, i) => ({ OrderID: from + i, LastModified: '2024-05-01T10:00:00Z', Created: '2024-05-01T10:00:00Z' }));

describe('hostile server: endless and cycling next-page links', () => {
	let h: Harness;
	let server: HostileServer;
	let answer: (url: string) => IDataObject = () => ({ Items: [] });
	const figures: Record<string, string> = {};

	beforeAll(async () => {
		server = await serveHostile((_req, res, request) => {
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify(answer(request.url)));
		});
		h = await createHarness({ emulator: false, credentials: { apiKey: CANARY, partyId: '100001', environment: 'custom', baseUrl: server.url }, quiet: true });
	});
	afterAll(async () => {
		printFigures('hostile paging', figures);
		await h?.close();
		await server?.close();
	});

	/** Every page links to the next, forever (one record a page, or none). */
	const endless = (perPage: number) => (url: string) => {
		const skip = Number(new URL(url, server.url).searchParams.get('$skip') ?? 0);
		return { Items: orders(skip + 1, perPage), NextpageLink: `/v1/orders?$skip=${skip + Math.max(perPage, 1)}` };
	};

	// Each run makes 5,000 requests through the engine (about 20 s here); the cap itself is
	// unit-tested for every paging mode in test/unit/paging.test.ts.
	it.each([['return all, a record a page', { returnAll: true }, 1]] as Array<[string, IDataObject, number]>)(
		`order get many, %s: stops after ${MAX_PAGES} pages`,
		async (label, over, perPage) => {
			answer = endless(perPage);
			const before = server.requests.length;
			const result = await h.runNode(ORDER, { resource: 'order', operation: 'getAll', ...over, options: opts });
			const requests = server.requests.length - before;
			expect(result.status).toBe('error');
			const error = result.nodeError(result.nodeName as string);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error?.message).toBe(
				`The API kept sending next-page links: stopped after ${MAX_PAGES} pages (${MAX_PAGES * 120} records at 120 a page, the most one list read follows); the list was not returned`,
			);
			expect(requests).toBe(MAX_PAGES);
			expect(result.output(result.nodeName as string)).toEqual([]);
			figures[`endless, ${label}`] = `requests ${requests}, NodeApiError, output 0 items`;
		},
		120_000,
	);

	it(`order trigger: endless links end the poll within its own cap of ${MAX_PAGES_PER_POLL} requests`, async () => {
		answer = endless(1);
		const before = server.requests.length;
		const poller = h.poller({
			type: TRIGGER,
			parameters: { event: 'newOrUpdatedOrder', orderType: '', direction: '', options: { ...opts, startFrom: '2024-01-01T00:00:00Z' } },
		});
		// The trigger pages with its own $skip and reads the link only as "more remain"; a poll makes at most
		// MAX_PAGES_PER_POLL requests and the next poll carries on (nodes/OrderTrigger/poll.ts).
		const outcome = await poller.poll().then(
			(polled: { items: IDataObject[] | null }) => polled.items ?? [],
			(e: unknown) => e,
		);
		const requests = server.requests.length - before;
		expect(requests).toBeLessThanOrEqual(MAX_PAGES_PER_POLL);
		if (Array.isArray(outcome)) {
			const ids = outcome.map((item) => item.OrderID);
			expect(new Set(ids).size).toBe(ids.length);
		} else {
			expect(outcome).toBeInstanceOf(NodeApiError);
		}
		figures['endless, order trigger'] =
			`requests ${requests} (cap ${MAX_PAGES_PER_POLL}), ${Array.isArray(outcome) ? `${outcome.length} order(s), none twice` : 'NodeApiError'}`;
	}, 120_000);

	const FIRST = '/v1/orders';
	it.each([
		['the first page as sent', (first: string) => first],
		['the first page with $skip=0', (first: string) => `${first}${first.includes('?') ? '&' : '?'}$skip=0`],
		[
			'the first page, absolute, options reordered and %24-encoded',
			(first: string) => {
				const url = new URL(first, server.url);
				const reordered = [...url.searchParams].reverse().map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
				return `${server.url}${url.pathname}?${reordered.join('&')}`;
			},
		],
	] as Array<[string, (first: string) => string]>)('a link back to %s: the list fails, no record is output twice', async (label, back) => {
		for (const over of [{ returnAll: false, limit: 180 }, { returnAll: true }] as IDataObject[]) {
			const before = server.requests.length;
			let firstUrl = '';
			answer = (url) => {
				if (!firstUrl) firstUrl = url;
				const skip = Number(new URL(url, server.url).searchParams.get('$skip') ?? 0);
				// Page 1 links to page 2, page 2 links back to page 1.
				return skip === 0
					? { Items: orders(1, 120), NextpageLink: `${FIRST}?$skip=120&$orderby=OrderDate` }
					: { Items: orders(121, 120), NextpageLink: back(firstUrl) };
			};
			const result = await h.runNode(ORDER, {
				resource: 'order',
				operation: 'getAll',
				...over,
				sort: { keys: [{ field: 'OrderDate', direction: 'asc' }] },
				options: opts,
			});
			const requests = server.requests.length - before;
			const output = result.output(result.nodeName as string);
			const ids = output.map((o) => o.OrderID);
			if (over.limit === 180) {
				// The Limit is reached on page 2: it is not asked to go back.
				result.assertSuccess();
				expect(ids).toHaveLength(180);
				expect(new Set(ids).size).toBe(180);
				expect(requests).toBe(2);
				continue;
			}
			expect(result.status).toBe('error');
			expect(result.nodeError(result.nodeName as string)?.message).toMatch(/next-page link to a page already read .*after 240 records/);
			expect(output).toEqual([]);
			expect(requests).toBe(2);
			figures[`cycle to ${label}`] = `requests ${requests}, NodeApiError after 240 distinct records, output 0, duplicates 0`;
		}
	});

	it('page 1 linking to itself with a Limit of 180: fails after 120 records instead of outputting 60 duplicates', async () => {
		for (const self of [(u: string) => u, (u: string) => `${u}&$skip=0`]) {
			const before = server.requests.length;
			answer = (url) => ({ Items: orders(1, 120), NextpageLink: self(url) });
			const result = await h.runNode(ORDER, {
				resource: 'order',
				operation: 'getAll',
				limit: 180,
				sort: { keys: [{ field: 'OrderDate', direction: 'desc' }] },
				options: opts,
			});
			expect(result.status).toBe('error');
			expect(result.nodeError(result.nodeName as string)?.message).toMatch(/page already read .*after 120 records/);
			expect(server.requests.length - before).toBe(1);
			figures[`self-link, limit 180${self('x') === 'x' ? '' : ' ($skip=0)'}`] =
				`requests ${server.requests.length - before}, NodeApiError, duplicates output 0`;
		}
	});
});
