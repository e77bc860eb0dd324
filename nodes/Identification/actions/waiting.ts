/**
 * The waiting half of "Start and Wait for Result" and "Wait for Result": put the execution to wait and,
 * when the user's browser comes back to $execution.resumeUrl, turn the query into an outcome.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { CallbackOutcome, Reason } from '../session';
import {
	appendResult,
	checkRedirectUrl,
	expiredJson,
	identifiedInRegistration,
	looksLikeCallback,
	outcomeJson,
	readCallback,
	withServiceCheck,
} from '../session';
import { unwrapRegistration } from '../../shared/domain/registrationOutput';
import type { RetryPolicy } from '../../shared/http/retry';
import { getApiClient } from '../../shared/node/client';
import { twoOutputs } from './identification';
import { isRecord, text } from '../../shared/domain/values';

/** The browser waits for the re-read: one retry, 15 seconds each at most. */
const RECHECK_POLICY: RetryPolicy = { maxRetries: 1, baseDelayMs: 500, maxDelayMs: 1000, timeoutMs: 15_000 };

export interface PendingSession {
	registrationID?: number | string;
	startedAt?: string;
	expiresAt?: string;
	providerUrl?: string;
	resultRedirectUrl?: string;
	waitTill: Date;
}

/**
 * The item a timed-out wait leaves with: n8n-core resumes it with the node disabled, its input passing through output 0
 * (WorkflowExecute.handleWaitingState), "Not Identified"; this "expired" item there means an expired session never reads as a success.
 */
export function expiredItem(pending: PendingSession, itemIndex: number): INodeExecutionData {
	const json = expiredJson(pending.registrationID, pending.startedAt, pending.expiresAt) as IDataObject;
	if (pending.providerUrl) json.providerUrl = pending.providerUrl;
	if (pending.resultRedirectUrl) json.resultRedirectUrl = pending.resultRedirectUrl;
	return { json, pairedItem: { item: itemIndex } };
}

export async function waitForCallback(ctx: IExecuteFunctions, pending: PendingSession, itemIndex: number): Promise<INodeExecutionData[][]> {
	// The engine pushes this execute-data entry back while the execution waits: a timed-out wait passes its input on (expiredItem).
	ctx.getExecuteData().data = { main: [[expiredItem(pending, itemIndex)]] };
	const resume = shareResumeUrl(ctx, itemIndex);
	// Both links to copy, in the output pane's hint: the tooltip can show only n8n's (issue 39.15). Wait for Result: Start gave them.
	const [provider, back] = [pending.providerUrl, resume].map((url) => `<code>${String(url).replace(/[<>"&]/g, (c) => `&#${c.charCodeAt(0)};`)}</code>`);
	const message = `Identity provider's page:<br>${provider}<br>This execution's link (opens that page, then brings the result back):<br>${back}`;
	if (pending.providerUrl) ctx.addExecutionHints({ message });
	await ctx.putExecutionToWait(pending.waitTill);
	// Nothing on either output while waiting: n8n keeps this output until the resume and would draw "1 item" on Not Identified.
	return twoOutputs([], []);
}

/** The signed resume URL in the run's metadata, for the editor's waiting tooltip (as n8n's Wait node); a visit without a result goes to the provider. */
function shareResumeUrl(ctx: IExecuteFunctions, itemIndex: number): unknown {
	const url = ctx.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex);
	// n8n 1.x before setMetadata: the editor then builds the link itself.
	if (typeof url === 'string' && url && typeof (ctx as Partial<IExecuteFunctions>).setMetadata === 'function') ctx.setMetadata({ resumeUrl: url });
	return url;
}

/** The session the waiting node left on its input (the expired item), read back in webhook(). */
function readPending(ctx: IWebhookFunctions): IDataObject {
	try {
		const value = ctx.evaluateExpression('{{ $json }}', 0);
		if (isRecord(value)) return JSON.parse(JSON.stringify(value)) as IDataObject;
	} catch {
		// No readable input: the callback is then judged on its own.
	}
	return {};
}

/**
 * Anyone holding the resume URL can claim success: it is checked against the registration's identification status where a
 * read shows one; the documented reads show none (docs/api.md "Identification"), and the output says it is the browser's word.
 */
