/** Order › File's operations, listed once: the node's description and the router read this list. */
// Named imports: a namespace import (import * as) would make tsc emit its interop helper into this file.
import type { ResourceOperations } from '../../../shared/node/router';
import { description as getDescription, execute as getExecute } from './get.operation';

export const file: ResourceOperations = {
	resource: { name: 'File', value: 'file' },
	default: 'get',
	operations: [
		{
			name: 'Get',
			value: 'get',
			description: 'Read one file of an order by its FileID',
			action: 'Get a file',
			module: { description: getDescription, execute: getExecute },
		},
	],
};
