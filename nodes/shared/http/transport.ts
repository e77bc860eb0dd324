/**
 * The shared API client: every HTTP request of every node goes through `getApiClient`
 * (n8n's httpRequestWithAuthentication with the credential's headers), and every bound on
 * a request lives in its one request loop: no redirect followed, a deadline per attempt,
 * the maximum response size, the retry count and the Retry-After cap, secret masking.
 * Longer than 300 lines because that loop is kept whole, in one place, on purpose;
 * the pure parts are in body.ts, response.ts, retry.ts and errors.ts.
 */
import type {
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

import { ACCOUNT_INFORMATION_PATH, API_KEY_CREDENTIAL, loadAuth, pickAccountParty } from './auth';
import { listApiErrors } from './apiErrorEntries';
import { beforeDeadline, BodyLimitError, boundedStream, discardBody, readBody } from './body';
import { buildApiError, headerValue, isBrokenText, isJsonLike, isSuccess, maskText, networkFailure, parseIfJson, redirectTarget } from './response';
import { describeApiError, describeNetworkError, stripSecrets, summariseText } from './errors';
import { describeRefreshFailure, refreshAccessToken } from './oauth';
import { appendQuery } from '../query/odata';
import { nextTail, paginate, PagingError } from './paging';
import type { PageFetcher, PaginateOptions, ReceivedText } from './paging';
import { DEFAULT_MAX_RESPONSE_MB, DEFAULT_RETRY_POLICY, MAX_RETRY_AFTER_MS, MB, NO_RETRY, retryAfterBeyondCap, retryDelayMs, shouldRetry } from './retry';
import type { RetryPolicy } from './retry';

export const CREDENTIAL_TYPE = API_KEY_CREDENTIAL;

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
	/** Deadline of each attempt (headers and body); the client's policy, else 60 s. */
	timeoutMs?: number;
	/**
	 * Return a successful body as the bytes arriving (an async iterable), not read here: a
	 * file read decodes its base64 as it arrives instead of holding the whole answer as text.
	 * Still bounded by the size limit and the deadline; error answers are read and mapped as usual.
	 */
	stream?: boolean;
	/** The largest body this request accepts, instead of the client's (a file read is allowed more than a list page). */
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
	/** Retry policy for reads (GET); its timeout and response size apply to every request. */
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

/**
 * Resolves the credential once (the one the node's Authentication picks, auth.ts) and returns a
 * client whose every request goes through httpRequestWithAuthentication: with the API key, n8n's
 * generic authentication adds the apikey and partyID headers; with OAuth2, n8n adds the Bearer
 * token and we add partyID (the credential's, else the account's own, read once here). Every
 * request is bounded: no redirect is followed (the headers would go with it), each attempt has a
 * deadline for its headers and body, a body is read up to the maximum response size, reads retry
 * at most the policy's count and wait at most as long as MAX_RETRY_AFTER_MS when asked. An OAuth2
 * 401 starts one token refresh (oauth.ts) and one more try of the same request, never more.
 */
export async function getApiClient(this: ApiContext, options: ApiClientOptions = {}, itemIndex?: number): Promise<ApiClient> {
	const node = this.getNode();
	const auth = await loadAuth(this, itemIndex);
	const { secrets } = auth;
	let partyId = (options.partyId ?? '').trim() || auth.partyId;
	const bodyForms = auth.bodyForms;
	const readPolicy = options.retry ?? DEFAULT_RETRY_POLICY;
	const maxBytes = options.retry?.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_MB * MB;
	const baseUrl = auth.baseUrl;
	const send = async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
		const target = /^https?:\/\//i.test(req.path) ? req.path : `${baseUrl}${req.path}`;
		// The query is written into the URL here, not by n8n (see odata.ts: n8n's splits some emoji).
		const url = appendQuery(target, req.qs);
		const operation = req.operation ?? `${req.method} ${req.path.replace(/^https?:\/\/[^/]+/i, '').split('?')[0]}`;
		const policy = req.retry ?? (req.method === 'GET' ? readPolicy : NO_RETRY);
		const timeoutMs = req.timeoutMs ?? options.retry?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		const limit = req.maxResponseBytes ?? maxBytes;
		const requestOptions: IHttpRequestOptions = {
			method: req.method,
			url,
			headers: { Accept: 'application/json', ...(req.headers ?? {}) },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// Every body as a stream, read within the size limit and the deadline (body.ts).
			encoding: 'stream',
			// A redirect would carry the apikey and partyID headers to wherever it points.
			disableFollowRedirect: true,
			maxRedirects: 0,
			timeout: timeoutMs,
		};
		if (req.body !== undefined) requestOptions.body = req.body as IDataObject;
		const fail = (message: string, description: string, status?: number, code?: string, apiDescription?: string) =>
			buildApiError(node, message, description, status, code, req.itemIndex, secrets, apiDescription);
		/** Errors of ours raised inside an exchange, never retried (n8n wraps network failures in NodeApiErrors too). */
		const finalErrors = new WeakSet<Error>();
		const final = (...args: Parameters<typeof fail>) => {
			const error = fail(...args);
			finalErrors.add(error);
			return error;
		};

		const tooLarge = () =>
			fail(
				req.maxResponseBytes === undefined
					? `${operation} failed: the answer is larger than the maximum response size of ${Math.round(limit / MB)} MB; it was not read further`
					: `${operation} failed: the answer is larger than the ${Math.round(limit / MB)} MB this request accepts; it was not read further`,
				req.maxResponseBytes === undefined
					? 'Raise Options › Maximum Response Size if an answer this large is expected; otherwise check the Base URL points at the API.'
					: 'Raise the node\'s size option (e.g. Maximum File Size) if a file this large is expected.',
			);

		/** Whether this request has had its one token refresh (OAuth2). */
		let refreshed = false;
		type Full = { statusCode: number; headers: ApiResponse['headers']; body: unknown };
		const call = async (deadline: AbortSignal): Promise<Full> => {
			const signed = auth.sign(partyId);
			return await beforeDeadline(
				this.helpers.httpRequestWithAuthentication.call(
					this,
					auth.credentialType,
					{ ...requestOptions, headers: { ...requestOptions.headers, ...signed.headers } },
					signed.options,
				) as Promise<Full>,
				deadline,
			);
		};
		/** The one refresh, within its own deadline; a failure is final (retrying would only ask the token endpoint again). */
		const refresh = async (tokenUrl: string) => {
			refreshed = true;
			try {
				const data = await beforeDeadline(
					refreshAccessToken.call(this, auth, tokenUrl, timeoutMs).then((token) => ({ body: token })),
					AbortSignal.timeout(timeoutMs),
				);
				auth.learn(data.body);
			} catch (caught) {
				const words = describeRefreshFailure(caught, operation, node.credentials?.[auth.credentialType]?.name);
				throw final(words.message, words.description, undefined, words.code);
			}
		};

		/** One HTTP exchange within its deadline; a text error body is parsed like a JSON one. */
		const exchange = async (): Promise<ApiResponse<unknown>> => {
			let deadline = AbortSignal.timeout(timeoutMs);
			let full = await call(deadline);
			if (full.statusCode === 401 && auth.tokenUrl !== undefined && !refreshed) {
				discardBody(full.body);
				await refresh(auth.tokenUrl);
				deadline = AbortSignal.timeout(timeoutMs);
				full = await call(deadline);
			}
			const response: ApiResponse<unknown> = { status: full.statusCode, headers: full.headers ?? {}, body: undefined };
			if (response.status >= 300 && response.status < 400) {
				discardBody(full.body);
				const where = redirectTarget(headerValue(response.headers, 'location'), url);
				throw final(
					`${operation} failed: the API answered HTTP ${response.status}, a redirect to ${where}; it was not followed`,
					`Redirects are never followed, so the credential stays on ${new URL(baseUrl).host}. If the API has moved, set its new address as the credential's Base URL.`,
					response.status,
				);
			}
			if (req.stream && isSuccess(response.status)) {
				response.body = boundedStream(full.body, { maxBytes: limit, deadline }, (problem) => {
					if (problem instanceof BodyLimitError && problem.reason === 'size') return tooLarge();
					if (problem instanceof BodyLimitError) {
						return fail(`${operation} failed: the answer did not arrive in full within ${Math.round(timeoutMs / 1000)} s`, 'Raise Options › Request Timeout if a file this large is expected over this connection.');
					}
					// A connection lost mid-body stays as it is: the caller may read the answer again.
					return problem;
				});
				return response;
			}
			const raw = isSuccess(response.status) && req.rawText;
			const read = await readBody(full.body, { maxBytes: limit, deadline, tail: !!raw, watch: bodyForms });
			if ('value' in read) {
				// A helper that handed back data, not a stream (tests' fakes): as text where text was asked for.
				const { value } = read;
				const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
				response.body = raw ? { text, tail: nextTail('', text) } : value;
				return response;
			}
			// Only a body that echoes the key is searched and rewritten; the others go on untouched.
			const text = read.found ? maskText(read.text, bodyForms) : read.text;
			if (raw) response.body = read.found ? { text, tail: nextTail('', text) } : { text, tail: read.tail };
			else response.body = parseIfJson(text);
			return response;
		};

		for (let attempt = 0; ; attempt++) {
			let response: ApiResponse<unknown>;
			if (attempt === 0 && req.brokenText !== undefined) {
				// The caller read this page once already and it was not JSON: that was the first attempt.
				response = { status: 200, headers: {}, body: req.brokenText };
			} else {
				options.onRequest?.({ method: req.method, url });
				const outcome = await exchange().then(
					(answer) => ({ answer }),
					(error: unknown) => ({ error }),
				);
				if ('error' in outcome) {
					const { error } = outcome;
					if (finalErrors.has(error as Error)) throw error;
					if (error instanceof BodyLimitError && error.reason === 'size') {
						// Not retried: the same answer would be read again (and a compressed one inflated again).
						throw tooLarge();
					}
					// A passed deadline reads like axios's own timeout: "the request timed out".
					const details = describeNetworkError(error instanceof BodyLimitError ? { code: 'ETIMEDOUT' } : networkFailure(error), operation);
					// A cancelled execution is not retried.
					if (attempt < policy.maxRetries && details.code !== 'ERR_CANCELED' && shouldRetry(undefined, true)) {
						await sleep(retryDelayMs(policy, attempt, undefined));
						continue;
					}
					throw fail(details.message, details.description, undefined, details.code);
				}
				response = outcome.answer;
				if ((req.rawText || req.stream) && isSuccess(response.status)) return response as ApiResponse<T>;
			}

			if (isSuccess(response.status)) {
				if (!isJsonLike(response.body) && (!req.acceptText || isBrokenText(String(response.body)))) {
					const text = String(response.body);
					if (text.trim() === '') return { ...response, body: undefined as T };
					const err = fail(
						`${operation} returned a body that is not valid JSON (HTTP ${response.status}): ${summariseText(text).slice(0, 120)}`,
						'The answer was cut off or is not JSON. Retry; if it persists, check the Base URL points at the API and not at a web page or proxy login.',
						response.status,
					);
					if (req.method === 'GET' && attempt < policy.maxRetries) {
						await sleep(retryDelayMs(policy, attempt, undefined));
						continue;
					}
					throw err;
				}
				const body = response.body;
				if (req.method === 'GET' && !req.acceptText && (body === null || typeof body === 'number' || typeof body === 'boolean')) {
					// One n8n item is one JSON object: a read answering a bare value has nothing to output.
					throw fail(
						`${operation} answered with ${body === null ? 'null' : `the ${typeof body} ${String(body).slice(0, 40)}`} where a record or a list was expected`,
						'The API answered something other than a record. Retry; if it persists, check the ID and that the Base URL points at the API.',
						response.status,
					);
				}
				return response as ApiResponse<T>;
			}

			if (attempt < policy.maxRetries && shouldRetry(response.status, false)) {
				const retryAfter = headerValue(response.headers, 'retry-after');
				const asked = retryAfterBeyondCap(retryAfter);
				if (asked !== undefined) {
					throw fail(
						`${operation} failed with HTTP ${response.status}: the API asked to wait ${Math.round(asked / 1000)} s before trying again (Retry-After), longer than the ${MAX_RETRY_AFTER_MS / 1000} s a node waits`,
						'The API is rate limiting or down for maintenance. Run the workflow again later.',
						response.status,
					);
				}
				await sleep(retryDelayMs(policy, attempt, retryAfter));
				continue;
			}
			const details = describeApiError(response.status, response.body, operation);
			if (response.status === 401) details.description = auth.unauthorizedHint;
			const apiError = fail(details.message, details.description, response.status, details.code, details.apiDescription);
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

	const client: ApiClient = {
		baseUrl,
		get partyId() {
			return partyId;
		},
		requestFull: send,
		async request<T>(req: ApiRequest): Promise<T> {
			return (await send<T>(req)).body;
		},
		async requestText(req: ApiRequest): Promise<ReceivedText> {
			return (await send<ReceivedText>({ ...req, rawText: true })).body;
		},
	};
	if (!partyId && auth.method === 'oAuth2') partyId = await readAccountPartyId(client, node, itemIndex);
	return client;
}

/** The party an OAuth2 credential without a Party ID acts for: the account's one company (auth.ts pickAccountParty). */
async function readAccountPartyId(client: ApiClient, node: INode, itemIndex: number | undefined): Promise<string> {
	const info = await client.request({ method: 'GET', path: ACCOUNT_INFORMATION_PATH, operation: "Read the account's companies", itemIndex });
	const picked = pickAccountParty(info);
	if ('partyId' in picked) return picked.partyId;
	throw new NodeOperationError(node, picked.message, { itemIndex, description: picked.description });
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
						error.hint ??
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
