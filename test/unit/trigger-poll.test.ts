/**
 * The trigger's poll() with a hand-made poll context and an in-memory API: the
 * engine's time budget (stop at a page boundary, carry on next poll) and the
 * filter text the user's settings produce.
 */
import type { IDataObject, IHttpRequestOptions, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { AccessPointOrderTrigger } from '../../nodes/OrderTrigger/AccessPointOrderTrigger.node';
import { triggerFilter, NEWEST_FIRST, OLDEST_FIRST } from '../../nodes/OrderTrigger/query';

const T0 = Date.UTC(2024, 4, 1, 10, 0, 0) / 1000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const BASE = 'https://api.example.test';

interface FakeApi {
	book: IDataObject[];
	requests: IHttpRequestOptions[];
	/** Called before each answer; may throw or return a status to answer with. */
	before?: (request: IHttpRequestOptions) => number | undefined;
}

/** Answers GET /v1/orders honouring `LastModified ge`, the sort direction, and skip-based next links. */
function answer(api: FakeApi, request: IHttpRequestOptions) {
	api.requests.push(request);
	const status = api.before?.(request);
	if (status) return { statusCode: status, headers: {}, body: { errors: [{ Code: 'X', Description: 'injected' }] } };
	const url = new URL(request.url as string);
	const qs: Record<string, string> = { ...(request.qs as Record<string, string>) };
	url.searchParams.forEach((value, key) => (qs[key] = value));
	const bound = /LastModified ge DateTime'([^']+)'/.exec(qs.$filter ?? '');
	const from = bound ? Date.parse(`${bound[1]}Z`) / 1000 : -Infinity;
	const desc = (qs.$orderby ?? '').includes('desc');
	const rows = api.book
		.filter((o) => {
			const seconds = Date.parse(o.LastModified as string) / 1000;
			return Number.isNaN(seconds) || seconds >= from; // unreadable ones are sent, as a real API would
		})
		.sort((a, b) => String(a.LastModified).localeCompare(String(b.LastModified)) || (a.OrderID as number) - (b.OrderID as number));
	if (desc) rows.reverse();
	const skip = Number(qs.$skip ?? 0);
	const top = Math.min(Number(qs.$top ?? 120), 120);
	const body: IDataObject = { Items: rows.slice(skip, skip + top) };
	if (skip + top < rows.length) {
		const next = new URLSearchParams({ ...(qs.$filter ? { $filter: qs.$filter } : {}), $orderby: qs.$orderby, $skip: String(skip + top) });
		body.NextpageLink = `/v1/orders?${next.toString()}`;
	}
	return { statusCode: 200, headers: {}, body };
}

function context(api: FakeApi, parameters: IDataObject, staticData: IDataObject, extra: Partial<Record<string, unknown>> = {}) {
	const get = (name: string, fallback: unknown) => {
		let value: unknown = parameters;
		for (const part of name.split('.')) value = value && typeof value === 'object' ? (value as IDataObject)[part] : undefined;
		return value === undefined ? fallback : value;
	};
	const ctx = {
		getNode: () => ({ id: '1', name: 'Order Trigger', type: 'n8n-nodes-access-point.accessPointOrderTrigger', typeVersion: 1, position: [0, 0], parameters: {} }),
		getNodeParameter: get,
		getMode: () => 'trigger',
		getWorkflowStaticData: () => staticData,
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
	const book = Array.from({ length: 400 }, (_, i) => ({
		OrderID: 1000 + i,
		Created: iso(T0 + Math.floor(i / 100)),
		LastModified: iso(T0 + Math.floor(i / 100)),
	}));
	const parameters = { event: 'newOrUpdatedOrder', options: { startFrom: iso(T0), maxRetries: 0 } };

	afterEach(() => jest.restoreAllMocks());

	it('stops at a page boundary when the engine\'s poll budget runs out, and the next poll carries on without loss or repeats', async () => {
		const api: FakeApi = { book, requests: [] };
		const staticData: IDataObject = {};
		let clock = 0;
		jest.spyOn(Date, 'now').mockImplementation(() => clock);
		api.before = () => {
			clock += 1000; // every page "takes" a second
			return undefined;
		};

		const first = await poll(context(api, parameters, staticData, { getPollBudgetMs: () => 1500 }));
		expect(api.requests).toHaveLength(2);
		expect(emittedIds(first)).toEqual(book.slice(0, 240).map((o) => o.OrderID));
		// Orders 1200..1239 share the cursor second with 60 not read yet.
		expect((staticData.orderCursor as IDataObject).from).toBe(T0 + 2);

		api.requests.length = 0;
		const second = await poll(context(api, parameters, staticData, { getPollBudgetMs: () => 60_000 }));
		expect(emittedIds(second)).toEqual(book.slice(240).map((o) => o.OrderID));
		expect(api.requests).toHaveLength(2); // 200 orders from the cursor second on
	});

	it('keeps the cursor where it was when a page fails, and says which call failed', async () => {
		const api: FakeApi = { book, requests: [] };
		const staticData: IDataObject = {};
		await poll(context(api, { ...parameters, options: { maxRetries: 0 } }, staticData)); // baseline
		const cursor = JSON.parse(JSON.stringify(staticData));
		book.push({ OrderID: 5000, Created: iso(T0 + 9), LastModified: iso(T0 + 9) });
		api.before = (request) => (new URL(String(request.url)).searchParams.has('$skip') ? 500 : undefined);
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

	it('refuses an order without a readable LastModified and leaves the cursor alone', async () => {
		const api: FakeApi = { book: [{ OrderID: 1, LastModified: iso(T0) }, { OrderID: 2, LastModified: iso(T0 + 1) }], requests: [] };
		const staticData: IDataObject = {};
		await poll(context(api, { options: {} }, staticData));
		const cursor = JSON.parse(JSON.stringify(staticData));
		api.book.push({ OrderID: 3, LastModified: iso(T0 + 5) });
		api.book.push({ OrderID: 4, LastModified: 'yesterday-ish' });
		const error = await poll(context(api, { options: {} }, staticData)).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/order 4 .*LastModified.*"yesterday-ish"/);
		expect(staticData).toEqual(cursor);
	});
});
