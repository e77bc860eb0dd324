/** The Order node's Options collection: shared options plus per-operation ones. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { actForPartyOption, checkActForParty, retryOptions } from '../../shared/fields';
import { rawFilterOption } from '../../shared/filterFields';

const getAllOnly = { show: { '/operation': ['getAll'] } };
const sending = { show: { '/resource': ['order'], '/operation': ['send', 'createAndSend'] } };

export const optionsCollection: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		actForPartyOption,
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 100,
			description:
				'Most orders per send request. Orders of all input items with the same transport type, strictness and party go out together.',
			displayOptions: sending,
		},
		{
			displayName: 'Check Delivery',
			name: 'checkDelivery',
			type: 'boolean',
			default: true,
			description:
				'Whether to read each order after sending (one request per order) to report how it went out (deliveredVia) and whether the service fell back to another method (fallback)',
			displayOptions: sending,
		},
		{
			displayName: 'Fetch Full Order',
			name: 'fetchFullOrder',
			type: 'boolean',
			default: false,
			description:
				'Whether to read and output the whole order after creating or sending it (one more request per order); otherwise the output is the OrderID and the outcome',
			displayOptions: { show: { '/resource': ['order'], '/operation': ['create', 'send', 'createAndSend'] } },
		},
		{
			displayName: 'Idempotency Header',
			name: 'idempotencyHeader',
			type: 'options',
			options: [
				{ name: 'Idempotency-Key', value: 'Idempotency-Key' },
				{ name: 'Idempotent-Key', value: 'Idempotent-Key', description: 'The spelling some deployments document' },
				{ name: 'None', value: 'none', description: 'Send no idempotency key' },
			],
			default: 'Idempotency-Key',
			description:
				'Header that makes a repeated create or send harmless: a create with an External Provider ID (and Skip If Already Created on) sends "create-" plus that ID, a send sends "send-" plus the transport type and order IDs. A reused key answers 409 Conflict, read as "already done".',
			displayOptions: { show: { '/resource': ['order'], '/operation': ['create', 'send', 'createAndSend'] } },
		},
		{ ...rawFilterOption, displayOptions: getAllOnly },
		...retryOptions,
		{
			displayName: 'Single Order Path',
			name: 'singleOrderPath',
			type: 'options',
			options: [
				{
					name: 'Automatic',
					value: 'auto',
					description: 'GET /v1/order/{ID} as in the contract; on 404 GET /v1/orders/{ID}',
				},
				{ name: '/v1/order/{ID}', value: 'order', description: "The contract's form only" },
				{ name: '/v1/orders/{ID}', value: 'orders', description: "Production documentation's form only" },
			],
			default: 'auto',
			description: 'Which path reads one order',
			displayOptions: { show: { '/resource': ['order'], '/operation': ['get', 'create', 'send', 'createAndSend'] } },
		},
		{
			displayName: 'Skip',
			name: 'skip',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Number of matching records to skip before the first one returned (OData $skip)',
			displayOptions: getAllOnly,
		},
	],
};

/** Options › Act for Party, or undefined to use the credential's Party ID. */
export function readPartyOption(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	return checkActForParty(ctx, itemIndex, ctx.getNodeParameter('options.actForParty', itemIndex, '') as unknown);
}
