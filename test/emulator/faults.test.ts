import { createEmulator } from '../../emulator';
import { Emu, get, orderBody, post, register, start } from './helpers';

describe('faults', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 200 });
	});
	afterAll(() => emu.close());
	afterEach(() => {
		Object.assign(emu.config, { latencyMs: 0, faultRate: 0, faultKinds: [500, 503, 429, 'html'], retryAfterSeconds: 1 });
	});

	it.each([500, 502, 503])('failNext %s answers a JSON error once, then recovers', async (status) => {
		emu.failNext(1, status as 500);
		const r = await get(emu, '/v1/orders?$top=1');
		expect(r.status).toBe(status);
		expect(r.json.errors[0].Code).toEqual(expect.any(String));
		expect((await get(emu, '/v1/orders?$top=1')).status).toBe(200);
	});

	it('429 carries Retry-After', async () => {
		emu.config.retryAfterSeconds = 7;
		emu.failNext(2, 429);
		for (let i = 0; i < 2; i++) {
			const r = await get(emu, '/v1/orders?$top=1');
			expect(r.status).toBe(429);
			expect(r.headers.get('retry-after')).toBe('7');
		}
		expect((await get(emu, '/v1/orders?$top=1')).status).toBe(200);
	});

	it('html answers 502 with an HTML page; empty answers 500 with no body', async () => {
		emu.failNext(1, 'html');
		const h = await get(emu, '/v1/orders');
		expect(h.status).toBe(502);
		expect(h.headers.get('content-type')).toMatch(/text\/html/);
		expect(h.text).toMatch(/<html>/);
		emu.failNext(1, 'empty');
		const e = await get(emu, '/v1/orders');
		expect(e.status).toBe(500);
		expect(e.text).toBe('');
	});

	it('truncated answers 200 with half a JSON document', async () => {
		emu.failNext(1, 'truncated');
		const r = await get(emu, '/v1/orders?$top=2');
		expect(r.status).toBe(200);
		expect(r.text.startsWith('{"Items":[')).toBe(true);
		expect(() => JSON.parse(r.text)).toThrow();
	});

	it('cut sends the real headers and half the body, then drops the connection', async () => {
		emu.failNext(1, 'cut');
		await expect(get(emu, '/v1/orders?$top=50')).rejects.toThrow();
		expect(emu.requests[emu.requests.length - 1]).toMatchObject({ status: 200, fault: 'cut' });
		expect((await get(emu, '/v1/orders?$top=1')).status).toBe(200);
	});

	it('reset destroys the socket', async () => {
		emu.failNext(1, 'reset');
		await expect(get(emu, '/v1/orders')).rejects.toThrow();
		expect(emu.requests[emu.requests.length - 1]).toMatchObject({ status: null, fault: 'reset' });
		expect((await get(emu, '/v1/orders?$top=1')).status).toBe(200);
	});

	it('timeout never answers, and close() still ends promptly', async () => {
		const own = await createEmulator({ orders: 0 });
		own.failNext(1, 'timeout');
		const pending = fetch(`${own.url}/v1/orders`, { headers: { apikey: own.credentials.apiKey, partyID: own.credentials.partyId } }).then(
			() => 'answered',
			() => 'failed',
		);
		let settled = false;
		void pending.then(() => (settled = true));
		for (let i = 0; i < 50 && !own.requests.some((r) => r.fault === 'timeout'); i++) await get(own, '/', { auth: false });
		for (let i = 0; i < 5; i++) expect((await get(own, '/v1/orders?$top=1')).status).toBe(200);
		expect(settled).toBe(false);
		expect(own.requests.find((r) => r.fault === 'timeout')).toMatchObject({ status: null, path: '/v1/orders' });
		const t0 = Date.now();
		await own.close();
		expect(Date.now() - t0).toBeLessThan(1000);
		expect(await pending).toBe('failed');
	});

	it('faults on POST do not create the resource; after-commit creates it then answers 503', async () => {
		const pid = emu.credentials.partyId;
		const before = emu.store.listOrders(pid).length;
		for (const kind of [503, 429, 'html', 'empty', 'truncated', 'cut'] as const) {
			emu.failNext(1, kind, { method: 'POST' });
			// 'cut' drops the connection mid-answer, so the client sees no status at all.
			const r = await post(emu, '/v1/orders', orderBody(), { headers: { 'Idempotency-Key': `k-${kind}` } }).catch(() => undefined);
			if (kind === 'cut') expect(r).toBeUndefined();
			else expect(r?.status).not.toBe(409);
		}
		expect(emu.store.listOrders(pid).length).toBe(before);
		emu.failNext(1, 'after-commit', { method: 'POST', pathPrefix: '/v1/orders' });
		const r = await post(emu, '/v1/orders', orderBody(), { headers: { 'Idempotency-Key': 'after-1' } });
		expect(r.status).toBe(503);
		expect(emu.store.listOrders(pid).length).toBe(before + 1);
		const retry = await post(emu, '/v1/orders', orderBody(), { headers: { 'Idempotency-Key': 'after-1' } });
		expect(retry.status).toBe(409);
		expect(retry.json.errors[0].Description).toMatch(/order \d+/);
	});

	it('failNext matches method and path prefix only', async () => {
		emu.failNext(1, 500, { pathPrefix: '/v1/peppol' });
		expect((await get(emu, '/v1/orders?$top=1')).status).toBe(200);
		expect((await get(emu, '/v1/peppol/participantInformation/BE0123456749')).status).toBe(500);
		expect((await get(emu, '/v1/peppol/participantInformation/BE0123456749')).status).toBe(200);
		expect(() => emu.failNext(1, 'gremlins' as unknown as 500)).toThrow(/Unknown fault kind/);
	});

	it('never applies faults to provider pages', async () => {
		const id = await register(emu, 'faults');
		const start = await post(emu, `/v1/einvoices/registrations/${id}/identification`, {
			IdentificationProviderTC: 'itsme',
			RedirectURL: 'http://localhost/cb',
		});
		emu.config.faultRate = 1;
		emu.config.faultKinds = [500];
		expect((await fetch(start.json.RedirectURL)).status).toBe(200);
		const out = await emu.provider.complete(start.json.RedirectURL, 'success');
		expect(out.status).toBe(302);
		expect((await get(emu, '/v1/orders')).status).toBe(500);
	});

	it('faultRate picks kinds with the seeded PRNG, deterministically', async () => {
		const run = async () => {
			const e = await createEmulator({ orders: 0, seed: 99, config: { faultRate: 0.5, faultKinds: [500, 503, 429] } });
			try {
				const statuses: number[] = [];
				for (let i = 0; i < 30; i++) statuses.push((await get(e, '/v1/orders')).status);
				return statuses;
			} finally {
				await e.close();
			}
		};
		const a = await run();
		expect(a).toEqual(await run());
		expect(a.filter((s) => s === 200).length).toBeGreaterThan(5);
		expect(a.filter((s) => s !== 200).length).toBeGreaterThan(5);
		expect(new Set(a.filter((s) => s !== 200))).toEqual(new Set([500, 503, 429]));
	});

	it('latencyMs delays answers', async () => {
		emu.config.latencyMs = 150;
		const t0 = Date.now();
		expect((await get(emu, '/v1/orders?$top=1')).status).toBe(200);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
	});
});
