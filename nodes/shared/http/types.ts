/** The types of the client every node's requests go through (transport.ts), in one file so no module of http imports another for a type. */
import type {
	IAdditionalCredentialOptions,
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
	retry?: RetryPolicy; // Instead of the client's: reads default to its policy, writes are never retried unless given one.
	acceptText?: boolean; // Accept a non-JSON text body on success (e.g. a plain "OK").
	brokenText?: string; // Words for a body that is not JSON, instead of its first words (a file's would be its base64).
	maxResponseBytes?: number; // The largest body this request accepts, instead of the client's (a file read is allowed more than a list page).
	read?: (bytes: Buffer) => unknown; // Reads a 2xx body from its bytes instead of JSON-parsing its text (a file); undefined: not readable.
	signal?: AbortSignal; // Aborting it drops the request wherever it is (paging cancels the pages it no longer needs); never retried.
}

export type ApiResponse<T = unknown> = { status: number; headers: Headers; body: T };

export interface ApiClientOptions {
	partyId?: string; // Act for this party instead of the credential's Party ID (sent as the partyID header).
	retry?: RetryPolicy; // Retry policy for reads (GET); its timeout and response size apply to every request.
}

export interface ApiClient {
	readonly baseUrl: string;
	partyId: string; // The party the requests act for (the partyID header); OAuth2 without one: set from the account (node/client.ts).
	readonly method: AuthenticationMethod;
	request<T = unknown>(req: ApiRequest): Promise<T>;
	requestFull<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>>;
}

/** Every Code/Description entry of an error body (batch commands answer one per failing record). */
export interface ApiErrorEntry extends IDataObject {
	code?: string;
	description?: string;
}

export type AuthenticationMethod = 'apiKey' | 'oAuth2';

export interface Auth {
	method: AuthenticationMethod;
	credentialType: string;
	baseUrl: string;
	partyId: string; // The credential's own Party ID, trimmed; '' when empty (OAuth2: read from the account).
	secrets: string[]; // Every secret as held and in every form a server may echo it; grows when a refresh brings new tokens.
	sign(partyId: string): { headers: Record<string, string>; options: IAdditionalCredentialOptions }; // One request acting for `partyId`.
	tokenUrl?: string; // OAuth2: the credential's Token URL (checked: https, on the API's host), where n8n's refresh goes.
	unauthorizedHint: string; // Words for a 401 the API still answers after everything we may do about it.
	learn(tokenData: unknown): void; // Adds the secrets of a token answer to the masking; OAuth2: its access token becomes the one in use.
	readonly accessToken?: string; // OAuth2: the access token the requests carry.
	itemIndex?: number; // The item the credential was read for (its expressions may depend on it).
}

export interface ListPage {
	items: IDataObject[];
	nextLink?: string;
	count?: number;
	problem?: string; // Set when the body is no list, or holds an entry that is not a record (`items` then holds only the records).
}

export interface PaginateOptions {
	path: string;
	qs?: IDataObject;
	limit?: number; // Stop after this many records (Return All when undefined).
	itemIndex?: number;
	operation?: string;
	key?: string; // The records' unique field (`OrderID`), sorted on last: equal sort values keep one order on every page.
	total?: number; // Set by the read: the first page's Count (all records matching), when the API sends one.
}
