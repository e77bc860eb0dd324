export function nodeSources(): Array<{ file: string; text: string }>;
