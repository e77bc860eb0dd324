import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readRetryPolicy } from '../../shared/fields';
import { clientProvider } from '../../shared/router';
import * as parseCallback from './parseCallback.operation';
import * as start from './start.operation';
import * as startAndWait from './startAndWait.operation';
import * as waitForResult from './waitForResult.operation';

/** n8n 1.x contexts have no isToolExecution(); there a node never runs as an AI tool call. */
export function isToolExecution(ctx: IExecuteFunctions): boolean {
	return typeof ctx.isToolExecution === 'function' && ctx.isToolExecution();
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0) as string;
	if ((operation === 'startAndWait' || operation === 'waitForResult') && isToolExecution(this)) {
		throw new NodeOperationError(this.getNode(), 'An AI tool call cannot wait for the user\'s browser to come back', {
			description:
				'Use the Start operation as a tool (it returns providerUrl to give to the user), and read the result with your own Webhook and the Parse Callback operation.',
		});
	}
	switch (operation) {
		case 'start':
			return await start.execute.call(this, clientProvider(this, readRetryPolicy(this)));
		case 'startAndWait':
			return await startAndWait.execute.call(this, clientProvider(this, readRetryPolicy(this)));
		case 'waitForResult':
			return await waitForResult.execute.call(this);
		case 'parseCallback':
			return await parseCallback.execute.call(this);
		default:
			throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported`);
	}
}
