/**
 * The in-flight marker both poll triggers (Order Trigger, Inbox Trigger) keep in their static
 * data, so a poll n8n starts while the previous one still runs steps aside.
 */

/** A marker older than this is left by a poll that died (a crash, a restart) and holds nothing back. */
export const IN_FLIGHT_STALE_MS = 10 * 60_000;

/** Whether another poll of this node is still running (its marker is recent); pure. */
export function pollInFlight(marker: unknown, now: number): boolean {
	return typeof marker === 'number' && Number.isFinite(marker) && now - marker >= 0 && now - marker < IN_FLIGHT_STALE_MS;
}
