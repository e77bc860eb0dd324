/**
 * The trigger's one duplicate-event mechanism: its execute(), the first step of every
 * execution the trigger starts, passes on only events n8n's deduplication store
 * (`checkProcessedAndRecord`, a database table shared by the main, webhook and worker
 * processes) has not seen, and records them there.
 *
 * What an event is: the service publishes no event id, so a repeat is recognised by its
 * content: entity type and id, update type, flow state and a digest of the payload (keys
 * sorted, so a re-serialised retry matches), within the Maximum Event Age (a time bucket of
 * that length; the bucket before counts too, so a repeat up to one window later is caught,
 * and the same content more than two windows later is a new event).
 *
 * Why only here: webhook() cannot keep a record. n8n 2.41 does not save what webhook() writes
 * to static data when the call starts an execution, and an execution that writes static data
 * saves its whole copy when it ends (on a queue-mode worker a copy without the webhooks'
 * secrets). So static data holds only the webhooks, written at activation (state.ts), and a
 * repeat starts an execution in which the trigger passes nothing on.
 *
 * Two deliveries at the same moment. The store reads its row, then writes the whole list back
 * (or inserts the row, failing on its unique key when another execution inserted it first:
 * that write is tried again and then finds the row). Two executions reading before either
 * writes would both see the event as new. So each also records a claim (the key and its
 * execution id), waits SETTLE_MS, and records both again: an execution whose claim was
 * overwritten while the key stayed lost the race to another one with the same event and
 * passes nothing on; one whose key and claim are both gone was overwritten by another event's
 * write (the same lost update would drop the record, and a later repeat would pass): it keeps
 * the event and writes and reads back again until its claim stands. Residual (README,
 * "Repeated deliveries"): a competitor whose read and write take longer than SETTLE_MS, or
 * writes overwriting a record more than ROUNDS times in a row.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ServiceEvent } from './events';
import { flowStateOf, readServiceEvent } from './events';
import { DEFAULT_MAX_AGE_MINUTES } from './settings';
import { MAX_FUTURE_SKEW_MS } from './signature';

/** JSON with the keys of every object sorted. */
function canonical(value: unknown, depth = 0): string {
	if (!value || typeof value !== 'object' || depth > 32) return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(',')}]`;
	const entries = Object.keys(value as IDataObject)
		.sort()
		.map((k) => `${JSON.stringify(k)}:${canonical((value as IDataObject)[k], depth + 1)}`);
	return `{${entries.join(',')}}`;
}

/** How long a repeat is recognised: the event-age window plus the clock skew webhook() accepts. */
export function windowMs(maxAgeMs: number): number {
	return maxAgeMs + MAX_FUTURE_SKEW_MS;
}

/** The keys of an event received at `receivedMs`: its bucket's, then the bucket before's. */
export function eventKeys(ev: ServiceEvent, payload: IDataObject, receivedMs: number, window: number): [string, string] {
	const digest = createHash('sha256').update(canonical(payload)).digest('hex').slice(0, 32);
	const base = `${ev.entityType}|${ev.entityId ?? '-'}|${ev.updateType}|${flowStateOf(ev) ?? '-'}|${digest}`;
	const bucket = Math.floor(receivedMs / window);
	return [`${base}@${bucket}`, `${base}@${bucket - 1}`];
}

/** Most entries n8n's deduplication store keeps for this trigger (three per event: its key, the bucket before's, its claim). */
const STORE_ENTRIES = 3000;
/** Attempts at a write (the first execution of a burst inserts the store's row; the others' inserts fail). */
const STORE_ATTEMPTS = 5;
/** Back-off between attempts, spread at random so that the executions that failed together do not retry together. */
const STORE_BACKOFF_MS = 25;
/** How long a claim is left before it is read back: longer than a store read and write take. */
export const SETTLE_MS = 200;
/** Most read-backs of a record that other executions' writes keep overwriting. */
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

/**
 * The events (each a pair of keys: this bucket's, the one before's) this execution owns: not
 * seen before, and its claim still standing after SETTLE_MS (see the header). A key and claim
 * both gone were overwritten by another event's write: written again and read back after
 * SETTLE_MS once more, up to ROUNDS times, so the record is not lost either.
 */
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
	const window = windowMs((Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_MAX_AGE_MINUTES) * 60_000);
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
