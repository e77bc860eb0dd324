/**
 * The in-flight marker both poll triggers (Order Trigger, Inbox Trigger) keep in their static data, so a poll n8n
 * starts while the previous one still runs steps aside (n8n 2.41 may, on the same static data). The marker is
 * `{ id, at }`: the running poll refreshes `at` at each step (beat), so a poll that takes long but goes on is never
 * taken for dead; one that stalled longer than IN_FLIGHT_STALE_MS between two steps may be, and then the poll that
 * took over owns the marker: the stalled one, at its end, finds it is no longer its own, and emits and stores
 * nothing. Either way one poll alone emits an item.
 */
import type { IDataObject } from 'n8n-workflow';

/** A marker not refreshed for this long is left by a poll that died (a crash, a restart) and holds nothing back. */
export const IN_FLIGHT_STALE_MS = 10 * 60_000;
const KEY = 'pollInFlight';

/** Whether another poll of this node is still running (its marker is recent); pure. A bare number is a marker of an earlier version. */
export function pollInFlight(marker: unknown, now: number): boolean {
	const at = typeof marker === 'object' && marker !== null ? (marker as IDataObject).at : marker;
	return typeof at === 'number' && Number.isFinite(at) && now - at >= 0 && now - at < IN_FLIGHT_STALE_MS;
}

export interface PollClaim {
	/** Refreshes the marker (a step of the poll was done). */
	beat: () => void;
	/** Whether the marker is still this poll's: false when another poll took over. */
	owned: () => boolean;
	release: () => void;
}

/** Claims the node's poll, or undefined when another poll of it still runs. */
export function claimPoll(staticData: IDataObject): PollClaim | undefined {
	if (pollInFlight(staticData[KEY], Date.now())) return undefined;
	const id = `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
	const owned = () => (staticData[KEY] as IDataObject | undefined)?.id === id;
	staticData[KEY] = { id, at: Date.now() };
	return {
		beat: () => {
			if (owned()) staticData[KEY] = { id, at: Date.now() };
		},
		owned,
		release: () => {
			if (owned()) delete staticData[KEY];
		},
	};
}
