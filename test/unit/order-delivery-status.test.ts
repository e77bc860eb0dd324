/**
 * Get Delivery Status as an AI tool: n8n hands an agent only a tool's first output, so
 * there every item (Delivered, Pending, Refused) must come out on that one output.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { execute } from '../../nodes/Order/actions/order/getDeliveryStatus.operation';
import type { ClientProvider } from '../../nodes/shared/router';
import type { ApiClient } from '../../nodes/shared/transport';

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
	'/v1/order/1': { OrderID: 1, IsSent: true, CurrentDocumentDeliveryDetails: details('Delivered', true) },
	'/v1/order/2': { OrderID: 2, IsSent: true, CurrentDocumentDeliveryDetails: details('Pending') },
	'/v1/order/3': { OrderID: 3, IsSent: true, CurrentDocumentDeliveryDetails: details('Delivered') },
};

function context(tool: boolean): IExecuteFunctions {
	const ids = [1, 2, 3];
	return {
		getNode: () => node,
		getInputData: () => ids.map((id) => ({ json: { id } })),
		continueOnFail: () => false,
		getNodeParameter: (name: string, item: number, fallback?: unknown) => (name === 'orderId' ? ids[item] : fallback),
		isToolExecution: () => tool,
	} as unknown as IExecuteFunctions;
}

const clients: ClientProvider = async () =>
	({ request: async ({ path }: { path: string }) => ORDERS[path] }) as unknown as ApiClient;

describe('Get Delivery Status as an AI tool', () => {
	it('in a workflow, routes to three outputs', async () => {
		const outputs = await execute.call(context(false), clients);
		expect(outputs.map((list) => list.map((i) => [i.json.OrderID, i.json.Status]))).toEqual([[[3, 'Delivered']], [[2, 'Pending']], [[1, 'Refused']]]);
	});

	it('as a tool, puts every item on the first output, in input order', async () => {
		const outputs = await execute.call(context(true), clients);
		expect(outputs).toHaveLength(1);
		expect(outputs[0].map((i) => [i.json.OrderID, i.json.Status, i.pairedItem])).toEqual([
			[1, 'Refused', { item: 0 }],
			[2, 'Pending', { item: 1 }],
			[3, 'Delivered', { item: 2 }],
		]);
	});
});
