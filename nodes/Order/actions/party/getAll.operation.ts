import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ClientProvider } from '../../../shared/node/router';
import { executeList, listDescription } from '../list';

export const description: INodeProperties[] = listDescription('party');

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await executeList.call(this, clients, 'party');
}
