/** Registration's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../shared/node/router';
// Named imports, not `import * as`: a namespace import compiles to an interop helper of ~1.5 kB in this file.
import { description as createFields, execute as create } from './create.operation';
import { description as deactivateFields, execute as deactivate } from './deactivate.operation';
import { description as getFields, execute as get } from './get.operation';
import { description as getAllFields, execute as getAll } from './getAll.operation';

export const registration: ResourceOperations = {
	default: 'getAll',
	operations: [
		{
			name: 'Create',
			value: 'create',
			description: 'Register a company entity under the master account; outputs its RegistrationID',
			action: 'Create a registration',
			module: { description: createFields, execute: create },
		},
		{
			name: 'Deactivate',
			value: 'deactivate',
			description: 'Deactivate a registration (it is not deleted)',
			action: 'Deactivate a registration',
			module: { description: deactivateFields, execute: deactivate },
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Get one registration with its company details and integrations',
			action: 'Get a registration',
			module: { description: getFields, execute: get },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List the companies registered under the master account',
			action: 'Get many registrations',
			module: { description: getAllFields, execute: getAll },
		},
	],
};
