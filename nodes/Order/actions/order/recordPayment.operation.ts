/**
 * Order › Record Payment: `POST /v1/orders/{ID}/payments` with Amount, Payment Date,
 * Payment Type and Reference, checked before any request. The output shows what the
 * order still owes (ToPay) when the service says. With a Reference, a retried run does
 * not record the same payment twice: the idempotency key is built from it.
 */
import { type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { AMOUNT, checkDecimal, DECIMAL_FORMS } from './decimal';
import { inputError, requireValid } from '../../../shared/node/input';
import { runPerItem } from '../../../shared/node/items';
import { orderIdField, readOrderId } from './orderId';
import type { ClientProvider } from '../../../shared/node/router';
import { readPartyOption } from '../options';
import { getOrder } from '../../../shared/domain/order';
import { toOrderDate } from './orderBody';
import { answeredObject, readEveryItem, refusalError } from './orderChanges';
import { readIdempotencyHeader, readSingleOrderPath } from './orderInput';
import { idempotencyKey } from './sendLogic';

const TEXT_LIMITS = { PaymentType: 50, Reference: 200 } as const;

const properties: INodeProperties[] = [
	orderIdField({ description: 'The invoice or credit note that was paid: pick it, enter its OrderID, or map {{ $json.OrderID }}' }),
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 121,50 or 121.50',
		description: `The amount paid, positive, at most two decimals, "." or "," for decimals (${DECIMAL_FORMS}); not more than the order still owes. Read one way only: 1,250 is refused as ambiguous.`,
	},
	{
		displayName: 'Payment Date',
		name: 'paymentDate',
		type: 'dateTime',
		typeOptions: { dateOnly: true },
		required: true,
		default: '',
		description: 'The day it was paid, sent as YYYY-MM-DD',
	},
	{
		displayName: 'Payment Type',
		name: 'paymentType',
		type: 'string',
		default: '',
		placeholder: 'e.g. Bank transfer',
		description: 'How it was paid (at most 50 characters)',
	},
	{
		displayName: 'Reference',
		name: 'reference',
		type: 'string',
		default: '',
		placeholder: 'e.g. the bank transaction ID',
		description:
			'Your reference for the payment (at most 200 characters). Set it to something unique, such as the bank transaction ID: a retried run then does not record the same payment twice.',
	},
];

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['order'], operation: ['recordPayment'] } }, properties);

/** The payment body of one item, checked: a positive amount in cents (read as typed, never rounded), a real date, short texts. */
export function readPayment(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const wrong = (label: string, value: unknown, problem: string, hint: string) => inputError(ctx, itemIndex, label, value, problem, hint);
	const amount = requireValid(ctx, itemIndex, 'Amount', ctx.getNodeParameter('amount', itemIndex, '') as unknown, (v) => checkDecimal(v, AMOUNT));
	const rawDate = ctx.getNodeParameter('paymentDate', itemIndex, '') as unknown;
	const date = toOrderDate(rawDate);
	const dateHint = 'Enter the day it was paid as YYYY-MM-DD, e.g. 2024-03-31 (a date picker value or {{ $today }} works too).';
	if (rawDate === '' || rawDate === undefined || rawDate === null) throw wrong('Payment Date', rawDate, 'is empty', dateHint);
	if (!date) throw wrong('Payment Date', rawDate, 'is not a real date in the form YYYY-MM-DD', dateHint);
	const body: IDataObject = { Amount: amount, PaymentDate: date };
	for (const [field, label, name] of [
		['PaymentType', 'Payment Type', 'paymentType'],
		['Reference', 'Reference', 'reference'],
	] as const) {
		const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
		if (value === undefined || value === null || value === '') continue;
		if (typeof value !== 'string') throw wrong(label, value, 'is not text', `Enter text, or map a text value (e.g. {{ String($json.${name}) }}).`);
		const trimmed = value.trim();
		if (!trimmed) continue;
		if (trimmed.length > TEXT_LIMITS[field]) throw wrong(label, value, `is longer than ${TEXT_LIMITS[field]} characters`, 'Shorten it.');
		body[field] = trimmed;
	}
	return body;
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const reads = readEveryItem(this, (itemIndex) => ({
		orderId: readOrderId(this, itemIndex),
		payment: readPayment(this, itemIndex),
		path: readSingleOrderPath(this, itemIndex),
	}));
	return await runPerItem(this, async (itemIndex) => {
		const read = reads[itemIndex];
		if (read instanceof Error) throw read;
		const { orderId, payment, path } = read;
		const client = await clients(itemIndex, readPartyOption(this, itemIndex));
		const header = readIdempotencyHeader(this, itemIndex);
		const reference = typeof payment.Reference === 'string' ? payment.Reference : '';
		// Without a Reference two real payments of the same amount on the same day could not be told apart.
		const keyed = reference !== '' && header !== 'none';
		const headers: Record<string, string> = { 'Content-Type': 'application/json' };
		if (keyed) headers[header] = idempotencyKey('payment', `${orderId}-${payment.Amount as number}-${payment.PaymentDate as string}-${reference}`);
		const attempt = await client
			.request<unknown>({
				method: 'POST',
				path: `/v1/orders/${orderId}/payments`,
				body: payment,
				headers,
				itemIndex,
				operation: `Record payment of order ${orderId}`,
				acceptText: true,
			})
			.then(
				(answer) => ({ answer }),
				(error: unknown) => ({ error }),
			);
		if ('error' in attempt) {
			const status = String((attempt.error as { httpCode?: unknown }).httpCode ?? '');
			if (keyed && status === '409') {
				// The key was used: this payment was recorded by an earlier run. Show where the order stands now.
				const order = await getOrder(client, orderId, itemIndex, path);
				return {
					OrderID: orderId,
					...payment,
					ToPay: order.ToPay ?? null,
					Paid: order.Paid ?? null,
					OrderStatus: order.OrderStatus ?? null,
					AlreadyRecorded: true,
				};
			}
			throw refusalError(
				this.getNode(),
				attempt.error,
				itemIndex,
				`The payment of order ${orderId} was not recorded`,
				'The service takes payments on invoices and credit notes that are not canceled or fully paid, up to what the order still owes (ToPay).',
			);
		}
		const answered = answeredObject(attempt.answer);
		// The summary (with ToPay) when the service answers one; what was sent when it answers an empty 200.
		return { OrderID: orderId, ...payment, ...(answered ?? {}), AlreadyRecorded: false };
	});
}
