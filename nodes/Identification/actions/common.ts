/** What the Identification operations share: parameters, the start request, the error hints. */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ClientProvider } from '../../shared/router';
import { inputError } from '../../shared/input';
import { startFailureHint } from '../hints';
import type { SessionTimes } from '../session';
import {
	checkRedirectUrl,
	DEFAULT_PROVIDER_CODE,
	DEFAULT_WAIT_MARGIN_SECONDS,
	MAX_WAIT_MARGIN_SECONDS,
	providerCode,
	readProviderUrl,
	sessionTimes,
} from '../session';

/** Execution custom data key under which Start (This Execution) leaves the session for Wait for Result. */
export const SESSION_KEY = 'accessPointIdentification';

interface CustomData {
	get(key: string): string | undefined;
	set(key: string, value: string): void;
}

/**
 * The execution's custom data: `this.customData` in n8n 2.x; n8n 1.x only offers it
 * as `$execution.customData` of the expression data.
 */
export function executionCustomData(ctx: IExecuteFunctions, itemIndex: number): CustomData {
	const direct = (ctx as { customData?: CustomData }).customData;
	if (direct) return direct;
	const proxied = (ctx.getWorkflowDataProxy(itemIndex).$execution as { customData?: CustomData } | undefined)?.customData;
	if (!proxied) throw new NodeOperationError(ctx.getNode(), 'This n8n version offers no execution custom data', { itemIndex });
	return proxied;
}

export const providerFields: INodeProperties[] = [
	{
		displayName: 'Identification Provider',
		name: 'identificationProvider',
		type: 'options',
		default: DEFAULT_PROVIDER_CODE,
		description:
			'The identity provider whose terms apply (sent as IdentificationProviderTC). One provider is supported today; choose Custom Code for a provider announced later.',
		options: [
			{ name: 'Custom Code', value: 'custom', description: 'Enter a provider terms code yourself' },
			{ name: 'Itsme', value: DEFAULT_PROVIDER_CODE, description: 'Mobile identity app (code "itsme")' },
		],
	},
	{
		displayName: 'Provider Code',
		name: 'customProviderCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. itsme',
		description: 'The IdentificationProviderTC code of the provider, as announced by the access point',
		displayOptions: { show: { identificationProvider: ['custom'] } },
	},
];

export const masterPartyOption: INodeProperties = {
	displayName: 'Master Party ID',
	name: 'masterPartyId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 100001',
	description:
		"PartyID of the master account that is whitelisted for identification, sent as the PartyID header. Leave empty to use the credential's Party ID.",
};

export const waitOptions: INodeProperties[] = [
	{
		displayName: 'After the Result, Send Browser To',
		name: 'resultRedirectUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://app.example.com/identity-done',
		description:
			'Where the user\'s browser goes once the result is in (registrationID and success are appended). Leave empty to show a small neutral result page.',
	},
	{
		displayName: 'Extra Wait After the Window (Seconds)',
		name: 'waitMarginSeconds',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_WAIT_MARGIN_SECONDS },
		default: DEFAULT_WAIT_MARGIN_SECONDS,
		description:
			'The provider session lasts 5 minutes from the start. The execution waits this much longer for a late redirect, then leaves through "Not Identified" with reason "expired".',
	},
];

export const NOT_IDENTIFIED = 0;
export const IDENTIFIED = 1;

export interface IdentificationOptions {
	masterPartyId?: string;
	resultRedirectUrl?: string;
	waitMarginSeconds?: number;
}

export function readOptions(ctx: IExecuteFunctions, itemIndex: number): IdentificationOptions {
	return ctx.getNodeParameter('options', itemIndex, {}) as IdentificationOptions;
}

export function readProviderCode(ctx: IExecuteFunctions, itemIndex: number): string {
	const choice = ctx.getNodeParameter('identificationProvider', itemIndex, DEFAULT_PROVIDER_CODE);
	const custom = choice === 'custom' ? ctx.getNodeParameter('customProviderCode', itemIndex, '') : '';
	const check = providerCode(choice, custom);
	if (!check.ok) throw inputError(ctx, itemIndex, 'Provider Code', custom, check.problem, check.hint);
	return check.value;
}

export function requireUrl(ctx: IExecuteFunctions, itemIndex: number, field: string, value: unknown): string {
	const check = checkRedirectUrl(value);
	if (!check.ok) throw inputError(ctx, itemIndex, field, value, check.problem, check.hint);
	return check.value;
}

/** The optional final browser destination of the waiting operations, checked before any request. */
export function readResultRedirectUrl(ctx: IExecuteFunctions, itemIndex: number, options: IdentificationOptions): string | undefined {
	const raw = options.resultRedirectUrl;
	if (raw === undefined || raw === null || String(raw).trim() === '') return undefined;
	return requireUrl(ctx, itemIndex, 'After the Result, Send Browser To', raw);
}

