/**
 * Order › Update (`PATCH /v1/orders/{ID}`): only the fields set are sent, each on the page "Patchable Properties" (docs/api.md);
 * amounts, lines and the status cannot change (a credit note corrects or cancels an invoice).
 */
import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { inputError, readBoolean, requireValid } from '../../../shared/node/input';
import { checkDate } from './orderBody';
import { orderIdField, readOrderId } from './orderId';
import type { ClientProvider } from '../../../shared/node/router';
import { answeredObject, sendChange } from '../writes';
import { runItems } from '../../../shared/node/items';
import { readActForParty } from '../../../shared/fields/fields';

const APPROVAL_STATUSES = ['Approved', 'Pending', 'Rejected'];
const MAX_INTERNAL_INFO = 2000;
const MAX_ACCOUNT_CODE = 50;
/** Shown only when the parameters hold a value for it (n8n keeps a collection value only while its option is shown). */
const savedOnly = (name: string): IDisplayOptions => ({ show: { [name]: [{ _cnd: { exists: true } }] } });
/** The patchable flags: parameter, label, API name, description. */
const FLAGS = [
	['accountantVerificationNeeded', 'Accountant Verification Needed', 'AccountantVerificationNeeded', 'Whether the accountant must check the order'],
	['invoiced', 'Invoiced', 'Invoiced', 'Whether the order counts as invoiced'],
	['isSent', 'Is Sent', 'IsSent', 'Whether the order counts as sent/exported'],
	['paid', 'Paid', 'Paid', 'Whether the order is paid (to record an amount, use Record Payment)'],
] as const;
const flag = ([name, displayName, , description]: readonly string[]): INodeProperties => ({ displayName, name, type: 'boolean', default: true, description });

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
			{ displayName: 'Account Code', name: 'accountCode', type: 'string', default: '', description: 'The general ledger account; empty clears it' },
			flag(FLAGS[0]),
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
				displayName: 'Internal Info',
				name: 'internalInfo',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Never sent to the customer; empty clears it',
			},
			flag(FLAGS[1]),
			flag(FLAGS[2]),
			// Offered by 1.0 (OrderStatus is not patchable): shown only where a workflow still holds it, so that n8n keeps it and the run says what to do.
			{ ...flag(['cancel', 'Cancel', '', 'No longer done by Update: remove it']), displayOptions: savedOnly('cancel') },
			flag(FLAGS[3]),
			{ displayName: 'Paid Date', name: 'paidDate', type: 'dateTime', typeOptions: { dateOnly: true }, default: '' },
		],
		hint: 'The fields the service lets an order change. To cancel an invoice, create a credit note for it (Create Credit Note).',
	},
];

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['order'], operation: ['update'] } }, properties);

/** The PATCH body from Update Fields: only what is set, each value of the type the API takes. */
function readChange(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const change: IDataObject = {};
	const wrong = (label: string, value: unknown, problem: string, hint: string) => inputError(ctx, itemIndex, label, value, problem, hint);
	const cancel = 'To cancel an invoice, create a credit note for it (Create Credit Note); remove Cancel.';
	if (fields.cancel !== undefined) throw wrong('Cancel', fields.cancel, 'is no longer offered: the service does not cancel by Update', cancel);
	for (const [name, label, api] of FLAGS) if (fields[name] !== undefined) change[api] = readBoolean(ctx, itemIndex, `updateFields.${name}`, label, true);
	if (fields.paidDate !== undefined) change.PaidDate = requireValid(ctx, itemIndex, 'Paid Date', fields.paidDate, checkDate);
	if (fields.accountCode !== undefined) {
		const code = fields.accountCode;
		if (typeof code !== 'string' || code.length > MAX_ACCOUNT_CODE)
			throw wrong('Account Code', code, `is not text of at most ${MAX_ACCOUNT_CODE} characters`, 'Enter the account number, e.g. 700000.');
		change.AccountCode = code.trim() || null;
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
	if (Object.keys(change).length === 0) throw wrong('Update Fields', undefined, 'has nothing to change', 'Add at least one field.');
	return change;
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const read = (itemIndex: number) => ({ orderId: readOrderId(this, itemIndex), change: readChange(this, itemIndex) });
	return await runItems(this, read, async ({ orderId, change }, itemIndex) => {
		const client = await clients(itemIndex, readActForParty(this, itemIndex));
		const answer = await sendChange(
			this.getNode(),
			client,
			{ method: 'PATCH', path: `/v1/orders/${orderId}`, body: change, itemIndex, operation: `Update order ${orderId}` },
			`Order ${orderId} was not updated`,
			'To correct a sent or paid order, create a credit note.',
		);
		// An empty answer (some deployments) is a success too: the output is then what was changed.
		return answeredObject(answer) ?? { OrderID: orderId, ...change };
	});
}
