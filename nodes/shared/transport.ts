import type {
	ICredentialsDecrypted,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { AccessPointCredentials } from './baseUrl';
import { resolveBaseUrl } from './baseUrl';
import { listApiErrors } from './apiErrorEntries';
import { describeApiError, describeNetworkError, stripSecrets, summariseText } from './errors';
import { nextTail, paginate, PagingError } from './paging';
import type { PageFetcher, PaginateOptions, ReceivedText } from './paging';
import { DEFAULT_RETRY_POLICY, NO_RETRY, retryDelayMs, shouldRetry } from './retry';
import type { RetryPolicy } from './retry';

export const CREDENTIAL_TYPE = 'accessPointApi';

export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** A path under the base URL (`/v1/orders`) or an absolute URL already checked against it. */
	path: string;
	qs?: IDataObject;
	body?: unknown;
	headers?: Record<string, string>;
	/** Item the request is made for; stamped on every error. */
	itemIndex?: number;
	/** Words for error messages, e.g. "Create registration". */
	operation?: string;
	/** Reads default to the client's retry policy; writes are never retried unless given one. */
	retry?: RetryPolicy;
	/** Accept a non-JSON text body on success (e.g. a plain "OK"). */
	acceptText?: boolean;
	/**
	 * Return a successful body as the text received, unparsed (list pages, so the
	 * caller can start the next request before parsing). Error answers are still
	 * parsed and mapped as usual.
	 */
	rawText?: boolean;
	/**
	 * A 2xx body an earlier read of this GET (with `rawText`) returned and that is not
	 * JSON: it counts as the first attempt, so the retry policy decides what happens next.
	 */
	brokenText?: string;
	timeoutMs?: number;
	/**
	 * Return a successful body as the bytes arriving (an async iterable), not read here: a
	 * file read decodes its base64 as it arrives instead of holding the whole answer as text.
	 * Bounded by `maxResponseBytes`; error answers are read and mapped as usual.
	 */
	stream?: boolean;
	/**
	 * The largest body this request accepts (with `rawText` or `stream`): a file read is
	 * allowed more than a list page. Reading stops, and the request fails, once the body passes it.
	 */
	maxResponseBytes?: number;
}

export interface ApiResponse<T = unknown> {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: T;
}

export interface ApiClientOptions {
	/** Act for this party instead of the credential's Party ID (sent as the partyID header). */
	partyId?: string;
	/** Retry policy for reads (GET). */
	retry?: RetryPolicy;
	/** Counts every HTTP attempt; lets callers report the number of requests. */
	onRequest?: (request: { method: string; url: string }) => void;
}

export interface ApiClient {
	readonly baseUrl: string;
	readonly partyId: string;
	request<T = unknown>(req: ApiRequest): Promise<T>;
	requestFull<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>>;
	/** A successful body as received text, with its tail (see `ApiRequest.rawText`). */
	requestText(req: ApiRequest): Promise<ReceivedText>;
}

const DEFAULT_TIMEOUT_MS = 60_000;

function headerValue(headers: ApiResponse['headers'], name: string): string | undefined {
	const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === name);
	const value = key ? headers[key] : undefined;
	return Array.isArray(value) ? value[0] : value;
}

/**
 * A streamed body (n8n's `encoding: 'stream'`) as text, decoded chunk by chunk as it
 * is iterated: no copy of the whole body as a Buffer is made, so list pages give their
 * memory back sooner. (Async iteration measured 2.0x the JSON at peak for Return All
 * over 12,000 orders; 'data' or 'readable' listeners 2.8x, see bench/README.md.)
 * A connection that drops mid-body ends the iteration with an error.
 */
