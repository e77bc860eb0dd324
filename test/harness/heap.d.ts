/** heapUsed after three forced garbage collections, each after the pending tasks ran. */
export function settledHeap(): Promise<number>;
