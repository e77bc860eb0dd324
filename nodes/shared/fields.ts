/** Parameter descriptions shared by several nodes. Nothing else defines these. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { maxResponseSizeOption, readRequestPolicy } from './limits';
import type { RetryPolicy } from './retry';

export const registrationIdField: INodeProperties = {
	displayName: 'Registration',
	name: 'registrationId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The registered company entity (its RegistrationID)',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a registration...',
			typeOptions: { searchListMethod: 'searchRegistrations', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 123456',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'A RegistrationID is a number' },
				},
			],
		},
	],
};

export function returnAllFields(show: Record<string, string[]>): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
		},
	];
}

/** Reads Return All / Limit; undefined means everything. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return undefined;
	return ctx.getNodeParameter('limit', itemIndex, 50) as number;
}

/** "Act for Party": overrides the credential's Party ID (the partyID header). */
export const actForPartyOption: INodeProperties = {
	displayName: 'Act for Party',
	name: 'actForParty',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.RegistrationID }}',
	description:
		"PartyID to act for instead of the credential's Party ID, e.g. a registered entity's ID. Leave empty to use the credential.",
};

export const retryOptions: INodeProperties[] = [
	{
		displayName: 'Read Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 10 },
		default: 3,
		description:
			'How often a read (GET) is retried after a rate limit (429) or server error (5xx), waiting as the API asks (Retry-After) or doubling the wait each time. Creates are never retried blindly.',
	},
	{
		displayName: 'First Retry Delay (Milliseconds)',
		name: 'retryDelayMs',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 500,
		description: 'Wait before the first retry; doubles on every further retry (capped at 30 seconds)',
	},
	{
		displayName: 'Request Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 60,
		description: 'How long one request may take before it counts as failed (a read is then retried, a write is not)',
	},
	maxResponseSizeOption,
];

/** Reads the request options from an "options" collection (first item's values apply to the run). */
export function readRetryPolicy(ctx: IExecuteFunctions, collection = 'options'): RetryPolicy {
	return readRequestPolicy(ctx, collection);
}
