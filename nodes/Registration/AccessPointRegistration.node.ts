import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { retryOptions } from '../shared/fields';
import { searchRegistrations } from '../shared/methods';
import * as getMany from './actions/getMany.operation';
import { router } from './actions/router';

export class AccessPointRegistration implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Registration',
		name: 'accessPointRegistration',
		icon: { light: 'file:../../icons/accessPoint.svg', dark: 'file:../../icons/accessPoint.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] }}',
		description: 'Register company entities for e-invoicing and manage them',
		defaults: { name: 'AccessPoint Registration' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'accessPointApi', required: true }],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'getMany',
				options: [
					{
						name: 'Get Many',
						value: 'getMany',
						description: 'List the companies registered under the master account',
						action: 'Get many registrations',
					},
				],
			},
			...getMany.description,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [...retryOptions],
			},
		],
	};

	methods = { listSearch: { searchRegistrations } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
