import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, shownFor } from '../shared/fields/credentialFields';
import { retryOptions } from '../shared/fields/fields';
import { describeOperations, router } from '../shared/node/router';
import { peppolLookup } from './actions';
import { lookupOptions } from './actions/lookup.operation';

/** Two outputs unless "Single Output" is on; evaluated by the editor and the engine. */
const OUTPUTS_EXPRESSION =
	'={{ $parameter.singleOutput ? [{ "type": "main", "displayName": "Result" }] : [{ "type": "main", "displayName": "Can Receive" }, { "type": "main", "displayName": "Cannot Receive" }] }}';

export class AccessPointPeppolLookup implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Peppol Lookup',
		name: 'accessPointPeppolLookup',
		icon: { light: 'file:../../icons/accessPointPeppolLookup.svg', dark: 'file:../../icons/accessPointPeppolLookup.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle:
			'={{ $parameter["identifierType"] === "scheme" ? ($parameter["scheme"] === "other" ? $parameter["schemeCode"] : $parameter["scheme"]) + ":" + $parameter["schemeValue"] : $parameter["identifier"] }}',
		description: 'Check whether a receiver is on Peppol and can receive invoices and credit notes',
		documentationUrl: 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#peppol-lookup',
		defaults: { name: 'AccessPoint Peppol Lookup' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: OUTPUTS_EXPRESSION,
		credentials: [
			{ name: 'accessPointApi', required: true, displayOptions: shownFor('apiKey') },
			{ name: 'accessPointOAuth2Api', required: true, displayOptions: shownFor('oAuth2') },
		],
		properties: [
			authenticationProperty,
			...describeOperations([peppolLookup]),
			{
				displayName: 'Single Output',
				name: 'singleOutput',
				type: 'boolean',
				default: false,
				description: 'Whether to send every result to one output instead of two',
			},
			{ displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: [...lookupOptions, ...retryOptions] },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, [peppolLookup]);
	}
}
