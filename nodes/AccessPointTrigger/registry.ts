/**
 * The trigger's registration with the service (docs/api.md "Webhooks"): its parameters, read and
 * checked the same way at activation and on every delivery; the webhooks it keeps in static
 * data; and its webhookMethods. checkExists: the stored webhooks still exist for this URL, scope
 * and events (n8n 2.41 calls it at publish and, the node being also an in-memory trigger, at
 * every start). create: whether the party has room, then one webhook per entity/update type; a
 * failure removes what it made; a limit refusal is remembered a minute, since n8n 2.41 tries an
 * activation 5 times. delete: one already gone is not an error.
 */
import type { IDataObject, IHookFunctions, INode, IWebhookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isLoopbackHost } from '../shared/domain/environments';
import type { TriggerFiles } from '../shared/node/files';
import { checkTriggerFiles } from '../shared/node/files';
import { readListPage } from '../shared/http/paging';
import type { RetryPolicy } from '../shared/http/retry';
import type { RequestOptionValues } from '../shared/fields/requestOptions';
import { policyFromOptions } from '../shared/fields/requestOptions';
import type { ApiClient } from '../shared/http/transport';
import { getApiClient } from '../shared/node/client';
import { checkBoolean, checkChoice, checkNumericId, showValue } from '../shared/domain/validation';
import { requireValid } from '../shared/node/input';
import type { EntityType, Subscription, TriggerEvent, UpdateType } from './events';
import { describeSubscriptions, isTriggerEvent, subscriptionKey, subscriptionsFor, WEBHOOKS_PER_PARTY } from './events';

export const DEFAULT_MAX_AGE_MINUTES = 5;

interface TriggerOptions extends RequestOptionValues {
	fetchFullOrder?: boolean;
	maxEventAgeMinutes?: number;
	includeFiles?: unknown;
	maxFileSizeMb?: unknown;
}

export interface TriggerSettings {
	events: TriggerEvent[];
	subscriptions: Subscription[];
	/** Undefined: the account itself (`/v1/webhooks`). */
	registrationId?: string;
	/** `account` or `registration:<id>`. */
	scope: string;
	fetchFullOrder: boolean;
	/** Include Files: the kinds each event's order carries, and the size bound; undefined when none. */
	files?: TriggerFiles;
	maxAgeMs: number;
	retry: RetryPolicy;
}

type Context = IHookFunctions | IWebhookFunctions;

export function problem(ctx: { getNode(): INode }, message: string, description: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { description });
}

/** The trigger's parameters, checked. */
export function readSettings(ctx: Context): TriggerSettings {
	const rawEvents = ctx.getNodeParameter('events', []) as unknown;
	const list = Array.isArray(rawEvents) ? rawEvents : [rawEvents];
	const unknown = list.filter((e) => !isTriggerEvent(e));
	if (unknown.length) {
		throw problem(ctx, `"Events" holds ${showValue(unknown[0])}, which is not an event of this trigger`, 'Pick the events from the list.');
	}
	const events = list as TriggerEvent[];
	if (!events.length) throw problem(ctx, '"Events" is empty', 'Select at least one event.');
	const needed = subscriptionsFor(events).length;
	if (needed > WEBHOOKS_PER_PARTY)
		throw problem(
			ctx,
			`"Events" needs ${needed} webhooks; the service allows ${WEBHOOKS_PER_PARTY} per party`,
			'Select fewer events (Delivery Status Changed takes two).',
		);

	const source = requireValid(ctx, undefined, 'Receive Events Of', ctx.getNodeParameter('source', 'account'), (v) =>
		checkChoice(v, ['account', 'registration']),
	);
	const registrationId =
		source === 'registration'
			? requireValid(ctx, undefined, 'Registration', ctx.getNodeParameter('registrationId', '', { extractValue: true }), (v) =>
					checkNumericId(v, 'RegistrationID'),
				)
			: undefined;

	const options = (ctx.getNodeParameter('options', {}) ?? {}) as TriggerOptions;
	const minutes = options.maxEventAgeMinutes ?? DEFAULT_MAX_AGE_MINUTES;
	if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60) {
		throw problem(
			ctx,
			`"Maximum Event Age (Minutes)" must be a number above 0 and at most 1440, not ${showValue(options.maxEventAgeMinutes)}`,
			'Leave it at 5 unless clocks disagree or deliveries are late.',
		);
	}
	const fetchFullOrder = requireValid(ctx, undefined, 'Fetch Full Order', options.fetchFullOrder ?? false, checkBoolean);
	const files = checkTriggerFiles(ctx.getNode(), options.includeFiles ?? [], options.maxFileSizeMb);
	return {
		events,
		subscriptions: subscriptionsFor(events),
		registrationId,
		scope: registrationId === undefined ? 'account' : `registration:${registrationId}`,
		fetchFullOrder,
		files,
		maxAgeMs: Math.round(minutes * 60_000),
		retry: policyFromOptions(options),
	};
}

