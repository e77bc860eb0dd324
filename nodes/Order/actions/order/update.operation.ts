/** Order › Update (`PATCH /v1/orders/{ID}`): only the fields set are sent; amounts and lines cannot change after creation (a credit note corrects them). */
import { type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { inputError } from '../../../shared/node/input';
import { orderIdField, readOrderId } from './orderId';
import type { ClientProvider } from '../../../shared/node/router';
import { readPartyOption } from '../options';
import { answeredObject, sendChange } from './orderChanges';
import { runItems } from '../../../shared/node/items';

const APPROVAL_STATUSES = ['Approved', 'Pending', 'Rejected'];
const MAX_INTERNAL_INFO = 2000;

const properties: INodeProperties[] = [
	orderIdField(),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are sent',
		options: [
			{
				displayName: 'Approval Status',
				name: 'approvalStatus',
				type: 'options',
				options: APPROVAL_STATUSES.map((value) => ({ name: value, value })),
				// No default that writes: added, it asks for a choice instead of approving.
				default: '',
				description: 'Approved makes an order awaiting approval payable',
			},
			{
				displayName: 'Cancel',
				name: 'cancel',
				type: 'boolean',
				default: true,
				description: 'Whether to cancel the order (not once sent over Peppol or paid)',
			},
			{
				displayName: 'Internal Info',
				name: 'internalInfo',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Never sent to the customer; empty clears it',
			},
			{
				displayName: 'Is Sent',
				name: 'isSent',
				type: 'boolean',
				default: true,
				description: 'Whether the order counts as sent/exported',
			},
		],
	},
];

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['order'], operation: ['update'] } }, properties);

/** The PATCH body from Update Fields: only what is set, each value of the type the API takes. */
function readChange(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const change: IDataObject = {};
	const wrong = (label: string, value: unknown, problem: string, hint: string) => inputError(ctx, itemIndex, label, value, problem, hint);
	if (fields.isSent !== undefined) {
		if (typeof fields.isSent !== 'boolean') throw wrong('Is Sent', fields.isSent, 'is not true or false', 'Switch it on or off, or map true or false.');
		change.IsSent = fields.isSent;
	}
	if (fields.internalInfo !== undefined) {
		const info = fields.internalInfo;
		if (info !== null && typeof info !== 'string') throw wrong('Internal Info', info, 'is not text', 'Enter text, or map a text value.');
		if (typeof info === 'string' && info.length > MAX_INTERNAL_INFO)
			throw wrong('Internal Info', `${info.slice(0, 40)}…`, `is longer than ${MAX_INTERNAL_INFO} characters (${info.length})`, 'Shorten the note.');
		change.InternalInfo = typeof info === 'string' && info.trim() !== '' ? info : null;
	}
	if (fields.approvalStatus !== undefined) {
		if (!APPROVAL_STATUSES.includes(fields.approvalStatus as string)) {
			const problem = fields.approvalStatus === '' ? 'is not chosen' : `is not one of ${APPROVAL_STATUSES.join(', ')}`;
			throw wrong('Approval Status', fields.approvalStatus, problem, 'Pick one, or remove the field.');
		}
		change.ApprovalStatus = fields.approvalStatus;
	}
	if (fields.cancel !== undefined) {
		if (typeof fields.cancel !== 'boolean') throw wrong('Cancel', fields.cancel, 'is not true or false', 'Switch it on to cancel the order.');
		if (fields.cancel) change.OrderStatus = 'Canceled';
	}
	const hint = 'Add at least one field, or switch Cancel on.';
	if (Object.keys(change).length === 0) throw wrong('Update Fields', undefined, 'has nothing to change', hint);
	return change;
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const read = (itemIndex: number) => ({ orderId: readOrderId(this, itemIndex), change: readChange(this, itemIndex) });
	return await runItems(this, read, async ({ orderId, change }, itemIndex) => {
		const client = await clients(itemIndex, readPartyOption(this, itemIndex));
		const answer = await sendChange(
			this.getNode(),
			client,
			{
				method: 'PATCH',
				path: `/v1/orders/${orderId}`,
				body: change,
				itemIndex,
				operation: `Update order ${orderId}`,
			},
			`Order ${orderId} was not updated`,
			'To correct a sent or paid order, create a credit note.',
		);
		// An empty answer (some deployments) is a success too: the output is then what was changed.
		return answeredObject(answer) ?? { OrderID: orderId, ...change };
	});
}
