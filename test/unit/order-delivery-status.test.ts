/**
 * Get Delivery Status as an AI tool: n8n hands an agent only a tool's first output, so
 * there every item (Delivered, Pending, Refused) must come out on that one output.
 */
import { constructExecutionMetaData, returnJsonArray } from 'n8n-core';
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { execute } from '../../nodes/Order/actions/order/getDeliveryStatus.operation';
import type { ClientProvider } from '../../nodes/shared/node/router';
import type { ApiClient } from '../../nodes/shared/http/transport';
import { DELIVERY_DETAILS, publishedSentInvoice } from '../fixtures/published';

const node = { name: 'Order', type: 'test', onError: 'stopWorkflow' } as unknown as INode;
const details = (status: string | null, refused = false) => ({
	IsDocumentDelivered: status === 'Delivered',
	DocumentDeliveryStatus: status,
	DocumentDeliveryDate: null,
	DocumentDeliveryInfo: null,
	DocumentRefusedDate: refused ? '2024-05-03T10:00:00Z' : null,
	DocumentRefusedInfo: null,
	DocumentRefusedReasonTC: refused ? 'REF' : null,
});
const ORDERS: Record<string, object> = {
	'/v1/orders/4': publishedSentInvoice(),
	'/v1/orders/5': { OrderID: 5, IsSent: false, Messages: [], CurrentDocumentDeliveryDetails: DELIVERY_DETAILS.polledNothingYet },
	'/v1/orders/6': { ...publishedSentInvoice(), OrderID: 6, CurrentDocumentDeliveryDetails: DELIVERY_DETAILS.negative },
	'/v1/orders/1': { OrderID: 1, IsSent: true, CurrentDocumentDeliveryDetails: details('Delivered', true) },
	'/v1/orders/2': { OrderID: 2, IsSent: true, CurrentDocumentDeliveryDetails: details('Pending') },
	'/v1/orders/3': { OrderID: 3, IsSent: true, CurrentDocumentDeliveryDetails: details('Delivered') },
};

function context(tool: boolean, ids = [1, 2, 3]): IExecuteFunctions {
	return {
		getNode: () => node,
		getInputData: () => ids.map((id) => ({ json: { id } })),
		continueOnFail: () => false,
		getNodeParameter: (name: string, item: number, fallback?: unknown) => (name === 'orderId' ? ids[item] : fallback),
		isToolExecution: () => tool,
		helpers: { returnJsonArray, constructExecutionMetaData },
	} as unknown as IExecuteFunctions;
}

const clients: ClientProvider = async () => ({ request: async ({ path }: { path: string }) => ORDERS[path] }) as unknown as ApiClient;

describe('Get Delivery Status as an AI tool', () => {
	it('in a workflow, routes to three outputs; a refused invoice never says Delivered: true (#28)', async () => {
		const outputs = await execute.call(context(false), clients);
		expect(outputs.map((list) => list.map((i) => [i.json.OrderID, i.json.Status, i.json.Delivered]))).toEqual([
			[[3, 'Delivered', true]],
			[[2, 'Pending', false]],
			[[1, 'Refused', false]],
		]);
	});
});

describe('Get Delivery Status on the published shapes', () => {
	it('the published sent invoice: Delivered, how and when it was sent, and the receiver\'s response code; a never-sent draft is "NotSent"; the negative example is Refused', async () => {
		const outputs = await execute.call(context(false, [4, 5, 6]), clients);
		expect(outputs.map((list) => list.map((i) => i.json.OrderID))).toEqual([[2619898], [5], [6]]);
		expect(outputs[0][0].json).toMatchObject({
			Status: 'Delivered',
			Delivered: true,
			DeliveryDate: '2025-04-23T12:57:23.23',
			SentVia: 'Peppol',
			SentAt: '2026-06-30T16:52:06.21',
			ResponseCode: 'AP',
			Response: 'The business document has been validated and forwarded to the recipient.',
		});
		expect(outputs[1][0].json).toMatchObject({ Status: 'NotSent', Delivered: false, SentVia: null });
		expect(outputs[2][0].json).toMatchObject({ Status: 'Refused', Delivered: false, Refused: true, RefusedInfo: 'No Valid VAT', DeliveryStatus: 'Error' });
	});
});
