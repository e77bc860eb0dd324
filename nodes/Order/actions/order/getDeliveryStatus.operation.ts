/** Order › Get Delivery Status: each order's delivery, last send and last response, flattened, on one of three outputs (sendRules.ts deliveryState). */
import { type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { readActForParty, registrationIdField } from '../../../shared/fields/fields';
import { readRegistrationId } from '../../../shared/node/input';
import { oneByOne, runBatched } from '../../../shared/node/items';
import { orderIdField, readOrderId } from './orderId';
import type { ClientProvider } from '../../../shared/node/router';
import { getOrder } from '../../../shared/node/order';
import { DELIVERY_OUTPUTS, deliveryState, lastResponse, sendFacts } from './sendRules';
import { isRecord, text } from '../../../shared/domain/values';

const NOT_DELIVERED = 2;

const properties: INodeProperties[] = [
	orderIdField(),
	{
		displayName: 'Read Through',
		name: 'readThrough',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Order', value: 'order', description: "An order of the credential's party" },
			{
				name: 'Registered Entity (Access Point)',
				value: 'registration',
				description: 'An order of a registered company',
			},
		],
		default: 'order',
	},
	{ ...registrationIdField, displayOptions: { show: { readThrough: ['registration'] } } },
];

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['order'], operation: ['getDeliveryStatus'] } }, properties);

/** The flattened delivery status of an order and the output it goes to. */
function readDelivery(order: IDataObject): { json: IDataObject; output: number } {
	const { status, output, details } = deliveryState(order);
	const sent = sendFacts(order, '');
	const response = lastResponse(order);
	const party = (order.CounterParty ?? order.Customer) as IDataObject | undefined;
	const json: IDataObject = {};
	for (const key of ['OrderID', 'OrderNumber', 'OrderType', 'OrderStatus', 'IsSent']) json[key] = order[key];
	Object.assign(json, {
		CounterParty: text(party?.DisplayName) || text(party?.Name) || null,
		Status: status,
		Delivered: status === 'Delivered',
		DeliveryStatus: text(details.DocumentDeliveryStatus) || null,
		DeliveryDate: details.DocumentDeliveryDate,
		DeliveryInfo: details.DocumentDeliveryInfo,
		Refused: status === 'Refused',
		RefusedDate: details.DocumentRefusedDate,
		RefusedReason: details.DocumentRefusedReasonTC,
		RefusedInfo: details.DocumentRefusedInfo,
		SentVia: sent.sentVia,
		SentAt: sent.sentAt,
		ResponseCode: response?.code,
		Response: response?.text,
	});
	for (const key of Object.keys(json)) json[key] ??= null;
	return { json, output };
}

type Read = { orderId: number; registrationId?: string; partyId?: string };

function readItem(ctx: IExecuteFunctions, itemIndex: number): Read {
	const orderId = readOrderId(ctx, itemIndex);
	const through = ctx.getNodeParameter('readThrough', itemIndex, 'order') as string;
	if (through === 'registration') return { orderId, registrationId: readRegistrationId(ctx, itemIndex) };
	return { orderId, partyId: readActForParty(ctx, itemIndex) };
}

async function fetchOrder(clients: ClientProvider, read: Read, itemIndex: number): Promise<IDataObject> {
	if (read.registrationId === undefined) return await getOrder(await clients(itemIndex, read.partyId), read.orderId, itemIndex);
	return await (
		await clients(itemIndex)
	).request<IDataObject>({
		method: 'GET',
		path: `/v1/einvoices/registrations/${encodeURIComponent(read.registrationId)}/orders/${read.orderId}`,
		itemIndex,
		operation: `Get order ${read.orderId} of registration ${read.registrationId}`,
	});
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[][]> {
	const fetchDelivery = async (read: Read, itemIndex: number) => {
		const order = await fetchOrder(clients, read, itemIndex);
		if (!isRecord(order)) throw new Error(`Order ${read.orderId} was answered without an order object`);
		const { json, output } = readDelivery(order);
		if (json.OrderID === null) json.OrderID = read.orderId;
		if (read.registrationId !== undefined) json.RegistrationID = Number(read.registrationId);
		return { json, output };
	};
	const outputs = await runBatched<Read, { json: IDataObject; output: number } | Error>(this, {
		read: (itemIndex) => readItem(this, itemIndex),
		run: oneByOne(this, fetchDelivery),
		emit: (result) => [result instanceof Error ? result : result.json],
		route: (result) => (result instanceof Error ? NOT_DELIVERED : result.output),
		outputs: DELIVERY_OUTPUTS.length,
		// Not known to be delivered: with Continue it leaves through Error / Refused.
		errorOutput: NOT_DELIVERED,
	});
	return outputs; // As an AI tool, the router puts every item on the first output (its Status says which it is).
}
