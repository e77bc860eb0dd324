/**
 * The cursor kept in static data, read back (pure). A poll never fails over it: nothing stored
 * or another scope starts over; damaged but with a readable `from`, it carries on (unreadable
 * `seen` entries dropped, `createdFrom` replaced by `from`); damaged beyond that, it starts from
 * "now". Problems are told in words, never with the stored text.
 */
import type { CursorState } from './cursor';
import { isWritableSecond } from './time';

export type StoredCursor =
	| { kind: 'ok'; state: CursorState }
	| { kind: 'absent' }
	| { kind: 'otherScope' }
	| { kind: 'repaired'; state: CursorState; problem: string }
	| { kind: 'unusable'; problem: string };

function kindOf(value: unknown): string {
	if (value === undefined) return 'missing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'number') return Number.isFinite(value) ? 'a number that is not a whole second of years 1-9999' : String(value);
	if (typeof value === 'string') return 'text';
	return `a ${typeof value}`;
}

/** A stored bound: null (no bound) or a writable second; undefined when it is neither. */
function readBound(value: unknown): number | null | undefined {
	if (value === null) return null;
	return isWritableSecond(value) ? value : undefined;
}

/** OrderID -> second entries; those that do not read are dropped and counted. */
function readSeconds(raw: unknown): { entries: Record<string, number>; problem?: string } {
	const entries: Record<string, number> = {};
	if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { entries, problem: kindOf(raw) };
	let dropped = 0;
	for (const [id, seconds] of Object.entries(raw)) {
		if (id.trim() !== '' && isWritableSecond(seconds)) entries[id] = seconds;
		else dropped++;
	}
	return { entries, problem: dropped ? `partly unreadable (${dropped} entries dropped)` : undefined };
}

export function loadState(raw: unknown, scope: string): StoredCursor {
	if (raw === undefined || raw === null) return { kind: 'absent' };
	if (typeof raw !== 'object' || Array.isArray(raw)) return { kind: 'unusable', problem: `it is ${kindOf(raw)}, not a cursor` };
	const stored = raw as Record<string, unknown>;
	if (stored.version !== 1) {
		const version = Number.isSafeInteger(stored.version) ? String(stored.version) : kindOf(stored.version);
		return { kind: 'unusable', problem: `it has another shape (version ${version}, not 1)` };
	}
	if (typeof stored.scope !== 'string') return { kind: 'unusable', problem: `its scope is ${kindOf(stored.scope)}` };
	if (stored.scope !== scope) return { kind: 'otherScope' };

	const from = readBound(stored.from);
	if (from === undefined) return { kind: 'unusable', problem: `its position (from) is ${kindOf(stored.from)}` };
	const problems: string[] = [];
	let createdFrom = readBound(stored.createdFrom);
	if (createdFrom === undefined) {
		problems.push(`its "new since" bound (createdFrom) was ${kindOf(stored.createdFrom)} and is now the position`);
		createdFrom = from;
	}
	const handled = readSeconds(stored.seen);
	if (handled.problem) problems.push(`its list of orders handled at the position was ${handled.problem}`);
	const state: CursorState = { version: 1, scope, from, createdFrom, seen: handled.entries };
	if (stored.createdAhead !== undefined) {
		const ahead = readSeconds(stored.createdAhead);
		if (ahead.problem) problems.push(`its list of orders created ahead of their change was ${ahead.problem}`);
		if (Object.keys(ahead.entries).length) state.createdAhead = ahead.entries;
	}
	return problems.length ? { kind: 'repaired', state, problem: problems.join('; ') } : { kind: 'ok', state };
}
