/**
 * The AccessPoint Trigger's pure parts: subscriptions, the service's payloads (each published
 * example, test/fixtures/webhook-payloads.json) and the items they become, the signature
 * header, timestamps, duplicate keys and the claim over n8n's deduplication store, static data.
 */
import { createHmac } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import fixtures from '../fixtures/webhook-payloads.json';
import type { ServiceEvent } from '../../nodes/AccessPointTrigger/events';
import {
	TRIGGER_EVENTS,
	WEBHOOKS_PER_PARTY,
	buildItem,
	checkTimestamp,
	isConfirmation,
	outputEventOf,
	parseDescription,
	parseSignatureHeader,
	partyIdOf,
	readServiceEvent,
	redactSecrets,
	signedWithAny,
	subscriptionsFor,
} from '../../nodes/AccessPointTrigger/events';
import type { Store } from '../../nodes/AccessPointTrigger/receive';
import { claimEvents, eventKeys } from '../../nodes/AccessPointTrigger/receive';
import { REFUSAL_MEMORY_MS, matchesWanted, readWebhooks, recentRefusal, rememberRefusal } from '../../nodes/AccessPointTrigger/registry';
import { printFigures } from '../reliability/report';

const hex = (secret: string, t: number, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
const F = fixtures as unknown as Record<keyof typeof fixtures, IDataObject>;
const read = (payload: IDataObject) => readServiceEvent(payload) as ServiceEvent;
const item = (payload: IDataObject) => {
	const ev = read(payload);
	return buildItem({ event: outputEventOf(ev, TRIGGER_EVENTS)!, ev, payload, receivedAt: 'now' });
};

describe('subscriptions', () => {
	it('one webhook per entity/update type; Order Deleted is Order D', () => {
		const keys = (events: Parameters<typeof subscriptionsFor>[0]) => subscriptionsFor(events).map((s) => `${s.entityType} ${s.updateType}`);
		expect(keys(['deliveryStatusChanged'])).toEqual(['Message I', 'Message U']);
		expect(keys(['orderUpdated', 'orderCreated'])).toEqual(['Order I', 'Order U']);
		expect(keys(['orderDeleted'])).toEqual(['Order D']);
		// All four events take five webhooks, one more than a party may have: a user picks fewer.
		expect(subscriptionsFor(TRIGGER_EVENTS)).toHaveLength(WEBHOOKS_PER_PARTY + 1);
	});

	it('stored webhooks match only the same URL, scope and set of subscriptions', () => {
		const stored = readWebhooks({
			webhooks: {
				version: 1,
				url: 'https://n8n.example.com/webhook/x/webhook',
				scope: 'account',
				webhooks: [
					{ id: '1', entityType: 'Message', updateType: 'U', secret: 's1' },
					{ id: '2', entityType: 'Message', updateType: 'I', secret: 's2' },
					{ id: 3, entityType: 'Message', updateType: 'I', secret: 's3' },
				],
			},
		})!;
		expect(stored.webhooks.map((w) => w.id)).toEqual(['1', '2']); // a malformed entry is dropped
		const wanted = subscriptionsFor(['deliveryStatusChanged']);
		expect(matchesWanted(stored, 'https://n8n.example.com/webhook/x/webhook', 'account', wanted)).toBe(true);
		expect(matchesWanted(stored, 'https://n8n.example.com/webhook/y/webhook', 'account', wanted)).toBe(false);
		expect(matchesWanted(stored, 'https://n8n.example.com/webhook/x/webhook', 'registration:300001', wanted)).toBe(false);
		expect(matchesWanted(stored, 'https://n8n.example.com/webhook/x/webhook', 'account', subscriptionsFor(['orderCreated']))).toBe(false);
		expect(readWebhooks({ webhooks: { version: 2 } })).toBeUndefined();
		// An Order D webhook (0.1's, or Order Deleted's) is read and matches only Order Deleted.
		const old = readWebhooks({
			webhooks: { version: 1, url: 'u', scope: 'account', webhooks: [{ id: '9', entityType: 'Order', updateType: 'D', secret: 's' }] },
		})!;
		expect(old.webhooks).toHaveLength(1);
		expect(matchesWanted(old, 'u', 'account', subscriptionsFor(['orderCreated']))).toBe(false);
		expect(matchesWanted(old, 'u', 'account', subscriptionsFor(['orderDeleted']))).toBe(true);
	});
});

describe("the service's payloads (each published example)", () => {
	it('reads the published wrapper and the older form, D included; a flat body is no event', () => {
		expect(read(F.messageInsert)).toMatchObject({ entityType: 'Message', updateType: 'I', entityId: '690998', message: { OrderID: 2615999 }, state: {} });
		expect(read(F.messageRefusedOlderForm)).toMatchObject({
			entityType: 'Message',
			updateType: 'U',
			message: { OrderID: 455654 },
			state: { EInvoiceFlowState: 'Refused' },
		});
		expect(read(F.orderInsert)).toEqual({ entityType: 'Order', updateType: 'I', entityId: '2615999', message: {}, state: {} });
		expect(readServiceEvent({ OrderID: 1, EntityType: 'Order', EntityUpdateType: 'I', EventID: 9 })).toBeUndefined();
		const deleted = read({ ...F.orderInsert, WebhookUpdateTypeTC: 'D' });
		expect(deleted).toEqual({ entityType: 'Order', updateType: 'D', entityId: '2615999', message: {}, state: {} });
		expect(outputEventOf(deleted, ['orderDeleted'])).toBe('deleted');
		expect(outputEventOf(deleted, ['orderCreated', 'orderUpdated'])).toBeUndefined();
		expect(outputEventOf(read({ ...F.messageInsert, WebhookUpdateTypeTC: 'D' }), TRIGGER_EVENTS)).toBeUndefined();
		expect(readServiceEvent({ ...F.orderInsert, UpdatedEntityType: 'Invoice' })).toBeUndefined();
		expect(outputEventOf(read(F.orderUpdate), ['orderCreated'])).toBeUndefined();
		expect(outputEventOf(read(F.messageInsert), ['orderCreated', 'orderUpdated'])).toBeUndefined();
	});

	it('Message I (created): OrderID, MessageID, no flow state yet', () => {
		expect(item(F.messageInsert)).toEqual({
			event: 'deliveryStatusChanged',
			entityType: 'Message',
			updateType: 'I',
			OrderID: 2615999,
			MessageID: '690998',
			flowState: null,
			deliveryStatus: null,
			deliveryInfo: null,
			refusedReason: null,
			responseCode: null,
			direction: 'Outgoing',
			transportType: 'Peppol',
			success: null,
			fileId: null,
			receivedAt: 'now',
			payload: F.messageInsert,
		});
	});

	it('Message U (Sent): the flow state, success and the UBL FileID', () => {
		expect(item(F.messageUpdateSent)).toMatchObject({
			OrderID: 2615999,
			MessageID: '690998',
			flowState: 'Sent',
			deliveryStatus: 'Sent',
			success: true,
			fileId: 'bc9996b3-e2ef-4476-9873-28de2c61d999',
			refusedReason: null,
		});
	});

	it('the IMR (Delivered): the response code and text from Description, Incoming', () => {
		expect(item(F.messageImrDelivered)).toMatchObject({
			OrderID: 2615999,
			MessageID: '690999',
			flowState: 'Delivered',
			deliveryStatus: 'Delivered',
			responseCode: 'AB',
			deliveryInfo: 'The document has been successfully received.',
			direction: 'Incoming',
			fileId: '2320bea9-56d9-4185-a7c0-f1f2c9b999b9',
			refusedReason: null,
		});
	});

	it('Refused (older form): the refusal text reaches the item', () => {
		expect(item(F.messageRefusedOlderForm)).toMatchObject({
			OrderID: 455654,
			MessageID: '690988',
			flowState: 'Refused',
			deliveryStatus: 'Refused',
			refusedReason: 'No Valid VAT',
			deliveryInfo: 'Description',
		});
	});

	it('Order I and U: the OrderID is UpdatedEntityID; a Message with an empty EntityDetail passes with what it has', () => {
		expect(item(F.orderInsert)).toEqual({
			event: 'created',
			entityType: 'Order',
			updateType: 'I',
			OrderID: 2615999,
			receivedAt: 'now',
			payload: F.orderInsert,
		});
		expect(item(F.orderUpdate)).toMatchObject({ event: 'updated', OrderID: 2615999 });
		expect(item(F.messageEmptyDetail)).toMatchObject({ event: 'deliveryStatusChanged', OrderID: null, MessageID: '690997', flowState: null });
	});

	it('a failed delivery (Success false) says Error; the e-mail fallback shows as its transport', () => {
		const failed = {
			...F.messageUpdateSent,
			EntityDetail: {
				OrderMessage: { OrderID: 5, Success: false, TransportType: 'Peppol', Description: 'Rejected by the receiving AP' },
				AdditionalMessageInformation: {},
			},
		};
		expect(item(failed)).toMatchObject({ deliveryStatus: 'Error', flowState: null, deliveryInfo: 'Rejected by the receiving AP', success: false });
		const email = {
			...F.messageUpdateSent,
			EntityDetail: {
				OrderMessage: { OrderID: 5, Success: true, TransportType: 'Email', Description: 'Fallback: not on Peppol; sent by e-mail' },
				AdditionalMessageInformation: { EInvoiceFlowState: 'Sent' },
			},
		};
		expect(item(email)).toMatchObject({ transportType: 'Email', deliveryInfo: 'Fallback: not on Peppol; sent by e-mail' });
	});

	it('with a full order its delivery details are flattened and the message wins where it names a value', () => {
		const ev = read(F.messageRefusedOlderForm);
		const order = {
			OrderID: 455654,
			OrderNumber: 'INV-5',
			CurrentDocumentDeliveryDetails: { IsDocumentDelivered: true, DocumentDeliveryStatus: 'Delivered', DocumentDeliveryInfo: 'ok', DocumentRefusedInfo: 'PO' },
		};
		const full = buildItem({ event: 'deliveryStatusChanged', ev, payload: F.messageRefusedOlderForm, receivedAt: 'now', order });
		expect(full).toMatchObject({
			OrderNumber: 'INV-5',
			delivered: true,
			deliveryStatus: 'Refused',
			refusedReason: 'No Valid VAT',
			refusedInfo: 'PO',
			event: 'deliveryStatusChanged',
		});
		expect(buildItem({ event: 'updated', ev: read(F.orderUpdate), payload: F.orderUpdate, receivedAt: 'now', order: null })).toMatchObject({
			orderFound: false,
			OrderID: 2615999,
		});
	});

	it('Description: a two-letter response code, else text only', () => {
		expect(parseDescription('AB: The document has been successfully received.')).toEqual({ code: 'AB', text: 'The document has been successfully received.' });
		expect(parseDescription('RE:No Valid VAT')).toEqual({ code: 'RE', text: 'No Valid VAT' });
		expect(parseDescription('Sent over Peppol to 0208:0123456749')).toEqual({ text: 'Sent over Peppol to 0208:0123456749' });
		expect(parseDescription(undefined)).toEqual({});
	});

	it('the confirmation at create is recognised by its secret; secrets never reach an item; the PartyID is found where named', () => {
		expect(isConfirmation({ UpdatedEntityType: 'Message', EntityDetail: { WebhookID: 1, Secret: 'abc' } })).toBe(true);
		expect(isConfirmation({ Secret: 'abc' })).toBe(true);
		for (const payload of Object.values(F)) expect(isConfirmation(payload)).toBe(false);
		expect(redactSecrets({ a: 'x-abc-y', EntityDetail: { webhookSecret: 'q', list: ['abc', 'ok'] } }, ['abc'])).toEqual({
			a: '[redacted]',
			EntityDetail: { webhookSecret: '[redacted]', list: ['[redacted]', 'ok'] },
		});
		expect(partyIdOf(F.messageInsert)).toBeUndefined();
		expect(partyIdOf({ ...F.orderInsert, PartyID: 100001 })).toBe('100001');
		expect(partyIdOf({ EntityDetail: { OrderMessage: { PartyID: '7' } } })).toBe('7');
	});
});

describe('Billit-Signature', () => {
	const body = '{"OrderID":1}';
	const raw = new TextEncoder().encode(body);

	it('parses t and every s; refuses anything else', () => {
		const s = hex('k', 1700000000, body);
		expect(parseSignatureHeader(`t=1700000000,s=${s}`)).toEqual({ t: 1700000000, signatures: [Buffer.from(s, 'hex')] });
		expect(parseSignatureHeader(` t=1700000000 , s=${s}, s=${'a'.repeat(64)}`)?.signatures).toHaveLength(2);
		for (const bad of [undefined, '', 't=1700000000', `s=${s}`, `t=abc,s=${s}`, `t=1700000000,s=${s.slice(2)}`, `t=-1,s=${s}`, `${'x'.repeat(3000)}`]) {
			expect(parseSignatureHeader(bad)).toBeUndefined();
		}
	});

	it('matches an HMAC-SHA256 over "<t>.<raw body>" with any of the secrets, nothing else', () => {
		const header = parseSignatureHeader(`t=1700000000,s=${hex('second', 1700000000, body)}`)!;
		expect(signedWithAny(header, raw, ['first', 'second'])).toBe(true);
		expect(signedWithAny(header, raw, ['first'])).toBe(false);
		expect(signedWithAny(header, new TextEncoder().encode('{"OrderID":2}'), ['second'])).toBe(false);
		expect(signedWithAny({ ...header, t: 1700000001 }, raw, ['second'])).toBe(false);
		expect(signedWithAny(header, raw, [])).toBe(false);
	});

	it('a timestamp older than the maximum age is stale, one more than a minute ahead is refused', () => {
		const now = 1_700_000_000_000;
		const t = (offsetSeconds: number) => Math.floor(now / 1000) + offsetSeconds;
		expect(checkTimestamp(t(-299), now, 300_000)).toBe('ok');
		expect(checkTimestamp(t(-301), now, 300_000)).toBe('stale');
		expect(checkTimestamp(t(59), now, 300_000)).toBe('ok');
		expect(checkTimestamp(t(61), now, 300_000)).toBe('future');
	});
});

describe('duplicates: keys by content, claims over the store', () => {
	const W = 360_000;
	it('the same content within a window is one event (also re-serialised); another flow state, entity or much later is another', () => {
		const [key, before] = eventKeys(read(F.messageUpdateSent), F.messageUpdateSent, 10 * W + 5, W);
		expect(key).toMatch(/^Message\|690998\|U\|Sent\|[0-9a-f]{32}@10$/);
		expect(before).toBe(key.replace(/@10$/, '@9'));
		const reordered = JSON.parse(
			JSON.stringify({ EntityDetail: F.messageUpdateSent.EntityDetail, WebhookUpdateTypeTC: 'U', UpdatedEntityType: 'Message', UpdatedEntityID: 690998 }),
		) as IDataObject;
		expect(eventKeys(read(reordered), reordered, 10 * W + 6, W)[0]).toBe(key);
		expect(eventKeys(read(F.messageInsert), F.messageInsert, 10 * W, W)[0]).not.toBe(key);
		// A repeat in the next window is caught through the bucket before; two windows later it is new.
		expect(eventKeys(read(F.messageUpdateSent), F.messageUpdateSent, 11 * W, W)[1]).toBe(key);
		expect(eventKeys(read(F.messageUpdateSent), F.messageUpdateSent, 12 * W, W)).not.toContain(key);
	});

	/** n8n's store as its DeduplicationHelper works: read the list, then write it back whole (a held first call lets a test interleave). */
	function storeModel() {
		let list: string[] = [];
		const gates: Array<() => void> = [];
		const store =
			(holdFirst: boolean): Store =>
			async (entries) => {
				const seen = new Set(list);
				if (holdFirst) {
					holdFirst = false;
					await new Promise<void>((resolve) => gates.push(resolve));
				}
				const next = [...seen];
				const processed = entries.filter((e) => seen.has(e));
				for (const e of entries) if (!seen.has(e)) next.push(e);
				list = next;
				return { processed };
			};
		return {
			store,
			gates,
			get list() {
				return list;
			},
			set list(v: string[]) {
				list = v;
			},
		};
	}

	it('two executions with one event reading the store at once: exactly one passes it on (#33.4)', async () => {
		const m = storeModel();
		const ev: [string, string] = ['E@2', 'E@1'];
		// A and B both read before either writes; B writes last, so A's claim is gone.
		const a = claimEvents(m.store(true), [ev], 'A', 5);
		const b = claimEvents(m.store(true), [ev], 'B', 5);
		await sleep(1);
		m.gates.shift()!();
		await sleep(1);
		m.gates.shift()!();
		const owners = await Promise.all([a, b]);
		expect(owners.map((set) => set.has('E@2'))).toEqual([false, true]);
		// A third delivery afterwards: seen.
		expect((await claimEvents(m.store(false), [ev], 'C', 1)).size).toBe(0);
		printFigures('AccessPoint Trigger: two identical deliveries at once (store model)', { 'passed on': owners.filter((s) => s.size).length });
	});

	it('a claim overwritten by an unrelated event is kept: the event is not lost', async () => {
		const m = storeModel();
		const mine = claimEvents(m.store(false), [['E@2', 'E@1']], 'A', 20);
		await sleep(1);
		m.list = ['other']; // a write of another event that read before A wrote
		expect((await mine).has('E@2')).toBe(true);
		expect(m.list).toEqual(expect.arrayContaining(['other', 'E@2', 'E@2#A']));
	});

	it("six events at once, two of them delivered twice: each owned exactly once and every record kept (the store's concurrent writes lose none)", async () => {
		let lost = 0;
		let wrongOwners = 0;
		for (let trial = 0; trial < 10; trial++) {
			let list: string[] = [];
			const store: Store = async (entries) => {
				const row = [...list];
				await sleep(0);
				const processed = entries.filter((e) => row.includes(e));
				for (const e of entries) if (!row.includes(e)) row.push(e);
				await sleep(0);
				list = row;
				return { processed };
			};
			const keys = ['A', 'B', 'C', 'D', 'E', 'F'];
			const owned = await Promise.all([...keys, 'A', 'B'].map((k, i) => claimEvents(store, [[`${k}@2`, `${k}@1`]], `x${i}`, 50)));
			lost += keys.filter((k) => !list.includes(`${k}@2`)).length;
			wrongOwners += keys.filter((k) => owned.filter((set) => set.has(`${k}@2`)).length !== 1).length;
		}
		expect({ lost, wrongOwners }).toEqual({ lost: 0, wrongOwners: 0 });
	});

	it('an event seen in this window or the one before is not passed on', async () => {
		const m = storeModel();
		m.list = ['E@1'];
		expect((await claimEvents(m.store(false), [['E@2', 'E@1']], 'A', 1)).size).toBe(0);
		expect((await claimEvents(m.store(false), [['F@2', 'F@1']], 'A', 1)).has('F@2')).toBe(true);
	});
});

describe('static data', () => {
	it('a limit refusal is repeated for the same request within a minute only', () => {
		const data: IDataObject = {};
		rememberRefusal(data, { wanted: 'u account Order I', at: 1000, message: 'no room', description: 'd' });
		expect(recentRefusal(data, 'u account Order I', 1000 + REFUSAL_MEMORY_MS - 1)?.message).toBe('no room');
		expect(recentRefusal(data, 'u account Order I', 1000 + REFUSAL_MEMORY_MS)).toBeUndefined();
		expect(recentRefusal(data, 'u account Order U', 2000)).toBeUndefined();
		rememberRefusal(data, undefined);
		expect(data).toEqual({});
	});
});
