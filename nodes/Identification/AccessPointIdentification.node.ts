import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, shownFor } from '../shared/fields/credentialFields';
import { searchRegistrations } from '../shared/fields/methods';
import { actionSubtitle, describeOperations, router } from '../shared/node/router';
import { identification } from './actions';
import { identificationWebhook } from './actions/waiting';

/** Output 0 is "Not Identified" on purpose: a wait that times out leaves through the first output (actions/waiting.ts). */
const OUTPUTS_EXPRESSION =
	'={{ $parameter["operation"] === "start" ? ["main"] : [{ "type": "main", "displayName": "Not Identified" }, { "type": "main", "displayName": "Identified" }] }}';

/**
 * What the editor's output pane and logs show of a waiting execution; `$execution.resumeUrl` is the signed URL in the run's
 * metadata (actions/waiting.ts): opened without a result, it sends the browser on to the provider.
 */
const WAITING_TOOLTIP = `={{ $parameter["operation"] === "startAndWait"
	? 'Waiting for the signatory: <a href="' + $execution.resumeUrl + '" target="_blank">Open the identity check</a> (it goes on to the identity provider), or copy this link for them: ' + $execution.resumeUrl
	: 'Waiting for the browser of the signatory to come back; the link to open is providerUrl in the output of Start.' }}`;

export class AccessPointIdentification implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Identification',
		name: 'accessPointIdentification',
		icon: { light: 'file:../../icons/accessPointIdentification.svg', dark: 'file:../../icons/accessPointIdentification.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: actionSubtitle([identification]),
		description: 'Identify the authorised user of a registered entity (KYC) and wait for the result',
		documentationUrl: 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#identification',
		defaults: { name: 'AccessPoint Identification' },
		// As a tool only Start and Parse Callback make sense; the router refuses the waiting operations.
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: OUTPUTS_EXPRESSION,
		waitingNodeTooltip: WAITING_TOOLTIP,
		credentials: [
			{ name: 'accessPointApi', required: true, displayOptions: shownFor('apiKey', { operation: ['start', 'startAndWait'] }) },
			{ name: 'accessPointOAuth2Api', required: true, displayOptions: shownFor('oAuth2', { operation: ['start', 'startAndWait'] }) },
		],
		webhooks: [
			{
				// Answers the browser redirect to $execution.resumeUrl of a waiting execution.
				name: 'default',
				httpMethod: 'GET',
				responseMode: 'onReceived',
				path: '',
				restartWebhook: true,
				isFullPath: true,
				ndvHideUrl: true,
				ndvHideMethod: true,
			},
		],
		properties: [authenticationProperty, ...describeOperations([identification])],
	};

	methods = { listSearch: { searchRegistrations } };

	// The only webhook is a restart webhook of a waiting execution (n8n's /webhook-waiting): nothing is
	// registered with a third party, and n8n never calls these on activation; they say there is nothing to do.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await identificationWebhook.call(this);
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, [identification]);
	}
}