/** Only the request options: removing webhooks must not depend on the other parameters still being valid. */
export function readRetry(ctx: Context): RetryPolicy {
	return policyFromOptions((ctx.getNodeParameter('options', {}) ?? {}) as TriggerOptions);
}

/**
 * Static data: only activation writes it (webhook() and executions read), so no execution's copy brings back an older one.
 * `webhooks`: those made (id, type, secret, URL, scope, party); `refused`: the last limit refusal, for a minute (createWebhooks).
 * Handled events are in n8n's deduplication store (receive.ts).
 */
const WEBHOOKS_KEY = 'webhooks';
const REFUSED_KEY = 'refused';
/** Kept by versions before 0.2 (the event record now lives in n8n's deduplication store). */
const LEGACY_RECENT_KEY = 'recentEvents';
/** How long a limit refusal is repeated without a request: n8n 2.41's 5 attempts wait 1 + 2 + 4 + 8 s. */
export const REFUSAL_MEMORY_MS = 60_000;

export interface StoredWebhook {
	id: string;
	entityType: EntityType;
	updateType: UpdateType;
	secret: string;
}

export interface StoredWebhooks {
	version: 1;
	url: string;
	/** `account` or `registration:<id>`: a change makes new webhooks. */
	scope: string;
	partyId?: string;
	webhooks: StoredWebhook[];
}

/** The stored webhooks when the shape is usable; anything else reads as none. */
export function readWebhooks(staticData: IDataObject): StoredWebhooks | undefined {
	const raw = staticData[WEBHOOKS_KEY] as Partial<StoredWebhooks> | undefined;
	if (!raw || typeof raw !== 'object' || raw.version !== 1) return undefined;
	if (typeof raw.url !== 'string' || typeof raw.scope !== 'string' || !Array.isArray(raw.webhooks)) return undefined;
	const webhooks = (raw.webhooks as Array<Partial<StoredWebhook> | null>)
		.filter(
			(h): h is StoredWebhook =>
				typeof h?.id === 'string' &&
				typeof h.secret === 'string' &&
				['Order', 'Message'].includes(String(h.entityType)) &&
				['I', 'U', 'D'].includes(String(h.updateType)),
		)
		.map(({ id, entityType, updateType, secret }) => ({ id, entityType, updateType, secret }));
	const partyId = typeof raw.partyId === 'string' && raw.partyId ? raw.partyId : undefined;
	return { version: 1, url: raw.url, scope: raw.scope, partyId, webhooks };
}

/** Stores the webhooks (undefined: none). */
export function writeWebhooks(staticData: IDataObject, value: StoredWebhooks | undefined): void {
	if (value) staticData[WEBHOOKS_KEY] = value as unknown as IDataObject;
	else delete staticData[WEBHOOKS_KEY];
	delete staticData[LEGACY_RECENT_KEY];
}

/** Whether the stored webhooks are exactly the wanted ones for this URL and scope. */
export function matchesWanted(stored: StoredWebhooks, url: string, scope: string, wanted: readonly Subscription[]): boolean {
	const keys = (list: ReadonlyArray<{ entityType: string; updateType: string }>) => list.map(subscriptionKey).sort().join();
	return stored.url === url && stored.scope === scope && keys(stored.webhooks) === keys(wanted);
}

