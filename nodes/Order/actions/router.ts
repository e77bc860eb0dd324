import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readRetryPolicy } from '../../shared/fields';
import type { ClientProvider } from '../../shared/router';
import { clientProvider } from '../../shared/router';
import * as orderCreate from './order/create.operation';
import * as orderCreateAndSend from './order/createAndSend.operation';
import * as orderGet from './order/get.operation';
import * as orderGetMany from './order/getMany.operation';
import * as orderSend from './order/send.operation';
import * as partyGetMany from './party/getMany.operation';
import * as productGetMany from './product/getMany.operation';

type Operation = { execute: (this: IExecuteFunctions, clients: ClientProvider) => Promise<INodeExecutionData[]> };

/** resource → operation → handler; add an operation by adding its module here. */
export const operations: Record<string, Record<string, Operation>> = {
	order: { get: orderGet, getMany: orderGetMany, create: orderCreate, send: orderSend, createAndSend: orderCreateAndSend },
	party: { getMany: partyGetMany },
	product: { getMany: productGetMany },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = operations[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported for "${resource}"`);
	}
	const clients = clientProvider(this, readRetryPolicy(this));
	return [await handler.execute.call(this, clients)];
}
