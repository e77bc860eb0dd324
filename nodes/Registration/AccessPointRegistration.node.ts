import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { retryOptions } from '../shared/fields';
import { searchRegistrations } from '../shared/methods';
import * as create from './actions/create.operation';
import * as deactivate from './actions/deactivate.operation';
import * as get from './actions/get.operation';
import * as getMany from './actions/getMany.operation';
import { router } from './actions/router';

export class AccessPointRegistration implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Registration',
		name: 'accessPointRegistration',
		icon: { light: 'file:../../icons/accessPointRegistration.svg', dark: 'file:../../icons/accessPointRegistration.dark.svg' },
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
						name: 'Create',
						value: 'create',
						description: 'Register a company entity under the master account; outputs its RegistrationID',
						action: 'Create a registration',
					},
					{
						name: 'Deactivate',
						value: 'deactivate',
						description: 'Deactivate a registration (it is not deleted)',
						action: 'Deactivate a registration',
					},
					{
						name: 'Get',
						value: 'get',
						description: 'Get one registration with its company details and integrations',
						action: 'Get a registration',
					},
					{
						name: 'Get Many',
						value: 'getMany',
						description: 'List the companies registered under the master account',
						action: 'Get many registrations',
					},
				],
			},
			...create.description,
			...get.description,
			...getMany.description,
			...deactivate.description,
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
