/**
 * The trigger's webhook(): one signed call from the service becomes one item per event, or
 * is refused without starting an execution.
 *
 * Order of checks: the signature over the raw bytes (401), the timestamp (401: older than the
 * maximum age is a replay, more than a minute ahead is refused too), then the body (400 when
 * not JSON). A refusal writes its own answer and returns no workflowData, so n8n starts
 * nothing. An accepted call whose events were all seen before (the service retries and
 * may deliver twice) or not selected is answered 200 and starts nothing either. How the
 * handled events are remembered across calls: see record.ts.
 *
 * Fetch Full Order and Include Files share one order read per event (none for a deletion).
 * A failed read, of the order or of a file, reaches n8n: it answers 500, the service
 * delivers again, and the event is not recorded as handled.
 */
import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { TriggerFiles } from '../shared/files';
import { itemWithFiles } from '../shared/files';
import type { ApiClient } from '../shared/transport';
import { getApiClient } from '../shared/transport';
import type { EntityType, OutputEvent, UpdateType } from './events';
import { buildItem, classify, orderIdOf, outputEventOf } from './events';
import { keyOf, recentWindowMs } from './record';
import { readSettings } from './settings';
import { checkTimestamp, parseSignatureHeader, SIGNATURE_HEADER, signedWithAny } from './signature';
import { readWebhooks, rememberEvents, seenRecently } from './state';

/** Most events one call may carry (the service sends one). */
const MAX_EVENTS = 100;

interface Accepted {
	key: string;
	event: OutputEvent;
	entityType: EntityType;
	updateType: UpdateType;
	payload: IDataObject;
}

/** Writes the answer itself so n8n neither answers nor starts an execution. */
function refuse(ctx: IWebhookFunctions, status: number, message: string, why: string): IWebhookResponseData {
	ctx.logger.warn(`AccessPoint Trigger "${ctx.getNode().name}" refused a call (HTTP ${status}): ${why}`);
	const res = ctx.getResponseObject();
	res.status(status).json({ message });
	return { noWebhookResponse: true };
}

function rawBodyOf(ctx: IWebhookFunctions): Uint8Array {
	const raw = (ctx.getRequestObject() as { rawBody?: unknown }).rawBody;
	if (raw instanceof Uint8Array) return raw;
	// n8n reads the body as bytes before the node runs; text is only seen from other hosts.
	if (typeof raw === 'string') return new TextEncoder().encode(raw);
	return new Uint8Array(0);
}

function headerOf(ctx: IWebhookFunctions): unknown {
	return ctx.getHeaderData()[SIGNATURE_HEADER];
}

