import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, shownFor } from '../shared/fields/credentialFields';
import { actForPartyOption, retryOptions } from '../shared/fields/fields';
import { maxFileSizeOption } from '../shared/node/files';
import { actionSubtitle, describeOperations, router } from '../shared/node/router';
import { inbox } from './actions';

const gettingDocument = { show: { '/operation': ['getDocument'] } };

export class AccessPointInbox implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Peppol Inbox',
		name: 'accessPointInbox',
		icon: { light: 'file:../../icons/accessPointInbox.svg', dark: 'file:../../icons/accessPointInbox.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: actionSubtitle([inbox]),
		description: "Work the Peppol inbox: received supplier invoices and credit notes, and your customers' responses (IMR/MLR)",
		documentationUrl: 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#peppol-inbox',
		defaults: { name: 'AccessPoint Peppol Inbox' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'accessPointApi', required: true, displayOptions: shownFor('apiKey') },
			{ name: 'accessPointOAuth2Api', required: true, displayOptions: shownFor('oAuth2') },
		],
		properties: [
			authenticationProperty,
			...describeOperations([inbox]),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					actForPartyOption,
					{
						displayName: 'Keep Peppol Envelope',
						name: 'keepEnvelope',
						type: 'boolean',
						default: false,
						description: 'Whether the document keeps its Peppol routing envelope (SBDH)',
						displayOptions: gettingDocument,
					},
					{
						...maxFileSizeOption,
						description: 'The largest document read; a larger one fails the item',
						displayOptions: gettingDocument,
					},
					...retryOptions,
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, [inbox]);
	}
}
