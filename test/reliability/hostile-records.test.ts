/**
 * Hostile server: odd records. Lists and single reads answering `null`, text, numbers or
 * lists where records belong, through n8n-core's engine. One n8n item is one JSON object:
 * such an answer must end the execution with a NodeApiError that names it (or an error
 * item under "continue"), never reach n8n as an item (where `{"Items":[null]}` threw inside
 * n8n's error normaliser and left the execution "running"). The decision is to refuse, not
 * skip: the API answers records (docs/api.md "Queries and paging"), so a list holding anything else is not the list.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import { serveHostile } from './hostile-server';
import type { HostileServer } from './hostile-server';
import { printFigures } from './report';

const CANARY = 'HOSTILE-RECORDS-KEY-0c3d51';
const ORDER = 'accessPointOrder';
const REG = 'accessPointRegistration';
const INT = 'accessPointIntegration';
const PEPPOL = 'accessPointPeppolLookup';
const TRIGGER = 'accessPointOrderTrigger';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const opts = { maxRetries: 0 };
const order = (id: number) => ({ OrderID: id, LastModified: '2024-05-01T10:00:00Z', Created: '2024-05-01T10:00:00Z' });

/** [label, node type, parameters, answer for the first request, answer for a `$skip` request, expected message] */
type Case = [string, string, IDataObject, unknown, unknown, RegExp];
const list = (resource: string, over: IDataObject = {}) => ({ resource, operation: 'getAll', returnAll: true, options: opts, ...over });

const CASES: Case[] = [
	[
		'order list, {"Items":[null]}',
		ORDER,
		list('order'),
		{ Items: [null] },
		undefined,
		/^List orders: entry 1 of the page is null, not a record \(page 1\); the list was not read$/,
	],
	['order list, text and number records', ORDER, list('order'), { Items: ['a', 1] }, undefined, /entry 1 of the page is the text "a", not a record \(page 1\)/],
	[
		'order list, a list as a record (limit 5)',
		ORDER,
		list('order', { returnAll: false, limit: 5 }),
		{ Items: [order(1), [1]] },
		undefined,
		/entry 2 of the page is a list, not a record/,
	],
	[
		'order list, null on page 2',
		ORDER,
		list('order'),
		{ Items: [order(1)], NextpageLink: '/v1/orders?$skip=1' },
		{ Items: [order(2), null] },
		/entry 2 of the page is null, not a record \(page 2\)/,
	],
	['order list, the answer null', ORDER, list('order'), null, undefined, /^List orders answered with null where a record or a list was expected$/],
	[
		'order list, the answer 5',
		ORDER,
		list('order', { returnAll: false, limit: 5 }),
		5,
		undefined,
		/^List orders answered with the number 5 where a record or a list was expected$/,
	],
	['party list, {"Items":[null]}', ORDER, list('party'), { Items: [null] }, undefined, /^List parties: entry 1 of the page is null/],
	['product list, a bare array with a number', ORDER, list('product'), [{ ProductID: 1 }, 7], undefined, /^List products: entry 2 of the page is the number 7/],
	[
		'order get, null',
		ORDER,
		{ resource: 'order', operation: 'get', orderId: '5', options: { ...opts, singleOrderPath: 'orders' } },
		null,
		undefined,
		/^Get order 5 answered with null where a record or a list was expected$/,
	],
	[
		'order get, a number',
		ORDER,
		{ resource: 'order', operation: 'get', orderId: '5', options: { ...opts, singleOrderPath: 'orders' } },
		42,
		undefined,
		/answered with the number 42 where a record or a list was expected/,
	],
	[
		'order get, true',
		ORDER,
		{ resource: 'order', operation: 'get', orderId: '5', options: { ...opts, singleOrderPath: 'orders' } },
		true,
		undefined,
		/answered with the boolean true where a record or a list was expected/,
	],
	[
		'order get, a JSON string',
		ORDER,
		{ resource: 'order', operation: 'get', orderId: '5', options: { ...opts, singleOrderPath: 'orders' } },
		'an order',
		undefined,
		/returned a body that is not valid JSON/,
	],
	[
		'registration get, null',
		REG,
		{ operation: 'get', registrationId: byId('300001'), options: opts },
		null,
		undefined,
		/answered with null where a record or a list was expected/,
	],
	[
		'peppol lookup, a number',
		PEPPOL,
		{ identifier: 'BE0123456749', options: opts },
		7,
		undefined,
		/answered with the number 7 where a record or a list was expected/,
	],
];