/** This execution's resume URL: `<webhook-waiting base>/<executionId>?signature=<resume token>`. */
export function resumeUrl(ctx: IExecuteFunctions, itemIndex: number): string {
	const url = ctx.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex);
	const check = checkRedirectUrl(url);
	if (!check.ok) {
		throw new NodeOperationError(ctx.getNode(), `This execution's resume URL (${String(url)}) ${check.problem}`, {
			itemIndex,
			description:
				"n8n builds it from WEBHOOK_URL. Set WEBHOOK_URL to the public https address of this n8n instance so the user's browser can come back.",
		});
	}
	return check.value;
}

/** Refuses several items where one execution can only wait for one browser redirect. */
export function requireSingleItem(ctx: IExecuteFunctions, operationName: string): void {
	const count = ctx.getInputData().length;
	if (count <= 1) return;
	throw inputError(
		ctx,
		1,
		operationName,
		undefined,
		`handles one identification per execution, but the node received ${count} items`,
		'An execution can wait for one browser redirect only. Start one identification per execution (e.g. Loop Over Items into an Execute Workflow node), or use Start with your own Webhook and Parse Callback.',
	);
}

export interface StartedSession extends SessionTimes {
	registrationID: number;
	providerUrl: string;
	identificationProviderTC: string;
	masterPartyId: string;
}

/**
 * POST /v1/einvoices/registrations/{RegistrationID}/identification with the
 * master account's PartyID header (the client's partyID header, overridable),
 * the provider code and the RedirectURL; reads the provider URL from the answer.
 */
export async function startIdentification(
	ctx: IExecuteFunctions,
	clients: ClientProvider,
	itemIndex: number,
	input: { registrationId: string; providerCode: string; redirectUrl: string; masterPartyId?: string; marginSeconds?: number },
): Promise<StartedSession> {
	const client = await clients(itemIndex, input.masterPartyId);
	const startedAtMs = Date.now();
	let body: unknown;
	try {
		body = await client.request<unknown>({
			method: 'POST',
			path: `/v1/einvoices/registrations/${encodeURIComponent(input.registrationId)}/identification`,
			body: { IdentificationProviderTC: input.providerCode, RedirectURL: input.redirectUrl },
			itemIndex,
			operation: 'Start identification',
		});
	} catch (error) {
		throw withStartHint(ctx, error, { partyId: client.partyId, registrationId: input.registrationId }, itemIndex);
	}
	const providerUrl = readProviderUrl(body);
	if (!providerUrl) {
		throw new NodeApiError(
			ctx.getNode(),
			{ message: 'The identification answer has no provider URL' },
			{
				message: 'Start identification returned no provider URL (neither RedirectURL nor URL)',
				description: 'The session may have been opened anyway; wait 5 minutes before retrying. If it persists, contact the access point support.',
				itemIndex,
			},
		);
	}
	return {
		...sessionTimes(startedAtMs, input.marginSeconds),
		registrationID: Number(input.registrationId),
		providerUrl,
		identificationProviderTC: input.providerCode,
		masterPartyId: client.partyId,
	};
}

/**
 * Puts identification-specific advice on the transport's NodeApiError, keeping
 * its message, HTTP status and API code.
 */
export function withStartHint(
	ctx: IExecuteFunctions,
	error: unknown,
	context: { partyId: string; registrationId: string },
	itemIndex: number,
): unknown {
	if (!(error instanceof NodeApiError)) return error;
	const status = error.httpCode ? Number(error.httpCode) : undefined;
	const code = typeof error.context.apiCode === 'string' ? error.context.apiCode : undefined;
	const apiDescription = typeof error.context.apiDescription === 'string' ? error.context.apiDescription : undefined;
	const hint = startFailureHint({ status, code, text: [error.message, apiDescription].filter(Boolean).join(' ') }, context);
	if (!hint) return error;
	const response: JsonObject = { message: error.message };
	if (error.httpCode) response.httpCode = error.httpCode;
	if (code) response.code = code;
	if (apiDescription) response.apiDescription = apiDescription;
	const wrapped = new NodeApiError(ctx.getNode(), response, {
		message: error.message,
		description: hint,
		httpCode: error.httpCode ?? undefined,
		itemIndex,
	});
	if (code) wrapped.context.apiCode = code;
	if (apiDescription) wrapped.context.apiDescription = apiDescription;
	return wrapped;
}

/** Both outputs of the two-output operations: [Not Identified, Identified]. */
export function twoOutputs(notIdentified: INodeExecutionData[], identified: INodeExecutionData[]): INodeExecutionData[][] {
	const outputs: INodeExecutionData[][] = [];
	outputs[NOT_IDENTIFIED] = notIdentified;
	outputs[IDENTIFIED] = identified;
	return outputs;
}

export function item(json: IDataObject, itemIndex: number): INodeExecutionData {
	return { json, pairedItem: { item: itemIndex } };
}

