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
		// The confirmation a new webhook gets has its own test; the others count event deliveries only.
		Object.assign(emu.config, {
			webhookRetryBaseMs: 1000,
			webhookMaxAttempts: 5,
			webhookTimeoutMs: 10000,
			webhookHoldMs: 2000,
			webhookConfirmation: false,
			webhookPayloadForm: 'published',
		});
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
		return r.json as { WebhookID: number; Secret: string; CompanyID: number };
	}
	const createOrder = async (partyId = String(entity), extra: Record<string, unknown> = {}) => {
		const r = await post(emu, '/v1/orders', orderBody(extra), { partyId });
		expect(r.status).toBe(200);
		return r.json as number;
	};

	it('create answers the published Webhook with its Secret once; the list is a bare array; list and read never show the secret', async () => {
		const r = await post(emu, `${REG}/${entity}/webhooks`, { EntityType: 'order', EntityUpdateType: 'i', WebhookURL: `${rx.url}/a` });
		expect(r.status).toBe(200);
		expect(r.json).toEqual({
			WebhookID: expect.any(Number),
			CompanyID: entity,
			EntityType: 'Order',
			EntityUpdateType: 'I',
			WebhookURL: `${rx.url}/a`,
			Secret: expect.stringMatching(/^[0-9a-f]{64}$/),
		});
		const list = await get(emu, `/v1/webhooks`, { partyId: String(entity) });
		expect(list.status).toBe(200);
		expect(list.json).toEqual([{ WebhookID: r.json.WebhookID, CompanyID: entity, EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: `${rx.url}/a` }]);
		expect(list.text).not.toContain(r.json.Secret);
		const viaReg = await get(emu, `${REG}/${entity}/webhooks`);
		expect(viaReg.json.map((w: { WebhookID: number }) => w.WebhookID)).toEqual([r.json.WebhookID]);
		expect(viaReg.text).not.toContain(r.json.Secret);
		// The master's own list does not show the entity's webhooks.
		expect((await get(emu, '/v1/webhooks')).json).toEqual([]);
	});

	it('a new webhook gets a Message confirmation carrying its secret, signed with it; not in the event log', async () => {
		emu.config.webhookConfirmation = true;
		const w = await hook('Order', 'I');
		const [hit] = await rx.waitFor(1);
		expect(verify(w.Secret, hit).ok).toBe(true);
		expect(JSON.parse(hit.body)).toEqual({
			UpdatedEntityID: w.WebhookID,
			UpdatedEntityType: 'Message',
			WebhookUpdateTypeTC: 'I',
			EntityDetail: { WebhookID: w.WebhookID, EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: `${rx.url}/hook`, Secret: w.Secret },
		});
		await emu.webhooks.settle();
		expect(emu.webhooks.deliveries()).toEqual([]);
		expect(emu.webhooks.deliveries({ confirmations: true })).toEqual([expect.objectContaining({ confirmation: true, state: 'delivered' })]);
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
		const w = await hook('Message', 'I');
		const id = await createOrder(String(entity), { Customer: { Name: 'Café Zoë BV', VATNumber: 'BE0456789133', Email: 'factuur@café-zoë.example' } });
		expect((await post(emu, '/v1/orders/commands/send', { Transporttype: 'SMTP', OrderIDs: [id] }, { partyId: String(entity) })).status).toBe(200);
		const [hit] = await rx.waitFor(1);
		expect(hit.method).toBe('POST');
		expect(hit.url).toBe('/hook');
		expect(hit.headers['content-type']).toMatch(/^application\/json/);
		const v = verify(w.Secret, hit);
		expect(v.ok).toBe(true);
		expect(Math.abs(v.t - nowSeconds())).toBeLessThanOrEqual(2);
		expect(verify('another-secret', hit).ok).toBe(false);
		// One changed byte of the body and the signature no longer matches.
		expect(hit.body).toContain('café-zoë');
		expect(verify(w.Secret, { ...hit, body: hit.body.replace('zoë', 'zoe') }).ok).toBe(false);
		const body = JSON.parse(hit.body);
		// An e-mail send is one Message I (no e-invoice flow state: assumed, see emulator/README.md).
		expect(body).toMatchObject({
			UpdatedEntityType: 'Message',
			WebhookUpdateTypeTC: 'I',
			EntityDetail: { OrderMessage: { OrderID: id, TransportType: 'SMTP', Success: true }, AdditionalMessageInformation: {} },
		});
		await emu.webhooks.settle();
		expect(emu.webhooks.deliveries({ webhookId: w.WebhookID })).toEqual([
			expect.objectContaining({ state: 'delivered', attempts: [expect.objectContaining({ n: 1, status: 200 })] }),
		]);
	});

	it('the published shapes: Order events name the order only; a sent Peppol invoice gives Message I then U (Sent), each response a new Message I; a delete sends Order D (the same wrapper)', async () => {
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
		await sleep(100);
		const by = (p: string) => rx.hits.filter((h) => h.url === p).map((h) => JSON.parse(h.body));
		expect(by('/ins')).toEqual([{ UpdatedEntityID: id, UpdatedEntityType: 'Order', WebhookUpdateTypeTC: 'I', EntityDetail: {} }]);
		expect(by('/upd')).toHaveLength(3); // send, delivered, refused
		expect(by('/upd').every((b) => b.UpdatedEntityID === id && b.WebhookUpdateTypeTC === 'U')).toBe(true);
		expect(by('/del')).toEqual([{ UpdatedEntityID: id, UpdatedEntityType: 'Order', WebhookUpdateTypeTC: 'D', EntityDetail: {} }]);
		const m = by('/msg');
		expect(
			m.map((b) => [
				b.WebhookUpdateTypeTC,
				b.EntityDetail.OrderMessage.MessageDirection,
				b.EntityDetail.AdditionalMessageInformation.EInvoiceFlowState ?? null,
			]),
		).toEqual([
			['I', 'Outgoing', null],
			['U', 'Outgoing', 'Sent'],
			['I', 'Incoming', 'Delivered'],
			['I', 'Incoming', 'Refused'],
		]);
		const [created, sent, delivered, refused] = m;
		expect(created.UpdatedEntityID).toBe(sent.UpdatedEntityID);
		expect(created.EntityDetail.OrderMessage).toEqual({
			OrderID: id,
			CreationDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/),
			TransportType: 'Peppol',
			Trials: 0,
			Destination: expect.any(String),
			MessageDirection: 'Outgoing',
		});
		expect(created.EntityDetail.AdditionalMessageInformation).toEqual({});
		expect(sent.EntityDetail.OrderMessage).toMatchObject({ Success: true, Trials: 0, FileID: expect.any(String) });
		expect(delivered.EntityDetail.OrderMessage).toMatchObject({
			OrderID: id,
			Description: expect.stringMatching(/^AB: /),
			FileID: expect.any(String),
			MessageDirection: 'Incoming',
		});
		expect(refused.EntityDetail.OrderMessage.Description).toBe('RE: Wrong PO number');
		expect(refused.EntityDetail.AdditionalMessageInformation).toEqual({ EInvoiceFlowState: 'Refused', AdditionalFlowStateInformation: 'Wrong PO number' });
		expect(new Set(m.map((b) => b.UpdatedEntityID)).size).toBe(3);
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

	it("a failed Peppol delivery is a new Incoming message with Success false; webhookPayloadForm older sends the page's older form", async () => {
		await hook('Message', null, `${rx.url}/msg`);
		emu.config.webhookPayloadForm = 'older';
		const id = await createOrder();
		expect((await post(emu, '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [id] }, { partyId: String(entity) })).status).toBe(200);
		emu.webhooks.setMessageStatus(id, 'Error', { info: 'Rejected by the receiving AP' });
		await emu.webhooks.settle();
		const bodies = (await rx.waitFor(3)).map((h) => JSON.parse(h.body));
		expect(bodies[1]).toMatchObject({
			WebhookUpdateTypeTC: 'U',
			EntityDetail: {
				OrderID: id,
				Success: true,
				CreationDate: expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/),
				MessageAdditionalInformation: { EInvoiceFlowState: 'Sent' },
			},
		});
		expect(bodies[2]).toMatchObject({
			WebhookUpdateTypeTC: 'I',
			EntityDetail: {
				OrderID: id,
				Success: false,
				MessageDirection: 'Incoming',
				Description: 'RE: Rejected by the receiving AP',
				MessageAdditionalInformation: {},
			},
		});
		expect(bodies[2].UpdatedEntityID).not.toBe(bodies[0].UpdatedEntityID);
		expect(bodies[2].EntityDetail).not.toHaveProperty('OrderMessage');
	});

	it('account-level /v1/webhooks acts for the partyID header; deliveries follow that party', async () => {
		const r = await post(emu, '/v1/webhooks', { EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: `${rx.url}/acct` });
		expect(r.json.CompanyID).toBe(Number(emu.credentials.partyId));
		await createOrder(String(entity));
		const id = await createOrder(emu.credentials.partyId);
		await rx.waitFor(1);
		await emu.webhooks.settle();
		expect(rx.hits.map((h) => JSON.parse(h.body).UpdatedEntityID)).toEqual([id]);
	});

	it('at most 4 webhooks per party: the fifth is a 400 in the service error shape; other parties unaffected', async () => {
		const ids = [];
		for (const t of ['I', 'U', 'D', null]) ids.push((await hook('Order', t)).WebhookID);
		const fifth = await post(emu, `${REG}/${entity}/webhooks`, { EntityType: 'Message', EntityUpdateType: 'U', WebhookURL: `${rx.url}/5` });
		expect(fifth.status).toBe(400);
		expect(fifth.json).toEqual({
			errors: [{ Code: 'GenericError', Description: expect.stringMatching(/already has 4 webhooks.*at most 4 webhooks per party.*Delete one/) }],
		});
		const viaHeader = await post(emu, '/v1/webhooks', { EntityType: 'Message', EntityUpdateType: 'U', WebhookURL: `${rx.url}/5` }, { partyId: String(entity) });
		expect(viaHeader.status).toBe(400);
		expect((await post(emu, '/v1/webhooks', { EntityType: 'Message', EntityUpdateType: 'U', WebhookURL: `${rx.url}/m` })).status).toBe(200);
		expect((await del(emu, `/v1/webhooks/${ids[0]}`)).status).toBe(200);
		expect((await post(emu, `${REG}/${entity}/webhooks`, { EntityType: 'Message', EntityUpdateType: 'U', WebhookURL: `${rx.url}/5` })).status).toBe(200);
		// eslint-disable-next-line no-console -- the counts the issue asks to see
		console.log(`webhook limit: 4 created, 5th refused (400), 5th accepted after one delete; master party had its own 1`);
	});

	it('delete answers true and stops deliveries; a second delete is 404; another account gets 401', async () => {
		const w = await hook('Order', 'I');
		const other = await del(emu, `/v1/webhooks/${w.WebhookID}`, { apiKey: emu.otherAccount.apiKey, partyId: emu.otherAccount.partyId });
		expect(other.status).toBe(401);
		const deleted = await del(emu, `${REG}/${entity}/webhooks/${w.WebhookID}`);
		expect([deleted.status, deleted.json]).toEqual([200, true]);
		expect((await del(emu, `/v1/webhooks/${w.WebhookID}`)).status).toBe(404);
		expect((await get(emu, `/v1/webhooks`, { partyId: String(entity) })).json).toEqual([]);
		await createOrder();
		await emu.webhooks.settle();
		await sleep(100);
		expect(rx.hits).toHaveLength(0);
	});

	it('POST /v1/webhooks/refresh/{id} answers a new secret as a string; later deliveries are signed with it, not the old one', async () => {
		const w = await hook('Order', 'I');
		const r = await post(emu, `/v1/webhooks/refresh/${w.WebhookID}`);
		expect(r.status).toBe(200);
		expect(r.json).toEqual(expect.stringMatching(/^[0-9a-f]{64}$/));
		expect(r.json).not.toBe(w.Secret);
		await createOrder();
		const [hit] = await rx.waitFor(1);
		expect(verify(r.json, hit).ok).toBe(true);
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
			const w = await hook('Order', 'I');
			emu.webhooks.failNext(1, 'out-of-order');
			const first = await createOrder();
			const second = await createOrder();
			await rx.waitFor(2);
			await emu.webhooks.settle();
			const bodies = rx.hits.map((h) => JSON.parse(h.body));
			expect(bodies.map((b) => b.UpdatedEntityID)).toEqual([second, first]);
			const [d1, d2] = emu.webhooks.deliveries({ webhookId: w.WebhookID });
			expect([d1.OrderID, d2.OrderID]).toEqual([first, second]);
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
			expect(rx.hits.map((h) => JSON.parse(h.body).UpdatedEntityID)).toEqual(ids);
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
			expect(list.json).toEqual([
				expect.objectContaining({ state: 'delivered', faults: ['duplicate'], attempts: [expect.anything(), expect.objectContaining({ duplicate: true })] }),
			]);
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
		const o = await post(
			emu,
			`${REG}/${entity}/webhooks`,
			{ EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: `${rx.url}/x` },
			{
				apiKey: emu.otherAccount.apiKey,
				partyId: emu.otherAccount.partyId,
			},
		);
		expect(o.status).toBe(401);
	});
});
