/**
 * The trigger's webhook(): one signed call becomes one item, or is answered without starting an
 * execution. Checks: signature over the raw bytes (401), timestamp (401), body (400). Answered
 * 200 and starting nothing: the webhook confirmation (it carries the secret: never passed on or
 * logged; it may arrive before the secret is stored), an event not listened to, and an event of
 * another party. Repeats are recognised in the execution (execute(), below). A failed order read
 * reaches n8n, which answers 500 so the service delivers again; a file that cannot be read does
 * not (the event would come again until the service gives up): it is named in FileErrors.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, IWebhookFunctions, IWebhookResponseData, JsonObject } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { itemWithFiles } from '../shared/node/files';
import type { ApiClient } from '../shared/http/transport';
import { getApiClient } from '../shared/node/client';
import {
	buildItem,
	checkTimestamp,
	flowStateOf,
	isConfirmation,
	MAX_FUTURE_SKEW_MS,
	orderIdOf,
	outputEventOf,
	parseSignatureHeader,
	partyIdOf,
	readServiceEvent,
	redactSecrets,
	SIGNATURE_HEADER,
	signedWithAny,
} from './events';
import type { ServiceEvent } from './events';
import { DEFAULT_MAX_AGE_MINUTES, readSettings, readWebhooks } from './registry';

/** Writes the answer itself so n8n neither answers nor starts an execution. */
function refuse(ctx: IWebhookFunctions, status: number, message: string, why = message): IWebhookResponseData {
	ctx.logger.warn(`AccessPoint Trigger "${ctx.getNode().name}" refused a call (HTTP ${status}): ${why}`);
	const res = ctx.getResponseObject();
	res.status(status).json({ message });
	return { noWebhookResponse: true };
}

const ignore = (message: string): IWebhookResponseData => ({ webhookResponse: { message } });

function rawBodyOf(ctx: IWebhookFunctions): Uint8Array {
	const raw = (ctx.getRequestObject() as { rawBody?: unknown }).rawBody;
	// n8n reads the body as bytes before the node runs; text is only seen from other hosts.
	return raw instanceof Uint8Array ? raw : new TextEncoder().encode(typeof raw === 'string' ? raw : '');
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
	const signed = !!header && signedWithAny(header, raw, secrets);
	if (payload && isConfirmation(payload)) {
		this.logger.info(`AccessPoint Trigger "${this.getNode().name}": webhook confirmation (${signed ? 'signed' : 'unverified'}) not passed on`);
		return ignore('Webhook confirmation received; ignored');
	}
	const settings = readSettings(this);
	if (!header) return refuse(this, 401, 'Missing or malformed Billit-Signature header');
	if (!secrets.length) return refuse(this, 401, 'Invalid signature', 'no webhooks registered (publish again)');
	if (!signed) return refuse(this, 401, 'Invalid signature', 'the signature matches no webhook secret');
	const verdict = checkTimestamp(header.t, nowMs, settings.maxAgeMs);
	if (verdict !== 'ok') {
		const skew = Math.round((nowMs - header.t * 1000) / 1000);
		return verdict === 'stale'
			? refuse(this, 401, 'Timestamp too old', `timestamp ${skew} s old (maximum ${settings.maxAgeMs / 1000} s)`)
			: refuse(this, 401, 'Timestamp in the future', `timestamp ${-skew} s ahead of n8n's clock`);
	}
	if (!payload) return refuse(this, 400, 'Body is not a JSON event');

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
	const wantsOrder = (settings.fetchFullOrder || settings.files) && id !== undefined && ev.updateType !== 'D';
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

/**
 * The trigger's one duplicate-event mechanism: its execute(), the first step of every execution
 * the trigger starts, passes on only events n8n's deduplication store (`checkProcessedAndRecord`,
 * a table shared by main, webhook and worker processes) has not seen, and records them there.
 *
 * The service publishes no event id (docs/api.md "Webhooks"): a repeat is recognised by its
 * content (entity type and id, update type, flow state, a digest of the payload with keys sorted)
 * within the Maximum Event Age (a time bucket of that length, the bucket before counting too).
 *
 * Why not in webhook(): n8n 2.41 does not save what webhook() writes to static data when the call
 * starts an execution, and an execution saves its whole copy of static data when it ends. So
 * static data holds only the webhooks, written at activation (registry.ts).
 *
 * Two deliveries at once: the store reads its row, then writes the whole list back, so two
 * executions reading before either writes would both see the event as new. Each also records a
 * claim (key + execution id), waits SETTLE_MS and records both again: a claim overwritten while
 * the key stayed lost the race and passes nothing on; key and claim both gone were overwritten by
 * another event's write, so it writes and reads back again. Residual (README, "Repeated
 * deliveries"): a competitor slower than SETTLE_MS, or more than ROUNDS overwrites in a row.
 */
/** JSON with the keys of every object sorted. */
function canonical(value: unknown, depth = 0): string {
	if (!value || typeof value !== 'object' || depth > 32) return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(',')}]`;
	const entries = Object.keys(value as IDataObject)
		.sort()
		.map((k) => `${JSON.stringify(k)}:${canonical((value as IDataObject)[k], depth + 1)}`);
	return `{${entries.join(',')}}`;
}

/** The keys of an event received at `receivedMs`: its bucket's, then the bucket before's. */
export function eventKeys(ev: ServiceEvent, payload: IDataObject, receivedMs: number, window: number): [string, string] {
	const digest = createHash('sha256').update(canonical(payload)).digest('hex').slice(0, 32);
	const base = `${ev.entityType}|${ev.entityId ?? '-'}|${ev.updateType}|${flowStateOf(ev) ?? '-'}|${digest}`;
	const bucket = Math.floor(receivedMs / window);
	return [`${base}@${bucket}`, `${base}@${bucket - 1}`];
}

/** Store entries kept (three per event: its key, the bucket before's, its claim). */
const STORE_ENTRIES = 3000;
/** Attempts at a write (the first execution of a burst inserts the store's row; the others' inserts fail), with a random back-off. */
const STORE_ATTEMPTS = 5;
const STORE_BACKOFF_MS = 25;
/** How long a claim is left before it is read back: longer than a store read and write take. */
const SETTLE_MS = 200;
const ROUNDS = 5;

export type Store = (entries: string[]) => Promise<{ processed: unknown[] }>;

/** The entries the store had before this write (records the rest). */
async function record(store: Store, entries: string[]): Promise<Set<string>> {
	let failure: unknown;
	for (let attempt = 0; attempt < STORE_ATTEMPTS; attempt++) {
		if (attempt) await sleep(Math.floor(Math.random() * STORE_BACKOFF_MS * attempt));
		try {
			return new Set((await store(entries)).processed.map(String));
		} catch (error) {
			failure = error;
		}
	}
	throw failure;
}

/** The events (key pairs: this bucket's, the one before's) this execution owns: not seen before, its claim standing (see the header). */
export async function claimEvents(store: Store, events: Array<[string, string]>, owner: string, settleMs = SETTLE_MS): Promise<Set<string>> {
	const claim = (key: string) => `${key}#${owner}`;
	const seen = await record(
		store,
		events.flatMap(([key, before]) => [key, before, claim(key)]),
	);
	let pending = events.filter(([key, before]) => !seen.has(key) && !seen.has(before)).map(([key]) => key);
	const owned = new Set<string>();
	for (let round = 0; round < ROUNDS && pending.length; round++) {
		// Spread at random: executions that wrote together must not read back (and write) together again.
		await sleep(settleMs + Math.floor(Math.random() * settleMs));
		const after = await record(
			store,
			pending.flatMap((key) => [key, claim(key)]),
		);
		const overwritten: string[] = [];
		for (const key of pending) {
			if (after.has(claim(key))) owned.add(key);
			else if (!after.has(key)) overwritten.push(key);
			// else: another execution with the same event claimed it last; it passes it on.
		}
		pending = overwritten;
	}
	for (const key of pending) owned.add(key);
	return owned;
}

