/** Order › File's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../../shared/node/router';
import * as get from './get.operation';

export const file: ResourceOperations = {
	resource: { name: 'File', value: 'file' },
	default: 'get',
	operations: [
		{
			name: 'Get',
			value: 'get',
			description: 'Read one file (PDF, UBL, attachment, network message) by its FileID as binary data',
			action: 'Get a file',
			module: get,
		},
	],
};
