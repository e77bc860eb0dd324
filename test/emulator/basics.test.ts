import { createEmulator, DEFAULTS } from '../../emulator';
import { Emu, call, get, post, start } from './helpers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { allowContractViolations } = require('../harness/contract');

describe('emulator basics', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start();
	});
	afterAll(() => emu.close());

	it('exposes url, credentials, other account, config defaults', () => {
		expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(emu.credentials).toEqual({ apiKey: DEFAULTS.apiKey, partyId: DEFAULTS.partyId, baseUrl: emu.url, environment: 'custom' });
		expect(emu.otherAccount.apiKey).not.toBe(emu.credentials.apiKey);
		expect(emu.otherAccount.partyId).not.toBe(emu.credentials.partyId);
		expect(emu.config).toMatchObject({
			linkSpelling: 'NextpageLink',
			linkForm: 'relative',
			listWrapper: 'Items',
			includeCount: true,
			identificationUrlField: 'RedirectURL',
			wrapSingleRegistration: false,
			pageSize: 120,
			latencyMs: 0,
			faultRate: 0,
			faultKinds: [500, 503, 429, 'html'],
			retryAfterSeconds: 1,
			allowedRedirectHosts: ['127.0.0.1', 'localhost'],
			identificationProviderCode: 'itsme',
		});
	});

	describe('auth', () => {
		it('rejects a missing apikey', async () => {
			const r = await get(emu, '/v1/orders', { auth: false, headers: { partyID: emu.credentials.partyId } });
			expect(r.status).toBe(401);
			expect(r.json.errors[0].Code).toBe('Unauthorized');
			expect(r.json.errors[0].Description).toMatch(/apikey/);
		});
		it('rejects a wrong apikey without echoing it', async () => {
			const wrongKey = ['wrong', 'key', String(Date.now())].join('-');
			const r = await get(emu, '/v1/orders', { apiKey: wrongKey });
			expect(r.status).toBe(401);
			expect(r.json.errors[0].Description).toMatch(/apikey/);
			expect(r.text).not.toContain(wrongKey);
		});
		it('rejects a missing or foreign partyID and says so', async () => {
			const missing = await get(emu, '/v1/orders', { auth: false, headers: { apikey: emu.credentials.apiKey } });
			expect(missing.status).toBe(401);
			expect(missing.json.errors[0].Description).toMatch(/partyID/);
			const foreign = await get(emu, '/v1/orders', { partyId: emu.otherAccount.partyId });
			expect(foreign.status).toBe(401);
			expect(foreign.json.errors[0].Description).toMatch(/partyID/);
			expect(foreign.json.errors[0].Description).not.toMatch(/apikey is not valid/);
		});
		it('treats header names case-insensitively', async () => {
			const r = await get(emu, '/v1/orders?$top=1', {
				auth: false,
				headers: { APIKEY: emu.credentials.apiKey, PartyID: emu.credentials.partyId },
			});
			expect(r.status).toBe(200);
		});
		it('accepts the other account with its own party and an active entity party', async () => {
			const other = await get(emu, '/v1/orders?$top=1', { apiKey: emu.otherAccount.apiKey, partyId: emu.otherAccount.partyId });
			expect(other.status).toBe(200);
			const regs = await get(emu, '/v1/einvoices/registrations');
			const entity = String(regs.json.Companies[0].CompanyID);
			expect((await get(emu, '/v1/orders?$top=1', { partyId: entity })).status).toBe(200);
		});
	});

	it('logs requests with the apikey redacted', async () => {
		emu.clearRequests();
		await get(emu, '/v1/orders?$top=3&$filter=OrderID%20gt%201');
		expect(emu.requests).toHaveLength(1);
		const e = emu.requests[0];
		expect(e).toMatchObject({ method: 'GET', path: '/v1/orders', query: { $top: '3', $filter: 'OrderID gt 1' }, status: 200 });
		expect(e.headers.apikey).toBe('***');
		expect(e.headers.partyid).toBe(emu.credentials.partyId);
		expect(typeof e.at).toBe('string');
		emu.clearRequests();
		expect(emu.requests).toHaveLength(0);
	});

	it('answers 404 for unknown endpoints, 405 for wrong methods, 400 for bad JSON', async () => {
		allowContractViolations('sends unpublished paths, methods and a body that is not JSON, to see the refusals');
		const nf = await get(emu, '/v1/nothing-here');
		expect(nf.status).toBe(404);
		expect(nf.json.errors[0].Code).toBe('NotFound');
		expect((await call(emu, 'PUT', '/v1/orders')).status).toBe(405);
		const bad = await call(emu, 'POST', '/v1/orders', { rawBody: '{"OrderType":', headers: { 'content-type': 'application/json' } });
		expect(bad.status).toBe(400);
		expect(bad.json.errors[0]).toMatchObject({ Code: 'GenericError' });
		expect(bad.json.errors[0].Description).toMatch(/JSON/);
		expect((await get(emu, '/', { auth: false })).status).toBe(200);
	});

	it('has a controllable clock used for new data', async () => {
		emu.clock.set('2030-01-02T03:04:05Z');
		expect(emu.clock.now().toISOString().slice(0, 19)).toBe('2030-01-02T03:04:05');
		emu.clock.advance(60_000);
		expect(emu.clock.now().toISOString().slice(0, 16)).toBe('2030-01-02T03:05');
		const r = await post(emu, '/v1/orders', {
			OrderType: 'Invoice',
			OrderDirection: 'Income',
			OrderDate: '2030-01-02',
			Customer: { Name: 'Clock Test' },
			OrderLines: [{ Quantity: 1, UnitPriceExcl: 1, VATPercentage: 0 }],
		});
		const order = emu.store.getOrder(emu.credentials.partyId, r.json);
		// Written as the service writes it: Belgian time (CET in January), no zone.
		expect(order?.LastModified.slice(0, 16)).toBe('2030-01-02T04:05');
		expect(order?.Created).toBe(order?.LastModified);
	});

	it('gives direct store access: add, update, get, list', () => {
		const pid = emu.credentials.partyId;
		emu.clock.set('2031-05-05T10:00:00Z');
		const o = emu.store.addOrder(pid, { OrderNumber: 'T-1', Customer: { Name: 'Store Test' } });
		expect(o.OrderID).toEqual(expect.any(Number));
		expect(o.LastModified.slice(0, 13)).toBe('2031-05-05T12'); // Belgian summer time
		emu.clock.advance(3_600_000);
		const u = emu.store.updateOrder(pid, o.OrderID, { OrderStatus: 'Paid' });
		expect(u.OrderStatus).toBe('Paid');
		expect(u.LastModified.slice(0, 13)).toBe('2031-05-05T13');
		const fixed = emu.store.updateOrder(pid, o.OrderID, { LastModified: '2020-01-01T00:00:00Z' });
		expect(fixed.LastModified).toBe('2020-01-01T00:00:00Z');
		expect(emu.store.getOrder(pid, o.OrderID)?.OrderStatus).toBe('Paid');
		expect(emu.store.listOrders(pid).some((x) => x.OrderID === o.OrderID)).toBe(true);
		expect(emu.store.listOrders('999')).toEqual([]);
	});
});