async function readText(body: unknown, maxBytes = Infinity): Promise<ReceivedText> {
	if (typeof body === 'string') {
		if (body.length > maxBytes) throw new ResponseTooLarge(body.length);
		return { text: body, tail: nextTail('', body) };
	}
	if (!body || typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] !== 'function') return { text: '', tail: '' };
	const decoder = new TextDecoder();
	let text = '';
	let tail = '';
	let received = 0;
	// Leaving the loop by a throw destroys the stream: the rest is never read.
	for await (const chunk of body as AsyncIterable<Uint8Array>) {
		received += chunk.byteLength;
		if (received > maxBytes) throw new ResponseTooLarge(received);
		const part = decoder.decode(chunk, { stream: true });
		text += part;
		tail = nextTail(tail, part);
	}
	const rest = decoder.decode();
	return { text: text + rest, tail: nextTail(tail, rest) };
}

/** A streamed body that passed the request's `maxResponseBytes`. */
class ResponseTooLarge extends Error {
	constructor(readonly received: number) {
		super('response too large');
	}
}

/**
 * A streamed body handed to the caller, still bounded: passing `maxBytes` ends it with
 * `tooLarge()` and destroys the source (the rest is never read).
 */
async function* boundedStream(body: unknown, maxBytes: number, tooLarge: () => Error): AsyncGenerator<Uint8Array> {
	if (!body || typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] !== 'function') {
		// A helper that handed back a string or parsed data (tests' fakes): as bytes.
		const bytes = Buffer.from(typeof body === 'string' ? body : (JSON.stringify(body) ?? ''), 'utf8');
		if (bytes.length > maxBytes) throw tooLarge();
		yield bytes;
		return;
	}
	let received = 0;
	for await (const chunk of body as AsyncIterable<Uint8Array>) {
		received += chunk.byteLength;
		if (received > maxBytes) throw tooLarge();
		yield chunk;
	}
}

interface Failure {
	code?: string;
	httpCode?: string;
	message?: string;
	cause?: unknown;
}

/**
 * The network failure under what n8n's HTTP helper threw: its cause (n8n 2.x), or the
 * code n8n 1.x keeps on the NodeApiError it wraps the axios error in (`httpCode`).
 */
function networkFailure(error: unknown): { code?: string; message?: string } {
	for (let current = error as Failure | undefined, depth = 0; current && depth < 4; current = current.cause as Failure, depth++) {
		for (const code of [current.code, current.httpCode]) {
			if (typeof code === 'string' && /^E[A-Z_]+$|^ERR_/.test(code)) return { code, message: current.message };
		}
	}
	const failure = error as Failure | undefined;
	return { message: (failure?.cause as Failure | undefined)?.message ?? failure?.message };
}

function isSuccess(status: number): boolean {
	return status >= 200 && status < 300;
}