export interface Refusal {
	/** URL, scope and webhooks asked for (another request is tried at once). */
	wanted: string;
	at: number;
	message: string;
	description: string;
}

/** A limit refusal of the same request within REFUSAL_MEMORY_MS, or undefined. */
export function recentRefusal(staticData: IDataObject, wanted: string, nowMs: number): Refusal | undefined {
	const r = staticData[REFUSED_KEY] as Partial<Refusal> | undefined;
	if (!r || r.wanted !== wanted || typeof r.at !== 'number' || typeof r.message !== 'string') return undefined;
	return nowMs - r.at >= 0 && nowMs - r.at < REFUSAL_MEMORY_MS ? { wanted, at: r.at, message: r.message, description: String(r.description ?? '') } : undefined;
}

export function rememberRefusal(staticData: IDataObject, refusal: Refusal | undefined): void {
	if (refusal) staticData[REFUSED_KEY] = { ...refusal };
	else delete staticData[REFUSED_KEY];
}

/** Most webhooks read when listing a party's (the limit is 4; a bound all the same). */
const LIST_LIMIT = 200;
const SHOWN = 6;

function statusOf(error: unknown): number | undefined {
	const n = Number((error as { httpCode?: unknown })?.httpCode);
	return Number.isInteger(n) && n > 0 ? n : undefined;
}

function textOf(error: unknown): string {
	const e = error as { message?: unknown; description?: unknown; context?: IDataObject };
	return [e?.message, e?.description, e?.context?.apiDescription].filter((x) => typeof x === 'string').join(' ');
}

/** The service's own words in an error (its Description), else the error's message. */
function serviceAnswer(error: unknown): string {
	const e = error as { message?: unknown; context?: IDataObject };
	const own = e?.context?.apiDescription;
	return String(typeof own === 'string' && own.trim() ? own : (e?.message ?? '')).slice(0, 500);
}

const SET_URL = 'Set WEBHOOK_URL to the public https address of this n8n';

/** The URL the service must call, refused before any request when the service could not call it. */
function webhookUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw problem(ctx, 'n8n gave no webhook URL for this trigger', 'Save the workflow and publish it again.');
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw problem(ctx, `n8n's webhook URL for this trigger is not a URL: ${url}`, `${SET_URL} and restart n8n.`);
	}
	if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
		throw problem(
			ctx,
			`The AccessPoint service calls only https URLs, and this trigger's URL is ${url}`,
			`${SET_URL}, restart n8n and publish again, or use the AccessPoint Order Trigger.`,
		);
	}
	return url;
}

const clientFor = async (ctx: IHookFunctions, retry: RetryPolicy, partyId?: string): Promise<ApiClient> => await getApiClient.call(ctx, { partyId, retry });

/** The party's webhooks as the API lists them (a bare list; never with secrets). */
async function listWebhooks(ctx: IHookFunctions, client: ApiClient): Promise<IDataObject[]> {
	const page = readListPage(await client.request<unknown>({ method: 'GET', path: '/v1/webhooks', operation: 'List webhooks' }));
	const message = `List webhooks: ${page.problem}`;
	if (page.problem) throw new NodeApiError(ctx.getNode(), { message }, { message });
	return page.items.slice(0, LIST_LIMIT);
}

/** Deletes webhooks by id; answers the ones that still exist (gone = deleted). */
async function deleteAll(ctx: IHookFunctions, client: ApiClient, retry: RetryPolicy, hooks: StoredWebhook[]): Promise<StoredWebhook[]> {
	const failed: StoredWebhook[] = [];
	for (const hook of hooks) {
		try {
			// Deleting twice is harmless, so transient failures are retried like reads.
			const answer = await client.request<unknown>({
				method: 'DELETE',
				path: `/v1/webhooks/${encodeURIComponent(hook.id)}`,
				operation: `Delete webhook ${hook.id}`,
				retry,
			});
			if (answer !== false) continue;
		} catch (error) {
			if (statusOf(error) === 404) continue;
			ctx.logger.warn(`AccessPoint Trigger: could not delete webhook ${hook.id}: ${textOf(error).slice(0, 300)}`);
		}
		failed.push(hook);
	}
	if (!failed.length) return failed;
	// An answer false, a 400 or a failure may come for a webhook already gone: the list decides.
	try {
		const listed = new Set((await listWebhooks(ctx, client)).map((w) => String(w.WebhookID)));
		return failed.filter((hook) => listed.has(hook.id));
	} catch {
		return failed;
	}
}

