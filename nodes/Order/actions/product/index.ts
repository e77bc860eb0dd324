/** Order › Product's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../../shared/router';
import * as getAll from './getAll.operation';

export const product: ResourceOperations = {
	resource: { name: 'Product', value: 'product' },
	default: 'getAll',
	operations: [
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List products with filters and sorting',
			action: 'Get many products',
			module: getAll,
		},
	],
};
