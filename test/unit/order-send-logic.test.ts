/** Pure pieces of Order › Send: order-ID lists, transport types, keys, batches, errors, delivery. */
import type { IDataObject } from 'n8n-workflow';
import { readApiError } from '../../nodes/shared/http/transport';
import {
	attributeErrors,
	createIdempotencyKey,
	DELIVERY_OUTPUTS,
	deliveryState,
	idempotencyKey,
	isAlreadySent,
	lastResponse,
	normalizeTransportType,
	parseOrderIdList,
	planBatches,
	sendFacts,
	sendIdempotencyKey,
} from '../../nodes/Order/actions/order/sendRules';
import type { SendTarget } from '../../nodes/Order/actions/order/sendRules';
import { DELIVERY_DETAILS, publishedSentInvoice, WEBHOOK_FEEDBACK_MESSAGES } from '../fixtures/published';

describe('parseOrderIdList', () => {
	it.each([
		[123, [123]],
		['123', [123]],
		[' 123 , 456;789  1000 ', [123, 456, 789, 1000]],
		[
			[1, '2', ' 3 '],
			[1, 2, 3],
		],
		[
			['1, 2', 3],
			[1, 2, 3],
		],
		[{ OrderID: 77, OrderNumber: 'INV-1' }, [77]],
		[
			[{ OrderID: 5 }, { OrderID: '6' }],
			[5, 6],
		],
		['7, 7, 8', [7, 8]],
	])('%j → %j', (value, ids) => {
		expect(parseOrderIdList(value)).toEqual({ ids });
	});

	it.each([
		['', { problem: 'is empty' }],
		[null, { problem: 'is empty' }],
		[[], { problem: 'is empty' }],
		['INV-7', { problem: 'is not an OrderID', value: 'INV-7' }],
		['12, x', { problem: 'is not an OrderID', value: 'x' }],
		[0, { problem: 'is not an OrderID', value: 0 }],
		[-3, { problem: 'is not an OrderID', value: -3 }],
		[1.5, { problem: 'is not an OrderID', value: 1.5 }],
		[true, { problem: 'is not an OrderID', value: true }],
	])('%j is refused', (value, result) => {
		expect(parseOrderIdList(value)).toEqual(result);
	});
});

describe('normalizeTransportType', () => {
	it.each([
		['Peppol', 'Peppol'],
		['peppol', 'Peppol'],
		[' PEPPOL ', 'Peppol'],
		['email', 'SMTP'],
		['E-mail', 'SMTP'],
		['Email', 'SMTP'],
		['smtp', 'SMTP'],
		['letter', 'Letter'],
		['SDI', 'SDI'],
		[' Fax ', 'Fax'],
	])('%j → %j', (value, expected) => expect(normalizeTransportType(value)).toBe(expected));

	it.each(['', '   ', null, undefined, {}])('%j → undefined', (value) => expect(normalizeTransportType(value)).toBeUndefined());
});

describe('idempotency keys', () => {
	it('create key is create-<ExternalProviderID>', () => {
		expect(createIdempotencyKey('INV-2024-0042')).toBe('create-INV-2024-0042');
		expect(createIdempotencyKey("ERP-'quoted' & #1")).toBe("create-ERP-'quoted' & #1");
	});

	it('non-ASCII IDs are percent-encoded so the header is valid', () => {
		expect(createIdempotencyKey('Zoë-1')).toBe('create-Zo%C3%AB-1');
		expect(createIdempotencyKey('a\nb')).toBe('create-a%0Ab');
	});

	it('long keys are capped at 200 characters and stay distinct', () => {
		const a = idempotencyKey('send', `Peppol-${'1234567-'.repeat(40)}1`);
		const b = idempotencyKey('send', `Peppol-${'1234567-'.repeat(40)}2`);
		expect(a.length).toBeLessThanOrEqual(200);
		expect(b.length).toBeLessThanOrEqual(200);
		expect(a).not.toBe(b);
		expect(a.startsWith('send-Peppol-1234567-')).toBe(true);
		expect(idempotencyKey('send', `Peppol-${'1234567-'.repeat(40)}1`)).toBe(a);
	});

	it('send key: transport, strictness and the sorted order IDs', () => {
		expect(sendIdempotencyKey('Peppol', false, [12, 3, 7])).toBe('send-Peppol-3-7-12');
		expect(sendIdempotencyKey('Peppol', true, [7, 3])).toBe('send-Peppol-strict-3-7');
		expect(sendIdempotencyKey('Email', false, [3])).toBe('send-Email-3');
	});
});

