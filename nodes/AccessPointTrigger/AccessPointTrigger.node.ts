import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, shownFor } from '../shared/fields/credentialFields';
import { registrationIdField, retryOptions } from '../shared/fields/fields';
import { filesField, maxFileSizeOption } from '../shared/node/files';
import { searchRegistrations } from '../shared/fields/methods';
import { receive, recordExecution } from './receive';
import { checkWebhooks, createWebhooks, deleteWebhooks, DEFAULT_MAX_AGE_MINUTES } from './registry';

export class AccessPointTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Invoice Events Trigger',
		name: 'accessPointTrigger',
		icon: { light: 'file:../../icons/accessPointTrigger.svg', dark: 'file:../../icons/accessPointTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ ($parameter["events"] || []).length }} event type(s)',
		description: 'Starts the workflow when an invoice you send is delivered or refused, or an order changes (webhook)',
		documentationUrl: 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#accesspoint-trigger',
		defaults: { name: 'AccessPoint Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'accessPointApi', required: true, displayOptions: shownFor('apiKey') },
			{ name: 'accessPointOAuth2Api', required: true, displayOptions: shownFor('oAuth2') },
		],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			authenticationProperty,
			{
				displayName: 'The service calls only public https URLs (set WEBHOOK_URL); without one, use the AccessPoint Order Trigger.',
				name: 'httpsNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['deliveryStatusChanged'],
				options: [
					{
						name: 'Delivery Status Changed',
						value: 'deliveryStatusChanged',
						description: 'A sent document reached Sent, Accepted, Delivered or Refused, or failed delivery (two webhooks)',
					},
					{ name: 'Order Created', value: 'orderCreated', description: 'An invoice, credit note or other order was created' },
					{ name: 'Order Deleted', value: 'orderDeleted', description: 'An order was deleted (the event names its OrderID)' },
					{ name: 'Order Updated', value: 'orderUpdated', description: 'An order changed (status, payment, export flag …)' },
				],
				description: 'One webhook per event (two for Delivery Status Changed); the service allows 4 per party',
			},
			{
				displayName: 'Receive Events Of',
				name: 'source',
				type: 'options',
				noDataExpression: true,
				default: 'account',
				options: [
					{ name: 'This Account', value: 'account', description: "The company of the credential's Party ID" },
					{ name: 'A Registered Entity', value: 'registration', description: 'A company registered through this account' },
				],
			},
			{
				...registrationIdField,
				description: 'The registered company whose events start the workflow',
				displayOptions: { show: { source: ['registration'] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Fetch Full Order',
						name: 'fetchFullOrder',
						type: 'boolean',
						default: false,
						description: 'Whether to read the whole order, with its delivery details (one request each)',
					},
					filesField({
						displayName: 'Include Files',
						name: 'includeFiles',
						default: [],
						description: 'Files the item carries as binary data (one request each)',
					}),
					{
						displayName: 'Maximum Event Age (Minutes)',
						name: 'maxEventAgeMinutes',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 1440 },
						default: DEFAULT_MAX_AGE_MINUTES,
						description: 'Calls signed longer ago are refused as replays',
					},
					{ ...maxFileSizeOption, description: 'The largest file read; a larger one fails the call (the service retries it)' },
					...retryOptions,
				],
			},
		],
	};

	methods = { listSearch: { searchRegistrations } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkWebhooks.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await createWebhooks.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteWebhooks.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receive.call(this);
	}

	/**
	 * Starts nothing: as an in-memory trigger too, n8n 2.41 activates the node at every start (not a webhook-only node), and
	 * that runs checkExists: a webhook deleted at the service while n8n was down is made again.
	 */
	async trigger(): Promise<ITriggerResponse> {
		return {};
	}

	/** The first step of every execution the trigger starts: passes on only events not seen before (receive.ts). */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await recordExecution.call(this);
	}
}
