/** Parameter descriptions shared by several nodes and their readers. Nothing else defines these. */
import type { IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { readBoolean, readNumber, requireValid } from '../node/input';
import { maxResponseSizeOption, requestPolicy } from './requestOptions';
import type { RequestOptionValues } from './requestOptions';
import type { RetryPolicy } from '../http/retry';
import { checkPartyId } from '../domain/validation';

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
			validation: [{ type: 'regex', properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'A RegistrationID is a number' } }],
		},
	],
};

export function returnAllFields(show: Record<string, string[]> = {}): INodeProperties[] {
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

/** Reads Return All / Limit (a whole number of 1 or more); undefined means everything. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (readBoolean(ctx, itemIndex, 'returnAll', 'Return All', false)) return undefined;
	return readNumber(ctx, itemIndex, 'limit', 'Limit', { min: 1, whole: true }, 50);
}

/** "Act for Party": overrides the credential's Party ID (the partyID header). */
export const actForPartyOption: INodeProperties = {
	displayName: 'Act for Party',
	name: 'actForParty',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.RegistrationID }}',
	description: "PartyID to act for instead of the credential's",
};

/** An Act for Party value (a trigger's without an item): the PartyID, or undefined for the credential's; objects, line breaks refused. */
export function checkActForParty(ctx: { getNode(): INode }, itemIndex: number | undefined, value: unknown): string | undefined {
	return requireValid(ctx, itemIndex, 'Act for Party', value, checkPartyId) || undefined;
}

/** Options › Act for Party of one item: the PartyID, or undefined for the credential's. */
export function readActForParty(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	return checkActForParty(ctx, itemIndex, ctx.getNodeParameter('options.actForParty', itemIndex, '') as unknown);
}

export const retryOptions: INodeProperties[] = [
	{
		displayName: 'Read Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 10 },
		default: 3,
		description: 'How often a read (GET) is retried after a 429 or 5xx answer',
	},
	{
		displayName: 'First Retry Delay (Milliseconds)',
		name: 'retryDelayMs',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 500,
		description: 'Wait before the first retry; doubles per retry (at most 30 seconds)',
	},
	{
		displayName: 'Request Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 600 },
		default: 60,
		description: 'How long one request may take before it fails',
	},
	maxResponseSizeOption,
];

/** An options collection's request options as a policy, checked against their ranges before any request (no `itemIndex` in a poll). */
export function checkRequestOptions(ctx: { getNode(): INode }, itemIndex: number | undefined, options: RequestOptionValues): RetryPolicy {
	return requestPolicy(ctx, itemIndex, options);
}
