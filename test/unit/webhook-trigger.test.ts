/** The AccessPoint Trigger's pure parts: subscriptions, signature header, timestamps, event keys, items, recent-event memory. */
import { createHmac } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { buildItem, classify, eventKey, outputEventOf, subscriptionsFor } from '../../nodes/AccessPointTrigger/events';
import { checkTimestamp, parseSignatureHeader, signedWithAny } from '../../nodes/AccessPointTrigger/signature';
import { MAX_RECENT, RECENT_KEY, matchesWanted, readWebhooks, rememberEvents, seenRecently } from '../../nodes/AccessPointTrigger/state';
import { printFigures } from '../reliability/report';

const hex = (secret: string, t: number, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

describe('subscriptions', () => {
	it('one webhook per entity/update type, Delivery Status Changed as Message I and U, in a stable order', () => {
		const keys = (events: Parameters<typeof subscriptionsFor>[0]) => subscriptionsFor(events).map((s) => `${s.entityType} ${s.updateType}`);
		expect(keys(['deliveryStatusChanged'])).toEqual(['Message I', 'Message U']);
		expect(keys(['orderDeleted', 'orderCreated'])).toEqual(['Order I', 'Order D']);
		expect(keys(['orderCreated', 'orderUpdated', 'orderDeleted', 'deliveryStatusChanged'])).toHaveLength(5);
	});

	it('maps a delivered event to the item event only when selected', () => {
		expect(outputEventOf('Order', 'I', ['orderCreated'])).toBe('created');
		expect(outputEventOf('Order', 'U', ['orderCreated'])).toBeUndefined();
		expect(outputEventOf('Message', 'I', ['deliveryStatusChanged'])).toBe('deliveryStatusChanged');
		expect(outputEventOf('Message', 'D', ['deliveryStatusChanged'])).toBeUndefined();
		expect(classify({ EntityType: 'order', EntityUpdateType: 'u' })).toEqual({ entityType: 'Order', updateType: 'U' });
		expect(classify({ EntityType: 'Invoice', EntityUpdateType: 'I' })).toBeUndefined();
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

describe('events and items', () => {
	it('an event key names entity, update type and the event (EventID first, else its time)', () => {
		expect(eventKey({ EntityID: 5, EventID: 9, EventDate: '2024-01-01T00:00:00Z' }, 'Order', 'U')).toBe('Order|U|5|#9');
		expect(eventKey({ OrderID: 5, EventDate: '2024-01-01T00:00:00Z' }, 'Order', 'U')).toBe('Order|U|5|2024-01-01T00:00:00Z');
		expect(eventKey({ MessageID: 7, LastModified: 'x' }, 'Message', 'I')).toBe('Message|I|7|x');
		expect(eventKey({ OrderID: 5 }, 'Order', 'U')).toBeUndefined();
	});

	it('a Message item carries the flow state; with a full order its delivery details are flattened and the message wins', () => {
		const payload: IDataObject = { OrderID: 5, EntityType: 'Message', EntityUpdateType: 'I', MessageID: 77, Status: 'Refused', RefusedReasonTC: 'REF' };
		const order: IDataObject = {
			OrderID: 5,
			OrderNumber: 'INV-5',
			CurrentDocumentDeliveryDetails: { IsDocumentDelivered: true, DocumentDeliveryStatus: 'Delivered', DocumentDeliveryInfo: 'ok', DocumentRefusedReasonTC: 'REF', DocumentRefusedInfo: 'PO' },
		};
		const plain = buildItem({ event: 'deliveryStatusChanged', entityType: 'Message', updateType: 'I', payload, receivedAt: 'now' });
		expect(plain).toEqual({
			event: 'deliveryStatusChanged',
			entityType: 'Message',
			updateType: 'I',
			OrderID: 5,
			MessageID: 77,
			deliveryStatus: 'Refused',
			deliveryInfo: null,
			refusedReason: 'REF',
			receivedAt: 'now',
			payload,
		});
		const full = buildItem({ event: 'deliveryStatusChanged', entityType: 'Message', updateType: 'I', payload, receivedAt: 'now', order });
		expect(full).toMatchObject({ OrderNumber: 'INV-5', delivered: true, deliveryStatus: 'Refused', deliveryInfo: 'ok', refusedInfo: 'PO', event: 'deliveryStatusChanged' });
		const gone = buildItem({ event: 'updated', entityType: 'Order', updateType: 'U', payload: { OrderID: 5 }, receivedAt: 'now', order: null });
		expect(gone).toMatchObject({ orderFound: false, OrderID: 5 });
	});
});

describe('recent events (static data)', () => {
	it('remembers keys within the window only, and at most MAX_RECENT of them (the newest)', () => {
		const data: IDataObject = {};
		rememberEvents(data, ['a'], 1000, 300_000);
		expect(seenRecently(data, 'a', 1000 + 300_000, 300_000)).toBe(true);
		expect(seenRecently(data, 'a', 1001 + 300_000, 300_000)).toBe(false);
		rememberEvents(data, ['b'], 1000 + 400_000, 300_000);
		expect(Object.keys(data[RECENT_KEY] as IDataObject)).toEqual(['b']);

		const many: IDataObject = {};
		for (let i = 0; i < MAX_RECENT + 50; i++) rememberEvents(many, [`k${i}`], i, 10_000_000);
		const kept = Object.keys(many[RECENT_KEY] as IDataObject);
		expect(kept).toHaveLength(MAX_RECENT);
		expect(kept).toContain(`k${MAX_RECENT + 49}`);
		expect(kept).not.toContain('k0');
		printFigures('AccessPoint Trigger: recent-event memory', { 'events recorded': MAX_RECENT + 50, 'keys kept': kept.length, 'static data JSON (bytes)': JSON.stringify(many).length });
	});
});