describe('planBatches', () => {
	const t = (itemIndex: number, orderId: number, transportType = 'Peppol', strict = false, partyId?: string): SendTarget => ({
		itemIndex,
		orderId,
		transportType,
		strict,
		partyId,
	});

	it('groups by transport type (case-insensitive), in first-seen order', () => {
		const batches = planBatches([t(0, 1), t(1, 2, 'Email'), t(2, 3, 'peppol'), t(3, 4, 'Email'), t(4, 5)], 100);
		expect(batches).toEqual([
			{ partyId: undefined, transportType: 'Peppol', strict: false, orderIds: [1, 3, 5], itemIndex: 0 },
			{ partyId: undefined, transportType: 'Email', strict: false, orderIds: [2, 4], itemIndex: 1 },
		]);
	});

	it('keeps strict and non-strict apart, and parties apart', () => {
		const batches = planBatches([t(0, 1), t(1, 2, 'Peppol', true), t(2, 3, 'Peppol', false, '300001'), t(3, 4, 'Peppol', false, '300001')], 100);
		expect(batches.map((b) => [b.partyId, b.strict, b.orderIds])).toEqual([
			[undefined, false, [1]],
			[undefined, true, [2]],
			['300001', false, [3, 4]],
		]);
	});

	it('sends an order once per group, splits at the batch size, stamps the first item asking', () => {
		const batches = planBatches([t(0, 1), t(1, 2), t(2, 1), t(3, 3), t(4, 4), t(5, 5)], 2);
		expect(batches.map((b) => [b.orderIds, b.itemIndex])).toEqual([
			[[1, 2], 0],
			[[3, 4], 3],
			[[5], 5],
		]);
		expect(planBatches([t(0, 1), t(1, 2)], 0).map((b) => b.orderIds)).toEqual([[1], [2]]);
		expect(planBatches([], 10)).toEqual([]);
	});
});

describe('attributeErrors / isAlreadySent', () => {
	it('maps each entry to the orders it names; entries naming none are left over', () => {
		const strict = { code: 'ReceiverNotOnPeppol', description: 'Order 1002: receiver BE1002003070 is not registered on Peppol' };
		const sent = { code: 'AlreadySent', description: 'Order 1001 has already been sent' };
		const general = { code: 'GenericError', description: 'Something else' };
		const { perOrder, unattributed } = attributeErrors([strict, sent, general], [1001, 1002, 1003]);
		expect([...perOrder.entries()]).toEqual([
			[1002, strict],
			[1001, sent],
		]);
		expect(unattributed).toEqual([general]);
	});

	it('does not match an ID inside a longer number (e.g. a VAT number)', () => {
		const entry = { description: 'Order 5: receiver BE0123456749 refused' };
		expect([...attributeErrors([entry], [5, 234, 123456749]).perOrder.keys()]).toEqual([5]);
		expect(attributeErrors([{ description: 'receiver BE0123456749' }], [12345674]).unattributed).toHaveLength(1);
	});

	it('an entry naming several orders concerns each of them', () => {
		const entry = { code: 'Unauthorized', description: 'Orders 7, 9 do not belong to party 300001' };
		expect([...attributeErrors([entry], [7, 8, 9]).perOrder.keys()]).toEqual([7, 9]);
	});

	it('"already sent" wins over another entry for the same order', () => {
		const strict = { code: 'ReceiverNotOnPeppol', description: 'Order 4: receiver X is not on Peppol' };
		const sent = { code: 'AlreadySent', description: 'Order 4 has already been sent' };
		expect(attributeErrors([strict, sent], [4]).perOrder.get(4)).toBe(sent);
		expect(attributeErrors([sent, strict], [4]).perOrder.get(4)).toBe(sent);
	});

	it('isAlreadySent reads the code, or the text when there is no code', () => {
		expect(isAlreadySent({ code: 'AlreadySent' })).toBe(true);
		expect(isAlreadySent({ code: 'already_sent' })).toBe(true);
		expect(isAlreadySent({ description: 'Order 4 was already sent' })).toBe(true);
		expect(isAlreadySent({ code: 'GenericError', description: 'Order 4 was already sent?' })).toBe(false);
		expect(isAlreadySent({ code: 'ReceiverNotOnPeppol' })).toBe(false);
	});
});

describe('sendFacts: how an order went out, from its last Outgoing message', () => {
	it('reads the published OrderMessage: transport, CreationDate, and the fallback against the request', () => {
		const order = publishedSentInvoice();
		expect(sendFacts(order, 'Peppol')).toEqual({ sentVia: 'Peppol', fallback: false, sentAt: '2026-06-30T16:52:06.21' });
		// The Incoming response is not a send.
		expect(sendFacts(order, 'Email')).toMatchObject({ sentVia: 'Peppol', fallback: true });
	});

	it('takes the latest send; messages that name no direction are read as sends (older answers), Incoming ones never', () => {
		const order = {
			Messages: [
				{ TransportType: 'Peppol', Description: 'Earlier', CreationDate: '2024-01-01T00:00:00' },
				{ Description: 'Viewed by customer' },
				{ TransportType: 'Email', Description: 'Fallback: sent by e-mail', CreationDate: '2024-03-01T10:00:00', MessageDirection: 'Outgoing' },
				{ TransportType: 'Peppol', Description: 'AB: received', CreationDate: '2024-03-02T10:00:00', MessageDirection: 'Incoming' },
			],
		};
		expect(sendFacts(order, 'Peppol')).toEqual({ sentVia: 'SMTP', fallback: true, sentAt: '2024-03-01T10:00:00', sentInfo: 'Fallback: sent by e-mail' });
		expect(sendFacts({ Messages: [{ Transporttype: 'peppol', Date: '2024-01-01T00:00:00' }] }, 'Peppol')).toEqual({
			sentVia: 'Peppol',
			fallback: false,
			sentAt: '2024-01-01T00:00:00',
		});
		expect(sendFacts({ Messages: [{ TransportType: 'E-mail' }] }, 'SMTP')).toEqual({ sentVia: 'SMTP', fallback: false });
		// No transport type asked (Peppol, else e-mail): an e-mail is the fallback, Peppol is not.
		expect(sendFacts({ Messages: [{ TransportType: 'SMTP' }] }, '')).toEqual({ sentVia: 'SMTP', fallback: true });
		expect(sendFacts({ Messages: [{ TransportType: 'Peppol' }] }, '')).toEqual({ sentVia: 'Peppol', fallback: false });
	});

	it('nothing known without a send', () => {
		expect(sendFacts({}, 'Peppol')).toEqual({});
		expect(sendFacts({ Messages: [] }, 'Peppol')).toEqual({});
		expect(sendFacts({ Messages: [null, 'x', { Description: 'queued' }, { ...WEBHOOK_FEEDBACK_MESSAGES.response }] }, 'Peppol')).toEqual({});
	});
});

