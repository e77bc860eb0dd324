/**
 * The trigger's poll() with a hand-made poll context and an in-memory API: the
 * engine's time budget (stop at a page boundary, carry on next poll), the filter text
 * the user's settings produce, and what a poll does with a damaged stored cursor,
 * records it cannot place and an API without a Date header.
 */
import type { IDataObject, IHttpRequestOptions, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { AccessPointOrderTrigger } from '../../nodes/OrderTrigger/AccessPointOrderTrigger.node';
import { triggerFilter, NEWEST_FIRST, OLDEST_FIRST } from '../../nodes/OrderTrigger/cursor';
import { IN_FLIGHT_STALE_MS, pollInFlight } from '../../nodes/shared/node/inFlight';

const T0 = Date.UTC(2024, 4, 1, 10, 0, 0) / 1000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const BASE = 'https://api.example.test';

interface FakeApi {
	book: unknown[];
	requests: IHttpRequestOptions[];
	/** The API's clock (epoch seconds) sent as the Date header; undefined: no Date header. */
	now?: number;
	/** Called before each answer; may throw or return a status to answer with. */
	before?: (request: IHttpRequestOptions) => number | undefined;
}

/** A request's query option, wherever the client put it (the URL, or n8n's qs). */
function option(request: IHttpRequestOptions, name: string): unknown {
	const fromUrl = new URL(request.url as string).searchParams.get(name);
	return fromUrl ?? (request.qs as IDataObject | undefined)?.[name];
}

/** Answers GET /v1/orders honouring `LastModified ge`, the sort direction, and skip-based next links. */
function answer(api: FakeApi, request: IHttpRequestOptions) {
	api.requests.push(request);
	const status = api.before?.(request);
	const headers: Record<string, string> = api.now === undefined ? {} : { date: new Date(api.now * 1000).toUTCString() };
	if (status) return { statusCode: status, headers, body: { errors: [{ Code: 'X', Description: 'injected' }] } };
	const url = new URL(request.url as string);
	const qs: Record<string, string> = { ...(request.qs as Record<string, string>) };
	url.searchParams.forEach((value, key) => (qs[key] = value));
	const bound = /LastModified ge DateTime'([^']+)'/.exec(qs.$filter ?? '');
	const from = bound ? Date.parse(`${bound[1]}Z`) / 1000 : -Infinity;
	const desc = (qs.$orderby ?? '').includes('desc');
	const field = (o: unknown, name: string) => (o && typeof o === 'object' ? (o as IDataObject)[name] : undefined);
	const rows = api.book
		.filter((o) => {
			const seconds = Date.parse(field(o, 'LastModified') as string) / 1000;
			return Number.isNaN(seconds) || seconds >= from; // unreadable ones are sent, as a real API would
		})
		.sort(
			(a, b) => String(field(a, 'LastModified')).localeCompare(String(field(b, 'LastModified'))) || Number(field(a, 'OrderID')) - Number(field(b, 'OrderID')),
		);
	if (desc) rows.reverse();
	const skip = Number(qs.$skip ?? 0);
	const top = Math.min(Number(qs.$top ?? 120), 120);
	const body: IDataObject = { Items: rows.slice(skip, skip + top) };
	if (skip + top < rows.length) {
		const next = new URLSearchParams({ ...(qs.$filter ? { $filter: qs.$filter } : {}), $orderby: qs.$orderby, $skip: String(skip + top) });
		body.NextpageLink = `/v1/orders?${next.toString()}`;
	}
	return { statusCode: 200, headers, body };
}

interface Logged {
	level: string;
	message: string;
}

function context(api: FakeApi, parameters: IDataObject, staticData: IDataObject, extra: Partial<Record<string, unknown>> = {}, log: Logged[] = []) {
	const get = (name: string, fallback: unknown) => {
		let value: unknown = parameters;
		for (const part of name.split('.')) value = value && typeof value === 'object' ? (value as IDataObject)[part] : undefined;
		return value === undefined ? fallback : value;
	};
	const ctx = {
		getNode: () => ({
			id: '1',
			name: 'Order Trigger',
			type: 'n8n-nodes-access-point.accessPointOrderTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getNodeParameter: get,
		getMode: () => 'trigger',
		getWorkflowStaticData: () => staticData,
		logger: Object.fromEntries(['error', 'warn', 'info', 'debug'].map((level) => [level, (message: string) => log.push({ level, message })])),
		getCredentials: async () => ({ apiKey: 'secret-key', partyId: '100001', environment: 'custom', baseUrl: BASE }),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, request: IHttpRequestOptions) => answer(api, request),
			returnJsonArray: (items: IDataObject[]): INodeExecutionData[] => items.map((json) => ({ json })),
		},
		...extra,
	};
	return ctx as unknown as IPollFunctions;
}

