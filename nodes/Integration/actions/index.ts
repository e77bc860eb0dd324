/** Integration's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../shared/node/router';
// Named imports, not `import * as`: a namespace import compiles to an interop helper of ~1.5 kB in this file.
import { description as createFields, execute as create } from './create.operation';
import { description as deleteFields, execute as deleteOperation } from './delete.operation';
import { description as getAllFields, execute as getAll } from './getAll.operation';

export const integration: ResourceOperations = {
	default: 'create',
	operations: [
		{
			name: 'Create',
			value: 'create',
			description: 'Activate a network for a registration',
			action: 'Create an integration',
			module: { description: createFields, execute: create },
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Remove an integration from a registration',
			action: 'Delete an integration',
			module: { description: deleteFields, execute: deleteOperation },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: "List a registration's integrations with their status",
			action: 'Get many integrations',
			module: { description: getAllFields, execute: getAll },
		},
	],
};
