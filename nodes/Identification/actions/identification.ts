/**
 * What the Identification operations share besides their own fields: the shared fields and
 * the reading of one item's options, provider code and resume URL, the start request
 * (docs/api.md "Identification") with its failure advice, the one-item rule of the waiting
 * operations, the session Start leaves in the execution's custom data for Wait for Result,
 * and the two outputs.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { registrationIdField } from '../../shared/fields/fields';
import { inputError, readRegistrationId, requireValid } from '../../shared/node/input';
import { asNodeError, errorItem } from '../../shared/node/items';
import type { ClientProvider } from '../../shared/node/router';
import { checkNumber, checkOptionalText, checkPartyId } from '../../shared/domain/validation';
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

/** The brand writes its name in lower case; the editor's title-case convention would show "Itsme". */
const ITSME = 'itsme';

export const providerFields: INodeProperties[] = [
	{
		displayName: 'Identification Provider',
		name: 'identificationProvider',
		type: 'options',
		default: DEFAULT_PROVIDER_CODE,
		description: 'The identity provider whose terms apply (IdentificationProviderTC)',
		options: [
			{ name: 'Custom Code', value: 'custom', description: 'Enter a provider terms code yourself' },
			{ name: ITSME, value: DEFAULT_PROVIDER_CODE, description: 'Mobile identity app (code "itsme")' },
		],
	},
	{
		displayName: 'Provider Code',
		name: 'customProviderCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. itsme',
		description: 'The IdentificationProviderTC code of the provider',
		displayOptions: { show: { identificationProvider: ['custom'] } },
	},
];

/** The trust limit, shown where a result comes in: the service offers no way to check a result (docs/api.md "Identification"). */
export const trustNotice: INodeProperties = {
	displayName:
		"The result comes from the signatory's browser, and anyone holding the link could report a success: before trusting it, check that serviceCheck says the service's record agrees.",
	name: 'trustNotice',
	type: 'notice',
	default: '',
};

export const masterPartyOption: INodeProperties = {
	displayName: 'Master Party ID',
	name: 'masterPartyId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 100001',
	description: "PartyID of the master account whitelisted for identification. Leave empty to use the credential's Party ID.",
};

export const waitOptions: INodeProperties[] = [
	{
		displayName: 'After the Result, Send Browser To',
		name: 'resultRedirectUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://app.example.com/identity-done',
		description: "Where the user's browser goes once the result is in. Leave empty to show a small result page.",
	},
	{
		displayName: 'Extra Wait After the Window (Seconds)',
		name: 'waitMarginSeconds',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_WAIT_MARGIN_SECONDS },
		default: DEFAULT_WAIT_MARGIN_SECONDS,
		description: 'How much longer than the 5-minute session to wait for a late redirect before leaving through Not Identified',
	},
];

export const registrationField: INodeProperties = { ...registrationIdField, description: 'The registered company entity whose authorised user is identified' };

/** The Options collection of an operation. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options };
}

/** Execution custom data key under which Start (This Execution) leaves the session for Wait for Result. */
export const SESSION_KEY = 'accessPointIdentification';

interface CustomData {
	get(key: string): string | undefined;
	set(key: string, value: string): void;
}

/** The execution's custom data: `this.customData` in n8n 2.x, `$execution.customData` of the expression data in 1.x. */
export function executionCustomData(ctx: IExecuteFunctions, itemIndex: number): CustomData {
	const direct = (ctx as { customData?: CustomData }).customData;
	if (direct) return direct;
	const proxied = (ctx.getWorkflowDataProxy(itemIndex).$execution as { customData?: CustomData } | undefined)?.customData;
	if (!proxied) throw new NodeOperationError(ctx.getNode(), 'This n8n version offers no execution custom data', { itemIndex });
	return proxied;
}

export const NOT_IDENTIFIED = 0;
export const IDENTIFIED = 1;

interface IdentificationOptions {
	masterPartyId?: string;
	resultRedirectUrl?: string;
	waitMarginSeconds?: number;
}

/** The Options collection, its Master Party ID (a header) and Extra Wait checked before any request. */
export function readOptions(ctx: IExecuteFunctions, itemIndex: number): IdentificationOptions {
	const options = { ...((ctx.getNodeParameter('options', itemIndex, {}) ?? {}) as Record<string, unknown>) };
	if (options.masterPartyId !== undefined) {
		options.masterPartyId = requireValid(ctx, itemIndex, 'Master Party ID', options.masterPartyId, checkPartyId) || undefined;
	}
	if (options.waitMarginSeconds !== undefined) {
		const range = { min: 0, max: MAX_WAIT_MARGIN_SECONDS, unit: ' seconds' };
		options.waitMarginSeconds = requireValid(ctx, itemIndex, 'Extra Wait After the Window (Seconds)', options.waitMarginSeconds, (v) => checkNumber(v, range));
	}
	return options as IdentificationOptions;
}

