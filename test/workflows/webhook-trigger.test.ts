/**
 * AccessPoint Trigger (webhooks) through n8n-core: activation (n8n 2.41's publication, its 5
 * attempts and its start-up) runs the node's webhookMethods in a HookContext, calls reach its
 * webhook() in a WebhookContext over real HTTP (test/harness/webhookTrigger.js, modelled on
 * n8n's live-webhooks service), and the emulator registers the webhooks, enforces its
 * per-party limit and delivers signed events in the shapes the service publishes. Each
 * published example (test/fixtures/webhook-payloads.json) is fed to the node.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import fixtures from '../fixtures/webhook-payloads.json';
import type { Harness } from '../harness';
import { signature, webhookTrigger } from '../harness/webhookTrigger';
import type { WebhookTrigger } from '../harness/webhookTrigger';
import { captureLogs, printFigures } from '../reliability/report';
import type { Emu, Hub } from './webhookSuite';
import { NAME, TRIGGER, webhookSuite } from './webhookSuite';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const F = fixtures as unknown as Record<keyof typeof fixtures, IDataObject>;

describe('AccessPoint Trigger (engine, emulator)', () => {
	const suite = webhookSuite({ orders: 20 });
	const { trigger, api } = suite;
	let h: Harness;
	let emu: Emu;
	let party: string;
	let logs: ReturnType<typeof captureLogs>;

	beforeAll(() => {
		({ h, emu, party } = suite);
		logs = captureLogs();
	});
	afterAll(() => logs.stop());

	const createOrder = (partyId = party) => suite.createOrder({ partyId });
	const hub = () => (emu.webhooks as unknown as { hub: Hub }).hub;

	async function sendOverPeppol(id: number, partyId = party) {
		expect((await api('POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [id] }, partyId)).status).toBe(200);
	}

	const webhookPosts = () => emu.requests.filter((r) => r.method === 'POST' && /\/webhooks$/.test(r.path));
	const stored = (t: WebhookTrigger) =>
		(t.nodeStaticData.webhooks ?? undefined) as
			| { webhooks: Array<{ id: string; secret: string; entityType: string; updateType: string }>; partyId: string }
			| undefined;
	const secretOf = (t: WebhookTrigger) => stored(t)!.webhooks[0].secret;
	const signed = (t: WebhookTrigger, body: unknown, t0?: number) => ({ headers: { 'billit-signature': signature(secretOf(t), body, t0) } });
	const passedOn = (runs: Array<{ output(name: string): unknown[] }>) => runs.reduce((n, r) => n + r.output(NAME).length, 0);
	const orderEvent = (id: number, extra: IDataObject = {}): IDataObject => ({
		UpdatedEntityID: id,
		UpdatedEntityType: 'Order',
		WebhookUpdateTypeTC: 'I',
		EntityDetail: {},
		...extra,
	});
	const rejection = async (promise: Promise<unknown>) =>
		(await promise.then(
			() => undefined,
			(e: unknown) => e,
		)) as Error & { description?: string };

	describe('webhooks at the API: checkExists, create, delete', () => {
		it('publishing creates one webhook per entity/update type (all three events: the 4 a party may have); the confirmation each one gets starts nothing and its secret is logged nowhere', async () => {
			const t = await trigger({ events: ['orderCreated', 'orderUpdated', 'deliveryStatusChanged'] });
			await t.activate();
			const hooks = emu.webhooks.list();
			expect(hooks.map((w) => `${w.EntityType} ${w.EntityUpdateType}`).sort()).toEqual(['Message I', 'Message U', 'Order I', 'Order U']);
			expect(new Set(hooks.map((w) => w.WebhookURL))).toEqual(new Set([t.url]));
			expect(hooks.every((w) => String(w.CompanyID) === party)).toBe(true);
			expect(webhookPosts().map((r) => r.path)).toEqual(['/v1/webhooks', '/v1/webhooks', '/v1/webhooks', '/v1/webhooks']);
			const kept = stored(t)!;
			expect(kept.webhooks.map((w) => w.id).sort()).toEqual(hooks.map((w) => String(w.WebhookID)).sort());
			expect(kept.webhooks.every((w) => /^[0-9a-f]{64}$/.test(w.secret))).toBe(true);
			expect(kept.partyId).toBe(party);

			await emu.webhooks.settle();
			const confirmations = emu.webhooks.deliveries({ confirmations: true }).filter((d) => d.confirmation);
			expect(confirmations.map((d) => [d.state, d.attempts.map((a) => a.status)])).toEqual(Array(4).fill(['delivered', [200]]));
			expect(t.executions).toHaveLength(0);
			expect(t.errors).toEqual([]);
			const secrets = kept.webhooks.map((w) => w.secret);
			expect(logs.lines.filter((l) => secrets.some((s) => l.text.includes(s)))).toEqual([]);
			expect(logs.lines.filter((l) => /webhook confirmation/.test(l.text))).toHaveLength(4);
			printFigures('AccessPoint Trigger: activation', {
				'webhooks created on publishing': hooks.length,
				'confirmations answered 200, executions': `${confirmations.length}, ${t.executions.length}`,
			});
		});

		it('n8n 2.41 restarting activates the trigger again: a webhook deleted at the service while n8n was down is made again; with all in place nothing is created', async () => {
			const t = await trigger({ events: ['orderCreated', 'deliveryStatusChanged'] });
			await t.activate();
			const first = emu.webhooks.list().map((w) => w.WebhookID as number);
			emu.clearRequests();
			expect(await t.restart()).toBe(true);
			expect(webhookPosts()).toHaveLength(0);
			expect(emu.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/webhooks']);

			hub().remove(first[1]); // Message I gone while n8n was down
			emu.clearRequests();
			await t.restart();
			const second = emu.webhooks.list();
			expect(second.map((w) => `${w.EntityType} ${w.EntityUpdateType}`).sort()).toEqual(['Message I', 'Message U', 'Order I']);
			expect(second.some((w) => first.includes(w.WebhookID as number))).toBe(false);
			expect(
				stored(t)!
					.webhooks.map((w) => w.id)
					.sort(),
			).toEqual(second.map((w) => String(w.WebhookID)).sort());
			// The new Message I webhook delivers to the workflow again.
			const id = await createOrder();
			await sendOverPeppol(id);
			await emu.webhooks.settle();
			const runs = await t.waitForExecutions(3);
			expect(runs.map((r) => r.output(NAME)[0].updateType).sort()).toEqual(['I', 'I', 'U']);
			printFigures('AccessPoint Trigger: restart', {
				'requests at a restart with all webhooks in place': 1,
				'webhooks after a restart with one deleted at the service': second.length,
			});
		});

		it('other events or another URL give a complete new set, the old ones removed', async () => {
			const t = await trigger({ events: ['orderCreated', 'orderUpdated'] });
			await t.activate();
			const first = emu.webhooks.list().map((w) => w.WebhookID as number);
			// The workflow edited (events) and served elsewhere (URL): same static data, new parameters.
			const edited = await trigger({ events: ['deliveryStatusChanged'] }, { staticData: t.staticData });
			await edited.activate();
			const second = emu.webhooks.list();
			expect(second.map((w) => `${w.EntityType} ${w.EntityUpdateType}`).sort()).toEqual(['Message I', 'Message U']);
			expect(second.every((w) => w.WebhookURL === edited.url)).toBe(true);
			expect(second.some((w) => first.includes(w.WebhookID as number))).toBe(false);
		});

		it('unpublishing deletes every webhook it made (the service answers true); one already gone is not an error', async () => {
			const t = await trigger({ events: ['orderCreated', 'orderUpdated'] });
			await t.activate();
			const ids = emu.webhooks.list().map((w) => w.WebhookID as number);
			hub().remove(ids[1]);
			emu.clearRequests();
			expect(await t.deactivate()).toEqual([true]);
			expect(emu.webhooks.list()).toEqual([]);
			expect(emu.requests.filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([200, 404]);
			expect(stored(t)).toBeUndefined();
			expect(await t.deactivate()).toEqual([true]); // nothing left to delete
		});

		it('a delete that fails: a webhook the list no longer shows counts as deleted, one still listed is kept for the next time', async () => {
			const t = await trigger({ events: ['orderCreated', 'orderUpdated'] });
			await t.activate();
			const ids = emu.webhooks.list().map((w) => w.WebhookID as number);
			hub().remove(ids[0]);
			emu.failNext(2, 500, { method: 'DELETE' });
			expect(await t.deactivate()).toEqual([false]);
			expect(stored(t)!.webhooks.map((w) => w.id)).toEqual([String(ids[1])]);
			expect(await t.deactivate()).toEqual([true]);
			expect(emu.webhooks.list()).toEqual([]);
		});

		it('Order Deleted (issue 36.6): an Order D webhook is made; deleting an order through the API starts a run with event "deleted" and its OrderID, read from the published wrapper', async () => {
			const t = await trigger({ events: ['orderDeleted'], options: { fetchFullOrder: true } });
			await t.activate();
			expect(emu.webhooks.list().map((w) => `${w.EntityType} ${w.EntityUpdateType}`)).toEqual(['Order D']);
			const id = await createOrder();
			emu.clearRequests();
			expect((await api('DELETE', `/v1/orders/${id}`, undefined)).status).toBe(200);
			await emu.webhooks.settle();
			const runs = await t.waitForExecutions(1);
			const item = runs[0].output(NAME)[0];
			expect(item).toMatchObject({ event: 'deleted', entityType: 'Order', updateType: 'D', OrderID: id });
			expect(item.payload).toMatchObject({ UpdatedEntityID: id, UpdatedEntityType: 'Order', WebhookUpdateTypeTC: 'D' });
			// A deleted order is not read (Fetch Full Order would only meet its 404).
			expect(emu.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/orders/'))).toEqual([]);
		});

		it('all four events need five webhooks, one more than the service allows: publishing is refused before any request', async () => {
			const t = await trigger({ events: ['orderCreated', 'orderUpdated', 'orderDeleted', 'deliveryStatusChanged'] });
			emu.clearRequests();
			const error = await rejection(t.activate('activate', { attempts: 1 }));
			expect(error.message).toBe('"Events" needs 5 webhooks; the service allows 4 per party');
			expect(emu.requests).toHaveLength(0);
		});

		it("no room at the party: n8n's 5 activation attempts make no webhook (one list, then the refusal repeated); the message line names the webhooks and what to do", async () => {
			for (const url of ['https://erp.example.test/a', 'https://erp.example.test/b', 'https://erp.example.test/c']) {
				expect((await api('POST', '/v1/webhooks', { EntityType: 'Order', EntityUpdateType: 'U', WebhookURL: url })).status).toBe(200);
			}
			const ids = emu.webhooks.list().map((w) => w.WebhookID);
			const t = await trigger({ events: ['deliveryStatusChanged'] });
			emu.clearRequests();
			const error = await rejection(t.activate());
			expect(error.message).toBe(
				`Party ${party} already has 3 webhooks at the AccessPoint service (#${ids[0]} Order U -> erp.example.test/a; #${ids[1]} Order U -> erp.example.test/b; #${ids[2]} Order U -> erp.example.test/c), which allows 4 per party; this trigger needs 2 (Message I, Message U). ` +
					'Delete webhooks no longer used or unpublish workflows holding them, or select fewer events; then publish again.',
			);
			expect(webhookPosts()).toHaveLength(0);
			expect(emu.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/webhooks']);
			expect(emu.webhooks.list()).toHaveLength(3);
			expect(stored(t)).toBeUndefined();
			printFigures('AccessPoint Trigger: no room, 5 activation attempts', {
				'activation error': error.message,
				creates: webhookPosts().length,
				requests: emu.requests.length,
			});
		});

		it("the service's own limit answer is quoted in the message line; the webhooks made before it are removed and the later attempts send nothing", async () => {
			emu.config.webhookLimit = 2;
			try {
				const t = await trigger({ events: ['orderCreated', 'deliveryStatusChanged'] });
				emu.clearRequests();
				const error = await rejection(t.activate());
				expect(error.message).toMatch(
					new RegExp(
						`^The AccessPoint service refused a webhook for party ${party}: "Party ${party} already has 2 webhooks \\(ids \\d+, \\d+\\); at most 2 webhooks per party are allowed\\. Delete one before creating another\\."; ` +
							'this trigger needs 3 \\(Order I, Message I, Message U\\); the party has none listed\\. Delete webhooks no longer used',
					),
				);
				expect(webhookPosts().map((r) => r.status)).toEqual([200, 200, 400]);
				expect(emu.requests.filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([200, 200]);
				expect(emu.webhooks.list()).toEqual([]);
				printFigures("AccessPoint Trigger: the service's limit, 5 activation attempts", { 'activation error': error.message, creates: webhookPosts().length });
			} finally {
				emu.config.webhookLimit = 4;
			}
		});

		it('refuses an http URL that is not loopback before any request (the service calls https only)', async () => {
			const t = await webhookTrigger(h, { type: TRIGGER, parameters: { events: ['orderCreated'] } }, { webhookBaseUrl: 'http://n8n.example.test/webhook' });
			suite.keep(t);
			emu.clearRequests();
			const error = await rejection(t.activate());
			expect(error.message).toMatch(/^The AccessPoint service calls only https URLs, and this trigger's URL is http:\/\/n8n\.example\.test\/webhook\//);
			expect(error.description).toMatch(/Set WEBHOOK_URL to the public https address/);
			expect(emu.requests).toHaveLength(0);
		});

		it('refuses unusable settings before any request: no events, a RegistrationID that is not a number, a zero event age', async () => {
			const cases: Array<[IDataObject, RegExp]> = [
				[{ events: [] }, /^"Events" is empty$/],
				[
					{ events: ['orderCreated'], source: 'registration', registrationId: { __rl: true, mode: 'id', value: 'abc' } },
					/^"Registration" abc is not a valid RegistrationID/,
				],
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
			expect(emu.webhooks.list().map((w) => String(w.CompanyID))).toEqual(['300001']);
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

	describe('the published examples, signed, through the node', () => {
		it('Message I, Message U (Sent), the IMR (Delivered), Refused (older form), Order I and U: one execution each with what the service reported', async () => {
			const t = await trigger({ events: ['orderCreated', 'orderUpdated', 'deliveryStatusChanged'] });
			await t.activate();
			const out: Record<string, IDataObject> = {};
			for (const [name, body] of Object.entries(F)) {
				const r = await t.post(body, signed(t, body));
				expect([name, r.status, r.executions.length]).toEqual([name, 200, 1]);
				const [item] = r.executions[0].assertSuccess().output(NAME);
				expect(item.payload).toEqual(body);
				out[name] = item;
			}
			const pick = (i: IDataObject) => [
				i.event,
				i.OrderID,
				i.MessageID ?? null,
				i.flowState ?? null,
				i.deliveryStatus ?? null,
				i.refusedReason ?? null,
				i.responseCode ?? null,
				i.deliveryInfo ?? null,
			];
			expect(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, pick(v)]))).toEqual({
				messageInsert: ['deliveryStatusChanged', 2615999, '690998', null, null, null, null, null],
				messageUpdateSent: ['deliveryStatusChanged', 2615999, '690998', 'Sent', 'Sent', null, null, null],
				messageImrDelivered: ['deliveryStatusChanged', 2615999, '690999', 'Delivered', 'Delivered', null, 'AB', 'The document has been successfully received.'],
				messageRefusedOlderForm: ['deliveryStatusChanged', 455654, '690988', 'Refused', 'Refused', 'No Valid VAT', null, 'Description'],
				orderInsert: ['created', 2615999, null, null, null, null, null, null],
				orderUpdate: ['updated', 2615999, null, null, null, null, null, null],
				messageEmptyDetail: ['deliveryStatusChanged', null, '690997', null, null, null, null, null],
			});
			expect(out.messageUpdateSent).toMatchObject({
				direction: 'Outgoing',
				transportType: 'Peppol',
				success: true,
				fileId: 'bc9996b3-e2ef-4476-9873-28de2c61d999',
			});
		});

		it('the confirmation a new webhook gets is answered 200 and starts nothing, signed or not (it may come before the secret is kept)', async () => {
			const t = await trigger({ events: ['orderCreated'] });
			await t.activate();
			const confirmation = {
				UpdatedEntityID: 42,
				UpdatedEntityType: 'Message',
				WebhookUpdateTypeTC: 'I',
				EntityDetail: { WebhookID: 42, Secret: 'c'.repeat(64) },
			};
			const answers = [await t.post(confirmation), await t.post(confirmation, signed(t, confirmation))];
			expect(answers.map((a) => [a.status, (a.body as IDataObject).message])).toEqual(Array(2).fill([200, 'Webhook confirmation received; ignored']));
			expect(t.executions).toHaveLength(0);
			expect(logs.lines.filter((l) => l.text.includes('c'.repeat(64)))).toEqual([]);
		});

		it("an event naming another party than the trigger's is answered 200, passes nothing on and is logged; its own party passes", async () => {
			const t = await trigger({ events: ['orderCreated'] });
			await t.activate();
			const foreign = orderEvent(1000003, { PartyID: 999999 });
			const r = await t.post(foreign, signed(t, foreign));
			expect([r.status, (r.body as IDataObject).message, r.executions.length]).toEqual([200, 'An event of another party; ignored', 0]);
			expect(
				logs.lines.filter((l) => l.level === 'warn' && l.text.includes(`ignored an event of party 999999: its webhooks belong to party ${party}`)),
			).toHaveLength(1);
			const own = orderEvent(1000003, { PartyID: Number(party) });
			expect(passedOn((await t.post(own, signed(t, own))).executions)).toBe(1);
		});
	});

	describe('deliveries from the emulator', () => {
		it('an order created, sent over Peppol, delivered, refused: one execution per call with the flow state, the refusal text and the response code', async () => {
			const t = await trigger({ events: ['orderCreated', 'deliveryStatusChanged'] });
			await t.activate();
			const id = await createOrder();
			await sendOverPeppol(id);
			emu.delivery.set(id, 'Delivered', { info: 'Delivered to the AP of Peppol Demo Belgium NV' });
			emu.delivery.set(id, 'Refused', { reason: 'BUYER_REF', info: 'Unknown purchase order' });
			await emu.webhooks.settle();
			await t.waitForExecutions(5);
			await sleep(200);
			expect(t.executions).toHaveLength(5);
			const flat = t.executions.map((run) => run.assertSuccess().output(NAME)).map((list) => (expect(list).toHaveLength(1), list[0]));
			expect(flat.map((i) => [i.event, i.updateType, i.OrderID, i.flowState ?? null]).sort()).toEqual(
				[
					['created', 'I', id, null],
					['deliveryStatusChanged', 'I', id, null],
					['deliveryStatusChanged', 'U', id, 'Sent'],
					['deliveryStatusChanged', 'I', id, 'Delivered'],
					['deliveryStatusChanged', 'I', id, 'Refused'],
				].sort(),
			);
			const refused = flat.find((i) => i.flowState === 'Refused')!;
			expect(refused).toMatchObject({
				refusedReason: 'Unknown purchase order',
				responseCode: 'RE',
				deliveryInfo: 'Unknown purchase order',
				direction: 'Incoming',
				MessageID: expect.any(String),
			});
			expect(flat.find((i) => i.flowState === 'Delivered')).toMatchObject({
				responseCode: 'AB',
				deliveryInfo: 'Delivered to the AP of Peppol Demo Belgium NV',
			});
			expect(Date.parse(String(refused.receivedAt))).toBeGreaterThan(Date.now() - 60_000);
			const deliveries = emu.webhooks.deliveries();
			expect(deliveries).toHaveLength(5);
			expect(deliveries.every((d) => d.state === 'delivered' && d.attempts.length === 1 && d.attempts[0].status === 200)).toBe(true);
			printFigures('AccessPoint Trigger: emulator events', {
				'events delivered': deliveries.length,
				'calls received': t.calls.length,
				executions: t.executions.length,
			});
		});

		it("the emulator's duplicate delivery passes its event on once; wrong signatures and stale timestamps start nothing", async () => {
			const t = await trigger({ events: ['orderCreated'] });
			await t.activate();
			await emu.webhooks.settle();
			emu.webhooks.failNext(1, 'duplicate');
			await createOrder();
			await emu.webhooks.settle();
			await t.waitForExecutions(2);
			const [dup] = emu.webhooks.deliveries();
			expect(dup.attempts.map((a) => a.status)).toEqual([200, 200]);
			expect(passedOn(t.executions)).toBe(1);

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
			expect(t.executions).toHaveLength(2);
			expect(t.errors).toEqual([]);
			printFigures('AccessPoint Trigger: emulator faults', {
				'duplicate: calls / items passed on': `${dup.attempts.length} / 1`,
				'wrong signature: calls / executions': `${forged.attempts.length} / 0`,
				'stale timestamp: calls / executions': `${stale.attempts.length} / 0`,
			});
		});

		it("Fetch Full Order: the item is the whole order with delivery details flattened, the message's own values winning", async () => {
			const t = await trigger({ events: ['deliveryStatusChanged'], options: { maxRetries: 0, fetchFullOrder: true } });
			await t.activate();
			const id = await createOrder();
			await sendOverPeppol(id);
			emu.delivery.set(id, 'Delivered', { info: 'Delivered to the AP' });
			await emu.webhooks.settle();
			await t.waitForExecutions(3);
			const delivered = t.executions.map((r) => r.output(NAME)[0]).find((i) => i.flowState === 'Delivered')!;
			expect(delivered).toMatchObject({
				event: 'deliveryStatusChanged',
				OrderID: id,
				OrderNumber: expect.any(String),
				OrderLines: expect.any(Array),
				delivered: true,
				deliveryStatus: 'Delivered',
				deliveryInfo: 'Delivered to the AP',
				CurrentDocumentDeliveryDetails: expect.objectContaining({ DocumentDeliveryStatus: 'Delivered', IsDocumentDelivered: true }),
			});
			expect(emu.requests.filter((r) => r.method === 'GET' && r.path === `/v1/orders/${id}`)).toHaveLength(3); // one per event
		});
	});

	describe('queue mode (n8n 2.41: a worker runs the execution from a snapshot without static data)', () => {
		it('the webhooks and their secrets survive the executions: every later delivery is still verified and accepted; a replay passes nothing on', async () => {
			const t = await webhookTrigger(h, { type: TRIGGER, parameters: { events: ['orderCreated'], options: { maxRetries: 0 } } }, { queueMode: true });
			suite.keep(t);
			await t.activate();
			const secret = secretOf(t);
			const statuses: number[] = [];
			for (let i = 0; i < 3; i++) {
				const body = orderEvent(1000200 + i);
				const r = await t.post(body, signed(t, body));
				statuses.push(r.status);
				expect(passedOn(r.executions)).toBe(1);
			}
			expect(statuses).toEqual([200, 200, 200]);
			expect(stored(t)!.webhooks.map((w) => w.secret)).toEqual([secret]);
			const again = orderEvent(1000201);
			const replay = await t.post(again, signed(t, again));
			expect(passedOn(replay.executions)).toBe(0);
		});
	});

	describe('webhook() and the execution: what a call must prove', () => {
		let t: WebhookTrigger;

		beforeEach(async () => {
			t = await trigger({ events: ['orderCreated'] });
			await t.activate();
		});

		it('a valid call starts one execution with the event as its item', async () => {
			const body = F.orderInsert;
			const r = await t.post(body, signed(t, body));
			expect(r.status).toBe(200);
			expect(r.executions).toHaveLength(1);
			expect(r.executions[0].assertSuccess().output(NAME)).toEqual([
				{ event: 'created', entityType: 'Order', updateType: 'I', OrderID: 2615999, receivedAt: expect.any(String), payload: body },
			]);
		});

		it('forged calls get 401 and start nothing: another secret, no header, a malformed header, a body changed after signing', async () => {
			const text = JSON.stringify(orderEvent(1000001));
			const tampered = text.replace('1000001', '1000002');
			const saves = t.saves;
			const answers = [
				await t.post(text, { headers: { 'billit-signature': signature('f'.repeat(64), text) } }),
				await t.post(text),
				await t.post(text, { headers: { 'billit-signature': `t=${nowSeconds()}` } }),
				await t.post(text, { headers: { 'billit-signature': 'sha256=deadbeef' } }),
				await t.post(tampered, { headers: { 'billit-signature': signature(secretOf(t), text) } }),
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
			const body = orderEvent(1000001);
			const old = await t.post(body, signed(t, body, nowSeconds() - 6 * 60));
			const ahead = await t.post(body, signed(t, body, nowSeconds() + 2 * 60));
			expect([old.status, ahead.status]).toEqual([401, 401]);
			expect([(old.body as IDataObject).message, (ahead.body as IDataObject).message]).toEqual(['Timestamp too old', 'Timestamp in the future']);
			expect(t.executions).toHaveLength(0);
			expect((await t.post(body, signed(t, body, nowSeconds() - 4 * 60))).executions).toHaveLength(1);

			const patient = await trigger({ events: ['orderCreated'], options: { maxRetries: 0, maxEventAgeMinutes: 10 } });
			await patient.activate();
			const late = orderEvent(1000002);
			const r = await patient.post(late, signed(patient, late, nowSeconds() - 6 * 60));
			expect(r.status).toBe(200);
			expect(passedOn(r.executions)).toBe(1);
		});

		it('a replayed call and a re-signed repeat pass nothing on; another event does; static data is never written by a call', async () => {
			const body = orderEvent(1000001);
			const header = signed(t, body);
			const saves = t.saves;
			const first = await t.post(body, header);
			const replay = await t.post(body, header);
			const resigned = await t.post(JSON.stringify(body, null, 2), signed(t, JSON.stringify(body, null, 2), nowSeconds() - 30));
			expect([first, replay, resigned].map((r) => passedOn(r.executions))).toEqual([1, 0, 0]);
			expect([replay.status, resigned.status]).toEqual([200, 200]);
			const next = orderEvent(1000004);
			expect(passedOn((await t.post(next, signed(t, next))).executions)).toBe(1);
			expect(t.saves).toBe(saves);
			expect(Object.keys(t.nodeStaticData)).toEqual(['webhooks']);
		});

		it('a repeat arriving while the first execution still runs passes nothing on, and neither does one after it', async () => {
			const slow = await webhookTrigger(h, {
				nodes: [
					{ name: NAME, type: TRIGGER, parameters: { events: ['orderCreated'], options: { maxRetries: 0 } } },
					{ name: 'Wait a second', type: 'n8n-nodes-base.wait', typeVersion: 1.1, parameters: { resume: 'timeInterval', amount: 1, unit: 'seconds' } },
				],
				connections: { [NAME]: { main: [[{ node: 'Wait a second', type: 'main', index: 0 }]] } },
			});
			suite.keep(slow);
			await slow.activate();
			const body = orderEvent(1000006);
			const first = slow.post(body, signed(slow, body));
			await sleep(300);
			const during = await slow.post(body, signed(slow, body));
			const [firstRun] = (await first).executions;
			expect(firstRun.output('Wait a second')).toHaveLength(1);
			expect(during.executions).toHaveLength(1);
			expect(during.executions[0].output(NAME)).toEqual([]);
			expect(during.executions[0].executed('Wait a second')).toBe(false);
			const after = await slow.post(body, signed(slow, body));
			expect(passedOn(after.executions)).toBe(0);
			printFigures('AccessPoint Trigger: a repeat during the first execution', {
				'items past the trigger (during, after)': `${during.executions[0].output(NAME).length}, ${passedOn(after.executions)}`,
			});
		});

		it('two identical signed deliveries at the same moment pass the event on once (#33.4), also for the first events of a trigger', async () => {
			const rounds = 10;
			const passed: number[] = [];
			for (let i = 0; i < rounds; i++) {
				const body = orderEvent(1000300 + i);
				const header = signed(t, body);
				const both = await Promise.all([t.post(body, header), t.post(body, header)]);
				passed.push(passedOn(both.flatMap((r) => r.executions)));
			}
			expect(passed).toEqual(Array(rounds).fill(1));
			expect(t.errors).toEqual([]);
			printFigures('AccessPoint Trigger: two identical deliveries at once (#33.4)', {
				rounds,
				'rounds where the event passed on twice': passed.filter((n) => n > 1).length,
			});
		});

		it('two different first events at once, then both replayed: each passes on once', async () => {
			const bodies = [0, 1].map((i) => orderEvent(1000100 + i));
			const burst = await Promise.all(bodies.map((b) => t.post(b, signed(t, b))));
			expect(burst.map((r) => passedOn(r.executions))).toEqual([1, 1]);
			const replays = await Promise.all(bodies.map((b) => t.post(b, signed(t, b))));
			expect(passedOn(replays.flatMap((r) => r.executions))).toBe(0);
			expect(t.errors).toEqual([]);
		});

		it("many different events at once (as a send gives Order I, Message I and U together), then all replayed: none passes on twice (no record lost to the store's concurrent writes)", async () => {
			const rounds = 3;
			const replayed: number[] = [];
			for (let round = 0; round < rounds; round++) {
				const bodies = Array.from({ length: 6 }, (_, i) => orderEvent(1000400 + round * 10 + i));
				const burst = await Promise.all(bodies.map((b) => t.post(b, signed(t, b))));
				expect(burst.map((r) => passedOn(r.executions))).toEqual(Array(6).fill(1));
				const again = await Promise.all(bodies.map((b) => t.post(b, signed(t, b))));
				replayed.push(passedOn(again.flatMap((r) => r.executions)));
			}
			expect(replayed).toEqual(Array(rounds).fill(0));
			printFigures('AccessPoint Trigger: 6 events at once, then replayed (3 rounds)', { 'replays passed on': replayed });
		});

		it('a body that is not one JSON object gets 400 and starts nothing', async () => {
			const bodies = ['not json', '{"UpdatedEntityID": 1', '[1, 2]', '[]', '"text"', JSON.stringify([orderEvent(1)])];
			const answers = [];
			for (const text of bodies) answers.push(await t.post(text, { contentType: 'text/plain', ...signed(t, text) }));
			expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 400, 400]);
			expect(answers.every((a) => (a.body as IDataObject).message === 'Body is not a JSON event')).toBe(true);
			expect(t.executions).toHaveLength(0);
		});

		it('verifies the raw bytes: a body signed as sent is accepted even where re-serialised JSON would differ', async () => {
			const text = `{ "UpdatedEntityID" : 1000002,\n  "UpdatedEntityType":"Order", "WebhookUpdateTypeTC":"I", "EntityDetail": {"Note":"Caf\\u00e9 \u20ac"} }`;
			expect(JSON.stringify(JSON.parse(text))).not.toBe(text);
			const raw = Buffer.from(text, 'utf8');
			const r = await t.post(raw, { headers: { 'billit-signature': signature(secretOf(t), raw) } });
			expect(r.status).toBe(200);
			expect(r.executions[0].output(NAME)[0]).toMatchObject({ OrderID: 1000002, payload: { EntityDetail: { Note: 'Café €' } } });
		});

		it('an event the trigger does not listen to (an Order U, a D, a flat body) is acknowledged and starts nothing', async () => {
			const bodies = [F.orderUpdate, { ...F.orderInsert, WebhookUpdateTypeTC: 'D' }, { OrderID: 1, EntityType: 'Order', EntityUpdateType: 'I', EventID: 9 }];
			for (const body of bodies) {
				const r = await t.post(body, signed(t, body));
				expect([r.status, (r.body as IDataObject).message]).toEqual([200, 'Not an event this trigger listens to; ignored']);
			}
			expect(t.executions).toHaveLength(0);
		});
	});
});
