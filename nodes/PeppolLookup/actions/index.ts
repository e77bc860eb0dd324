/** Peppol Lookup's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../shared/node/router';
import * as lookup from './lookup.operation';

export const peppolLookup: ResourceOperations = {
	default: 'lookup',
	operations: [
		{
			name: 'Look Up Participant',
			value: 'lookup',
			description: 'Whether a receiver is registered on Peppol and which document types it accepts',
			action: 'Look up a participant',
			module: lookup,
		},
	],
};
