/**
 * What the trigger keeps in the node's static data (pure helpers over the object n8n gives):
 *
 *  - `webhooks`: the API webhooks this workflow made (id, entity/update type, secret), the
 *    URL they call and the scope (account or registration) they were made for. Written by
 *    create(), read by checkExists()/delete() and by webhook() for the secrets.
 *  - `recentEvents`: keys of the events that started an execution, with when they were
 *    received, so a repeated delivery of one event starts no second execution. Bounded:
 *    entries older than the event-age window are dropped, and at most MAX_RECENT are kept.
 *
 * n8n saves a webhook node's static data after its webhook() returns (and after
 * create/delete at activation), in the workflow's database row.
 */
import type { IDataObject } from 'n8n-workflow';

import type { EntityType, Subscription, UpdateType } from './events';
import { subscriptionKey } from './events';

export const WEBHOOKS_KEY = 'webhooks';
export const RECENT_KEY = 'recentEvents';
/** Most event keys kept (the oldest go first). */
export const MAX_RECENT = 1000;

export interface StoredWebhook {
	id: string;
	entityType: EntityType;
	updateType: UpdateType;
	secret: string;
}

export interface StoredWebhooks {
	version: 1;
	/** The URL the webhooks call (n8n's production or test URL of this node). */
	url: string;
	/** `account` or `registration:<id>`: a change makes new webhooks. */
	scope: string;
	/** The party the webhooks belong to, as the API answered (used to list them and read orders). */
	partyId?: string;
	webhooks: StoredWebhook[];
}

const ENTITY: readonly string[] = ['Order', 'Message'];
const UPDATE: readonly string[] = ['I', 'U', 'D'];

/** The stored webhooks when the shape is usable; anything else reads as none. */
export function readWebhooks(staticData: IDataObject): StoredWebhooks | undefined {
	const raw = staticData[WEBHOOKS_KEY] as Partial<StoredWebhooks> | undefined;
	if (!raw || typeof raw !== 'object' || raw.version !== 1) return undefined;
	if (typeof raw.url !== 'string' || typeof raw.scope !== 'string' || !Array.isArray(raw.webhooks)) return undefined;
	const webhooks: StoredWebhook[] = [];
	for (const w of raw.webhooks as unknown[]) {
		const hook = w as Partial<StoredWebhook> | null;
		if (!hook || typeof hook.id !== 'string' || typeof hook.secret !== 'string') continue;
		if (!ENTITY.includes(String(hook.entityType)) || !UPDATE.includes(String(hook.updateType))) continue;
		webhooks.push({ id: hook.id, entityType: hook.entityType!, updateType: hook.updateType!, secret: hook.secret });
	}
	const partyId = typeof raw.partyId === 'string' && raw.partyId ? raw.partyId : undefined;
	return { version: 1, url: raw.url, scope: raw.scope, partyId, webhooks };
}

export function writeWebhooks(staticData: IDataObject, value: StoredWebhooks): void {
	staticData[WEBHOOKS_KEY] = value as unknown as IDataObject;
}

export function clearWebhooks(staticData: IDataObject): void {
	delete staticData[WEBHOOKS_KEY];
	delete staticData[RECENT_KEY];
}

/** Whether the stored webhooks are exactly the wanted ones for this URL and scope. */
export function matchesWanted(stored: StoredWebhooks, url: string, scope: string, wanted: readonly Subscription[]): boolean {
	if (stored.url !== url || stored.scope !== scope) return false;
	const have = stored.webhooks.map((w) => subscriptionKey(w)).sort();
	const want = wanted.map((w) => subscriptionKey(w)).sort();
	return have.length === want.length && have.every((key, i) => key === want[i]);
}

function readRecent(staticData: IDataObject): Record<string, number> {
	const raw = staticData[RECENT_KEY];
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
	const out: Record<string, number> = {};
	for (const [key, at] of Object.entries(raw as IDataObject)) {
		if (typeof at === 'number' && Number.isFinite(at)) out[key] = at;
	}
	return out;
}

/** Whether an event with this key started an execution within the window. */
export function seenRecently(staticData: IDataObject, key: string, nowMs: number, windowMs: number): boolean {
	const at = readRecent(staticData)[key];
	return at !== undefined && nowMs - at <= windowMs;
}

/** Records keys as handled now; drops what fell out of the window, then the oldest beyond MAX_RECENT. */
export function rememberEvents(staticData: IDataObject, keys: readonly string[], nowMs: number, windowMs: number): void {
	const recent = readRecent(staticData);
	for (const key of keys) recent[key] = nowMs;
	let kept = Object.entries(recent).filter(([, at]) => nowMs - at <= windowMs);
	if (kept.length > MAX_RECENT) kept = kept.sort((a, b) => b[1] - a[1]).slice(0, MAX_RECENT);
	staticData[RECENT_KEY] = Object.fromEntries(kept);
}
