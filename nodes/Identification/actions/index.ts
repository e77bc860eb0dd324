/** Identification's operations, listed once: the node's description and the router read this list. */
import { NodeOperationError } from 'n8n-workflow';

import { isToolCall, type ResourceOperations } from '../../shared/node/router';
// Named imports, not `import * as`: a namespace import compiles to an interop helper of ~1.5 kB in this file.
import { description as parseCallbackFields, execute as parseCallback } from './parseCallback.operation';
import { description as startFields, execute as start } from './start.operation';
import { description as startAndWaitFields, execute as startAndWait } from './startAndWait.operation';
import { description as waitForResultFields, execute as waitForResult } from './waitForResult.operation';

const WAITING = ['startAndWait', 'waitForResult'];

export const identification: ResourceOperations = {
	default: 'startAndWait',
	operations: [
		{
			name: 'Parse Callback',
			value: 'parseCallback',
			description: 'Read registrationID and success from the query your own RedirectURL received',
			action: 'Parse an identification callback',
			module: { description: parseCallbackFields, execute: parseCallback },
		},
		{
			name: 'Start',
			value: 'start',
			description: 'Open a 5-minute identification session and output the provider URL for the user',
			action: 'Start an identification',
			module: { description: startFields, execute: start },
		},
		{
			name: 'Start and Wait for Result',
			value: 'startAndWait',
			description: "Start an identification that sends the user's browser back to this execution, and wait for the outcome",
			action: 'Start an identification and wait for the result',
			module: { description: startAndWaitFields, execute: startAndWait },
		},
		{
			name: 'Wait for Result',
			value: 'waitForResult',
			description: 'Wait for the outcome of an identification started earlier in this execution',
			action: 'Wait for an identification result',
			module: { description: waitForResultFields, execute: waitForResult },
		},
	],
	// As a tool only Start and Parse Callback make sense: nobody's browser comes back to a tool call.
	guard(ctx, operation) {
		if (!WAITING.includes(operation) || !isToolCall(ctx)) return;
		throw new NodeOperationError(ctx.getNode(), "An AI tool call cannot wait for the user's browser to come back", {
			description: 'Use Start as a tool (it returns providerUrl), and read the result with your own Webhook and Parse Callback.',
		});
	},
};