/** A text body as JSON where it is JSON, else the text itself (what axios's JSON mode gives). */
function parseIfJson(text: unknown): unknown {
	if (typeof text !== 'string') return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

function isJsonLike(body: unknown): boolean {
	return body === undefined || body === null || typeof body !== 'string';
}

/** A text answer that is no answer at all, even where text is accepted: an HTML page or JSON cut off in transit. */
function isBrokenText(text: string): boolean {
	const trimmed = text.trim();
	if (trimmed.startsWith('<')) return true;
	if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
	try {
		JSON.parse(trimmed);
		return false;
	} catch {
		return true;
	}
}

/**
 * Resolves the credential once and returns a client whose every request goes
 * through httpRequestWithAuthentication with the credential's generic
 * authentication (apikey and partyID headers).
 */
export async function getApiClient(this: ApiContext, options: ApiClientOptions = {}, itemIndex?: number): Promise<ApiClient> {
	const node = this.getNode();
	const raw = (await (this.getCredentials as (type: string, index?: number) => Promise<ICredentialDataDecryptedObject>)(
		CREDENTIAL_TYPE,
		itemIndex,
	)) as unknown as AccessPointCredentials;
	const resolved = resolveBaseUrl(raw);
	if ('problem' in resolved) {
		// A key pasted into the Base URL must not travel in the message.
		throw new NodeOperationError(node, stripSecrets(resolved.problem, [String(raw.apiKey ?? '')]), {
			itemIndex,
			description: 'Open the AccessPoint API credential and fix the Environment / Base URL.',
		});
	}
	const partyId = (options.partyId ?? '').trim() || String(raw.partyId ?? '');
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: '',
		name: CREDENTIAL_TYPE,
		type: CREDENTIAL_TYPE,
		data: { ...(raw as unknown as ICredentialDataDecryptedObject), partyId },
	};
	const secrets = [String(raw.apiKey ?? '')];
	const readPolicy = options.retry ?? DEFAULT_RETRY_POLICY;
	const baseUrl = resolved.url;
	const send = async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
		const url = /^https?:\/\//i.test(req.path) ? req.path : `${baseUrl}${req.path}`;
		const operation = req.operation ?? `${req.method} ${req.path.replace(/^https?:\/\/[^/]+/i, '').split('?')[0]}`;
		const policy = req.retry ?? (req.method === 'GET' ? readPolicy : NO_RETRY);
		const requestOptions: IHttpRequestOptions = {
			method: req.method,
			url,
			qs: req.qs,
			headers: { Accept: 'application/json', ...(req.headers ?? {}) },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: req.timeoutMs ?? options.retry?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		};
		if (req.body !== undefined) requestOptions.body = req.body as IDataObject;
		if (req.rawText || req.stream) requestOptions.encoding = 'stream';
		const tooLarge = () =>
			buildApiError(
				node,
				`${operation} failed: the answer is larger than the ${Math.round((req.maxResponseBytes ?? 0) / 1024 / 1024)} MB this request accepts; it was not read further`,
				'Raise the size option of the node (e.g. Maximum File Size) if a file this large is expected.',
				undefined,
				undefined,
				req.itemIndex,
				secrets,
			);

		/** One HTTP exchange; a text-mode error body is parsed like a JSON-mode one. */
		const exchange = async (): Promise<ApiResponse<unknown>> => {
			const full = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{ ...requestOptions, headers: { ...requestOptions.headers } },
				{ credentialsDecrypted },
			)) as {
				statusCode: number;
				headers: ApiResponse['headers'];
				body: unknown;
			};
			const response = {
				status: full.statusCode,
				headers: full.headers ?? {},
				body: full.body,
			};
			if (req.stream && isSuccess(response.status)) {
				response.body = boundedStream(full.body, req.maxResponseBytes ?? Infinity, tooLarge);
				return response;
			}
			if (req.rawText || req.stream) {
				const received = await readText(full.body, req.maxResponseBytes);
				response.body = isSuccess(response.status) ? received : parseIfJson(received.text);
			}
			return response;
		};

		for (let attempt = 0; ; attempt++) {
			let response: ApiResponse<unknown>;
			if (attempt === 0 && req.brokenText !== undefined) {
				// The caller read this page once already and it was not JSON: that was the first attempt.
				response = { status: 200, headers: {}, body: req.brokenText };
			} else {
				options.onRequest?.({ method: req.method, url });
				try {
					response = await exchange();
				} catch (error) {
					// Not retried: the same answer would be read again.
					if (error instanceof ResponseTooLarge) throw tooLarge();
					const details = describeNetworkError(networkFailure(error), operation);
					if (attempt < policy.maxRetries && shouldRetry(undefined, true)) {
						await sleep(retryDelayMs(policy, attempt, undefined));
						continue;
					}
					throw buildApiError(node, details.message, details.description, undefined, details.code, req.itemIndex, secrets);
				}
				if ((req.rawText || req.stream) && isSuccess(response.status)) return response as ApiResponse<T>;
			}

			if (isSuccess(response.status)) {
				if (!isJsonLike(response.body) && (!req.acceptText || isBrokenText(String(response.body)))) {
					const text = String(response.body);
					if (text.trim() === '') return { ...response, body: undefined as T };
					const err = buildApiError(
						node,
						`${operation} returned a body that is not valid JSON (HTTP ${response.status}): ${summariseText(text).slice(0, 120)}`,
						'The answer was cut off or is not JSON. Retry; if it persists, check the Base URL points at the API and not at a web page or proxy login.',
						response.status,
						undefined,
						req.itemIndex,
						secrets,
					);
					if (req.method === 'GET' && attempt < policy.maxRetries) {
						await sleep(retryDelayMs(policy, attempt, undefined));
						continue;
					}
					throw err;
				}
				return response as ApiResponse<T>;
			}

			if (attempt < policy.maxRetries && shouldRetry(response.status, false)) {
				await sleep(retryDelayMs(policy, attempt, headerValue(response.headers, 'retry-after')));
				continue;
			}
			const details = describeApiError(response.status, response.body, operation);
			const apiError = buildApiError(
				node,
				details.message,
				details.description,
				response.status,
				details.code,
				req.itemIndex,
				secrets,
				details.apiDescription,
			);
			// Every entry of the body, for batch calls that answer one error per record.
			const entries = listApiErrors(response.body);
			if (entries.length) {
				apiError.context.apiErrors = entries.map((e) => {
					const clean: typeof e = { ...e };
					if (e.code) clean.code = stripSecrets(e.code, secrets);
					if (e.description) clean.description = stripSecrets(e.description, secrets);
					return clean;
				});
			}
			throw apiError;
		}
	};

	return {
		baseUrl,
		partyId,
		requestFull: send,
		async request<T>(req: ApiRequest): Promise<T> {
			return (await send<T>(req)).body;
		},
		async requestText(req: ApiRequest): Promise<ReceivedText> {
			return (await send<ReceivedText>({ ...req, rawText: true })).body;
		},
	};
}

