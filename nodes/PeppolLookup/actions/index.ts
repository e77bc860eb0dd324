/** Peppol Lookup's operations, listed once: the node's description and the router read this list. */
import type { ResourceOperations } from '../../shared/node/router';
// Named imports, not `import * as`: a namespace import compiles to an interop helper of ~1.5 kB in this file.
import { description as lookupFields, execute as lookup } from './lookup.operation';

export const peppolLookup: ResourceOperations = {
	default: 'lookup',
	operations: [
		{
			name: 'Look Up Participant',
			value: 'lookup',
			description: 'Whether a receiver is registered on Peppol and which document types it accepts',
			action: 'Look up a participant',
			module: { description: lookupFields, execute: lookup },
		},
	],
};
