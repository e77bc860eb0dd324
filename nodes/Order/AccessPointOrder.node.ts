import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as orderCreate from './actions/order/create.operation';
import * as orderGet from './actions/order/get.operation';
import * as orderGetMany from './actions/order/getMany.operation';
import * as orderSend from './actions/order/send.operation';
import { optionsCollection } from './actions/options';
import * as partyGetMany from './actions/party/getMany.operation';
import * as productGetMany from './actions/product/getMany.operation';
import { router } from './actions/router';

export class AccessPointOrder implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Order',
		name: 'accessPointOrder',
		icon: { light: 'file:../../icons/accessPointOrder.svg', dark: 'file:../../icons/accessPointOrder.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Create, send and read orders (invoices, credit notes …), and list parties and products, with OData filters',
		defaults: { name: 'AccessPoint Order' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'accessPointApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Order', value: 'order' },
					{ name: 'Party', value: 'party' },
					{ name: 'Product', value: 'product' },
				],
				default: 'order',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['order'] } },
				options: [
					{
						name: 'Create',
						value: 'create',
						description: 'Create an order (invoice, credit note …), or find the one already created',
						action: 'Create an order',
					},
					{
						name: 'Create and Send',
						value: 'createAndSend',
						description: 'Create an order (or find the one already created) and send it; a retried run sends nothing twice',
						action: 'Create and send an order',
					},
					{ name: 'Get', value: 'get', description: 'Read one order by its OrderID', action: 'Get an order' },
					{
						name: 'Get Many',
						value: 'getMany',
						description: 'List orders with filters and sorting',
						action: 'Get many orders',
					},
					{
						name: 'Send',
						value: 'send',
						description: 'Send existing orders over Peppol, by e-mail or by post, batched',
						action: 'Send orders',
					},
				],
				default: 'getMany',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['party'] } },
				options: [
					{
						name: 'Get Many',
						value: 'getMany',
						description: 'List parties (customers, suppliers) with filters and sorting',
						action: 'Get many parties',
					},
				],
				default: 'getMany',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['product'] } },
				options: [
					{
						name: 'Get Many',
						value: 'getMany',
						description: 'List products with filters and sorting',
						action: 'Get many products',
					},
				],
				default: 'getMany',
			},
			...orderGet.description,
			...orderCreate.description,
			...orderGetMany.description,
			...orderSend.description,
			...partyGetMany.description,
			...productGetMany.description,
			optionsCollection,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
