import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { retryOptions } from '../shared/fields';
import * as lookup from './actions/lookup.operation';
import { router } from './actions/router';

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
		defaults: { name: 'AccessPoint Peppol Lookup' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: OUTPUTS_EXPRESSION,
		credentials: [{ name: 'accessPointApi', required: true }],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'lookup',
				options: [
					{
						name: 'Look Up Participant',
						value: 'lookup',
						description: 'Whether a receiver is registered on Peppol and which document types it accepts',
						action: 'Look up a participant',
					},
				],
			},
			...lookup.description,
			{
				displayName: 'Single Output',
				name: 'singleOutput',
				type: 'boolean',
				default: false,
				description:
					'Whether to send every result to one output instead of splitting them into Can Receive and Cannot Receive',
			},
			{
				displayName:
					'The sandbox credential asks the Peppol test network, where far fewer receivers are registered than on Peppol production',
				name: 'networkNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [...lookup.lookupOptions, ...retryOptions],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
