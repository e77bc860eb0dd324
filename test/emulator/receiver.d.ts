export interface Hit {
	method: string;
	url: string;
	headers: Record<string, string | string[] | undefined>;
	body: string;
	at: number;
	status: number;
}
export interface Receiver {
	url: string;
	hits: Hit[];
	answer(next: number[]): void;
	waitFor(n: number, timeoutMs?: number): Promise<Hit[]>;
	close(): Promise<void>;
}
export function startReceiver(o?: { statuses?: number[] }): Promise<Receiver>;