export async function recordExecution(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const helpers = this.helpers;
	const paired = (item: INodeExecutionData, index: number): INodeExecutionData => ({ ...item, pairedItem: { item: index } });
	// Test runs from the editor skip the store: a test delivery must not hide an event from the published workflow.
	if (this.getMode() === 'manual' || typeof helpers.checkProcessedAndRecord !== 'function') return [items.map(paired)];
	const minutes = Number(this.getNodeParameter('options.maxEventAgeMinutes', 0, DEFAULT_MAX_AGE_MINUTES));
	// A repeat is recognised for the event-age window plus the clock skew webhook() accepts.
	const window = (Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_MAX_AGE_MINUTES) * 60_000 + MAX_FUTURE_SKEW_MS;
	const keyed = items.map((item) => {
		const payload = item.json.payload as IDataObject | undefined;
		const ev = payload && typeof payload === 'object' && !Array.isArray(payload) ? readServiceEvent(payload) : undefined;
		const received = Date.parse(String(item.json.receivedAt));
		return ev && payload ? eventKeys(ev, payload, Number.isFinite(received) ? received : Date.now(), window) : undefined;
	});
	const events = keyed.filter((k): k is [string, string] => k !== undefined);
	let owned = new Set(events.map(([key]) => key));
	if (events.length) {
		try {
			const store: Store = async (entries) => await helpers.checkProcessedAndRecord(entries, 'node', { mode: 'entries', maxEntries: STORE_ENTRIES });
			owned = await claimEvents(store, events, this.getExecutionId() || randomUUID());
		} catch (error) {
			// The events still go on: a store that fails must not swallow them.
			this.logger.warn(`AccessPoint Trigger: n8n's deduplication store failed (${(error as Error).message}); events passed on unchecked`);
		}
	}
	const out: INodeExecutionData[] = [];
	items.forEach((item, index) => {
		const keys = keyed[index];
		if (keys === undefined || owned.has(keys[0])) out.push(paired(item, index));
	});
	return [out];
}
