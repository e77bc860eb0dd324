import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, shownFor } from '../shared/fields/credentialFields';
import { retryOptions } from '../shared/fields/fields';
import { searchRegistrations } from '../shared/fields/methods';
import { actionSubtitle, describeOperations, router } from '../shared/node/router';
import { registration } from './actions';

export class AccessPointRegistration implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Registration',
		name: 'accessPointRegistration',
		icon: { light: 'file:../../icons/accessPointRegistration.svg', dark: 'file:../../icons/accessPointRegistration.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: actionSubtitle([registration]),
		description: 'Register company entities for e-invoicing and manage them',
		documentationUrl: 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#registration',
		defaults: { name: 'AccessPoint Registration' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'accessPointApi', required: true, displayOptions: shownFor('apiKey') },
			{ name: 'accessPointOAuth2Api', required: true, displayOptions: shownFor('oAuth2') },
		],
		properties: [
			authenticationProperty,
			...describeOperations([registration]),
			{ displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: [...retryOptions] },
		],
	};

	methods = { listSearch: { searchRegistrations } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, [registration]);
	}
}
