/** A small promise pool: runs tasks with at most `concurrency` in flight. Pure; no timers. */

export type PoolOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs worker(0..count-1), at most `concurrency` (at least 1) at once, and returns the outcomes in task order.
 * With stopOnError no task starts after one failed (running ones finish); an unstarted task has no outcome.
 */
export async function runPool<T>(
	count: number,
	options: { concurrency: number; stopOnError?: boolean },
	worker: (index: number) => Promise<T>,
): Promise<Array<PoolOutcome<T> | undefined>> {
	const outcomes: Array<PoolOutcome<T> | undefined> = new Array(count).fill(undefined);
	const limit = Math.max(1, Math.floor(options.concurrency) || 1);
	let next = 0;
	let failed = false;

	const runner = async (): Promise<void> => {
		while (next < count && !(failed && options.stopOnError)) {
			const index = next++;
			try {
				outcomes[index] = { ok: true, value: await worker(index) };
			} catch (error) {
				outcomes[index] = { ok: false, error };
				failed = true;
			}
		}
	};

	await Promise.all(Array.from({ length: Math.min(limit, count) }, runner));
	return outcomes;
}
