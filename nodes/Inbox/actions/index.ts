/** Peppol Inbox's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../shared/node/router';
import * as confirm from './confirm.operation';
import * as getDocument from './getDocument.operation';
import * as list from './list.operation';
import * as refuse from './refuse.operation';

export const inbox: ResourceOperations = {
	default: 'list',
	operations: [
		{ name: 'Confirm', value: 'confirm', description: 'Mark an item as handled: it leaves the inbox', action: 'Confirm an inbox item', module: confirm },
		{
			name: 'Get Document',
			value: 'getDocument',
			description: "Read an item's document (UBL) as binary data, with its kind",
			action: 'Get the document of an inbox item',
			module: getDocument,
		},
		{ name: 'List', value: 'list', description: 'List the inbox: at most its 10 oldest items', action: 'List the inbox items', module: list },
		{
			name: 'Refuse',
			value: 'refuse',
			description: 'Refuse a received document with a reason; it leaves the inbox',
			action: 'Refuse an inbox item',
			module: refuse,
		},
	],
};