const poll = async (ctx: IPollFunctions) => await new AccessPointOrderTrigger().poll.call(ctx);
const emittedIds = (result: INodeExecutionData[][] | null) => (result?.[0] ?? []).map((item) => item.json.OrderID);

describe('query parts', () => {
	it('writes type, direction and the cursor bound as OData, and the two sort orders', () => {
		expect(triggerFilter({ orderType: '', direction: '' })).toBe('');
		expect(triggerFilter({ orderType: 'Invoice', direction: 'Income', modifiedFrom: '2024-05-01T10:00:00' })).toBe(
			"OrderType eq 'Invoice' and OrderDirection eq 'Income' and LastModified ge DateTime'2024-05-01T10:00:00'",
		);
		expect(OLDEST_FIRST).toBe('LastModified,OrderID');
		expect(NEWEST_FIRST).toBe('LastModified desc,OrderID desc');
	});
});

describe('poll() with an in-memory API', () => {
	const book: IDataObject[] = Array.from({ length: 400 }, (_, i) => ({
		OrderID: 1000 + i,
		Created: iso(T0 + Math.floor(i / 100)),
		LastModified: iso(T0 + Math.floor(i / 100)),
	}));
	const parameters = { event: 'newOrUpdatedOrder', options: { startFrom: iso(T0), maxRetries: 0 } };

	afterEach(() => jest.restoreAllMocks());

	it("stops at a page boundary when the engine's poll budget runs out, and the next poll carries on without loss or repeats", async () => {
		const api: FakeApi = { book, requests: [], now: T0 + 86_400 };
		const staticData: IDataObject = {};
		let clock = (T0 + 86_400) * 1000;
		jest.spyOn(Date, 'now').mockImplementation(() => clock);
		api.before = () => {
			clock += 1000; // every page "takes" a second
			return undefined;
		};

		const first = await poll(context(api, parameters, staticData, { getPollBudgetMs: () => 1500 }));
		expect(api.requests).toHaveLength(2);
		// Page 2 is asked from one place back (it must start with page 1's last order): 120 + 119 orders.
		expect(api.requests.map((r) => option(r, '$skip'))).toEqual([undefined, '119']);
		expect(emittedIds(first)).toEqual(book.slice(0, 239).map((o) => o.OrderID));
		// Orders 1200..1238 share the cursor second with 61 not read yet.
		expect((staticData.orderCursor as IDataObject).from).toBe(T0 + 2);

		api.requests.length = 0;
		const second = await poll(context(api, parameters, staticData, { getPollBudgetMs: () => 60_000 }));
		expect(emittedIds(second)).toEqual(book.slice(239).map((o) => o.OrderID));
		expect(api.requests).toHaveLength(2); // 200 orders from the cursor second on
	});

	it('keeps the cursor where it was when a page fails, and says which call failed', async () => {
		const api: FakeApi = { book, requests: [], now: T0 + 86_400 };
		const staticData: IDataObject = {};
		await poll(context(api, { ...parameters, options: { maxRetries: 0 } }, staticData)); // baseline
		const cursor = JSON.parse(JSON.stringify(staticData));
		book.push({ OrderID: 5000, Created: iso(T0 + 9), LastModified: iso(T0 + 9) });
		api.before = (request) => (option(request, '$skip') !== undefined ? 500 : undefined);
		api.requests.length = 0;
		book.push(...Array.from({ length: 150 }, (_, i) => ({ OrderID: 6000 + i, Created: iso(T0 + 10), LastModified: iso(T0 + 10) })));
		const error = await poll(context(api, { ...parameters, options: { maxRetries: 0 } }, staticData)).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).message).toMatch(/List changed orders/);
		expect((error as NodeApiError).httpCode).toBe('500');
		expect(api.requests).toHaveLength(2);
		expect(staticData).toEqual(cursor);
		book.splice(400);
	});

	it('names the field of a start date it cannot read, before any request', async () => {
		const api: FakeApi = { book, requests: [] };
		const error = await poll(context(api, { options: { startFrom: 'next tuesday' } }, {})).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/"Start From" next tuesday is not a valid date/);
		expect(api.requests).toHaveLength(0);
	});

	it('skips an order without a readable LastModified with a warning; the orders after it still come', async () => {
		const api: FakeApi = {
			book: [
				{ OrderID: 1, LastModified: iso(T0) },
				{ OrderID: 2, LastModified: iso(T0 + 1) },
			],
			requests: [],
			now: T0 + 3600,
		};
		const staticData: IDataObject = {};
		const log: Logged[] = [];
		await poll(context(api, { options: {} }, staticData, {}, log));
		api.book.push({ OrderID: 3, LastModified: iso(T0 + 5) });
		api.book.push({ OrderID: 4, LastModified: 'yesterday-ish' });
		api.book.push(null, 'text', { LastModified: iso(T0 + 6) });
		api.book.push({ OrderID: 5, LastModified: iso(T0 + 7) });
		const result = await poll(context(api, { options: {} }, staticData, {}, log));
		expect(emittedIds(result)).toEqual([3, 5]);
		const warnings = log.filter((l) => l.level === 'warn').map((l) => l.message);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/skipped 4 record\(s\) it cannot place/);
		expect(warnings[0]).toMatch(/order 4 with LastModified text of 13 characters/);
		expect(warnings[0]).not.toMatch(/yesterday/);
		api.book.push({ OrderID: 6, LastModified: iso(T0 + 9) });
		expect(emittedIds(await poll(context(api, { options: {} }, staticData, {}, log)))).toEqual([6]);
	});
});

