/**
 * The in-flight marker both poll triggers keep in static data, so a poll n8n starts while the previous one still runs
 * (n8n 2.41 may, on the same static data) steps aside. The marker `{ id, at }` is refreshed at each step of the running
 * poll (`beat`), so a poll that goes on is never taken for dead; one that made no step for IN_FLIGHT_STALE_MS may be:
 * the poll that starts then owns the marker, and the stalled one, finding at its end that it no longer does (`owned`),
 * emits and stores nothing. Either way one poll alone emits an item.
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

export type PollClaim = NonNullable<ReturnType<typeof claimPoll>>;

/** Claims the node's poll, or undefined when another poll of it still runs. */
export function claimPoll(staticData: IDataObject) {
	if (pollInFlight(staticData[KEY], Date.now())) return undefined;
	const id = `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
	const owned = (): boolean => (staticData[KEY] as IDataObject | undefined)?.id === id;
	staticData[KEY] = { id, at: Date.now() };
	return {
		beat: (): void => void (owned() && (staticData[KEY] = { id, at: Date.now() })),
		owned,
		release: (): void => void (owned() && delete staticData[KEY]),
	};
}
