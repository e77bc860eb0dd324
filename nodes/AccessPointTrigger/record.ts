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
 * static data holds only the webhooks, written at activation (settings.ts).
 *
 * Two deliveries at once: the store reads its row, then writes the whole list back, so two
 * executions reading before either writes would both see the event as new. Each also records a
 * claim (key + execution id), waits SETTLE_MS and records both again: a claim overwritten while
 * the key stayed lost the race and passes nothing on; key and claim both gone were overwritten by
 * another event's write, so it writes and reads back again. Residual (README, "Repeated
 * deliveries"): a competitor slower than SETTLE_MS, or more than ROUNDS overwrites in a row.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ServiceEvent } from './events';
import { flowStateOf, MAX_FUTURE_SKEW_MS, readServiceEvent } from './events';
import { DEFAULT_MAX_AGE_MINUTES } from './settings';

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
