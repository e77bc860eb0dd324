/**
 * Order › Record Payment (`POST /v1/orders/{ID}/payments`, the OpenAPI `PostPaymentRequest` {Amount, Description, Date}):
 * Payment Type and Reference travel in Description; with a Reference, its idempotency key keeps a retried run from recording it twice.
 */
import { type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { AMOUNT, checkDecimal, DECIMAL_FORMS } from '../decimal';
import { inputError, requireValid } from '../../../shared/node/input';
import { orderIdField, readOrderId } from './orderId';
import type { ClientProvider } from '../../../shared/node/router';
import { readIdempotencyHeader } from '../options';
import { getOrder, hasStatus } from '../../../shared/node/order';
import { answeredObject, refusalError, sendJson } from '../writes';
import { checkDate } from './orderBody';
import { runItems } from '../../../shared/node/items';
import { idempotencyKey } from './sendRules';
import { readActForParty } from '../../../shared/fields/fields';

const TEXT_LIMITS = { paymentType: 50, reference: 200 } as const;

const properties: INodeProperties[] = [
	orderIdField('The invoice or credit note that was paid'),
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 121,50 or 121.50',
		description: `At most what the order still owes, ${DECIMAL_FORMS}`,
	},
	{
		displayName: 'Payment Date',
		name: 'paymentDate',
		type: 'dateTime',
		typeOptions: { dateOnly: true },
		required: true,
		default: '',
	},
	{
		displayName: 'Payment Type',
		name: 'paymentType',
		type: 'string',
		default: '',
		placeholder: 'e.g. Bank transfer',
		description: 'Sent in the payment Description, together with the Reference',
	},
	{
		displayName: 'Reference',
		name: 'reference',
		type: 'string',
		default: '',
		placeholder: 'e.g. the bank transaction ID',
		description: 'Unique: a retry then never records it twice',
	},
];

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['order'], operation: ['recordPayment'] } }, properties);

/** The payment of one item, checked: a positive amount in cents (read as typed, never rounded), a real date, short texts. */
function readPayment(ctx: IExecuteFunctions, itemIndex: number) {
	const amount = requireValid(ctx, itemIndex, 'Amount', ctx.getNodeParameter('amount', itemIndex, '') as unknown, (v) => checkDecimal(v, AMOUNT));
	const texts = { paymentType: '', reference: '' };
	for (const [label, name] of [
		['Payment Type', 'paymentType'],
		['Reference', 'reference'],
	] as const) {
		const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
		if (value === undefined || value === null || value === '') continue;
		const wrong = (problem: string, hint: string) => inputError(ctx, itemIndex, label, value, problem, hint);
		if (typeof value !== 'string') throw wrong('is not text', `Enter text, or map a text value (e.g. {{ String($json.${name}) }}).`);
		const trimmed = value.trim();
		if (trimmed.length > TEXT_LIMITS[name]) throw wrong(`is longer than ${TEXT_LIMITS[name]} characters`, 'Shorten it.');
		texts[name] = trimmed;
	}
	const { paymentType, reference } = texts;
	const description = [paymentType, reference && `ref. ${reference}`].filter(Boolean).join(', ');
	const body: IDataObject = {
		Amount: amount,
		Date: requireValid(ctx, itemIndex, 'Payment Date', ctx.getNodeParameter('paymentDate', itemIndex, '') as unknown, checkDate),
	};
	if (description) body.Description = description;
	return { body, reference };
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const read = (itemIndex: number) => ({
		orderId: readOrderId(this, itemIndex),
		...readPayment(this, itemIndex),
	});
	return await runItems(this, read, async ({ orderId, body: payment, reference }, itemIndex) => {
		const client = await clients(itemIndex, readActForParty(this, itemIndex));
		const header = readIdempotencyHeader(this, itemIndex);
		// Without a Reference two real payments of the same amount on the same day could not be told apart.
		const keyed = reference !== '' && header !== 'none';
		const headers: Record<string, string> = {};
		if (keyed) headers[header] = idempotencyKey('payment', `${orderId}-${payment.Amount as number}-${payment.Date as string}-${reference}`);
		let answer: unknown;
		try {
			const operation = `Record payment of order ${orderId}`;
			answer = await sendJson(client, { method: 'POST', path: `/v1/orders/${orderId}/payments`, body: payment, headers, itemIndex, operation });
		} catch (error) {
			if (!keyed || !hasStatus(error, '409')) {
				const hint = 'Check that the order is open; pay at most its ToPay.';
				throw refusalError(this.getNode(), error, itemIndex, `The payment of order ${orderId} was not recorded`, hint);
			}
			// The key was used: this payment was recorded by an earlier run. Show where the order stands now.
			const order = await getOrder(client, orderId, itemIndex);
			return {
				OrderID: orderId,
				...payment,
				ToPay: order.ToPay ?? null,
				Paid: order.Paid ?? null,
				OrderStatus: order.OrderStatus ?? null,
				AlreadyRecorded: true,
			};
		}
		// The summary (with ToPay) when the service answers one; what was sent ({Amount, Description, Date}) when it answers an empty 200.
		return { OrderID: orderId, ...payment, ...answeredObject(answer), AlreadyRecorded: false };
	});
}