describe('a stored cursor that is damaged or ahead of the clock', () => {
	const book = (): IDataObject[] => Array.from({ length: 30 }, (_, i) => ({ OrderID: 100 + i, LastModified: iso(T0 + i * 10) }));
	const parameters = { event: 'newOrUpdatedOrder', options: { maxRetries: 0 } };
	const scope = JSON.stringify(['100001', '']);

	afterEach(() => jest.restoreAllMocks());

	async function pollTwice(stored: unknown, now = T0 + 3600, extra: IDataObject[] = []) {
		jest.spyOn(Date, 'now').mockImplementation(() => (api.now as number) * 1000); // n8n's clock agrees with the API's
		const api: FakeApi = { book: [...book(), ...extra], requests: [], now };
		const staticData: IDataObject = { orderCursor: stored as IDataObject };
		const log: Logged[] = [];
		const first = await poll(context(api, parameters, staticData, {}, log));
		api.book.push({ OrderID: 999, LastModified: iso(now - 5) });
		api.now = now + 60;
		const second = await poll(context(api, parameters, staticData, {}, log));
		return { first, second, log, staticData, warnings: log.filter((l) => l.level === 'warn').map((l) => l.message) };
	}

	it.each<[string, unknown]>([
		['a position that cannot be written into the filter', { version: 1, scope, from: 1e20, createdFrom: 1e20, seen: {} }],
		['text', 'not a cursor at all'],
		['another version', { version: 7, scope, from: T0, createdFrom: T0, seen: {} }],
	])("%s: starts again from the API's now, says so, and keeps polling", async (_name, stored) => {
		const { first, second, warnings, staticData } = await pollTwice(stored);
		expect(first).toBeNull(); // a fresh start emits nothing from before
		expect(emittedIds(second)).toEqual([999]);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/"Order Trigger": its stored cursor could not be read \(.+\); it restarts from now/);
		expect((staticData.orderCursor as IDataObject).version).toBe(1);
	});

	it('a damaged list of handled orders: carries on from its position and says so', async () => {
		const { first, second, warnings } = await pollTwice({ version: 1, scope, from: T0 + 250, createdFrom: T0 + 250, seen: 'oops' });
		expect(emittedIds(first)).toEqual([125, 126, 127, 128, 129]);
		expect(emittedIds(second)).toEqual([999]);
		expect(warnings).toEqual([
			expect.stringMatching(
				/its stored cursor was damaged \(its list of orders handled at the position was text\)\. It carries on from 2024-05-01T10:04:10 \(the service's time\)/,
			),
		]);
	});

	it('a position ahead of the clock (left by a future-stamped order): moved back with a notice, the orders it hid come once', async () => {
		const ahead = T0 + 365 * 86_400;
		const hidden = [
			{ OrderID: 501, LastModified: iso(T0 + 3550) },
			{ OrderID: 502, LastModified: iso(T0 + 3590) },
		];
		const stored = { version: 1, scope, from: ahead, createdFrom: ahead, seen: { '7': ahead } };
		const { first, second, warnings } = await pollTwice(stored, T0 + 3600, hidden);
		expect(first).toBeNull(); // nothing at or after the stored position
		expect(emittedIds(second)).toEqual([501, 502, 999]); // from the ceiling (T0+3600-60) on
		expect(warnings).toEqual([
			expect.stringMatching(
				/its stored cursor \(2025-05-01T10:00:00\) was ahead of the API's clock \(2024-05-01T11:00:00, the service's time\); it was moved back to 2024-05-01T10:59:00\./,
			),
		]);
	});

	it("no Date header: n8n's clock bounds the cursor instead", async () => {
		const api: FakeApi = { book: [{ OrderID: 1, LastModified: iso(T0) }], requests: [] };
		const staticData: IDataObject = {};
		jest.spyOn(Date, 'now').mockImplementation(() => (T0 + 100) * 1000);
		await poll(context(api, parameters, staticData));
		api.book.push({ OrderID: 2, LastModified: iso(T0 + 10) }, { OrderID: 3, LastModified: iso(T0 + 365 * 86_400) });
		expect(emittedIds(await poll(context(api, parameters, staticData)))).toEqual([2, 3]);
		expect((staticData.orderCursor as IDataObject).from).toBe(T0 + 10); // the newest order at or before T0 + 100 - 60
		api.book.push({ OrderID: 4, LastModified: iso(T0 + 50) });
		expect(emittedIds(await poll(context(api, parameters, staticData)))).toEqual([4]);
	});
});

