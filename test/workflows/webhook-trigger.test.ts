/**
 * AccessPoint Trigger (webhooks) through n8n-core: activation and deactivation run the node's
 * webhookMethods in a HookContext, calls reach its webhook() in a WebhookContext over real
 * HTTP (test/harness/webhooks.js, modelled on n8n's live-webhooks service), and the emulator
 * registers the webhooks, enforces its 4-per-party limit and delivers signed events.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Harness } from '../harness';
import { signature, webhookTrigger } from '../harness/webhookTrigger';
import type { WebhookTrigger } from '../harness/webhookTrigger';
import { printFigures } from '../reliability/report';
import type { Emu, Hub } from './webhookSuite';
import { NAME, TRIGGER, webhookSuite } from './webhookSuite';

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('AccessPoint Trigger (engine, emulator)', () => {
	const suite = webhookSuite({ orders: 20 });
	const { trigger, api } = suite;
	let h: Harness;
	let emu: Emu;
	let party: string;

	beforeAll(() => {
		({ h, emu, party } = suite);
	});

	const createOrder = (partyId = party) => suite.createOrder({ partyId });

	async function sendOverPeppol(id: number, partyId = party) {
		expect((await api('POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [id] }, partyId)).status).toBe(200);
	}

	const webhookPosts = () => emu.requests.filter((r) => r.method === 'POST' && /\/webhooks$/.test(r.path));
	const stored = (t: WebhookTrigger) => (t.nodeStaticData.webhooks ?? undefined) as { webhooks: Array<{ id: string; secret: string; entityType: string; updateType: string }>; partyId: string } | undefined;
	const secretOf = (t: WebhookTrigger, entityType = 'Order', updateType = 'I') => stored(t)!.webhooks.find((w) => w.entityType === entityType && w.updateType === updateType)!.secret;
	const orderEvent = (extra: IDataObject = {}): IDataObject => ({
		OrderID: 1000001,
		EntityType: 'Order',
		EntityUpdateType: 'I',
		EntityID: 1000001,
		OrderNumber: 'INV-HAND-1',
		PartyID: Number(party),
		EventID: 900001,
		EventDate: new Date().toISOString().slice(0, 19) + 'Z',
		...extra,
	});

	describe('webhooks at the API: checkExists, create, delete', () => {
		it('publishing creates one webhook per entity/update type, keeps id and secret in static data; a restart creates none', async () => {
			const t = await trigger({ events: ['orderCreated', 'orderUpdated', 'deliveryStatusChanged'] });
			await t.activate();
			const hooks = emu.webhooks.list();
			expect(hooks.map((w) => `${w.EntityType} ${w.EntityUpdateType}`).sort()).toEqual(['Message I', 'Message U', 'Order I', 'Order U']);
			expect(new Set(hooks.map((w) => w.WebhookURL))).toEqual(new Set([t.url]));
			expect(hooks.every((w) => String(w.PartyID) === party)).toBe(true);
			expect(webhookPosts().map((r) => r.path)).toEqual(['/v1/webhooks', '/v1/webhooks', '/v1/webhooks', '/v1/webhooks']);
			const kept = stored(t)!;
			expect(kept.webhooks.map((w) => w.id).sort()).toEqual(hooks.map((w) => String(w.WebhookID)).sort());
			expect(kept.webhooks.every((w) => /^[0-9a-f]{64}$/.test(w.secret))).toBe(true);
			expect(kept.partyId).toBe(party);

			emu.clearRequests();
			await t.activate('init'); // n8n restarted: checkExists finds them all
			expect(webhookPosts()).toHaveLength(0);
			expect(emu.webhooks.list().map((w) => w.WebhookID)).toEqual(hooks.map((w) => w.WebhookID));
			printFigures('AccessPoint Trigger: activation', { 'webhooks created on publishing': hooks.length, 'created on re-activation': webhookPosts().length, 'requests on re-activation (the list)': emu.requests.length });
		});

		it('a webhook deleted at the service, other events or another URL give a complete new set, the old ones removed', async () => {
			const t = await trigger({ events: ['orderCreated', 'orderDeleted'] });
			await t.activate();
			const first = emu.webhooks.list().map((w) => w.WebhookID as number);
			(emu.webhooks as unknown as { hub: Hub }).hub.remove(first[0]);
			await t.activate('init');
			const second = emu.webhooks.list().map((w) => w.WebhookID as number);
			expect(second).toHaveLength(2);
			expect(second.some((id) => first.includes(id))).toBe(false);

			// The workflow edited (events) and served elsewhere (URL): same static data, new parameters.
			const edited = await trigger({ events: ['deliveryStatusChanged'] }, { staticData: t.staticData });
			await edited.activate();
			const third = emu.webhooks.list();
			expect(third.map((w) => `${w.EntityType} ${w.EntityUpdateType}`).sort()).toEqual(['Message I', 'Message U']);
			expect(third.every((w) => w.WebhookURL === edited.url)).toBe(true);
			expect(third.some((w) => second.includes(w.WebhookID as number))).toBe(false);
		});

		it('unpublishing deletes every webhook it made; one already gone is not an error', async () => {
			const t = await trigger({ events: ['orderCreated', 'orderUpdated', 'orderDeleted'] });
			await t.activate();
			const ids = emu.webhooks.list().map((w) => w.WebhookID as number);
			(emu.webhooks as unknown as { hub: Hub }).hub.remove(ids[1]);
			emu.clearRequests();
			expect(await t.deactivate()).toEqual([true]);
			expect(emu.webhooks.list()).toEqual([]);
			const deletes = emu.requests.filter((r) => r.method === 'DELETE');
			expect(deletes.map((r) => r.status)).toEqual([200, 404, 200]);
			expect(stored(t)).toBeUndefined();
			expect(await t.deactivate()).toEqual([true]); // nothing left to delete
		});

		it('the 4-per-party limit: activation fails saying how many exist and what to do, and leaves nothing behind', async () => {
			for (const url of ['https://erp.example.test/a', 'https://erp.example.test/b', 'https://erp.example.test/c']) {
				expect((await api('POST', '/v1/webhooks', { EntityType: 'Order', EntityUpdateType: 'U', WebhookURL: url })).status).toBe(200);
			}
			const t = await trigger({ events: ['deliveryStatusChanged'] });
			const error = (await t.activate().then(
				() => undefined,
				(e: unknown) => e,
			)) as Error & { description?: string };
			expect(error).toBeInstanceOf(Error);
			expect(error.message).toBe(
				`Party ${party} already has 3 webhooks at the AccessPoint service, which allows at most 4 per party; this trigger needs 2 (Message I, Message U)`,
			);
			expect(error.description).toMatch(/^Existing webhooks: #\d+ Order U -> erp\.example\.test\/a; #\d+ Order U -> erp\.example\.test\/b; #\d+ Order U -> erp\.example\.test\/c\. /);
			expect(error.description).toMatch(/unpublish other workflows/);
			expect(error.description).toMatch(/select fewer events/);
			// The first webhook was made before the fifth was refused; it was removed again.
			expect(emu.webhooks.list()).toHaveLength(3);
			expect(stored(t)).toBeUndefined();
			printFigures('AccessPoint Trigger: the 4-per-party limit', { 'activation error': error.message, 'webhooks left at the emulator': emu.webhooks.list().length });

			// Every event at once needs 5: more than the service allows even for an empty party.
			const hub = (emu.webhooks as unknown as { hub: Hub }).hub;
			for (const w of emu.webhooks.list()) hub.remove(w.WebhookID as number);
			const all = await trigger({ events: ['orderCreated', 'orderUpdated', 'orderDeleted', 'deliveryStatusChanged'] });
			await expect(all.activate()).rejects.toThrow(`Party ${party} already has 0 webhooks at the AccessPoint service, which allows at most 4 per party; this trigger needs 5`);
			expect(emu.webhooks.list()).toHaveLength(0);
		});

		it('refuses an http URL that is not loopback before any request (the service calls https only)', async () => {
			const t = await webhookTrigger(h, { type: TRIGGER, parameters: { events: ['orderCreated'] } }, { webhookBaseUrl: 'http://n8n.example.test/webhook' });
			suite.keep(t);
			emu.clearRequests();
			const error = (await t.activate().then(
				() => undefined,
				(e: unknown) => e,
			)) as Error & { description?: string };
			expect(error.message).toMatch(/^The AccessPoint service calls only https URLs, and this trigger's URL is http:\/\/n8n\.example\.test\/webhook\//);
			expect(error.description).toMatch(/Set WEBHOOK_URL to the public https address/);
			expect(emu.requests).toHaveLength(0);
		});

		it('refuses unusable settings before any request: no events, a RegistrationID that is not a number, a zero event age', async () => {
			const cases: Array<[IDataObject, RegExp]> = [
				[{ events: [] }, /^"Events" is empty$/],
				[{ events: ['orderCreated'], source: 'registration', registrationId: { __rl: true, mode: 'id', value: 'abc' } }, /^"Registration" abc is not a valid RegistrationID/],
				[{ events: ['orderCreated'], options: { maxEventAgeMinutes: 0 } }, /^"Maximum Event Age \(Minutes\)" must be a number above 0/],
			];
			for (const [parameters, message] of cases) {
				const t = await trigger(parameters);
				emu.clearRequests();
				await expect(t.activate()).rejects.toThrow(message);
				expect(emu.requests).toHaveLength(0);
			}
		});

		it('a registered entity: webhooks at /v1/einvoices/registrations/{id}/webhooks for its party, and only its events', async () => {
			const t = await trigger({
				events: ['orderCreated'],
				source: 'registration',
				registrationId: { __rl: true, mode: 'id', value: '300001' },
				options: { maxRetries: 0, fetchFullOrder: true },
			});
			await t.activate();
			expect(webhookPosts().map((r) => r.path)).toEqual(['/v1/einvoices/registrations/300001/webhooks']);
			expect(emu.webhooks.list().map((w) => String(w.PartyID))).toEqual(['300001']);
			await createOrder(party); // the master's own order: not this entity's
			const id = await createOrder('300001');
			await emu.webhooks.settle();
			const [run] = await t.waitForExecutions(1);
			expect(run.output(NAME)).toEqual([expect.objectContaining({ event: 'created', OrderID: id, OrderLines: expect.any(Array), delivered: false })]);
			expect(t.executions).toHaveLength(1);
			// The full order was read as the entity (its PartyID in the partyID header).
			const read = emu.requests.find((r) => r.method === 'GET' && r.path === `/v1/orders/${id}`);
			expect(read).toMatchObject({ status: 200, headers: expect.objectContaining({ partyid: '300001' }) });
			emu.clearRequests();
			await t.deactivate();
			expect(emu.webhooks.list()).toEqual([]);
		});
	});

	describe('deliveries from the emulator', () => {
		it('N events give exactly N executions with the right items: created, then the send (Message I, then U: Sent), Delivered, Refused', async () => {
			const t = await trigger({ events: ['orderCreated', 'deliveryStatusChanged'] });
			await t.activate();
			const id = await createOrder();
			await sendOverPeppol(id);
			emu.delivery.set(id, 'Delivered', { info: 'Delivered to the AP of Peppol Demo Belgium NV' });
			emu.delivery.set(id, 'Refused', { reason: 'BUYER_REF', info: 'Unknown purchase order' });
			await emu.webhooks.settle();
			const runs = await t.waitForExecutions(5);
			await sleep(200);
			expect(t.executions).toHaveLength(5);
			const items = t.executions.map((run) => run.assertSuccess().output(NAME));
			expect(items.every((list) => list.length === 1)).toBe(true);
			const flat = items.map((list) => list[0]);
			const byEvent = flat.map((i) => [i.event, i.entityType, i.updateType, i.OrderID, i.deliveryStatus ?? null]);
			expect(byEvent).toEqual(
				expect.arrayContaining([
					['created', 'Order', 'I', id, null],
					['deliveryStatusChanged', 'Message', 'I', id, null],
					['deliveryStatusChanged', 'Message', 'U', id, 'Sent'],
					['deliveryStatusChanged', 'Message', 'I', id, 'Delivered'],
					['deliveryStatusChanged', 'Message', 'I', id, 'Refused'],
				]),
			);
			const refused = flat.find((i) => i.deliveryStatus === 'Refused')!;
			expect(refused).toMatchObject({ refusedReason: 'BUYER_REF', deliveryInfo: 'Unknown purchase order', MessageID: expect.any(Number) });
			expect(refused.payload).toMatchObject({ EntityType: 'Message', Status: 'Refused', OrderID: id });
			expect(Date.parse(String(refused.receivedAt))).toBeGreaterThan(Date.now() - 60_000);
			const deliveries = emu.webhooks.deliveries();
			expect(deliveries).toHaveLength(5);
			expect(deliveries.every((d) => d.state === 'delivered' && d.attempts.length === 1 && d.attempts[0].status === 200)).toBe(true);
			expect(runs).toHaveLength(5);
			printFigures('AccessPoint Trigger: emulator events', { 'events delivered': deliveries.length, 'calls received': t.calls.length, executions: t.executions.length });
		});

		it("the emulator's duplicate delivery starts one execution; wrong signatures and stale timestamps start none", async () => {
			const t = await trigger({ events: ['orderCreated'] });
			await t.activate();
			emu.webhooks.failNext(1, 'duplicate');
			await createOrder();
			await emu.webhooks.settle();
			await t.waitForExecutions(1);
			const [dup] = emu.webhooks.deliveries();
			expect(dup.attempts.map((a) => a.status)).toEqual([200, 200]);
			expect(t.calls.map((c) => c.started)).toEqual([true, false]);

			emu.webhooks.failNext(1, 'wrong-signature');
			await createOrder();
			emu.webhooks.failNext(1, 'stale-timestamp');
			await createOrder();
			await emu.webhooks.settle();
			const [, forged, stale] = emu.webhooks.deliveries();
			expect(forged.state).toBe('failed');
			expect(forged.attempts.map((a) => a.status)).toEqual([401, 401, 401]);
			expect(stale.state).toBe('failed');
			expect(stale.attempts.map((a) => a.status)).toEqual([401, 401, 401]);
			expect(t.executions).toHaveLength(1);
			expect(t.errors).toEqual([]);
			printFigures('AccessPoint Trigger: emulator faults', { 'duplicate: calls / executions': `${dup.attempts.length} / 1`, 'wrong signature: calls / executions': `${forged.attempts.length} / 0`, 'stale timestamp: calls / executions': `${stale.attempts.length} / 0` });
		});

		it('Fetch Full Order: the item is the whole order with delivery details flattened; a deleted order is not read', async () => {
			const t = await trigger({ events: ['deliveryStatusChanged', 'orderDeleted'], options: { maxRetries: 0, fetchFullOrder: true } });
			await t.activate();
			const id = await createOrder();
			await sendOverPeppol(id);
			emu.delivery.set(id, 'Delivered', { info: 'Delivered to the AP' });
			await emu.webhooks.settle();
			await t.waitForExecutions(3);
			const delivered = t.executions.map((r) => r.output(NAME)[0]).find((i) => i.deliveryStatus === 'Delivered')!;
			expect(delivered).toMatchObject({
				event: 'deliveryStatusChanged',
				OrderID: id,
				OrderNumber: expect.any(String),
				OrderLines: expect.any(Array),
				delivered: true,
				deliveryInfo: 'Received',
				CurrentDocumentDeliveryDetails: expect.objectContaining({ DocumentDeliveryStatus: 'Delivered', IsDocumentDelivered: true }),
			});
			const reads = emu.requests.filter((r) => r.method === 'GET' && r.path === `/v1/orders/${id}`);
			expect(reads).toHaveLength(3); // one per event (the send's Message I and U, then Delivered)

			const gone = await createOrder();
			emu.clearRequests();
			expect((await api('DELETE', `/v1/orders/${gone}`)).status).toBe(200);
			await emu.webhooks.settle();
			const runs = await t.waitForExecutions(4);
			expect(runs[3].output(NAME)).toEqual([expect.objectContaining({ event: 'deleted', OrderID: gone })]);
			expect(emu.requests.filter((r) => r.method === 'GET')).toHaveLength(0);
		});
	});

	describe('queue mode (n8n 2.41: a worker runs the execution from a snapshot without static data)', () => {
		it('the webhooks and their secrets survive the executions: every later delivery is still verified and accepted', async () => {
			const t = await webhookTrigger(h, { type: TRIGGER, parameters: { events: ['orderCreated'], options: { maxRetries: 0 } } }, { queueMode: true });
			suite.keep(t);
			await t.activate();
			const secret = secretOf(t);
			const statuses: number[] = [];
			for (let i = 0; i < 3; i++) {
				const body = orderEvent({ EventID: 920000 + i, OrderID: 1000200 + i, EntityID: 1000200 + i });
				const r = await t.post(body, { headers: { 'billit-signature': signature(secret, body) } });
				statuses.push(r.status);
				expect(r.executions).toHaveLength(1);
			}
			expect(statuses).toEqual([200, 200, 200]);
			expect(stored(t)!.webhooks.map((w) => w.secret)).toEqual([secret]);
			// A replay after them: the deduplication store (shared by the workers) stops it.
			const again = orderEvent({ EventID: 920001, OrderID: 1000201, EntityID: 1000201 });
			const replay = await t.post(again, { headers: { 'billit-signature': signature(secret, again) } });
			expect(replay.executions.reduce((n, e) => n + e.output(NAME).length, 0)).toBe(0);
		});
	});

	describe('webhook(): what a call must prove', () => {
		let t: WebhookTrigger;
		let secret: string;

		beforeEach(async () => {
			t = await trigger({ events: ['orderCreated'] });
			await t.activate();
			secret = secretOf(t);
		});

		it('a valid call starts one execution with the event as its item', async () => {
			const body = orderEvent();
			const r = await t.post(body, { headers: { 'billit-signature': signature(secret, body) } });
			expect(r.status).toBe(200);
			expect(r.executions).toHaveLength(1);
			expect(r.executions[0].assertSuccess().output(NAME)).toEqual([
				{ event: 'created', entityType: 'Order', updateType: 'I', OrderID: 1000001, OrderNumber: 'INV-HAND-1', receivedAt: expect.any(String), payload: body },
			]);
		});

		it('forged calls get 401 and start nothing: another secret, no header, a malformed header, a body changed after signing', async () => {
			const body = orderEvent();
			const other = 'f'.repeat(64);
			const text = JSON.stringify(body);
			const tampered = text.replace('INV-HAND-1', 'INV-HAND-2');
			const saves = t.saves;
			const answers = [
				await t.post(text, { headers: { 'billit-signature': signature(other, text) } }),
				await t.post(text),
				await t.post(text, { headers: { 'billit-signature': `t=${nowSeconds()}` } }),
				await t.post(text, { headers: { 'billit-signature': 'sha256=deadbeef' } }),
				await t.post(tampered, { headers: { 'billit-signature': signature(secret, text) } }),
			];
			expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
			expect(answers.map((a) => (a.body as IDataObject).message)).toEqual([
				'Invalid signature',
				'Missing or malformed Billit-Signature header',
				'Missing or malformed Billit-Signature header',
				'Missing or malformed Billit-Signature header',
				'Invalid signature',
			]);
			expect(t.executions).toHaveLength(0);
			expect(t.errors).toHaveLength(0);
			expect(t.saves).toBe(saves);
		});

		it('stale or future timestamps get 401 (replays); the Maximum Event Age option moves the limit', async () => {
			const body = orderEvent();
			const at = (offset: number) => ({ headers: { 'billit-signature': signature(secret, body, nowSeconds() + offset) } });
			const old = await t.post(body, at(-6 * 60));
			const ahead = await t.post(body, at(2 * 60));
			expect([old.status, ahead.status]).toEqual([401, 401]);
			expect([(old.body as IDataObject).message, (ahead.body as IDataObject).message]).toEqual(['Timestamp too old', 'Timestamp in the future']);
			expect(t.executions).toHaveLength(0);
			const almost = await t.post(body, at(-4 * 60));
			expect(almost.executions).toHaveLength(1);

			const patient = await trigger({ events: ['orderCreated'], options: { maxRetries: 0, maxEventAgeMinutes: 10 } });
			await patient.activate();
			const late = orderEvent({ EventID: 900002 });
			const r = await patient.post(late, { headers: { 'billit-signature': signature(secretOf(patient), late, nowSeconds() - 6 * 60) } });
			expect(r.status).toBe(200);
			expect(r.executions).toHaveLength(1);
		});

		it('a replayed call and a repeated delivery of one event start no second execution; another event does', async () => {
			const body = orderEvent();
			const header = { 'billit-signature': signature(secret, body) };
			const first = await t.post(body, { headers: header });
			const replay = await t.post(body, { headers: header });
			const resigned = await t.post(body, { headers: { 'billit-signature': signature(secret, body, nowSeconds() - 30) } });
			expect([first.executions.length, replay.executions.length, resigned.executions.length]).toEqual([1, 0, 0]);
			expect([replay.status, resigned.status]).toEqual([200, 200]);
			expect((replay.body as IDataObject).message).toBe('Already received; ignored');
			const next = orderEvent({ EventID: 900003 });
			expect((await t.post(next, { headers: { 'billit-signature': signature(secret, next) } })).executions).toHaveLength(1);
			expect(Object.keys(t.nodeStaticData.recentEvents as IDataObject)).toHaveLength(2);
		});

		it('a repeat arriving while the first execution still runs starts an execution whose trigger passes nothing on (n8n saves static data only when the first ends)', async () => {
			const slow = await webhookTrigger(h, {
				nodes: [
					{ name: NAME, type: TRIGGER, parameters: { events: ['orderCreated'], options: { maxRetries: 0 } } },
					{ name: 'Wait a second', type: 'n8n-nodes-base.wait', typeVersion: 1.1, parameters: { resume: 'timeInterval', amount: 1, unit: 'seconds' } },
				],
				connections: { [NAME]: { main: [[{ node: 'Wait a second', type: 'main', index: 0 }]] } },
			});
			suite.keep(slow);
			await slow.activate();
			const key = secretOf(slow);
			const body = orderEvent({ EventID: 900006 });
			const first = slow.post(body, { headers: { 'billit-signature': signature(key, body) } });
			await sleep(300);
			const during = await slow.post(body, { headers: { 'billit-signature': signature(key, body) } });
			const [firstRun] = (await first).executions;
			expect(firstRun.output('Wait a second')).toHaveLength(1);
			expect(during.executions).toHaveLength(1);
			expect(during.executions[0].output(NAME)).toEqual([]);
			expect(during.executions[0].executed('Wait a second')).toBe(false);
			const after = await slow.post(body, { headers: { 'billit-signature': signature(key, body) } });
			expect(after.executions).toHaveLength(0);
			printFigures('AccessPoint Trigger: a repeat during the first execution', { 'executions it started': during.executions.length, 'items past the trigger': during.executions[0].output(NAME).length, 'executions for a repeat after it ended': after.executions.length });
		});

		it('two first events at once, then both replayed: each passes on once (the store\'s row is inserted by one of them; the other\'s write is tried again)', async () => {
			const bodies = [0, 1].map((i) => orderEvent({ EventID: 910000 + i, OrderID: 1000100 + i, EntityID: 1000100 + i }));
			const burst = await Promise.all(bodies.map((b) => t.post(b, { headers: { 'billit-signature': signature(secret, b) } })));
			expect(burst.map((r) => r.executions.map((e) => e.output(NAME).length))).toEqual([[1], [1]]);
			// Static data kept neither record (executions ending together each save their own copy):
			// the deduplication store alone must know both events.
			const kept = t.staticData;
			for (const node of Object.values(kept)) delete (node as IDataObject).recentEvents;
			t.staticData = kept;
			const replays = await Promise.all(bodies.map((b) => t.post(b, { headers: { 'billit-signature': signature(secret, b) } })));
			const started = replays.filter((r) => r.executions.length).length;
			const passedOn = replays.flatMap((r) => r.executions).reduce((n, e) => n + e.output(NAME).length, 0);
			expect(started).toBe(2);
			expect(passedOn).toBe(0);
			expect(t.errors).toEqual([]);
			printFigures('AccessPoint Trigger: two first events at once, then both replayed', { 'replays that started an execution': started, 'replayed events passed on': passedOn });
		});

		it('a body that is not a JSON event gets 400 and starts nothing', async () => {
			const bodies = ['not json', '{"OrderID": 1', '[1, 2]', '[]', '"text"'];
			const answers = [];
			for (const text of bodies) {
				answers.push(await t.post(text, { contentType: 'text/plain', headers: { 'billit-signature': signature(secret, text) } }));
			}
			expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 400]);
			expect(answers.every((a) => (a.body as IDataObject).message === 'Body is not a JSON event')).toBe(true);
			expect(t.executions).toHaveLength(0);
		});

		it('verifies the raw bytes: a body signed as sent is accepted even where re-serialised JSON would differ', async () => {
			const text = `{ "OrderID" : 1000002,\n  "EntityType":"Order", "EntityUpdateType":"I", "EntityID":1000002, "OrderNumber":"Caf\\u00e9 \u20ac", "EventID":900004 }`;
			expect(JSON.stringify(JSON.parse(text))).not.toBe(text);
			const r = await t.post(Buffer.from(text, 'utf8'), { headers: { 'billit-signature': signature(secret, Buffer.from(text, 'utf8')) } });
			expect(r.status).toBe(200);
			expect(r.executions[0].output(NAME)[0]).toMatchObject({ OrderID: 1000002, OrderNumber: 'Café €' });
		});

		it('an event the trigger does not listen to is acknowledged and starts nothing', async () => {
			const body = orderEvent({ EntityUpdateType: 'U', EventID: 900005 });
			const r = await t.post(body, { headers: { 'billit-signature': signature(secret, body) } });
			expect(r.status).toBe(200);
			expect((r.body as IDataObject).message).toBe('Not an event this trigger listens to; ignored');
			expect(t.executions).toHaveLength(0);
		});
	});
});
