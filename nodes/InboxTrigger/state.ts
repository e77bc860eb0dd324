/**
 * What the Inbox Trigger remembers between polls (pure: no n8n, no I/O), kept in the node's
 * static data.
 *
 * The inbox lists the 10 oldest items not yet confirmed or refused (README "Peppol inbox"), so
 * an item no one confirms is listed again on every poll. Invariant: an InboxItemID is emitted
 * at most once per scope (the party acted for):
 *   - `emitted` holds the InboxItemIDs this trigger emitted, oldest first. It is bounded
 *     (MAX_REMEMBERED): when full, the oldest ones the last list did not show are forgotten,
 *     never one that list showed. An item leaves the list only when confirmed or refused, and
 *     the list shows the oldest items, so an item once gone does not come back;
 *   - an item is emitted when the list shows it and `emitted` does not hold it; it is in
 *     `emitted` from the state of that same poll on. The caller stores the state only after
 *     the poll succeeded, so a failed poll emits nothing and forgets nothing;
 *   - `toConfirm` (Confirm After Emitting): emitted items to confirm at the next poll, once
 *     n8n has saved that they were emitted. One that no longer shows was confirmed or refused
 *     by someone else and is dropped; one whose confirm failed is tried again.
 * First activation (nothing stored, or stored for another party): every item listed is new,
 * since an item in the inbox is one no one has handled yet.
 */
import type { IDataObject } from 'n8n-workflow';

export interface InboxState {
	/** Shape version of this object in static data. */
	version: 1;
	/** The party the trigger acts for; another party starts over. */
	scope: string;
	/** InboxItemIDs emitted, oldest first. */
	emitted: string[];
	/** Emitted InboxItemIDs still to confirm (Confirm After Emitting). */
	toConfirm: string[];
}

/** InboxItemIDs remembered at most (the list shows 10 at a time). */
export const MAX_REMEMBERED = 1000;

export function emptyState(scope: string): InboxState {
	return { version: 1, scope, emitted: [], toConfirm: [] };
}

const isId = (value: unknown): value is string => typeof value === 'string' && /^\d{1,15}$/.test(value);

/**
 * The stored state, read back: nothing or another scope starts over; a damaged one starts over
 * too (its problem in words, never its content), since what it held cannot be trusted.
 */
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
	/** What the (last) list of this poll showed. */
	listed: Listed[];
	/** Emitted by this poll. */
	emitted: string[];
	/** Of those, the ones to confirm at the next poll. */
	confirmLater: string[];
	/** Confirmed by this poll. */
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

/**
 * Whether the inbox is blocked for this trigger: the list is full (`window` items) and every
 * item in it was emitted and is not going to be confirmed, so no newer document can show until
 * someone confirms or refuses these.
 */
export function isBlocked(state: InboxState, listed: Listed[], window: number): boolean {
	if (listed.length < window) return false;
	const emitted = new Set(state.emitted);
	const confirming = new Set(state.toConfirm);
	return listed.every((entry) => emitted.has(entry.key) && !confirming.has(entry.key));
}