describe('polls that overlap', () => {
	it('a poll started while the previous one still runs steps aside: each order is emitted once', async () => {
		const T = T0 + 3600;
		const api: FakeApi = { book: [], requests: [], now: T + 86_400 };
		const staticData: IDataObject = {};
		const parameters = { event: 'newOrUpdatedOrder', orderType: '', direction: '', options: {} };
		await poll(context(api, parameters, staticData)); // baseline
		api.book.push(...Array.from({ length: 30 }, (_, i) => ({ OrderID: 9000 + i, Created: iso(T + 5), LastModified: iso(T + 5) })));
		// The API is slow: every answer waits until the test lets it go.
		let release: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (release = resolve));
		const slow = context(api, parameters, staticData, {
			helpers: {
				httpRequestWithAuthentication: async (_type: string, request: IHttpRequestOptions) => {
					await gate;
					return answer(api, request);
				},
				returnJsonArray: (items: IDataObject[]): INodeExecutionData[] => items.map((json) => ({ json })),
			},
		});
		const first = poll(slow);
		// Let the first poll reach the API (it then waits on the gate).
		for (let i = 0; i < 20 && staticData.pollInFlight === undefined; i++) await Promise.resolve();
		expect(staticData.pollInFlight).toEqual({ id: expect.any(String), at: expect.any(Number) });
		// n8n's next scheduled poll, while the first waits for the API.
		const second = await poll(context(api, parameters, staticData));
		expect(second).toBeNull();
		release();
		const emitted = emittedIds(await first);
		expect(emitted).toHaveLength(30);
		expect(staticData.pollInFlight).toBeUndefined();
		// The next poll runs normally and finds nothing new.
		expect(await poll(context(api, parameters, staticData))).toBeNull();
	});

	it('a poll stalled over 10 minutes is taken over: the later poll emits, the stalled one stores and emits nothing', async () => {
		const T = T0 + 7200;
		const api: FakeApi = { book: [], requests: [], now: T + 86_400 };
		const staticData: IDataObject = {};
		const parameters = { event: 'newOrUpdatedOrder', orderType: '', direction: '', options: {} };
		await poll(context(api, parameters, staticData)); // baseline
		api.book.push(...Array.from({ length: 5 }, (_, i) => ({ OrderID: 9100 + i, Created: iso(T + 5), LastModified: iso(T + 5) })));
		let release: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (release = resolve));
		const slow = context(api, parameters, staticData, {
			helpers: {
				httpRequestWithAuthentication: async (_type: string, request: IHttpRequestOptions) => {
					await gate;
					return answer(api, request);
				},
				returnJsonArray: (items: IDataObject[]): INodeExecutionData[] => items.map((json) => ({ json })),
			},
		});
		const first = poll(slow);
		for (let i = 0; i < 20 && staticData.pollInFlight === undefined; i++) await Promise.resolve();
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => now + IN_FLIGHT_STALE_MS + 60_000);
		try {
			const second = await poll(context(api, parameters, staticData));
			expect(emittedIds(second)).toHaveLength(5);
			release();
			expect(await first).toBeNull();
			expect(await poll(context(api, parameters, staticData))).toBeNull();
		} finally {
			clock.mockRestore();
		}
	});

	it('a marker left by a poll that died long ago holds nothing back', () => {
		expect(pollInFlight(Date.now() - 1000, Date.now())).toBe(true);
		expect(pollInFlight(Date.now() - IN_FLIGHT_STALE_MS - 1, Date.now())).toBe(false);
		expect(pollInFlight(Date.now() + 60_000, Date.now())).toBe(false);
		expect(pollInFlight('x', Date.now())).toBe(false);
		expect(pollInFlight(undefined, Date.now())).toBe(false);
	});
});
