/**
 * The trigger's webhook(): one signed call becomes one item, or is answered without starting an
 * execution. Checks: signature over the raw bytes (401), timestamp (401), body (400). Answered
 * 200 and starting nothing: the webhook confirmation (it carries the secret: never passed on or
 * logged; it may arrive before the secret is stored), an event not listened to, and an event of
 * another party. Repeats are recognised in the execution (record.ts). A failed order read
 * reaches n8n, which answers 500 so the service delivers again; a file that cannot be read does
 * not (the event would come again until the service gives up): it is named in FileErrors.
 */
import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { itemWithFiles } from '../shared/http/files';
import type { ApiClient } from '../shared/http/transport';
import { getApiClient } from '../shared/http/transport';
import {
	buildItem,
	checkTimestamp,
	isConfirmation,
	orderIdOf,
	outputEventOf,
	parseSignatureHeader,
	partyIdOf,
	readServiceEvent,
	redactSecrets,
	SIGNATURE_HEADER,
	signedWithAny,
} from './events';
import { readSettings, readWebhooks } from './settings';

/** Writes the answer itself so n8n neither answers nor starts an execution. */
function refuse(ctx: IWebhookFunctions, status: number, message: string, why: string): IWebhookResponseData {
	ctx.logger.warn(`AccessPoint Trigger "${ctx.getNode().name}" refused a call (HTTP ${status}): ${why}`);
	const res = ctx.getResponseObject();
	res.status(status).json({ message });
	return { noWebhookResponse: true };
}

const ignore = (message: string): IWebhookResponseData => ({ webhookResponse: { message } });

function rawBodyOf(ctx: IWebhookFunctions): Uint8Array {
	const raw = (ctx.getRequestObject() as { rawBody?: unknown }).rawBody;
	if (raw instanceof Uint8Array) return raw;
	// n8n reads the body as bytes before the node runs; text is only seen from other hosts.
	if (typeof raw === 'string') return new TextEncoder().encode(raw);
	return new Uint8Array(0);
}

/** The body as one JSON object (the service sends one event per call); undefined otherwise. */
function parseBody(raw: Uint8Array): IDataObject | undefined {
	try {
		const value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw).replace(/^\uFEFF/, '')) as unknown;
		return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : undefined;
	} catch {
		return undefined;
	}
}

/** The event's order (Fetch Full Order, Include Files); null: it no longer exists. */
async function readOrder(ctx: IWebhookFunctions, client: ApiClient, id: number): Promise<IDataObject | null> {
	try {
		const order = await client.request<unknown>({ method: 'GET', path: `/v1/orders/${id}`, operation: `Get order ${id}` });
		return order && typeof order === 'object' && !Array.isArray(order) ? (order as IDataObject) : null;
	} catch (error) {
		if (Number((error as { httpCode?: unknown }).httpCode) === 404) return null; // gone since the event
		throw new NodeApiError(ctx.getNode(), error as JsonObject); // a NodeApiError comes back unchanged
	}
}

export async function receive(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const nowMs = Date.now();
	const stored = readWebhooks(this.getWorkflowStaticData('node'));
	const raw = rawBodyOf(this);
	const secrets = stored?.webhooks.map((w) => w.secret).filter(Boolean) ?? [];
	const payload = parseBody(raw);

	const header = parseSignatureHeader(this.getHeaderData()[SIGNATURE_HEADER]);
	const signed = !!header && secrets.length > 0 && signedWithAny(header, raw, secrets);
	if (payload && isConfirmation(payload)) {
		this.logger.info(
			`AccessPoint Trigger "${this.getNode().name}": the service confirmed a webhook (${signed ? 'signed' : 'not verifiable yet'}); not passed on, its secret not logged`,
		);
		return ignore('Webhook confirmation received; ignored');
	}
	const settings = readSettings(this, { strict: false });
	if (!header) return refuse(this, 401, 'Missing or malformed Billit-Signature header', 'no valid Billit-Signature header');
	if (!secrets.length) return refuse(this, 401, 'Invalid signature', 'this trigger has no webhooks registered (publish the workflow again)');
	if (!signed) return refuse(this, 401, 'Invalid signature', 'the signature does not match any webhook secret of this trigger');
	const verdict = checkTimestamp(header.t, nowMs, settings.maxAgeMs);
	if (verdict !== 'ok') {
		const skew = Math.round((nowMs - header.t * 1000) / 1000);
		const why =
			verdict === 'stale'
				? `timestamp ${skew} s old (maximum age ${settings.maxAgeMs / 1000} s): a replay or a late delivery`
				: `timestamp ${-skew} s ahead of n8n's clock`;
		return refuse(this, 401, verdict === 'stale' ? 'Timestamp too old' : 'Timestamp in the future', why);
	}
	if (!payload) return refuse(this, 400, 'Body is not a JSON event', 'the body is not one JSON object');

	const ev = readServiceEvent(payload);
	const event = ev && outputEventOf(ev, settings.events);
	if (!ev || !event) return ignore('Not an event this trigger listens to; ignored');
	const theirs = partyIdOf(payload);
	if (theirs !== undefined && stored?.partyId !== undefined && theirs !== stored.partyId) {
		this.logger.warn(
			`AccessPoint Trigger "${this.getNode().name}" ignored an event of party ${theirs.slice(0, 40)}: its webhooks belong to party ${stored.partyId}`,
		);
		return ignore('An event of another party; ignored');
	}

	const id = orderIdOf(ev);
	const wantsOrder = (settings.fetchFullOrder || settings.files) && id !== undefined;
	const client = wantsOrder ? await getApiClient.call(this, { partyId: stored?.partyId, retry: settings.retry }) : undefined;
	const order = client && id !== undefined ? await readOrder(this, client, id) : undefined;
	// Without Fetch Full Order the item stays the event; an order gone since still says so.
	const shown = settings.fetchFullOrder || order === null ? order : undefined;
	const json = buildItem({ event, ev, payload: redactSecrets(payload, secrets) as IDataObject, receivedAt: new Date(nowMs).toISOString(), order: shown });
	const item: INodeExecutionData = { json };
	const { files } = settings;
	return {
		workflowData: [
			[order && client && files ? await itemWithFiles(this, client, item, order, files.kinds, { maxBytes: files.maxBytes, onError: 'emit' }) : item],
		],
	};
}
