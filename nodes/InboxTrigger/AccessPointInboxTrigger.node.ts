import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, shownFor } from '../shared/http/auth';
import { actForPartyOption, retryOptions } from '../shared/fields/fields';
import { maxFileSizeOption } from '../shared/http/files';
import { pollInbox } from './poll';

export class AccessPointInboxTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Peppol Inbox Trigger',
		name: 'accessPointInboxTrigger',
		icon: { light: 'file:../../icons/accessPointInboxTrigger.svg', dark: 'file:../../icons/accessPointInboxTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["confirmAfterEmitting"] ? "New inbox items, confirmed" : "New inbox items" }}',
		// n8n's node panel lists this trigger inside the AccessPoint Peppol Inbox entry and shows this text for both.
		description:
			"Work the Peppol inbox (received supplier invoices, your customers' IMR/MLR responses to invoices you sent), and start a workflow for each new document",
		documentationUrl: 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#peppol-inbox-trigger',
		defaults: { name: 'AccessPoint Peppol Inbox Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'accessPointApi', required: true, displayOptions: shownFor('apiKey') },
			{ name: 'accessPointOAuth2Api', required: true, displayOptions: shownFor('oAuth2') },
		],
		properties: [
			authenticationProperty,
			{
				displayName:
					'Each inbox item is emitted once, its document in binary field "data". The inbox lists only its 10 oldest items, and an item stays until confirmed or refused: turn on Confirm After Emitting, or end the workflow with Peppol Inbox › Confirm. Otherwise, once 10 items are emitted, newer documents never show (the trigger warns in n8n\'s log).',
				name: 'windowNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Confirm After Emitting',
				name: 'confirmAfterEmitting',
				type: 'boolean',
				default: false,
				description:
					'Whether to confirm each emitted item at the next poll, once n8n has saved it (an item whose document could not be read stays in the inbox). Off: confirm it in the workflow.',
			},
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
						description: 'Whether the document keeps its Peppol routing envelope (SBDH) when it came in one; by default it is removed',
					},
					{ ...maxFileSizeOption, description: 'The largest document read; a larger one is emitted without its document (DocumentProblem says why)' },
					...retryOptions,
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollInbox.call(this);
	}
}
