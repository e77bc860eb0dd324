/**
 * Shared pieces of the reliability tests: a seeded PRNG, the emulator's request log
 * types, and checks on node outputs (pairing, error items).
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INodeExecutionData } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';

export type Emu = Awaited<ReturnType<typeof createEmulator>>;
export type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Logged {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	status: number | null;
	body?: unknown;
	fault?: string | number;
}

export const FAULT_KINDS_ALL = [500, 502, 503, 504, 429, 'html', 'empty', 'truncated', 'timeout', 'reset', 'after-commit'] as const;

/** mulberry32: deterministic floats in [0, 1). */
export function prng(seed: number): () => number {
	let a = seed >>> 0 || 0x9e3779b9;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function pick<T>(rnd: () => number, list: readonly T[]): T {
	return list[Math.floor(rnd() * list.length)];
}

export function int(rnd: () => number, min: number, max: number): number {
	return min + Math.floor(rnd() * (max - min + 1));
}

/** /v1 requests in the emulator's log. */
export function apiRequests(emu: Emu): Logged[] {
	return (emu.requests as Logged[]).filter((r) => r.path.startsWith('/v1'));
}

/** Orders of a party grouped by ExternalProviderID (only those starting with `prefix`). */
export function ordersByExternalId(emu: Emu, partyId: string, prefix: string): Map<string, Rec[]> {
	const groups = new Map<string, Rec[]>();
	for (const order of emu.store.book(partyId).values() as Iterable<Rec>) {
		const id = order.ExternalProviderID;
		if (typeof id !== 'string' || !id.startsWith(prefix)) continue;
		const list = groups.get(id) ?? [];
		list.push(order);
		groups.set(id, list);
	}
	return groups;
}

export function pairedIndex(item: INodeExecutionData): number | undefined {
	const paired = item.pairedItem;
	if (paired === undefined || paired === null) return undefined;
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return paired.length === 1 ? paired[0].item : undefined;
	return paired.item;
}

/** What a failed item must carry: an error text, a hint, and the node error for its own item. */
export function errorItemProblem(item: INodeExecutionData, kind: 'api' | 'operation' | 'any' = 'api'): string | undefined {
	const index = pairedIndex(item);
	if (index === undefined) return 'error item without pairedItem';
	if (typeof item.json.error !== 'string' || !item.json.error) return `item ${index}: no error text`;
	const error = item.error as unknown;
	// Under "continue (using error output)" n8n-core keeps only `error` in the json; the hint stays on the error.
	const description = item.json.description ?? (error as { description?: unknown } | undefined)?.description;
	if (typeof description !== 'string' || !description) return `item ${index}: no description (hint)`;
	if (kind !== 'any' || error !== undefined) {
		const expected = kind === 'operation' ? NodeOperationError : NodeApiError;
		if (kind !== 'any' && !(error instanceof expected)) {
			return `item ${index}: error is ${(error as Error)?.constructor?.name ?? typeof error}, not ${expected.name}: ${item.json.error}`;
		}
		const stamped = (error as NodeApiError).context?.itemIndex;
		if (stamped !== index) return `item ${index}: error stamped with itemIndex ${String(stamped)}`;
	}
	return undefined;
}
