/** Order › Order's operations, listed once: the node's description and the router read this list. */
// Named imports: a namespace import (import * as) would make tsc emit its interop helper into this file.
import type { ResourceOperations } from '../../../shared/node/router';
import { description as createDescription, execute as createExecute } from './create.operation';
import { description as createAndSendDescription, execute as createAndSendExecute } from './createAndSend.operation';
import { description as createCreditNoteDescription, execute as createCreditNoteExecute } from './createCreditNote.operation';
import { description as deleteOrderDescription, execute as deleteOrderExecute } from './delete.operation';
import { description as downloadFilesDescription, execute as downloadFilesExecute } from './downloadFiles.operation';
import { description as getDescription, execute as getExecute } from './get.operation';
import { description as getAllDescription, execute as getAllExecute } from './getAll.operation';
import { description as getDeliveryStatusDescription, execute as getDeliveryStatusExecute } from './getDeliveryStatus.operation';
import { description as markExportedDescription, execute as markExportedExecute } from './markExported.operation';
import { description as markNotExportedDescription, execute as markNotExportedExecute } from './markNotExported.operation';
import { description as recordPaymentDescription, execute as recordPaymentExecute } from './recordPayment.operation';
import { description as sendDescription, execute as sendExecute } from './send.operation';
import { description as sendUblDescription, execute as sendUblExecute } from './sendUbl.operation';
import { description as updateDescription, execute as updateExecute } from './update.operation';

export const order: ResourceOperations = {
	resource: { name: 'Order', value: 'order' },
	default: 'getAll',
	operations: [
		{
			name: 'Create',
			value: 'create',
			description: 'Create an order, or find the one already created',
			action: 'Create an order',
			module: { description: createDescription, execute: createExecute },
		},
		{
			name: 'Create Credit Note',
			value: 'createCreditNote',
			description: 'Create a credit note for all or some lines of an invoice',
			action: 'Create a credit note for an invoice',
			module: { description: createCreditNoteDescription, execute: createCreditNoteExecute },
		},
		{
			name: 'Create and Send',
			value: 'createAndSend',
			description: 'Create an order, or find it, and send it',
			action: 'Create and send an order',
			module: { description: createAndSendDescription, execute: createAndSendExecute },
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete an order that was not sent over Peppol',
			action: 'Delete an order',
			module: { description: deleteOrderDescription, execute: deleteOrderExecute },
		},
		{
			name: 'Download Files',
			value: 'downloadFiles',
			description: "Read an order's PDF, UBL and other files",
			action: 'Download the files of an order',
			module: { description: downloadFilesDescription, execute: downloadFilesExecute },
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Read one order by its OrderID',
			action: 'Get an order',
			module: { description: getDescription, execute: getExecute },
		},
		{
			name: 'Get Delivery Status',
			value: 'getDeliveryStatus',
			description: 'Read whether an order was delivered',
			action: 'Get the delivery status of an order',
			module: { description: getDeliveryStatusDescription, execute: getDeliveryStatusExecute },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List orders with filters and sorting',
			action: 'Get many orders',
			module: { description: getAllDescription, execute: getAllExecute },
		},
		{
			name: 'Mark as Exported',
			value: 'markExported',
			description: 'Mark a received supplier invoice as exported',
			action: 'Mark an incoming invoice as exported',
			module: { description: markExportedDescription, execute: markExportedExecute },
		},
		{
			name: 'Mark as Not Exported',
			value: 'markNotExported',
			description: 'Mark a received supplier invoice as not exported',
			action: 'Mark an incoming invoice as not exported',
			module: { description: markNotExportedDescription, execute: markNotExportedExecute },
		},
		{
			name: 'Record Payment',
			value: 'recordPayment',
			description: 'Record a payment of an invoice or credit note',
			action: 'Record a payment of an order',
			module: { description: recordPaymentDescription, execute: recordPaymentExecute },
		},
		{
			name: 'Send',
			value: 'send',
			description: 'Send existing orders over Peppol, by e-mail or by post',
			action: 'Send orders',
			module: { description: sendDescription, execute: sendExecute },
		},
		{
			name: 'Send UBL Document',
			value: 'sendUbl',
			description: 'Send a ready UBL invoice or credit note over Peppol',
			action: 'Send a UBL document',
			module: { description: sendUblDescription, execute: sendUblExecute },
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Change an order, or cancel it',
			action: 'Update an order',
			module: { description: updateDescription, execute: updateExecute },
		},
	],
};
