/** Order › Party's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../../shared/router';
import * as getAll from './getAll.operation';

export const party: ResourceOperations = {
	resource: { name: 'Party', value: 'party' },
	default: 'getAll',
	operations: [
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List parties (customers, suppliers) with filters and sorting',
			action: 'Get many parties',
			module: getAll,
		},
	],
};