export async function checkWebhooks(this: IHookFunctions): Promise<boolean> {
	const settings = readSettings(this);
	const url = webhookUrl(this);
	const staticData = this.getWorkflowStaticData('node');
	const stored = readWebhooks(staticData);
	if (!stored || stored.webhooks.length === 0) return false;
	const client = await clientFor(this, settings.retry, stored.partyId);
	if (matchesWanted(stored, url, settings.scope, settings.subscriptions)) {
		const listed = new Map((await listWebhooks(this, client)).map((w) => [String(w.WebhookID), w]));
		const alive = stored.webhooks.every((hook) => {
			const found = listed.get(hook.id);
			return String(found?.WebhookURL).trim() === url && `${found?.EntityType} ${found?.EntityUpdateType}` === subscriptionKey(hook);
		});
		if (alive) return true;
		this.logger.info(`AccessPoint Trigger "${this.getNode().name}": a webhook is gone at the service; making a new set`);
	}
	// Events, registration or n8n's URL changed, or some webhook was deleted at the service:
	// start over with a complete set (the ones left would otherwise count against the limit).
	await deleteAll(this, client, settings.retry, stored.webhooks);
	writeWebhooks(staticData, undefined);
	return false;
}

function describeExisting(list: IDataObject[]): string {
	const shown = list.slice(0, SHOWN).map((w) => {
		let target = String(w.WebhookURL ?? '');
		try {
			const u = new URL(target);
			target = `${u.host}${u.pathname}`;
		} catch {
			target = target.slice(0, 80);
		}
		return `#${String(w.WebhookID)} ${String(w.EntityType)} ${String(w.EntityUpdateType ?? 'all')} -> ${target}`;
	});
	return shown.join('; ') + (list.length > SHOWN ? `; and ${list.length - SHOWN} more` : '');
}

const TO_DO = 'Delete webhooks no longer used or unpublish workflows holding them, or select fewer events; then publish again.';

/** The limit error. n8n 2.41 shows only an activation error's message, so it holds it all: the service's answer, what exists, what is needed, what to do. */
function limitError(ctx: IHookFunctions, settings: TriggerSettings, party: string, existing: IDataObject[] | undefined, answer?: string): NodeOperationError {
	const needed = `this trigger needs ${settings.subscriptions.length} (${describeSubscriptions(settings.subscriptions)})`;
	const has = existing === undefined ? '' : existing.length ? `the party has ${existing.length}: ${describeExisting(existing)}` : 'the party has none listed';
	const message =
		answer === undefined
			? `Party ${party} already has ${existing?.length ?? 0} webhook${existing?.length === 1 ? '' : 's'} at the AccessPoint service (${describeExisting(existing ?? [])}), which allows ${WEBHOOKS_PER_PARTY} per party; ${needed}. ${TO_DO}`
			: `The AccessPoint service refused a webhook for party ${party}: "${answer}"; ${needed}${has ? `; ${has}` : ''}. ${TO_DO}`;
	return problem(ctx, message, 'Each published AccessPoint Trigger holds one webhook per event type.');
}

function isLimitAnswer(error: unknown): boolean {
	const text = textOf(error);
	return statusOf(error) === 400 && /webhook/i.test(text) && /(at most|limit|maximum|already has|max)/i.test(text);
}

function readCreated(answer: unknown): { id?: string; secret?: string; partyId?: string } {
	const body = (answer && typeof answer === 'object' ? answer : {}) as IDataObject;
	const rawId = body.WebhookID ?? body.WebhookId ?? body.ID ?? body.Id;
	const id = typeof rawId === 'number' || (typeof rawId === 'string' && rawId.trim()) ? String(rawId).trim() : undefined;
	const secret = typeof body.Secret === 'string' && body.Secret ? body.Secret : undefined;
	return { id, secret, partyId: body.PartyID === undefined || body.PartyID === null ? undefined : String(body.PartyID) };
}

