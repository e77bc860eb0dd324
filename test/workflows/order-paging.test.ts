/**
 * Order › Get Many › Return All against exact HTTP exchanges (nock): the pages it asks for
 * (the links, then $skip windows once two links show the service pages by $skip), the
 * credential headers on each, and that API errors, broken bodies and foreign links on a page
 * are reported on the item.
 */
import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';

const HOST = 'https://api.paging.test';
const ORDER = 'accessPointOrder';
const orders = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ OrderID: from + i, OrderNumber: `INV-${from + i}` }));

describe('Order Return All paging (nock)', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await createHarness({
			emulator: false,
			credentials: { apiKey: 'k-paging', partyId: '77', environment: 'custom', baseUrl: HOST },
			quiet: true,
		});
		nock.disableNetConnect();
	});
	afterAll(async () => {
		nock.cleanAll();
		nock.enableNetConnect();
		await h?.close();
	});
	afterEach(() => nock.cleanAll());

	const returnAll = (options: IDataObject = {}) =>
		h.runNode(ORDER, {
			resource: 'order',
			operation: 'getAll',
			returnAll: true,
			options: { maxRetries: 1, retryDelayMs: 1, ...options },
		});

	it('reads every page once, in order, with the credential headers on each', async () => {
		const order: string[] = [];
		const scope = nock(HOST)
			.matchHeader('apikey', 'k-paging')
			.matchHeader('partyID', '77')
			.get('/v1/orders')
			.reply(200, () => {
				order.push('page 1 answered');
				return { Items: orders(1, 120), NextpageLink: '/v1/orders?$skip=120' };
			})
			.get('/v1/orders')
			.query({ $skip: '120' })
			.reply(200, () => {
				order.push('page 2 answered');
				return { Items: orders(121, 120), NextPageLink: `${HOST}/v1/orders?$skip=240` };
			})
			.get('/v1/orders')
			.query({ $skip: '240' })
			.reply(200, () => {
				order.push('page 3 answered');
				return { Items: orders(241, 5) };
			});
		const result = (await returnAll()).assertSuccess();
		const out = result.output(result.nodeName as string);
		expect(out.map((o) => o.OrderID)).toEqual(orders(1, 245).map((o) => o.OrderID));
		expect(order).toEqual(['page 1 answered', 'page 2 answered', 'page 3 answered']);
		expect(scope.isDone()).toBe(true);
	});

	it('an API error on page 2 is a NodeApiError with the HTTP status and the API Code/Description', async () => {
		nock(HOST)
			.get('/v1/orders')
			.reply(200, { Items: orders(1, 120), NextpageLink: '/v1/orders?$skip=120' })
			.get('/v1/orders')
			.query({ $skip: '120' })
			.reply(400, { errors: [{ Code: 'GenericError', Description: "Could not find a property named 'Foo'" }] });
		const result = await returnAll();
		expect(result.status).toBe('error');
		const error = result.nodeError(result.nodeName as string) as unknown as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('400');
		expect(error.context.apiCode).toBe('GenericError');
		expect(error.message).toBe("List orders failed with HTTP 400 (GenericError): Could not find a property named 'Foo'");
		expect(result.output(result.nodeName as string)).toEqual([]);
	});

	it('a page cut off in transit counts as one attempt: retried once, then named', async () => {
		const cut = JSON.stringify({ Items: orders(121, 120), NextpageLink: '/v1/orders?$skip=240' }).slice(0, 900);
		const scope = nock(HOST)
			.get('/v1/orders')
			.reply(200, { Items: orders(1, 120), NextpageLink: '/v1/orders?$skip=120' })
			.get('/v1/orders')
			.query({ $skip: '120' })
			.times(2)
			.reply(200, cut, { 'content-type': 'application/json' });
		const result = await returnAll();
		expect(result.status).toBe('error');
		const error = result.nodeError(result.nodeName as string) as unknown as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(/^List orders returned a body that is not valid JSON \(HTTP 200\)/);
		expect(scope.isDone()).toBe(true); // exactly 1 + 1 retry for page 2
	});

	it('a page cut off once is read again and the list is complete', async () => {
		const page2 = JSON.stringify({ Items: orders(121, 3) });
		nock(HOST)
			.get('/v1/orders')
			.reply(200, { Items: orders(1, 120), NextpageLink: '/v1/orders?$skip=120' })
			.get('/v1/orders')
			.query({ $skip: '120' })
			.reply(200, page2.slice(0, 40), { 'content-type': 'application/json' })
			.get('/v1/orders')
			.query({ $skip: '120' })
			.reply(200, page2, { 'content-type': 'application/json' });
		const result = (await returnAll()).assertSuccess();
		expect(result.output(result.nodeName as string)).toHaveLength(123);
	});

	it('never sends the credential to another host', async () => {
		const foreign = nock('https://elsewhere.test').get(/.*/).reply(200, { Items: [] });
		nock(HOST)
			.get('/v1/orders')
			.reply(200, { Items: orders(1, 2), NextpageLink: 'https://elsewhere.test/v1/orders?$skip=2' });
		const result = await returnAll();
		expect(result.status).toBe('error');
		expect(String(result.nodeError(result.nodeName as string)?.message)).toMatch(/another host \(elsewhere\.test\)/);
		expect(foreign.isDone()).toBe(false);
	});

	it('after two $skip links, asks the pages ahead by $skip, each once, with the credential headers', async () => {
		const asked: string[] = [];
		const page = (skip: number) => {
			asked.push(String(skip));
			const items = orders(skip + 1, skip < 840 ? 120 : 7);
			return { Items: items, Count: 847, ...(skip < 840 ? { NextpageLink: `/v1/orders?$orderby=OrderDate,OrderID&$skip=${skip + 120}` } : {}) };
		};
		const scope = nock(HOST)
			.matchHeader('apikey', 'k-paging')
			.matchHeader('partyID', '77')
			.get('/v1/orders')
			.query((q) => q.$orderby === 'OrderDate,OrderID')
			.times(8)
			.reply(200, (uri) => page(Number(new URL(uri, HOST).searchParams.get('$skip') ?? 0)));
		const result = (
			await h.runNode(ORDER, {
				resource: 'order',
				operation: 'getAll',
				returnAll: true,
				sort: { keys: [{ field: 'OrderDate', direction: 'asc' }] },
				options: { maxRetries: 0 },
			})
		).assertSuccess();
		expect(result.output(result.nodeName as string).map((o) => o.OrderID)).toEqual(orders(1, 847).map((o) => o.OrderID));
		expect(asked.slice(0, 2)).toEqual(['0', '120']);
		expect([...asked].sort((a, b) => Number(a) - Number(b))).toEqual(['0', '120', '240', '360', '480', '600', '720', '840']);
		expect(scope.isDone()).toBe(true);
	});
});
