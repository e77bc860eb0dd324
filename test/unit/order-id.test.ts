import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { AccessPointOrder } from '../../nodes/Order/AccessPointOrder.node';
import { checkOrderId, orderIdField, searchOrders } from '../../nodes/Order/actions/order/orderId';

describe('checkOrderId', () => {
	it('accepts positive whole numbers, as numbers or text (with a leading #)', () => {
		expect(checkOrderId(123456)).toEqual({ ok: true, value: '123456' });
		expect(checkOrderId(' 00042 ')).toEqual({ ok: true, value: '42' });
		expect(checkOrderId('#7')).toEqual({ ok: true, value: '7' });
		expect(checkOrderId(String(Number.MAX_SAFE_INTEGER))).toEqual({ ok: true, value: String(Number.MAX_SAFE_INTEGER) });
	});

	it.each([
		['', 'is empty'],
		[undefined, 'is empty'],
		[0, 'is not an OrderID'],
		['0', 'is not an OrderID'],
		[-5, 'is not an OrderID'],
		[1.5, 'is not an OrderID'],
		['12a', 'is not an OrderID'],
		[{ id: 1 }, 'is not an OrderID'],
		[true, 'is not an OrderID'],
		// Above 2^53 a number would silently name a neighbouring order.
		['9007199254740993', 'is too large to be an OrderID'],
		[2 ** 53, 'is not an OrderID'],
	])('refuses %p (%s)', (value, problem) => {
		expect(checkOrderId(value)).toEqual(expect.objectContaining({ ok: false, problem }));
	});
});

