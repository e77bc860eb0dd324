import { createHmac } from 'crypto';
import { sleep } from 'n8n-workflow';
import { Emu, call, del, get, orderBody, post, register, start } from './helpers';
import { Hit, Receiver, startReceiver } from './receiver';

const REG = '/v1/einvoices/registrations';

/** Verify a delivery as a receiver must: HMAC-SHA256(secret, "<t>.<raw body>") from Billit-Signature. */
function verify(secret: string, hit: Hit): { ok: boolean; t: number } {
	const header = String(hit.headers['billit-signature'] ?? '');
	const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
	const t = Number(parts.t);
	const expected = createHmac('sha256', secret).update(`${parts.t}.${hit.body}`, 'utf8').digest('hex');
	return { ok: /^\d+$/.test(parts.t ?? '') && parts.s === expected, t };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('webhooks', () => {
	let emu: Emu;
	let rx: Receiver;
	let entity: number;
	beforeAll(async () => {
		emu = await start({ orders: 5 });
		entity = await register(emu, 'hooks');
	});
	afterAll(() => emu.close());
	beforeEach(async () => {
		rx = await startReceiver();
		Object.assign(emu.config, { webhookRetryBaseMs: 1000, webhookMaxAttempts: 5, webhookTimeoutMs: 10000, webhookHoldMs: 2000 });
	});
	afterEach(async () => {
		for (const w of emu.webhooks.list()) emu.webhooks.hub.remove(w.WebhookID);
		emu.webhooks.hub.faults.length = 0;
		await rx.close();
	});

	/** Create through the registration path; the entity's own partyID is not needed (master acts for it). */
	async function hook(entityType: string, update: string | null, url = rx.url + '/hook', registration = entity) {
		const r = await post(emu, `${REG}/${registration}/webhooks`, { EntityType: entityType, EntityUpdateType: update, WebhookURL: url });
		expect(r.status).toBe(200);
		return r.json as { WebhookID: number; Secret: string; PartyID: number };
	}
	const createOrder = async (partyId = String(entity), extra: Record<string, unknown> = {}) => {
		const r = await post(emu, '/v1/orders', orderBody(extra), { partyId });
		expect(r.status).toBe(200);
		return r.json as number;
	};

	it('create answers the id and the Secret once; list and read never show it', async () => {
		const r = await post(emu, `${REG}/${entity}/webhooks`, { EntityType: 'order', EntityUpdateType: 'i', WebhookURL: `${rx.url}/a` });
		expect(r.status).toBe(200);
		expect(r.json).toEqual({
			WebhookID: expect.any(Number),
			PartyID: entity,
			EntityType: 'Order',
			EntityUpdateType: 'I',
			WebhookURL: `${rx.url}/a`,
			Created: expect.stringMatching(/Z$/),
			Secret: expect.stringMatching(/^[0-9a-f]{64}$/),
		});
		const list = await get(emu, `/v1/webhooks`, { partyId: String(entity) });
		expect(list.status).toBe(200);
		expect(list.json.Items).toEqual([expect.objectContaining({ WebhookID: r.json.WebhookID, EntityType: 'Order', EntityUpdateType: 'I' })]);
		expect(list.text).not.toContain(r.json.Secret);
		const viaReg = await get(emu, `${REG}/${entity}/webhooks`);
		expect(viaReg.json.Items.map((w: { WebhookID: number }) => w.WebhookID)).toEqual([r.json.WebhookID]);
		const one = await get(emu, `/v1/webhooks/${r.json.WebhookID}`);
		expect(one.json).not.toHaveProperty('Secret');
		// The master's own list does not show the entity's webhooks.
		expect((await get(emu, '/v1/webhooks')).json.Items).toEqual([]);
	});

	it('validates the body; http only on loopback; https elsewhere is accepted but never called', async () => {
		const bad = async (body: unknown, re: RegExp) => {
			const r = await post(emu, '/v1/webhooks', body);
			expect(r.status).toBe(400);
			expect(r.json.errors[0]).toEqual({ Code: 'GenericError', Description: expect.stringMatching(re) });
		};
		await bad({ EntityType: 'Invoice', EntityUpdateType: 'I', WebhookURL: `${rx.url}/x` }, /EntityType .*Order, Message/);
		await bad({ EntityType: 'Order', EntityUpdateType: 'X', WebhookURL: `${rx.url}/x` }, /EntityUpdateType/);
		await bad({ EntityType: 'Order', EntityUpdateType: 'I' }, /WebhookURL is required/);
		await bad({ EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: 'not a url' }, /not an absolute URL/);
		await bad({ EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: 'http://hooks.example.com/x' }, /must use https/);
		await bad({ EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: 'ftp://127.0.0.1/x' }, /https/);
		const far = await post(emu, '/v1/webhooks', { EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: 'https://hooks.example.com/x' });
		expect(far.status).toBe(200);
		const id = await createOrder(emu.credentials.partyId);
		const ds = emu.webhooks.deliveries({ webhookId: far.json.WebhookID });
		expect(ds).toEqual([expect.objectContaining({ OrderID: id, state: 'skipped', attempts: [] })]);
	});

	it('delivers a signed JSON body that verifies with the secret on the raw bytes (non-ASCII included)', async () => {
		const w = await hook('Order', 'I');
		const id = await createOrder(String(entity), { Customer: { Name: 'Café Zoë BV', VATNumber: 'BE0456789133' } });
		const [hit] = await rx.waitFor(1);
		expect(hit.method).toBe('POST');
		expect(hit.url).toBe('/hook');
		expect(hit.headers['content-type']).toMatch(/^application\/json/);
		const v = verify(w.Secret, hit);
		expect(v.ok).toBe(true);
		expect(Math.abs(v.t - nowSeconds())).toBeLessThanOrEqual(2);
		expect(verify('another-secret', hit).ok).toBe(false);
		// One changed byte of the body and the signature no longer matches.
		expect(verify(w.Secret, { ...hit, body: hit.body.replace('Zoë', 'Zoe') }).ok).toBe(false);
		const body = JSON.parse(hit.body);
		expect(body).toMatchObject({ OrderID: id, EntityType: 'Order', EntityUpdateType: 'I', EntityID: id, PartyID: entity, WebhookID: w.WebhookID, CounterPartyName: 'Café Zoë BV' });
		expect(body.EventID).toEqual(expect.any(Number));
		expect(body.EventDate).toMatch(/Z$/);
		await emu.webhooks.settle();
		expect(emu.webhooks.deliveries({ webhookId: w.WebhookID })).toEqual([
			expect.objectContaining({ state: 'delivered', attempts: [expect.objectContaining({ n: 1, status: 200 })] }),
		]);
	});

	it('matches party, entity and update type: insert, update (send), delete, Message sent/delivered/refused', async () => {
		const ins = await hook('Order', 'I', `${rx.url}/ins`);
		const upd = await hook('Order', 'U', `${rx.url}/upd`);
		const gone = await hook('Order', 'D', `${rx.url}/del`);
		const msg = await hook('Message', null, `${rx.url}/msg`);
		await createOrder(emu.credentials.partyId); // another party: none of these webhooks
		const id = await createOrder();
		expect((await post(emu, '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [id] }, { partyId: String(entity) })).status).toBe(200);
		emu.webhooks.setMessageStatus(id, 'Delivered');
		const ctl = await post(emu, `/_emulator/orders/${id}/status`, { status: 'Refused', info: 'Wrong PO number', reason: 'BUYER_REF' }, { auth: false });
		expect(ctl.status).toBe(200);
		emu.store.deleteOrder(String(entity), id);
		await emu.webhooks.settle();
		await rx.waitFor(9);
		const by = (p: string) => rx.hits.filter((h) => h.url === p).map((h) => JSON.parse(h.body));
		expect(by('/ins')).toEqual([expect.objectContaining({ OrderID: id, EntityUpdateType: 'I' })]);
		// send, delivered, refused: three order updates
		expect(by('/upd').map((b) => [b.EntityUpdateType, b.OrderStatus])).toEqual([
			['U', 'Sent'],
			['U', 'Sent'],
			['U', 'Refused'],
		]);
		expect(by('/del')).toEqual([expect.objectContaining({ OrderID: id, EntityType: 'Order', EntityUpdateType: 'D' })]);
		const m = by('/msg');
		// The send's message as the service's page "Webhooks" shows it: I (no file yet), then U (sent), then the responses.
		expect(m.map((b) => [b.EntityType, b.EntityUpdateType, b.Status])).toEqual([
			['Message', 'I', undefined],
			['Message', 'U', 'Sent'],
			['Message', 'I', 'Delivered'],
			['Message', 'I', 'Refused'],
		]);
		expect(m[0]).toMatchObject({ OrderID: id, MessageID: expect.any(Number), TransportType: 'Peppol' });
		expect(m[3]).toMatchObject({ StatusInfo: 'Wrong PO number', RefusedReasonTC: 'BUYER_REF' });
		// the send's message (I and U), then one response message per delivery step (MLR AB, IMR RE), each with its own id
		expect(new Set(m.map((b) => b.MessageID)).size).toBe(3);
		for (const [w, path] of [
			[ins, '/ins'],
			[upd, '/upd'],
			[gone, '/del'],
			[msg, '/msg'],
		] as const)
			for (const h of rx.hits.filter((x) => x.url === path)) expect(verify(w.Secret, h).ok).toBe(true);
		const order = emu.store.listOrders(emu.credentials.partyId).length; // master untouched by entity's delete
		expect(order).toBeGreaterThan(0);
	});

	it('account-level /v1/webhooks acts for the partyID header; deliveries follow that party', async () => {
		const r = await post(emu, '/v1/webhooks', { EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: `${rx.url}/acct` });
		expect(r.json.PartyID).toBe(Number(emu.credentials.partyId));
		await createOrder(String(entity));
		const id = await createOrder(emu.credentials.partyId);
		await rx.waitFor(1);
		await emu.webhooks.settle();
		expect(rx.hits.map((h) => JSON.parse(h.body).OrderID)).toEqual([id]);
	});

	it('at most 4 webhooks per party: the fifth is a 400 in the service error shape; other parties unaffected', async () => {
		const ids = [];
		for (const t of ['I', 'U', 'D', null]) ids.push((await hook('Order', t)).WebhookID);
		const fifth = await post(emu, `${REG}/${entity}/webhooks`, { EntityType: 'Message', EntityUpdateType: 'U', WebhookURL: `${rx.url}/5` });
		expect(fifth.status).toBe(400);
		expect(fifth.json).toEqual({ errors: [{ Code: 'GenericError', Description: expect.stringMatching(/already has 4 webhooks.*at most 4 webhooks per party.*Delete one/) }] });
		const viaHeader = await post(emu, '/v1/webhooks', { EntityType: 'Message', EntityUpdateType: 'U', WebhookURL: `${rx.url}/5` }, { partyId: String(entity) });
		expect(viaHeader.status).toBe(400);
		expect((await post(emu, '/v1/webhooks', { EntityType: 'Message', EntityUpdateType: 'U', WebhookURL: `${rx.url}/m` })).status).toBe(200);
		expect((await del(emu, `/v1/webhooks/${ids[0]}`)).status).toBe(200);
		expect((await post(emu, `${REG}/${entity}/webhooks`, { EntityType: 'Message', EntityUpdateType: 'U', WebhookURL: `${rx.url}/5` })).status).toBe(200);
		// eslint-disable-next-line no-console -- the counts the issue asks to see
		console.log(`webhook limit: 4 created, 5th refused (400), 5th accepted after one delete; master party had its own 1`);
	});

	it('delete stops deliveries; a second delete is 404; another account gets 401', async () => {
		const w = await hook('Order', 'I');
		const other = await del(emu, `/v1/webhooks/${w.WebhookID}`, { apiKey: emu.otherAccount.apiKey, partyId: emu.otherAccount.partyId });
		expect(other.status).toBe(401);
		expect((await del(emu, `${REG}/${entity}/webhooks/${w.WebhookID}`)).status).toBe(200);
		expect((await del(emu, `/v1/webhooks/${w.WebhookID}`)).status).toBe(404);
		expect((await get(emu, `/v1/webhooks`, { partyId: String(entity) })).json.Items).toEqual([]);
		await createOrder();
		await emu.webhooks.settle();
		await sleep(100);
		expect(rx.hits).toHaveLength(0);
	});

	it('refreshsecret answers a new secret; later deliveries are signed with it, not the old one', async () => {
		const w = await hook('Order', 'I');
		const r = await post(emu, `/v1/webhooks/${w.WebhookID}/refreshsecret`);
		expect(r.status).toBe(200);
		expect(r.json).toEqual({ WebhookID: w.WebhookID, Secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
		expect(r.json.Secret).not.toBe(w.Secret);
		await createOrder();
		const [hit] = await rx.waitFor(1);
		expect(verify(r.json.Secret, hit).ok).toBe(true);
		expect(verify(w.Secret, hit).ok).toBe(false);
	});

	it('retries a failed delivery with exponential back-off, same body, fresh signature each time', async () => {
		emu.config.webhookRetryBaseMs = 150;
		rx.answer([500, 503, 200]);
		const w = await hook('Order', 'I');
		await createOrder();
		const hits = await rx.waitFor(3);
		await emu.webhooks.settle();
		expect(hits.map((h) => h.status)).toEqual([500, 503, 200]);
		expect(new Set(hits.map((h) => h.body)).size).toBe(1);
		for (const h of hits) expect(verify(w.Secret, h).ok).toBe(true);
		const gaps = [hits[1].at - hits[0].at, hits[2].at - hits[1].at];
		expect(gaps[0]).toBeGreaterThanOrEqual(140);
		expect(gaps[1]).toBeGreaterThanOrEqual(290);
		const [d] = emu.webhooks.deliveries({ webhookId: w.WebhookID });
		expect(d.state).toBe('delivered');
		expect(d.attempts.map((a) => [a.n, a.status])).toEqual([
			[1, 500],
			[2, 503],
			[3, 200],
		]);
		// eslint-disable-next-line no-console -- the counts the issue asks to see
		console.log(`webhook retries: 3 attempts, gaps ${gaps.join(' ms, ')} ms (base 150 ms, doubling)`);
	});

	it('gives up after webhookMaxAttempts (bounded), also on connection errors', async () => {
		Object.assign(emu.config, { webhookRetryBaseMs: 20, webhookMaxAttempts: 3 });
		rx.answer([500]);
		const w = await hook('Order', 'I');
		const dead = await startReceiver();
		const deadUrl = dead.url;
		await dead.close();
		const w2 = await hook('Order', 'I', `${deadUrl}/gone`);
		await createOrder();
		await emu.webhooks.settle();
		await sleep(200);
		expect(rx.hits).toHaveLength(3);
		const [d] = emu.webhooks.deliveries({ webhookId: w.WebhookID });
		expect(d).toMatchObject({ state: 'failed', nextAttemptAt: null });
		const [d2] = emu.webhooks.deliveries({ webhookId: w2.WebhookID });
		expect(d2.state).toBe('failed');
		expect(d2.attempts).toHaveLength(3);
		expect(d2.attempts[0]).toMatchObject({ status: null, error: expect.stringMatching(/ECONNREFUSED|closed/) });
	});

	describe('fault switches', () => {
		it('wrong-signature: every attempt of that delivery fails verification; the next one is fine', async () => {
			emu.config.webhookRetryBaseMs = 20;
			const w = await hook('Order', 'I');
			emu.webhooks.failNext(1, 'wrong-signature');
			rx.answer([401, 401, 401, 401, 401, 200]);
			await createOrder();
			await emu.webhooks.settle();
			expect(rx.hits).toHaveLength(5);
			for (const h of rx.hits) expect(verify(w.Secret, h).ok).toBe(false);
			await createOrder();
			await emu.webhooks.settle();
			expect(rx.hits).toHaveLength(6);
			expect(verify(w.Secret, rx.hits[5]).ok).toBe(true);
			expect(emu.webhooks.deliveries({ webhookId: w.WebhookID }).map((d) => [d.state, d.faults])).toEqual([
				['failed', ['wrong-signature']],
				['delivered', []],
			]);
		});

		it('stale-timestamp: a valid signature over a t webhookStaleSeconds in the past', async () => {
			const w = await hook('Order', 'I');
			emu.config.webhookStaleSeconds = 900;
			emu.webhooks.failNext(1, 'stale-timestamp');
			await createOrder();
			const [hit] = await rx.waitFor(1);
			const v = verify(w.Secret, hit);
			expect(v.ok).toBe(true);
			expect(nowSeconds() - v.t).toBeGreaterThanOrEqual(899);
			expect(nowSeconds() - v.t).toBeLessThanOrEqual(902);
		});

		it('duplicate: the same body delivered twice, both correctly signed', async () => {
			const w = await hook('Order', 'I');
			emu.webhooks.failNext(1, 'duplicate');
			await createOrder();
			await emu.webhooks.settle();
			const hits = await rx.waitFor(2);
			expect(hits).toHaveLength(2);
			expect(hits[0].body).toBe(hits[1].body);
			for (const h of hits) expect(verify(w.Secret, h).ok).toBe(true);
			const [d] = emu.webhooks.deliveries({ webhookId: w.WebhookID });
			expect(d.attempts.map((a) => Boolean(a.duplicate))).toEqual([false, true]);
		});

		it('out-of-order: a delivery held until the next event to the same webhook went out', async () => {
			await hook('Order', 'I');
			emu.webhooks.failNext(1, 'out-of-order');
			const first = await createOrder();
			const second = await createOrder();
			await rx.waitFor(2);
			await emu.webhooks.settle();
			const bodies = rx.hits.map((h) => JSON.parse(h.body));
			expect(bodies.map((b) => b.OrderID)).toEqual([second, first]);
			expect(bodies[1].EventID).toBeLessThan(bodies[0].EventID);
		});

		it('out-of-order with no later event: released after webhookHoldMs', async () => {
			emu.config.webhookHoldMs = 150;
			await hook('Order', 'I');
			emu.webhooks.failNext(1, 'out-of-order');
			const t0 = Date.now();
			await createOrder();
			const [hit] = await rx.waitFor(1);
			expect(hit.at - t0).toBeGreaterThanOrEqual(140);
		});

		it('without faults, deliveries to one webhook arrive in event order', async () => {
			await hook('Order', 'I');
			const ids = [];
			for (let i = 0; i < 6; i++) ids.push(await createOrder());
			await rx.waitFor(6);
			expect(rx.hits.map((h) => JSON.parse(h.body).OrderID)).toEqual(ids);
		});

		it('control endpoints: queue a fault, list deliveries, list webhooks, clear', async () => {
			const w = await hook('Order', 'I');
			const q = await call(emu, 'POST', '/_emulator/webhooks/faults', { auth: false, body: { kind: 'duplicate', webhookId: w.WebhookID } });
			expect(q.status).toBe(200);
			expect(q.json.queued).toEqual([{ remaining: 1, kind: 'duplicate', match: { webhookId: w.WebhookID } }]);
			expect((await call(emu, 'POST', '/_emulator/webhooks/faults', { auth: false, body: { kind: 'gremlins' } })).status).toBe(400);
			await createOrder();
			await emu.webhooks.settle();
			const list = await get(emu, `/_emulator/webhooks/deliveries?webhookId=${w.WebhookID}`, { auth: false });
			expect(list.json).toEqual([expect.objectContaining({ state: 'delivered', faults: ['duplicate'], attempts: [expect.anything(), expect.objectContaining({ duplicate: true })] })]);
			const hooks = await get(emu, '/_emulator/webhooks', { auth: false });
			expect(hooks.json).toEqual([expect.objectContaining({ WebhookID: w.WebhookID })]);
			expect(hooks.text).not.toContain(w.Secret);
			expect((await call(emu, 'DELETE', '/_emulator/webhooks/deliveries', { auth: false })).status).toBe(200);
			expect(emu.webhooks.deliveries()).toEqual([]);
		});
	});

	it('a deactivated registration cannot get webhooks; another account cannot use a registration', async () => {
		const gone = await register(emu, 'hooks-gone');
		await del(emu, `${REG}/${gone}`);
		const r = await post(emu, `${REG}/${gone}/webhooks`, { EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: `${rx.url}/x` });
		expect(r.status).toBe(400);
		const o = await post(emu, `${REG}/${entity}/webhooks`, { EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: `${rx.url}/x` }, {
			apiKey: emu.otherAccount.apiKey,
			partyId: emu.otherAccount.partyId,
		});
		expect(o.status).toBe(401);
	});
});
