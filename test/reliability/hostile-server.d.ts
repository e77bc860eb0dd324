type IncomingMessage = import('http').IncomingMessage;
type ServerResponse = import('http').ServerResponse;
type Readable = import('stream').Readable;

export interface RecordedRequest {
	method: string;
	url: string;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

export interface HostileServer {
	url: string;
	host: string;
	requests: RecordedRequest[];
	counts: { opened: number; closed: number };
	close(): Promise<void>;
}

export function serveHostile(handler: (req: IncomingMessage, res: ServerResponse, request: RecordedRequest) => void): Promise<HostileServer>;
export function gzip(text: string): Buffer;
export function gzipBomb(inflatedBytes: number): Buffer;
export function trickle(res: ServerResponse, chunks: string[], everyMs: number): Promise<number>;
export function endless(res: ServerResponse, head: string, filler: Buffer | string, maxBytes?: number): Promise<number>;
export function rssMb(): number;
export function sampleRss(): { stop(): number };
export function pause(ms: number): Promise<void>;
export const streams: {
	of(parts: string[]): Readable;
	endless(counter: { pulled: number }): Readable;
	stalled(first: string): Readable;
};
