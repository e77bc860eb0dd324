/**
 * What the trigger keeps in static data (pure). Only activation writes it; webhook() and the
 * executions only read it, so no copy an execution holds can bring back an older one. `webhooks`:
 * the API webhooks made (id, type, secret), their URL, scope and party. `refused`: the last limit
 * refusal, for a minute (registry.ts). Handled events are in n8n's deduplication store (record.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { EntityType, Subscription, UpdateType } from './events';
import { subscriptionKey } from './events';

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
	if (stored.url !== url || stored.scope !== scope) return false;
	const have = stored.webhooks.map((w) => subscriptionKey(w)).sort();
	const want = wanted.map((w) => subscriptionKey(w)).sort();
	return have.length === want.length && have.every((key, i) => key === want[i]);
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
