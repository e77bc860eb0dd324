import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readRetryPolicy } from '../../shared/fields';
import { clientProvider } from '../../shared/router';
import * as lookup from './lookup.operation';

const operations = { lookup };

/** Runs the operation; its result is already split into the node's outputs. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0, 'lookup') as keyof typeof operations;
	const handler = operations[operation];
	if (!handler) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported`);
	}
	const clients = clientProvider(this, readRetryPolicy(this));
	return await handler.execute.call(this, clients);
}
