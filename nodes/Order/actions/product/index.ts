/** Order › Product's operations, listed once: the node's description and the router read this list. */
// Named imports: a namespace import (import * as) would make tsc emit its interop helper into this file.
import type { ResourceOperations } from '../../../shared/node/router';
import { description as createOrUpdateDescription, execute as createOrUpdateExecute } from './createOrUpdate.operation';
import { description as getDescription, execute as getExecute } from './get.operation';
import { description as getAllDescription, execute as getAllExecute } from './getAll.operation';

export const product: ResourceOperations = {
	resource: { name: 'Product', value: 'product' },
	default: 'getAll',
	operations: [
		{
			name: 'Create or Update',
			value: 'createOrUpdate',
			description: 'Create a product, or update the one with the same Reference or Product ID',
			action: 'Create or update a product',
			module: { description: createOrUpdateDescription, execute: createOrUpdateExecute },
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Read one product by its ProductID',
			action: 'Get a product',
			module: { description: getDescription, execute: getExecute },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List products with filters and sorting',
			action: 'Get many products',
			module: { description: getAllDescription, execute: getAllExecute },
		},
	],
};
