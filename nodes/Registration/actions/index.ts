/** Registration's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../shared/node/router';
import * as create from './create.operation';
import * as deactivate from './deactivate.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const registration: ResourceOperations = {
	default: 'getAll',
	operations: [
		{
			name: 'Create',
			value: 'create',
			description: 'Register a company entity under the master account; outputs its RegistrationID',
			action: 'Create a registration',
			module: create,
		},
		{
			name: 'Deactivate',
			value: 'deactivate',
			description: 'Deactivate a registration (it is not deleted)',
			action: 'Deactivate a registration',
			module: deactivate,
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Get one registration with its company details and integrations',
			action: 'Get a registration',
			module: get,
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List the companies registered under the master account',
			action: 'Get many registrations',
			module: getAll,
		},
	],
};