function buildApiError(
	node: INode,
	message: string,
	description: string,
	status: number | undefined,
	code: string | undefined,
	itemIndex: number | undefined,
	secrets: string[],
	apiDescription?: string,
): NodeApiError {
	const clean = (text: string) => stripSecrets(text, secrets);
	code = code ? clean(code) : code;
	const response: JsonObject = { message: clean(message) };
	if (status !== undefined) response.httpCode = String(status);
	if (code) response.code = code;
	if (apiDescription) response.apiDescription = clean(apiDescription);
	const error = new NodeApiError(node, response, {
		message: clean(message),
		description: clean(description),
		httpCode: status !== undefined ? String(status) : undefined,
		itemIndex,
	});
	// For a network code (ECONNRESET, ETIMEDOUT...) n8n swaps in a generic text that drops the operation.
	if (status === undefined) error.message = clean(message);
	if (code) error.context.apiCode = code;
	if (apiDescription) error.context.apiDescription = clean(apiDescription);
	return error;
}

/** Pages through a list, turning paging problems into NodeApiErrors on the item. */
export async function* paginateList(
	this: ApiContext,
	client: ApiClient,
	options: PaginateOptions,
): AsyncGenerator<IDataObject[]> {
	try {
		yield* paginate(client as PageFetcher, options);
	} catch (error) {
		if (error instanceof PagingError) {
			throw new NodeApiError(
				this.getNode(),
				{ message: error.message },
				{
					message: error.message,
					description:
						'The list was not returned as complete. Retry; if it persists, check the Base URL matches the host the API links to.',
					itemIndex: options.itemIndex,
				},
			);
		}
		// Already a NodeApiError from the client: the constructor hands it back unchanged.
		throw new NodeApiError(this.getNode(), error as JsonObject, {
			itemIndex: options.itemIndex,
		});
	}
}

/** Collects a whole list (bounded by limit) into one array. */
export async function collectList(this: ApiContext, client: ApiClient, options: PaginateOptions): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	for await (const page of paginateList.call(this, client, options)) {
		for (const item of page) all.push(item);
	}
	return all;
}
