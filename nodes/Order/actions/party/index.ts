/** Order › Party's operations, listed once: the node's description and the router read this list. */
// Named imports: a namespace import (import * as) would make tsc emit its interop helper into this file.
import type { ResourceOperations } from '../../../shared/node/router';
import { description as createDescription, execute as createExecute } from './create.operation';
import { description as findByVatDescription, execute as findByVatExecute } from './findByVat.operation';
import { description as getDescription, execute as getExecute } from './get.operation';
import { description as getAllDescription, execute as getAllExecute } from './getAll.operation';
import { description as updateDescription, execute as updateExecute } from './update.operation';

export const party: ResourceOperations = {
	resource: { name: 'Party', value: 'party' },
	default: 'getAll',
	operations: [
		{
			name: 'Create',
			value: 'create',
			description: 'Create a customer or supplier, or find the one with the same VAT number',
			action: 'Create or find a party (customer, supplier)',
			module: { description: createDescription, execute: createExecute },
		},
		{
			name: 'Find by VAT Number',
			value: 'findByVat',
			description: 'The customers or suppliers with a VAT number',
			action: 'Find parties by VAT number',
			module: { description: findByVatDescription, execute: findByVatExecute },
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Read one party by its PartyID',
			action: 'Get a party',
			module: { description: getDescription, execute: getExecute },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List parties with filters and sorting',
			action: 'Get many parties',
			module: { description: getAllDescription, execute: getAllExecute },
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Change some fields of a customer or supplier',
			action: 'Update a party',
			module: { description: updateDescription, execute: updateExecute },
		},
	],
};
