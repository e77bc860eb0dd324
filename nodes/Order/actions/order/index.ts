/** Order › Order's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../../shared/node/router';
import { listOperation } from '../list';
import * as create from './create.operation';
import * as createAndSend from './createAndSend.operation';
import * as createCreditNote from './createCreditNote.operation';
import * as deleteOrder from './delete.operation';
import * as downloadFiles from './downloadFiles.operation';
import * as get from './get.operation';
import * as getDeliveryStatus from './getDeliveryStatus.operation';
import * as markExported from './markExported.operation';
import * as recordPayment from './recordPayment.operation';
import * as send from './send.operation';
import * as sendUbl from './sendUbl.operation';
import * as update from './update.operation';

export const order: ResourceOperations = {
	resource: { name: 'Order', value: 'order' },
	default: 'getAll',
	operations: [
		{
			name: 'Create',
			value: 'create',
			description: 'Create an order (invoice, credit note …), or find the one already created',
			action: 'Create an order',
			module: create,
		},
		{
			name: 'Create Credit Note',
			value: 'createCreditNote',
			description: 'Create a credit note for an invoice, with all or some of its lines; a retried run creates nothing twice',
			action: 'Create a credit note for an invoice',
			module: createCreditNote,
		},
		{
			name: 'Create and Send',
			value: 'createAndSend',
			description: 'Create an order (or find the one already created) and send it; a retried run sends nothing twice',
			action: 'Create and send an order',
			module: createAndSend,
		},
		{ name: 'Delete', value: 'delete', description: 'Delete an order that was not sent over Peppol', action: 'Delete an order', module: deleteOrder },
		{
			name: 'Download Files',
			value: 'downloadFiles',
			description: "Read an order's PDF, UBL, attachments or network messages as binary data",
			action: 'Download the files of an order',
			module: downloadFiles,
		},
		{ name: 'Get', value: 'get', description: 'Read one order by its OrderID', action: 'Get an order', module: get },
		{
			name: 'Get Delivery Status',
			value: 'getDeliveryStatus',
			description: 'Read whether orders were delivered, are pending, or failed or were refused, on three outputs',
			action: 'Get the delivery status of an order',
			module: getDeliveryStatus,
		},
		{ name: 'Get Many', value: 'getAll', description: 'List orders with filters and sorting', action: 'Get many orders', module: listOperation('order') },
		{
			name: 'Mark as Exported',
			value: 'markExported',
			description: 'Mark a received supplier (purchase) invoice as booked in your accounting: it is not exported again',
			action: 'Mark an incoming invoice as exported',
			module: markExported,
		},
		{
			name: 'Mark as Not Exported',
			value: 'markNotExported',
			description: 'Mark a received supplier invoice as not exported, so it is exported again',
			action: 'Mark an incoming invoice as not exported',
			module: markExported.exportFlag('markNotExported', false),
		},
		{
			name: 'Record Payment',
			value: 'recordPayment',
			description: 'Record a payment of an invoice or credit note; outputs what it still owes',
			action: 'Record a payment of an order',
			module: recordPayment,
		},
		{ name: 'Send', value: 'send', description: 'Send existing orders over Peppol, by e-mail or by post, batched', action: 'Send orders', module: send },
		{
			name: 'Send UBL Document',
			value: 'sendUbl',
			description: 'Send a ready UBL invoice or credit note (XML from a binary field) over Peppol as it is',
			action: 'Send a UBL document',
			module: sendUbl,
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Change Is Sent, Internal Info or Approval Status of an order, or cancel it',
			action: 'Update an order',
			module: update,
		},
	],
};