async function recheck(ctx: IWebhookFunctions, outcome: CallbackOutcome): Promise<CallbackOutcome> {
	// Only Start and Wait carries the credential (Wait for Result has none): nothing to read with.
	if (!outcome.identified || ctx.getNodeParameter('operation', '') !== 'startAndWait') return withServiceCheck(outcome, 'not checked');
	const registrationId = String(outcome.registrationID);
	try {
		const masterPartyId = ctx.getNodeParameter('options.masterPartyId', '') as unknown;
		const client = await getApiClient.call(ctx, { partyId: typeof masterPartyId === 'string' ? masterPartyId : undefined, retry: RECHECK_POLICY });
		const body = await client.request<unknown>({
			method: 'GET',
			path: `/v1/einvoices/registrations/${encodeURIComponent(registrationId)}`,
			operation: 'Re-read the registration after identification',
		});
		const shown = identifiedInRegistration(unwrapRegistration(body, registrationId));
		return withServiceCheck(outcome, shown === undefined ? 'not shown' : shown ? 'confirmed' : 'contradicted');
	} catch (error) {
		return withServiceCheck(outcome, 'read failed', (error as Error).message);
	}
}

/* The page the browser sees when it comes back: no value from the request is echoed, so nothing can be injected. */
type PageKind = 'identified' | 'notIdentified' | 'expired' | 'invalidRedirect' | 'noLink';

const TEXT: Record<PageKind, { title: string; body: string }> = {
	identified: { title: 'Identity confirmed', body: 'Your identity has been confirmed. You can close this window.' },
	notIdentified: { title: 'Identity not confirmed', body: 'Your identity could not be confirmed. Please start again from the link you were given.' },
	expired: { title: 'Link expired', body: 'This identification link has expired. Please start again from the link you were given.' },
	invalidRedirect: { title: 'Identity not confirmed', body: 'The identity check could not return here. Please contact the sender of your link.' },
	noLink: { title: 'Open your identification link', body: 'Open the identification link you were sent to start the identity check.' },
};

const KIND: Partial<Record<Reason, PageKind>> = { identified: 'identified', expired: 'expired', invalid_redirect: 'invalidRedirect' };

export const resultPage = (reason: Reason): string => page(KIND[reason] ?? 'notIdentified');

function page(kind: PageKind): string {
	const { title, body } = TEXT[kind];
	return [
		'<!DOCTYPE html>',
		'<html lang="en"><head><meta charset="utf-8">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		'<meta name="robots" content="noindex, nofollow">',
		'<meta name="referrer" content="no-referrer">',
		`<title>${title}</title>`,
		'<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:20vh auto;padding:0 1rem;text-align:center;color:#1f2328}</style>',
		'</head><body><main>',
		`<h1 id="title">${title}</h1>`,
		`<p id="result" data-outcome="${kind}">${body}</p>`,
		'</main></body></html>',
	].join('');
}

const HTML_HEADERS = {
	'Content-Type': 'text/html; charset=utf-8',
	'Cache-Control': 'no-store',
	'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
};

/** A visit without a result (the tooltip's link) goes on to the provider while the session lasts; no workflowData: nothing resumes. */
function openIdentityCheck(ctx: IWebhookFunctions, pending: IDataObject): IWebhookResponseData {
	const res = ctx.getResponseObject();
	const expiresAt = Date.parse(text(pending.expiresAt));
	const checked = checkRedirectUrl(text(pending.providerUrl));
	if (checked.ok && !(expiresAt <= Date.now())) {
		res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
		res.redirect(302, checked.value);
	} else {
		res
			.status(200)
			.set(HTML_HEADERS)
			.send(page(checked.ok ? 'expired' : 'noLink'));
	}
	return { noWebhookResponse: true };
}

/** The browser's GET on the resume URL: a claimed success re-read, the browser answered, the run resumed on Identified or Not Identified. */
export async function identificationWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const pending = readPending(this);
	if (!looksLikeCallback(this.getQueryData())) return openIdentityCheck(this, pending);
	// The expired item this node left on its input; earlier builds named it `registrationID`.
	const recorded = pending.RegistrationID ?? pending.registrationID;
	const expected = recorded === null ? undefined : (recorded as number | string | undefined);
	const outcome = await recheck(this, readCallback(this.getQueryData(), expected));
	const json = outcomeJson(outcome, {
		startedAt: text(pending.startedAt),
		expiresAt: text(pending.expiresAt),
		receivedAt: new Date().toISOString(),
	}) as IDataObject;

	const res = this.getResponseObject();
	const checked = checkRedirectUrl(text(pending.resultRedirectUrl));
	if (checked.ok) {
		res.redirect(302, appendResult(checked.value, outcome.registrationID, outcome.identified));
	} else {
		res.status(200).set(HTML_HEADERS).send(resultPage(outcome.reason));
	}

	const result = [{ json, pairedItem: { item: 0 } }];
	return { noWebhookResponse: true, workflowData: outcome.identified ? twoOutputs([], result) : twoOutputs(result, []) };
}
