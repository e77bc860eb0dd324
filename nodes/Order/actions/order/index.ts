/** Order › Order's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../../shared/router';
import * as create from './create.operation';
import * as createAndSend from './createAndSend.operation';
import * as downloadFiles from './downloadFiles.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as send from './send.operation';

export const order: ResourceOperations = {
	resource: { name: 'Order', value: 'order' },
	default: 'getMany',
	operations: [
		{
			name: 'Create',
			value: 'create',
			description: 'Create an order (invoice, credit note …), or find the one already created',
			action: 'Create an order',
			module: create,
		},
		{
			name: 'Create and Send',
			value: 'createAndSend',
			description: 'Create an order (or find the one already created) and send it; a retried run sends nothing twice',
			action: 'Create and send an order',
			module: createAndSend,
		},
		{
			name: 'Download Files',
			value: 'downloadFiles',
			description: "Read an order's PDF, UBL, attachments or network messages as binary data",
			action: 'Download the files of an order',
			module: downloadFiles,
		},
		{ name: 'Get', value: 'get', description: 'Read one order by its OrderID', action: 'Get an order', module: get },
		{
			name: 'Get Many',
			value: 'getMany',
			description: 'List orders with filters and sorting',
			action: 'Get many orders',
			module: getMany,
		},
		{
			name: 'Send',
			value: 'send',
			description: 'Send existing orders over Peppol, by e-mail or by post, batched',
			action: 'Send orders',
			module: send,
		},
	],
};
