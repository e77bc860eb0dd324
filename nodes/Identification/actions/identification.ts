/**
 * What the Identification operations read and output besides their own fields: the
 * options, provider code and resume URL of one item, the one-item rule of the waiting
 * operations, the session Start leaves in the execution's custom data for Wait for
 * Result, and the two outputs.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { inputError, requireValid } from '../../shared/node/input';
import { asNodeError, errorItem } from '../../shared/node/items';
import { checkNumber, checkOptionalText, checkPartyId } from '../../shared/domain/validation';
import { checkRedirectUrl, DEFAULT_PROVIDER_CODE, MAX_WAIT_MARGIN_SECONDS, providerCode } from '../session';

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

export function readProviderCode(ctx: IExecuteFunctions, itemIndex: number): string {
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
			description: "n8n builds it from WEBHOOK_URL. Set WEBHOOK_URL to the public https address of this n8n instance so the user's browser can come back.",
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
