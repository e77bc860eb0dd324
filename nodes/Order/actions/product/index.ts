/** Order › Product's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../../shared/router';
import * as getMany from './getMany.operation';

export const product: ResourceOperations = {
	resource: { name: 'Product', value: 'product' },
	default: 'getMany',
	operations: [
		{
			name: 'Get Many',
			value: 'getMany',
			description: 'List products with filters and sorting',
			action: 'Get many products',
			module: getMany,
		},
	],
};