/** The events of a JSON body: one object, or a list of objects; undefined when it is neither. */
function parseEvents(raw: Uint8Array): IDataObject[] | undefined {
	let value: unknown;
	try {
		const text = new TextDecoder('utf-8', { fatal: true }).decode(raw).replace(/^\uFEFF/, '');
		value = JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
	const list = Array.isArray(value) ? value : [value];
	if (list.length === 0 || list.length > MAX_EVENTS) return undefined;
	const isObject = (v: unknown): v is IDataObject => !!v && typeof v === 'object' && !Array.isArray(v);
	return list.every(isObject) ? list : undefined;
}

/** One order read per order (a call rarely holds two events of one order); null: it no longer exists. */
async function readOrders(ctx: IWebhookFunctions, clientOf: () => Promise<ApiClient>, accepted: Accepted[]) {
	const orders = new Map<number, IDataObject | null>();
	for (const a of accepted) {
		const id = orderIdOf(a.payload);
		if (a.event === 'deleted' || id === undefined || orders.has(id)) continue;
		const client = await clientOf();
		try {
			const order = await client.request<unknown>({ method: 'GET', path: `/v1/orders/${id}`, operation: `Get order ${id}` });
			orders.set(id, order && typeof order === 'object' && !Array.isArray(order) ? (order as IDataObject) : null);
		} catch (error) {
			// Gone since the event: the item says so. Any other failure reaches n8n, which answers
			// 500 so the service delivers again; the event was not recorded as handled.
			if (Number((error as { httpCode?: unknown }).httpCode) === 404) orders.set(id, null);
			// A NodeApiError from the transport comes back unchanged.
			else throw new NodeApiError(ctx.getNode(), error as JsonObject);
		}
	}
	return orders;
}

/**
 * Include Files: the item with its order's picked files, as the Order Trigger's (a kind the
 * order has none of is listed in MissingFiles). A file that cannot be read (too large, gone,
 * broken) is named in FileErrors and the event still reaches the workflow, once: answering 500
 * would make the service deliver it again until it gives up, and the event would be lost.
 */
async function withFiles(ctx: IWebhookFunctions, client: ApiClient, item: INodeExecutionData, order: IDataObject, files: TriggerFiles) {
	return await itemWithFiles(ctx, client, item, order, files.kinds, { maxBytes: files.maxBytes, onError: 'emit' });
}

export async function receive(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const nowMs = Date.now();
	const settings = readSettings(this);
	const staticData = this.getWorkflowStaticData('node');
	const stored = readWebhooks(staticData);
	const raw = rawBodyOf(this);

	const header = parseSignatureHeader(headerOf(this));
	if (!header) return refuse(this, 401, 'Missing or malformed Billit-Signature header', 'no valid Billit-Signature header');
	const secrets = stored?.webhooks.map((w) => w.secret) ?? [];
	if (!secrets.length) return refuse(this, 401, 'Invalid signature', 'this trigger has no webhooks registered (publish the workflow again)');
	if (!signedWithAny(header, raw, secrets)) return refuse(this, 401, 'Invalid signature', 'the signature does not match any webhook secret of this trigger');
	const verdict = checkTimestamp(header.t, nowMs, settings.maxAgeMs);
	if (verdict !== 'ok') {
		const skew = Math.round((nowMs - header.t * 1000) / 1000);
		const why = verdict === 'stale' ? `timestamp ${skew} s old (maximum age ${settings.maxAgeMs / 1000} s): a replay or a late delivery` : `timestamp ${-skew} s ahead of n8n's clock`;
		return refuse(this, 401, verdict === 'stale' ? 'Timestamp too old' : 'Timestamp in the future', why);
	}
	const events = parseEvents(raw);
	if (!events) return refuse(this, 400, 'Body is not a JSON event', `the body is not a JSON object or list of at most ${MAX_EVENTS} objects`);

	const windowMs = recentWindowMs(settings.maxAgeMs);
	const accepted: Accepted[] = [];
	const keys = new Set<string>();
	let repeated = 0;
	for (const payload of events) {
		const kind = classify(payload);
		if (!kind) continue;
		const event = outputEventOf(kind.entityType, kind.updateType, settings.events);
		if (!event) continue;
		const key = keyOf(payload, kind.entityType, kind.updateType);
		if (keys.has(key) || seenRecently(staticData, key, nowMs, windowMs)) {
			repeated++;
			continue;
		}
		keys.add(key);
		accepted.push({ key, event, ...kind, payload });
	}
	if (!accepted.length) {
		return { webhookResponse: { message: repeated ? 'Already received; ignored' : 'Not an event this trigger listens to; ignored' } };
	}

	let client: ApiClient | undefined;
	const clientOf = async () => (client ??= await getApiClient.call(this, { partyId: stored?.partyId, retry: settings.retry }));
	// Include Files needs the order too: the same one read per event, never a second.
	const orders = (settings.fetchFullOrder || settings.files) && stored ? await readOrders(this, clientOf, accepted) : undefined;
	const receivedAt = new Date(nowMs).toISOString();
	const items: INodeExecutionData[] = [];
	for (const a of accepted) {
		const id = orderIdOf(a.payload);
		const order = orders && a.event !== 'deleted' && id !== undefined ? orders.get(id) : undefined;
		// Without Fetch Full Order the item stays the event; an order gone since still says so.
		const shown = settings.fetchFullOrder || order === null ? order : undefined;
		const item = { json: buildItem({ event: a.event, entityType: a.entityType, updateType: a.updateType, payload: a.payload, receivedAt, order: shown }) };
		items.push(order && settings.files ? await withFiles(this, await clientOf(), item, order, settings.files) : item);
	}
	// Saved by n8n only if this call started no execution; execute() records them again (record.ts).
	rememberEvents(staticData, [...keys], nowMs, windowMs);
	return { workflowData: [items] };
}