export async function createWebhooks(this: IHookFunctions): Promise<boolean> {
	const settings = readSettings(this);
	const url = webhookUrl(this);
	const staticData = this.getWorkflowStaticData('node');
	const wanted = `${url} ${settings.scope} ${describeSubscriptions(settings.subscriptions)}`;
	const earlier = recentRefusal(staticData, wanted, Date.now());
	if (earlier) throw problem(this, earlier.message, earlier.description);

	const client = await clientFor(this, settings.retry);
	const party = settings.registrationId ?? client.partyId;
	let existing: IDataObject[] | undefined;
	try {
		existing = await listWebhooks(this, settings.registrationId === undefined ? client : await clientFor(this, settings.retry, party));
	} catch (error) {
		// Not fatal: the service's own answer to the create still tells when there is no room.
		this.logger.warn(`AccessPoint Trigger: listing the webhooks of party ${party} failed: ${textOf(error).slice(0, 300)}`);
	}
	const refuse = (error: NodeOperationError) => {
		rememberRefusal(staticData, { wanted, at: Date.now(), message: error.message, description: String(error.description ?? '') });
		return error;
	};
	if (existing && existing.length + settings.subscriptions.length > WEBHOOKS_PER_PARTY) throw refuse(limitError(this, settings, party, existing));

	const created: StoredWebhook[] = [];
	let partyId: string | undefined;
	try {
		for (const sub of settings.subscriptions) {
			const answer = await client.request<unknown>({
				method: 'POST',
				path: settings.registrationId === undefined ? '/v1/webhooks' : `/v1/einvoices/registrations/${encodeURIComponent(settings.registrationId)}/webhooks`,
				body: { EntityType: sub.entityType, EntityUpdateType: sub.updateType, WebhookURL: url },
				operation: `Create webhook (${subscriptionKey(sub)})`,
			});
			const got = readCreated(answer);
			partyId ??= got.partyId;
			// One made without its secret is unusable: it is removed with the others.
			if (got.id) created.push({ id: got.id, ...sub, secret: got.secret ?? '' });
			if (!got.id || !got.secret) {
				const message = `Create webhook (${subscriptionKey(sub)}): the API answered no ${got.id ? 'Secret' : 'WebhookID'}`;
				throw new NodeApiError(this.getNode(), { message }, { message, description: 'Check that the Base URL points at the access-point API.' });
			}
		}
	} catch (error) {
		const leftOver = await deleteAll(this, client, settings.retry, created);
		const reported = isLimitAnswer(error) ? refuse(limitError(this, settings, partyId ?? party, existing, serviceAnswer(error))) : error;
		if (leftOver.length && reported && typeof reported === 'object') {
			const target = reported as { description?: string | null };
			target.description = `${target.description ?? ''} Delete at the service the webhooks left over: ${leftOver.map((h) => `#${h.id}`).join(', ')}.`.trim();
		}
		throw reported;
	}
	rememberRefusal(staticData, undefined);
	writeWebhooks(staticData, { version: 1, url, scope: settings.scope, partyId: partyId ?? (party || undefined), webhooks: created });
	return true;
}

export async function deleteWebhooks(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readWebhooks(staticData);
	let failed = stored?.webhooks ?? [];
	try {
		if (failed.length) failed = await deleteAll(this, await clientFor(this, readRetry(this), stored?.partyId), readRetry(this), failed);
	} catch (error) {
		// Not thrown: n8n would then skip removing the workflow's own webhook records.
		this.logger.warn(`AccessPoint Trigger: could not delete its webhooks: ${textOf(error).slice(0, 300)}`);
	}
	if (!stored || !failed.length) {
		writeWebhooks(staticData, undefined);
		return true;
	}
	// Kept, so the next activation finds them (and reuses or removes them).
	writeWebhooks(staticData, { ...stored, webhooks: failed });
	return false;
}
