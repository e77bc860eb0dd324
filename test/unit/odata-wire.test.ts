/**
 * Encoding on the wire: n8n's HTTP stack hands `qs` to axios as `params` and, without
 * `arrayFormat`, keeps axios' default serializer (@n8n/backend-network
 * dist/http/axios/request.js). These tests send built filters the same way to the
 * emulator and to nock, and check what the server reads.
 */
import axios from 'axios';
import nock from 'nock';

import { buildFilter, toQueryString } from '../../nodes/shared/odata';
import { createEmulator } from '../../emulator';

const TRICKY = "A+B & C #1 100% 'quoted' Ünïcødé 東京 ✓ = ? /";

describe('filters on the wire', () => {
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	let emu: any;

	beforeAll(async () => {
		emu = await createEmulator({ port: 0, orders: 5 });
	});
	afterAll(async () => {
		await emu.close();
		nock.cleanAll();
		nock.enableNetConnect();
	});

	it('the emulator reads back exactly the filter that was built, and matches the record', async () => {
		const [first] = [...emu.store.book(emu.credentials.partyId).values()];
		first.OrderNumber = TRICKY;
		const $filter = buildFilter([{ field: 'OrderNumber', operator: 'eq', value: TRICKY, type: 'string' }], 'and');
		emu.clearRequests();
		const response = await axios.get(`${emu.url}/v1/orders`, {
			params: { $filter, $orderby: 'OrderDate desc,OrderNumber' },
			headers: { apikey: emu.credentials.apiKey, partyID: emu.credentials.partyId },
		});
		expect(emu.requests[0].query.$filter).toBe($filter);
		expect(emu.requests[0].query.$orderby).toBe('OrderDate desc,OrderNumber');
		expect(response.data.Items.map((o: { OrderID: number }) => o.OrderID)).toEqual([first.OrderID]);
	});

	it('a literal + arrives as %2B, & # % are encoded, and toQueryString predicts the wire form', async () => {
		const $filter = buildFilter([{ field: 'OrderNumber', operator: 'eq', value: 'a+b&c#d%e é', type: 'string' }], 'and');
		let seenPath = '';
		nock('https://api.example.test')
			.get('/v1/orders')
			.query((query) => query.$filter === $filter)
			.reply(function () {
				seenPath = this.req.path;
				return [200, { Items: [] }];
			});
		await axios.get('https://api.example.test/v1/orders', { params: { $filter } });
		expect(seenPath).toBe(`/v1/orders?${toQueryString({ $filter })}`);
		expect(seenPath).toContain('a%2Bb%26c%23d%25e+%C3%A9');
		expect(nock.isDone()).toBe(true);
	});
});
