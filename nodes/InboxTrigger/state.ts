/**
 * What the Inbox Trigger remembers between polls (pure), in static data. The inbox lists its 10
 * oldest items until each is confirmed or refused (docs/api.md "Receiving and the Peppol inbox").
 * Invariant: an InboxItemID is emitted at most once per scope (the party acted for):
 *   - `emitted`: the ids emitted, oldest first, bounded by MAX_REMEMBERED; when full, the oldest
 *     ones the last list did not show are forgotten (an item once gone does not come back);
 *   - `toConfirm` (Confirm After Emitting): emitted items to confirm at the next poll, once n8n
 *     has saved that they were emitted; one no longer listed is dropped, a failed one retried.
 * The caller stores the state only after the poll succeeded. At first activation every item
 * listed is new: an item in the inbox is one no one has handled yet.
 */
import type { IDataObject } from 'n8n-workflow';

export interface InboxState {
	version: 1;
	/** The party the trigger acts for; another party starts over. */
	scope: string;
	emitted: string[];
	toConfirm: string[];
}

/** InboxItemIDs remembered at most (the list shows 10 at a time). */
export const MAX_REMEMBERED = 1000;

export function emptyState(scope: string): InboxState {
	return { version: 1, scope, emitted: [], toConfirm: [] };
}

const isId = (value: unknown): value is string => typeof value === 'string' && /^\d{1,15}$/.test(value);

/** The stored state, read back: nothing, another scope or a damaged one starts over (the problem in words, never its content). */
export function loadState(raw: unknown, scope: string): { state: InboxState; problem?: string } {
	if (raw === undefined || raw === null) return { state: emptyState(scope) };
	const stored = raw as Partial<InboxState>;
	if (typeof raw !== 'object' || Array.isArray(raw) || stored.version !== 1 || typeof stored.scope !== 'string') {
		return { state: emptyState(scope), problem: 'it is not a state this version wrote' };
	}
	if (stored.scope !== scope) return { state: emptyState(scope) };
	if (!Array.isArray(stored.emitted) || !Array.isArray(stored.toConfirm)) return { state: emptyState(scope), problem: 'its lists are missing' };
	const emitted = stored.emitted.filter(isId);
	const toConfirm = stored.toConfirm.filter(isId);
	const dropped = stored.emitted.length - emitted.length + stored.toConfirm.length - toConfirm.length;
	const state: InboxState = { version: 1, scope, emitted: emitted.slice(-MAX_REMEMBERED), toConfirm };
	return dropped ? { state, problem: `${dropped} entries did not read and were dropped` } : { state };
}

/** A listed item with its key (its InboxItemID as text). */
export interface Listed {
	key: string;
	item: IDataObject;
}

/** The listed items this trigger has not emitted, in the list's order (oldest first), each once. */
export function newItems(state: InboxState, listed: Listed[]): Listed[] {
	const seen = new Set(state.emitted);
	const fresh: Listed[] = [];
	for (const entry of listed) {
		if (seen.has(entry.key)) continue;
		seen.add(entry.key);
		fresh.push(entry);
	}
	return fresh;
}

/** The items to confirm now: emitted by an earlier poll, meant to be confirmed, and still listed. */
export function dueConfirms(state: InboxState, listed: Listed[]): string[] {
	const shown = new Set(listed.map((entry) => entry.key));
	return state.toConfirm.filter((key) => shown.has(key));
}

export interface PollOutcome {
	/** What the (last) list of this poll showed, what it emitted (of those, to confirm at the next poll) and confirmed. */
	listed: Listed[];
	emitted: string[];
	confirmLater: string[];
	confirmed: string[];
}

/** The state after a successful poll. */
export function nextState(state: InboxState, outcome: PollOutcome): InboxState {
	const shown = new Set(outcome.listed.map((entry) => entry.key));
	const emitted = [...state.emitted, ...outcome.emitted.filter((key) => !state.emitted.includes(key))];
	// Forget the oldest not shown now, never one still shown.
	let excess = emitted.length - MAX_REMEMBERED;
	const kept = excess > 0 ? emitted.filter((key) => (excess > 0 && !shown.has(key) ? (excess--, false) : true)) : emitted;
	const done = new Set(outcome.confirmed);
	const toConfirm = [...state.toConfirm.filter((key) => shown.has(key) && !done.has(key)), ...outcome.confirmLater];
	return { version: 1, scope: state.scope, emitted: kept, toConfirm: [...new Set(toConfirm)] };
}

/** Whether the list is full (`window` items) of items emitted and not going to be confirmed: no newer document can show. */
export function isBlocked(state: InboxState, listed: Listed[], window: number): boolean {
	if (listed.length < window) return false;
	const emitted = new Set(state.emitted);
	const confirming = new Set(state.toConfirm);
	return listed.every((entry) => emitted.has(entry.key) && !confirming.has(entry.key));
}
