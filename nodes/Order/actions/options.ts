/** The Order node's Options collection: shared options plus per-operation ones. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { actForPartyOption, retryOptions } from '../../shared/fields';
import { rawFilterOption } from '../../shared/filterFields';

const getManyOnly = { show: { '/operation': ['getMany'] } };

export const optionsCollection: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		actForPartyOption,
		{
			displayName: 'Fetch Full Order',
			name: 'fetchFullOrder',
			type: 'boolean',
			default: false,
			description:
				'Whether to read the whole order after creating it (one more request); otherwise the output is the new OrderID',
			displayOptions: { show: { '/resource': ['order'], '/operation': ['create'] } },
		},
		{ ...rawFilterOption, displayOptions: getManyOnly },
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
			displayOptions: { show: { '/resource': ['order'], '/operation': ['get', 'create'] } },
		},
		{
			displayName: 'Skip',
			name: 'skip',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Number of matching records to skip before the first one returned (OData $skip)',
			displayOptions: getManyOnly,
		},
	],
};

/** Options › Act for Party, or undefined to use the credential's Party ID. */
export function readPartyOption(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const value = ctx.getNodeParameter('options.actForParty', itemIndex, '') as unknown;
	const text = value === undefined || value === null ? '' : String(value).trim();
	return text || undefined;
}
