/** The types of the client every node's requests go through (transport.ts), in one file so no module of http imports another for a type. */
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

export interface RetryPolicy {
	maxRetries: number; // Extra attempts after the first one.
	baseDelayMs: number; // First back-off step; doubles on every attempt.
	maxDelayMs: number; // Upper bound of one back-off wait (a Retry-After is bounded by MAX_RETRY_AFTER_MS instead).
	timeoutMs?: number; // Deadline of one HTTP exchange, headers and body; the client's default when absent.
	maxResponseBytes?: number; // Largest body (after decompression) read from one answer; the client's default when absent.
}

export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;
export type Headers = Record<string, string | string[] | undefined>;

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string; // A path under the base URL (`/v1/orders`) or an absolute URL on the base URL's origin (a next-page link).
	qs?: IDataObject;
	body?: unknown;
	headers?: Record<string, string>;
	itemIndex?: number; // Item the request is made for; stamped on every error.
	operation?: string; // Words for error messages, e.g. "Create registration".
	retry?: RetryPolicy; // Reads default to the client's retry policy; writes are never retried unless given one.
	acceptText?: boolean; // Accept a non-JSON text body on success (e.g. a plain "OK").
	brokenText?: string; // Words for a body that is not JSON, instead of its first words (a file's would be its base64).
	timeoutMs?: number; // Deadline of each attempt (headers and body); the client's policy, else 60 s.
	maxResponseBytes?: number; // The largest body this request accepts, instead of the client's (a file read is allowed more than a list page).
	signal?: AbortSignal; // Aborting it drops the request wherever it is (paging cancels the pages it no longer needs); never retried.
}

export type ApiResponse<T = unknown> = { status: number; headers: Headers; body: T };

export interface ApiClientOptions {
	partyId?: string; // Act for this party instead of the credential's Party ID (sent as the partyID header).
	retry?: RetryPolicy; // Retry policy for reads (GET); its timeout and response size apply to every request.
}

export interface ApiClient {
	readonly baseUrl: string;
	readonly partyId: string;
	request<T = unknown>(req: ApiRequest): Promise<T>;
	requestFull<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>>;
}

/** Every Code/Description entry of an error body (batch commands answer one per failing record). */
export interface ApiErrorEntry extends IDataObject {
	code?: string;
	description?: string;
}