describe('seeding', () => {
	it('is deterministic for a seed and start time, and differs across seeds', async () => {
		const startTime = '2025-06-01T00:00:00Z';
		const a = await createEmulator({ seed: 7, orders: 50, startTime });
		const b = await createEmulator({ seed: 7, orders: 50, startTime });
		const c = await createEmulator({ seed: 8, orders: 50, startTime });
		try {
			const pa = a.store.listOrders(a.credentials.partyId);
			expect(pa).toHaveLength(50);
			expect(pa.map((o) => [o.OrderNumber, o.TotalIncl, o.CounterParty.DisplayName])).toEqual(
				b.store.listOrders(b.credentials.partyId).map((o) => [o.OrderNumber, o.TotalIncl, o.CounterParty.DisplayName]),
			);
			expect(pa.map((o) => o.TotalIncl)).not.toEqual(c.store.listOrders(c.credentials.partyId).map((o) => o.TotalIncl));
		} finally {
			await Promise.all([a.close(), b.close(), c.close()]);
		}
	});

	it('seeds realistic orders spread over ~60 days with shared seconds', async () => {
		const emu = await createEmulator({ orders: 1000, startTime: '2025-06-01T00:00:00Z' });
		try {
			const orders = emu.store.listOrders(emu.credentials.partyId);
			expect(orders).toHaveLength(1000);
			const o = orders[0];
			for (const f of [
				'OrderID',
				'CompanyID',
				'OrderNumber',
				'OrderType',
				'OrderDirection',
				'OrderDate',
				'ExpiryDate',
				'Created',
				'LastModified',
				'Currency',
				'TotalExcl',
				'TotalVAT',
				'TotalIncl',
				'OrderStatus',
				'IsSent',
				'ExternalProviderID',
				'Customer',
				'CounterParty',
				'OrderLines',
			])
				expect(o).toHaveProperty(f);
			expect(new Set(orders.map((x) => x.OrderType))).toEqual(new Set(['Invoice', 'CreditNote', 'Offer', 'DeliveryNote', 'OrderForm']));
			expect(new Set(orders.map((x) => x.OrderDirection))).toEqual(new Set(['Income', 'Cost']));
			expect(orders.some((x) => x.ExternalProviderID === null)).toBe(true);
			// Belgian wall-clock stamps read as if UTC: the start, 00:00 UTC, is 02:00 there.
			const stamps = orders.map((x) => Date.parse(`${x.LastModified}Z`));
			const start = Date.parse('2025-06-01T02:00:00Z');
			expect(Math.min(...stamps)).toBeGreaterThan(start - 61 * 86400000);
			expect(Math.max(...stamps)).toBeLessThanOrEqual(start + 5000);
			expect(new Set(orders.map((x) => x.LastModified)).size).toBeLessThan(900);
			const names = new Set(orders.map((x) => x.CounterParty.DisplayName));
			for (const n of ["O'Brien & Sons Ltd", 'Café Zoë BV', 'A+B Consulting', 'Hash #1 Traders', '100% Natural BV']) expect(names.has(n)).toBe(true);
			expect(emu.store.listParties(emu.credentials.partyId).length).toBeGreaterThanOrEqual(150);
			expect(emu.store.listProducts(emu.credentials.partyId).length).toBeGreaterThanOrEqual(150);
		} finally {
			await emu.close();
		}
	});

	it('starts fast with 0 and with 12000 orders', async () => {
		const t0 = Date.now();
		const none = await createEmulator({ orders: 0 });
		const many = await createEmulator({ orders: 12000 });
		try {
			expect(Date.now() - t0).toBeLessThan(4000);
			const r0 = await get(none, '/v1/orders');
			expect(r0.json).toMatchObject({ Items: [], Count: 0 });
			expect(r0.json.NextpageLink).toBeUndefined();
			const r1 = await get(many, '/v1/orders?$top=1');
			expect(r1.json.Count).toBe(12000);
		} finally {
			await Promise.all([none.close(), many.close()]);
		}
	});
});
