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

import { authenticationProperty, shownFor } from '../shared/http/auth';
import { searchRegistrations } from '../shared/fields/methods';
import { actionSubtitle, describeOperations, router } from '../shared/node/router';
import { identification } from './actions';
import { identificationWebhook } from './actions/waiting';

/**
 * Output 0 is "Not Identified" on purpose: a wait that times out leaves through
 * the first output (see actions/waiting.ts), so it can only ever mean "not identified".
 */
const OUTPUTS_EXPRESSION =
	'={{ $parameter["operation"] === "start" ? ["main"] : [{ "type": "main", "displayName": "Not Identified" }, { "type": "main", "displayName": "Identified" }] }}';

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
		waitingNodeTooltip:
			"Waiting for the user's browser to come back from the identity provider (at most 5 minutes after the start, plus the extra wait). The provider URL is in this node's output.",
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

	/**
	 * The only webhook is a restart webhook of a waiting execution, served by n8n's
	 * /webhook-waiting endpoint: nothing is registered with a third party. n8n skips
	 * restart webhooks when activating a workflow, so these are never called; they
	 * only state that there is nothing to create or delete.
	 */
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