describe("lastResponse: the receiver's latest response, its code from Description", () => {
	it('reads the published response message', () => {
		expect(lastResponse(publishedSentInvoice())).toEqual({ code: 'AP', text: 'The business document has been validated and forwarded to the recipient.' });
		expect(lastResponse({ Messages: [{ MessageDirection: 'Incoming', Description: 'free text' }] })).toEqual({ text: 'free text' });
		expect(lastResponse({ Messages: [WEBHOOK_FEEDBACK_MESSAGES.sendUpdate] })).toBeUndefined();
	});
});

describe('deliveryState: delivered only when the service says so (#28)', () => {
	const state = (details: object, extra: IDataObject = {}) => {
		const { status, output } = deliveryState({ IsSent: true, CurrentDocumentDeliveryDetails: details as IDataObject, ...extra });
		return [status, DELIVERY_OUTPUTS[output]];
	};

	it.each([
		['published delivered', DELIVERY_DETAILS.delivered, ['Delivered', 'Delivered']],
		['published delivered (Polling)', DELIVERY_DETAILS.polledDelivered, ['Delivered', 'Delivered']],
		['published negative (Error with the Refused fields)', DELIVERY_DETAILS.negative, ['Refused', 'Error / Refused']],
		['published pending', DELIVERY_DETAILS.pending, ['Pending', 'Pending / Not Sent']],
		[
			'Refused fields on a "Delivered" status never read as delivered',
			{ ...DELIVERY_DETAILS.delivered, DocumentRefusedReasonTC: 'REF' },
			['Refused', 'Error / Refused'],
		],
		['Error without a refusal', { IsDocumentDelivered: false, DocumentDeliveryStatus: 'Error' }, ['Error', 'Error / Refused']],
		['a status this node does not know', { DocumentDeliveryStatus: 'Quarantined' }, ['Quarantined', 'Error / Refused']],
		['IsDocumentDelivered without a status', { IsDocumentDelivered: true }, ['Delivered', 'Delivered']],
	])('%s', (_what, details, expected) => {
		expect(state(details)).toEqual(expected);
	});

	it('nothing reported: NotSent for an order never sent (published "Polling" object), Unknown for a sent one', () => {
		expect(state(DELIVERY_DETAILS.polledNothingYet, { IsSent: false })).toEqual(['NotSent', 'Pending / Not Sent']);
		expect(deliveryState({ Messages: [], CurrentDocumentDeliveryDetails: DELIVERY_DETAILS.polledNothingYet }).status).toBe('NotSent');
		expect(state(DELIVERY_DETAILS.polledNothingYet)).toEqual(['Unknown', 'Pending / Not Sent']);
		expect(deliveryState({}).status).toBe('Unknown');
	});
});

describe('readApiError: the entries', () => {
	const entriesOf = (body: unknown) => readApiError(body).entries;

	it('reads every entry of the shapes seen in the wild', () => {
		expect(
			entriesOf({
				errors: [
					{ Code: 'A', Description: 'Order 1: x' },
					{ Code: 'B', Description: 'Order 2: y' },
				],
			}),
		).toEqual([
			{ code: 'A', description: 'Order 1: x' },
			{ code: 'B', description: 'Order 2: y' },
		]);
		expect(entriesOf({ Errors: [{ code: 'C', message: 'm' }] })).toEqual([{ code: 'C', description: 'm' }]);
		expect(entriesOf([{ Code: 'D', Message: 'n' }, 'junk', null, {}])).toEqual([{ code: 'D', description: 'n' }]);
		expect(entriesOf('{"errors":[{"Code":"E","Description":"text body"}]}')).toEqual([{ code: 'E', description: 'text body' }]);
	});

	it('nothing for bodies without entries', () => {
		expect(entriesOf({ Message: 'single' })).toEqual([]);
		expect(entriesOf('OK')).toEqual([]);
		expect(entriesOf('{broken')).toEqual([]);
		expect(entriesOf(undefined)).toEqual([]);
	});
});