function readProviderCode(ctx: IExecuteFunctions, itemIndex: number): string {
	const choice = ctx.getNodeParameter('identificationProvider', itemIndex, DEFAULT_PROVIDER_CODE);
	const custom =
		choice === 'custom'
			? requireValid(ctx, itemIndex, 'Provider Code', ctx.getNodeParameter('customProviderCode', itemIndex, ''), (v) => checkOptionalText(v, 100))
			: '';
	const check = providerCode(choice, custom);
	if (!check.ok) throw inputError(ctx, itemIndex, 'Provider Code', custom, check.problem, check.hint);
	return check.value;
}

/** The optional final browser destination of the waiting operations, checked before any request. */
export function readResultRedirectUrl(ctx: IExecuteFunctions, itemIndex: number, options: IdentificationOptions): string | undefined {
	const raw = options.resultRedirectUrl;
	if (raw === undefined || raw === null || String(raw).trim() === '') return undefined;
	return requireValid(ctx, itemIndex, 'After the Result, Send Browser To', raw, checkRedirectUrl);
}

/** This execution's resume URL: `<webhook-waiting base>/<executionId>?signature=<resume token>`. */
export function resumeUrl(ctx: IExecuteFunctions, itemIndex: number): string {
	const url = ctx.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex);
	const check = checkRedirectUrl(url);
	if (!check.ok) {
		throw new NodeOperationError(ctx.getNode(), `This execution's resume URL (${String(url)}) ${check.problem}`, {
			itemIndex,
			description: 'Set WEBHOOK_URL to the public https address of this n8n instance.',
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
		'Start one identification per execution (e.g. Loop Over Items into an Execute Workflow node), or use Start with your own Webhook and Parse Callback.',
	);
}

/** Both outputs of the two-output operations: [Not Identified, Identified]. */
export function twoOutputs(notIdentified: INodeExecutionData[], identified: INodeExecutionData[]): INodeExecutionData[][] {
	return [notIdentified, identified];
}

/** A waiting operation runs for item 0 only; with continueOnFail its failure leaves through Not Identified. */
export async function runOneItem(ctx: IExecuteFunctions, run: (itemIndex: number) => Promise<INodeExecutionData[][]>): Promise<INodeExecutionData[][]> {
	try {
		return await run(0);
	} catch (error) {
		const nodeError = asNodeError(ctx, error, 0);
		if (ctx.continueOnFail()) return twoOutputs([errorItem(ctx, nodeError, 0)], []);
		throw nodeError;
	}
}

interface StartedSession extends SessionTimes {
	registrationID: number;
	providerUrl: string;
	identificationProviderTC: string;
	masterPartyId: string;
	redirectUrl: string;
}

/** Reads and checks one item's registration, provider code, options and then (`redirectUrl`) the RedirectURL. */
export function readStart(ctx: IExecuteFunctions, itemIndex: number, redirectUrl: (options: IdentificationOptions) => string) {
	const registrationId = readRegistrationId(ctx, itemIndex);
	const code = readProviderCode(ctx, itemIndex);
	const options = readOptions(ctx, itemIndex);
	return { registrationId, code, options, url: redirectUrl(options) };
}

/**
 * Starts one item's identification as readStart read it: POSTs /v1/einvoices/registrations/{RegistrationID}/identification with the master account's PartyID
 * header (the client's partyID header, overridable); reads the provider URL from the answer.
 */
export async function startIdentification(
	ctx: IExecuteFunctions,
	clients: ClientProvider,
	itemIndex: number,
	{ registrationId, code, options, url }: ReturnType<typeof readStart>,
): Promise<StartedSession> {
	const client = await clients(itemIndex, options.masterPartyId);
	const startedAtMs = Date.now();
	let body: unknown;
	try {
		body = await client.request<unknown>({
			method: 'POST',
			path: `/v1/einvoices/registrations/${encodeURIComponent(registrationId)}/identification`,
			body: { IdentificationProviderTC: code, RedirectURL: url },
			itemIndex,
			operation: 'Start identification',
		});
	} catch (error) {
		throw withStartHint(error, { partyId: client.partyId, registrationId });
	}
	const providerUrl = readProviderUrl(body);
	if (!providerUrl) {
		throw new NodeApiError(
			ctx.getNode(),
			{ message: 'The identification answer has no provider URL' },
			{
				message: 'Start identification returned no provider URL (neither RedirectURL nor URL)',
				description: 'The session may have been opened anyway; wait 5 minutes before retrying.',
				itemIndex,
			},
		);
	}
	return {
		...sessionTimes(startedAtMs, options.waitMarginSeconds),
		registrationID: Number(registrationId),
		providerUrl,
		identificationProviderTC: code,
		masterPartyId: client.partyId,
		redirectUrl: url,
	};
}

/** Puts identification-specific advice on the transport's NodeApiError, which keeps its message, HTTP status and API code. */
function withStartHint(error: unknown, context: { partyId: string; registrationId: string }): unknown {
	if (!(error instanceof NodeApiError)) return error;
	const { apiCode, apiDescription } = error.context;
	const code = typeof apiCode === 'string' ? apiCode : undefined;
	const text = [error.message, typeof apiDescription === 'string' ? apiDescription : ''].filter(Boolean).join(' ');
	const hint = startFailureHint({ status: error.httpCode ? Number(error.httpCode) : undefined, code, text }, context);
	if (hint) error.description = hint;
	return error;
}
