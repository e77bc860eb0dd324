/** heapUsed after two forced garbage collections. */
export function settledHeap(): number;