describe('the Order picker', () => {
	it('is a resource locator searching orders, and the Order node offers the search', () => {
		const field = orderIdField();
		expect(field.type).toBe('resourceLocator');
		expect(field.modes?.[0].typeOptions?.searchListMethod).toBe('searchOrders');
		expect(new AccessPointOrder().methods.listSearch.searchOrders).toBe(searchOrders);
	});

	function context(pages: Record<string, unknown>) {
		const calls: Array<{ url: string; qs?: unknown }> = [];
		const ctx = {
			getNode: () => ({ name: 'Test', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} }),
			getCredentials: async () => ({ apiKey: 'k', partyId: '1', environment: 'custom', baseUrl: 'https://api.example.test' }),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: { url: string; qs?: unknown }) => {
					calls.push({ url: options.url, qs: options.qs });
					return { statusCode: 200, headers: {}, body: pages[options.url.split('?')[0]] };
				},
			},
		};
		return { ctx: ctx as unknown as ILoadOptionsFunctions, calls };
	}

	const first = {
		Items: [
			{ OrderID: 11, OrderNumber: 'INV-011', OrderDate: '2026-11-20', CounterParty: { DisplayName: 'Acme BV' } },
			{ OrderID: 10, OrderNumber: 'INV-010', OrderDate: '2026-11-19', Customer: { Name: 'Globex' } },
			null,
		],
		NextPageLink: 'https://api.example.test/v1/orders?$skip=120',
	};

	it('lists the newest orders by number, amount, #OrderID, customer and date (what the picker must not cut first), with the next page as token', async () => {
		const { ctx, calls } = context({ 'https://api.example.test/v1/orders': first });
		expect(await searchOrders.call(ctx)).toEqual({
			results: [
				{ name: 'INV-011 · #11 · Acme BV · 2026-11-20', value: '11' },
				{ name: 'INV-010 · #10 · Globex · 2026-11-19', value: '10' },
			],
			paginationToken: 'https://api.example.test/v1/orders?$skip=120',
		});
		expect(decodeURIComponent(calls[0].url) + JSON.stringify(calls[0].qs ?? {})).toContain('LastModified desc');
	});

	it("issue 36.3: a search is the service's fullTextSearch (its answer is trusted: it may match fields the label does not show), newest change first", async () => {
		const { ctx, calls } = context({ 'https://api.example.test/v1/orders': first });
		expect((await searchOrders.call(ctx, 'globex')).results).toHaveLength(2);
		expect(calls.map((c) => Object.fromEntries(new URL(c.url).searchParams))).toEqual([{ fullTextSearch: 'globex', $orderby: 'LastModified desc' }]);
	});

	it("Record Payment's picker asks for sales invoices and credit notes only, and shows no other order a server sends", async () => {
		const { ctx, calls } = context({
			'https://api.example.test/v1/orders': {
				Items: [
					{
						OrderID: 21,
						OrderNumber: 'INV-21',
						OrderType: 'Invoice',
						OrderDirection: 'Income',
						TotalIncl: 1250,
						Currency: 'EUR',
						CounterParty: { DisplayName: 'A very long customer name that the picker would cut NV' },
					},
					{ OrderID: 22, OrderNumber: 'OFF-22', OrderType: 'Offer', OrderDirection: 'Income' },
					{ OrderID: 23, OrderNumber: 'SUP-23', OrderType: 'Invoice', OrderDirection: 'Cost' },
					{ OrderID: 24, OrderNumber: 'CN-24', OrderType: 'CreditNote', OrderDirection: 'Income' },
				],
			},
		});
		(ctx as unknown as { getCurrentNodeParameter: (name: string) => unknown }).getCurrentNodeParameter = (name) =>
			name === 'operation' ? 'recordPayment' : undefined;
		const { results } = await searchOrders.call(ctx);
		expect(results).toEqual([
			{ name: 'INV-21 · 1250.00 EUR · #21 · A very long customer name that the picker would cut NV', value: '21' },
			{ name: 'CN-24 · #24', value: '24' },
		]);
		expect(new URL(calls[0].url).searchParams.get('$filter') ?? (calls[0].qs as Record<string, string>).$filter).toBe(
			"OrderDirection eq 'Income' and (OrderType eq 'Invoice' or OrderType eq 'CreditNote')",
		);
	});

	it('follows a page token only on the configured host: another host ends the list, nothing is requested', async () => {
		const { ctx, calls } = context({ 'https://api.example.test/v1/orders': first });
		expect(await searchOrders.call(ctx, undefined, 'https://elsewhere.example/v1/orders?$skip=120')).toEqual({ results: [] });
		expect(calls).toEqual([]);
	});

	it('a search for #OrderID also asks for that OrderID (one page of each, never a CounterParty/DisplayName filter)', async () => {
		const { ctx, calls } = context({ 'https://api.example.test/v1/orders': first });
		const result = await searchOrders.call(ctx, '#11');
		const params = calls.map((c) => Object.fromEntries(new URL(c.url).searchParams));
		expect(params).toEqual([
			{ $filter: 'OrderID eq 11', $orderby: 'LastModified desc' },
			{ fullTextSearch: '#11', $orderby: 'LastModified desc' },
		]);
		expect(result).toEqual({
			results: [expect.objectContaining({ value: '11' }), expect.objectContaining({ value: '10' })],
			paginationToken: first.NextPageLink,
		});
	});

	it('a service that refuses the OrderID filter (400) still gets the text search', async () => {
		const calls: string[] = [];
		const ctx = {
			getNode: () => ({ name: 'Test', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} }),
			getCredentials: async () => ({ apiKey: 'k', partyId: '1', environment: 'custom', baseUrl: 'https://api.example.test' }),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: { url: string }) => {
					calls.push(options.url);
					if (decodeURIComponent(options.url).includes('OrderID eq')) {
						return { statusCode: 400, headers: {}, body: { errors: [{ Code: 'GenericError', Description: "Could not find a property named 'OrderID'" }] } };
					}
					return { statusCode: 200, headers: {}, body: { Items: [{ OrderID: 7, OrderNumber: 'INV-7', TotalIncl: 12.5 }] } };
				},
			},
		} as unknown as ILoadOptionsFunctions;
		expect((await searchOrders.call(ctx, '7')).results).toEqual([{ name: 'INV-7 · 12.50 · #7', value: '7' }]);
		expect(calls).toHaveLength(2);
	});
});