describe('hostile server: null, text and number records', () => {
	let h: Harness;
	let server: HostileServer;
	let first: unknown;
	let next: unknown;
	const figures: Record<string, string> = {};

	beforeAll(async () => {
		server = await serveHostile((_req, res, request) => {
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify(request.url.includes('skip') ? next : first));
		});
		h = await createHarness({ emulator: false, credentials: { apiKey: CANARY, partyId: '100001', environment: 'custom', baseUrl: server.url }, quiet: true });
	});
	afterAll(async () => {
		printFigures('hostile records', figures);
		await h?.close();
		await server?.close();
	});

	it.each(CASES)('%s: the execution ends with a NodeApiError naming it', async (...[label, type, parameters, answer, page2, message]: Case) => {
		first = answer;
		next = page2;
		const result = await h.runNode(type, parameters);
		expect(result.status).toBe('error');
		const error = result.nodeError(result.nodeName as string);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toMatch(message);
		expect(result.output(result.nodeName as string)).toEqual([]);
		// Under "continue": one error item, paired, and the run succeeds.
		const kept = await h.runNode(type, parameters, [{}], { onError: 'continueRegularOutput' });
		kept.assertSuccess();
		// Peppol Lookup sends a failed item down Cannot Receive (never the sending branch): every output counts.
		const items = [0, 1, 2].flatMap((output) => kept.items(kept.nodeName as string, output) ?? []);
		expect(items).toHaveLength(1);
		expect(items[0].json.error).toBe(error?.message);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		figures[label] = `status ${result.status}, "${String(error?.message).slice(0, 90)}"; continue: 1 error item`;
	});

	it('order trigger: a null record is skipped with a warning; the order before it is still emitted', async () => {
		first = { Items: [order(1), null] };
		const poller = h.poller({
			type: TRIGGER,
			parameters: { event: 'newOrUpdatedOrder', orderType: '', direction: '', options: { ...opts, startFrom: '2024-01-01T00:00:00Z' } },
		});
		// The trigger skips what it cannot place rather than stop every later order (issue 18, point 4).
		const polled = await poller.poll();
		const ids = (polled.items ?? []).map((item: IDataObject) => item.OrderID);
		expect(ids).toEqual([1]);
		figures['order trigger, {"Items":[order, null]}'] = `poll emitted ${ids.length} order, the null entry skipped`;
	});

	it('registration and integration lists (other code reads them): odd entries never reach n8n as items', async () => {
		for (const [label, type, parameters, answer] of [
			[
				'registration list',
				REG,
				{ operation: 'getAll', returnAll: true, options: opts },
				{ Companies: [null, 'x', 5, { RegistrationID: 300001, CompanyDetails: { CompanyName: 'Acme' } }] },
			],
			[
				'integration list',
				INT,
				{ operation: 'getAll', registrationId: byId('300001'), returnAll: true, options: opts },
				{ RegistrationID: 300001, Integrations: [null, 'x', { IntegrationID: 1, Integration: 'Peppol' }] },
			],
		] as Array<[string, string, IDataObject, unknown]>) {
			first = answer;
			const result = await h.runNode(type, parameters);
			expect(['success', 'error']).toContain(result.status);
			const items = result.status === 'success' ? result.output(result.nodeName as string) : [];
			for (const item of items) expect(item && typeof item === 'object' && !Array.isArray(item)).toBe(true);
			figures[label] =
				result.status === 'success'
					? `success, ${items.length} item(s) (odd entries left out)`
					: `error: ${result.nodeError(result.nodeName as string)?.message}`;
		}
	});
});
