/** Integration's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../shared/node/router';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as getAll from './getAll.operation';

export const integration: ResourceOperations = {
	default: 'create',
	operations: [
		{
			name: 'Create',
			value: 'create',
			description: 'Activate a network for a registration',
			action: 'Create an integration',
			module: create,
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Remove an integration from a registration',
			action: 'Delete an integration',
			module: deleteOperation,
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: "List a registration's integrations with their status",
			action: 'Get many integrations',
			module: getAll,
		},
	],
};
