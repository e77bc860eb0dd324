/** Order › Party's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../../shared/router';
import * as getMany from './getMany.operation';

export const party: ResourceOperations = {
	resource: { name: 'Party', value: 'party' },
	default: 'getMany',
	operations: [
		{
			name: 'Get Many',
			value: 'getMany',
			description: 'List parties (customers, suppliers) with filters and sorting',
			action: 'Get many parties',
			module: getMany,
		},
	],
};
