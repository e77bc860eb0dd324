/**
 * Remembering the events that started an execution, so a repeated delivery starts none.
 *
 * webhook() checks the keys in static data and records them, but in n8n 2.41 that write is
 * only saved when the call starts no execution: when it does, n8n's WorkflowRunner wraps
 * the same static data in a new Workflow (its change mark is reset) and the execution
 * reloads static data from the database. So the trigger's execute(), which n8n runs as the
 * first step of every execution the trigger starts, records the keys again; n8n saves
 * static data an execution changed when that execution ends (for queue-mode workers, see
 * below). From then on a repeat starts no execution.
 *
 * A repeat arriving before that (the service may send a duplicate right after the first
 * answer, while the first execution still runs) does start one; execute() then checks the
 * keys in n8n's deduplication store (`checkProcessedAndRecord`, a database table shared by
 * queue-mode workers) and passes on only events not seen there, so the steps after the
 * trigger run once per event. Test runs from the editor skip that store: a test delivery
 * must not hide the same event from the published workflow.
 *
 * Two things n8n does not do for us:
 *  - The store reads its row, then inserts it (no row yet) or writes the whole list back.
 *    When the first events of a trigger arrive together, every insert but one fails
 *    (unique key): the write is tried again, and then finds the row. Writes of executions
 *    running at the same moment can still overwrite each other (n8n takes no lock), as can
 *    the static data they save at the end; see the README, "Repeated deliveries".
 *  - On a queue-mode worker (n8n 2.41) the execution's workflow comes from a snapshot that
 *    has no static data, and whatever the execution writes there is saved over the
 *    workflow's own, which would drop the webhooks' secrets (every later call refused 401).
 *    So static data is written only when it holds this trigger's webhooks; where it does
 *    not, the store alone remembers the events.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { EntityType, UpdateType } from './events';
import { classify, eventKey } from './events';
import { DEFAULT_MAX_AGE_MINUTES } from './settings';
import { bodyDigest, MAX_FUTURE_SKEW_MS } from './signature';
import { readWebhooks, rememberEvents } from './state';

/** The key of an event, the same in webhook() and in execute(). */
export function keyOf(payload: IDataObject, entityType: EntityType, updateType: UpdateType): string {
	return eventKey(payload, entityType, updateType) ?? `payload:${bodyDigest(new TextEncoder().encode(JSON.stringify(payload)))}`;
}

/** How long keys are kept: the event-age window plus the allowed clock skew (what webhook() accepts). */
export function recentWindowMs(maxAgeMs: number): number {
	return maxAgeMs + MAX_FUTURE_SKEW_MS;
}

/** Most event keys n8n's deduplication store keeps for this trigger. */
const STORE_ENTRIES = 1000;
/** Attempts at the write (the first execution of a burst inserts the store's row; the others' inserts fail). */
const STORE_ATTEMPTS = 5;
/** Back-off between attempts, spread at random so that the executions that failed together do not retry together. */
const STORE_BACKOFF_MS = 25;

type Store = (keys: string[]) => Promise<{ new: unknown[]; processed: unknown[] }>;

/** The keys seen before this execution; records the rest. */
async function checkAndRecord(record: Store, keys: string[]): Promise<Set<string>> {
	let failure: unknown;
	for (let attempt = 0; attempt < STORE_ATTEMPTS; attempt++) {
		if (attempt) await sleep(Math.floor(Math.random() * STORE_BACKOFF_MS * attempt));
		try {
			return new Set((await record(keys)).processed.map(String));
		} catch (error) {
			failure = error;
		}
	}
	throw failure;
}

export async function recordExecution(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const keyed = items.map((item) => {
		const payload = item.json.payload;
		if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
		const kind = classify({ EntityType: item.json.entityType, EntityUpdateType: item.json.updateType });
		return kind ? keyOf(payload as IDataObject, kind.entityType, kind.updateType) : undefined;
	});
	const keys = keyed.filter((key): key is string => key !== undefined);
	let seen = new Set<string>();
	const helpers = this.helpers;
	if (keys.length && this.getMode() !== 'manual' && typeof helpers.checkProcessedAndRecord === 'function') {
		try {
			seen = await checkAndRecord(async (list) => await helpers.checkProcessedAndRecord(list, 'node', { mode: 'entries', maxEntries: STORE_ENTRIES }), keys);
		} catch (error) {
			// The events still go on: a store that fails must not swallow them.
			this.logger.warn(`AccessPoint Trigger: n8n's deduplication store failed (${(error as Error).message}); events passed on unchecked`);
		}
	}
	const staticData = this.getWorkflowStaticData('node');
	if (keys.length && readWebhooks(staticData)) {
		const minutes = Number(this.getNodeParameter('options.maxEventAgeMinutes', 0, DEFAULT_MAX_AGE_MINUTES));
		const maxAgeMs = Number.isFinite(minutes) && minutes > 0 ? minutes * 60_000 : DEFAULT_MAX_AGE_MINUTES * 60_000;
		rememberEvents(staticData, keys, Date.now(), recentWindowMs(maxAgeMs));
	}
	const out: INodeExecutionData[] = [];
	items.forEach((item, index) => {
		const key = keyed[index];
		if (key === undefined || !seen.has(key)) out.push({ ...item, pairedItem: { item: index } });
	});
	return [out];
}
