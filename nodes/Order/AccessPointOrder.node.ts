import type { ExpressionString, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, shownFor } from '../shared/fields/credentialFields';
import { searchRegistrations } from '../shared/fields/methods';
import { searchOrders } from './actions/order/orderId';
import { actionSubtitle, describeOperations, router } from '../shared/node/router';
import { optionsCollection } from './actions/options';
import { file } from './actions/file';
import { order } from './actions/order';
import { DELIVERY_OUTPUTS } from './actions/order/sendRules';
import { party } from './actions/party';
import { product } from './actions/product';

// Order stays first: it is the Resource a new node (and a saved workflow without one) starts with.
const resources = [order, party, product, file];

/** One output, or Get Delivery Status's three named ones; evaluated by the editor and the engine. */
const OUTPUTS_EXPRESSION: ExpressionString = `={{ $parameter.operation === "getDeliveryStatus" ? ${JSON.stringify(
	DELIVERY_OUTPUTS.map((displayName) => ({ type: 'main', displayName })),
)} : ["main"] }}`;

export class AccessPointOrder implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Invoices and Orders',
		name: 'accessPointOrder',
		icon: { light: 'file:../../icons/accessPointOrder.svg', dark: 'file:../../icons/accessPointOrder.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: actionSubtitle(resources),
		description: 'Create, send and read invoices, credit notes and other orders, with their parties and products',
		documentationUrl: 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#order',
		defaults: { name: 'AccessPoint Order' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: OUTPUTS_EXPRESSION,
		credentials: [
			{ name: 'accessPointApi', required: true, displayOptions: shownFor('apiKey') },
			{ name: 'accessPointOAuth2Api', required: true, displayOptions: shownFor('oAuth2') },
		],
		properties: [authenticationProperty, ...describeOperations(resources), optionsCollection],
	};

	methods = { listSearch: { searchOrders, searchRegistrations } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, resources);
	}
}
