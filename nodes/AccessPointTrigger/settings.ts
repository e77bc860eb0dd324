/**
 * The trigger's parameters, read and checked the same way at activation and on every delivery,
 * and (below) what it keeps in static data.
 */
import type { IDataObject, IHookFunctions, INode, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TriggerFiles } from '../shared/http/files';
import { checkTriggerFiles } from '../shared/http/files';
import type { RequestOptionValues, RetryPolicy } from '../shared/http/retry';
import { policyFromOptions } from '../shared/http/retry';
import { checkBoolean, checkChoice, checkNumericId, showValue } from '../shared/domain/validation';
import { requireValid } from '../shared/node/input';
import type { EntityType, Subscription, TriggerEvent, UpdateType } from './events';
import { isTriggerEvent, subscriptionKey, subscriptionsFor } from './events';

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

/** Offered by 0.1; the service calls no webhook when an order is deleted (README, "AccessPoint Trigger"). */
const ORDER_DELETED = 'orderDeleted';

/**
 * The trigger's parameters, checked. At activation (`strict`) a selection still holding 0.1's
 * Order Deleted is refused with what to do, before any request; webhook() (`strict` false)
 * reads the other events, so a workflow published before the upgrade keeps receiving them.
 */
export function readSettings(ctx: Context, { strict = true }: { strict?: boolean } = {}): TriggerSettings {
	const rawEvents = ctx.getNodeParameter('events', []) as unknown;
	const given = Array.isArray(rawEvents) ? rawEvents : [rawEvents];
	if (strict && given.includes(ORDER_DELETED)) {
		throw problem(
			ctx,
			'"Events" holds Order Deleted, which this trigger no longer offers: the AccessPoint service calls no webhook when an order is deleted. Remove it from Events and publish again.',
			'A deleted order is listed by the API at GET /v1/orders/deleted; the Order node or the Order Trigger can watch its other changes.',
		);
	}
	const list = given.filter((e) => e !== ORDER_DELETED);
	const unknown = list.filter((e) => !isTriggerEvent(e));
	if (unknown.length) {
		throw problem(ctx, `"Events" holds ${showValue(unknown[0])}, which is not an event of this trigger`, 'Pick the events from the list.');
	}
	const events = list as TriggerEvent[];
	if (!events.length) throw problem(ctx, '"Events" is empty', 'Select at least one event, e.g. Delivery Status Changed.');

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
			'Leave it at 5 unless n8n and the service disagree about the time or deliveries are delayed.',
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
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as TriggerOptions;
	return policyFromOptions(options && typeof options === 'object' ? options : {});
}

/**
 * What the trigger keeps in static data. Only activation writes it; webhook() and the
 * executions only read it, so no copy an execution holds can bring back an older one. `webhooks`:
 * the API webhooks made (id, type, secret), their URL, scope and party. `refused`: the last limit
 * refusal, for a minute (registry.ts). Handled events are in n8n's deduplication store (receive.ts).
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
	/** D: an Order Deleted webhook made by 0.1, read so that it is removed. */
	updateType: UpdateType | 'D';
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

/** The stored webhooks when the shape is usable; anything else reads as none (a D webhook of 0.1 included). */
export function readWebhooks(staticData: IDataObject): StoredWebhooks | undefined {
	const raw = staticData[WEBHOOKS_KEY] as Partial<StoredWebhooks> | undefined;
	if (!raw || typeof raw !== 'object' || raw.version !== 1) return undefined;
	if (typeof raw.url !== 'string' || typeof raw.scope !== 'string' || !Array.isArray(raw.webhooks)) return undefined;
	const webhooks: StoredWebhook[] = [];
	for (const w of raw.webhooks as unknown[]) {
		const hook = w as Partial<StoredWebhook> | null;
		if (!hook || typeof hook.id !== 'string' || typeof hook.secret !== 'string') continue;
		if (!['Order', 'Message'].includes(String(hook.entityType)) || !['I', 'U', 'D'].includes(String(hook.updateType))) continue;
		webhooks.push({ id: hook.id, entityType: hook.entityType!, updateType: hook.updateType!, secret: hook.secret });
	}
	const partyId = typeof raw.partyId === 'string' && raw.partyId ? raw.partyId : undefined;
	return { version: 1, url: raw.url, scope: raw.scope, partyId, webhooks };
}

export function writeWebhooks(staticData: IDataObject, value: StoredWebhooks): void {
	staticData[WEBHOOKS_KEY] = value as unknown as IDataObject;
	delete staticData[LEGACY_RECENT_KEY];
}

export function clearWebhooks(staticData: IDataObject): void {
	delete staticData[WEBHOOKS_KEY];
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
