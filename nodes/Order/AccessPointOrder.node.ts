import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchOrders } from '../shared/orderId';
import { actionSubtitle, describeOperations, router } from '../shared/router';
import { optionsCollection } from './actions/options';
import { order } from './actions/order';
import { party } from './actions/party';
import { product } from './actions/product';
import { testAccessPointCredential } from '../shared/credentialTest';

const resources = [order, party, product];

export class AccessPointOrder implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Order',
		name: 'accessPointOrder',
		icon: { light: 'file:../../icons/accessPointOrder.svg', dark: 'file:../../icons/accessPointOrder.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: actionSubtitle(resources),
		description: 'Create, send and read orders (invoices, credit notes …), and list parties and products, with OData filters',
		defaults: { name: 'AccessPoint Order' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'accessPointApi', required: true, testedBy: 'accessPointApiTest' }],
		properties: [
			...describeOperations(resources),
			optionsCollection,
		],
	};

	methods = { listSearch: { searchOrders }, credentialTest: { accessPointApiTest: testAccessPointCredential } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, resources);
	}
}
