/** The one HTTP path of every node and all its bounds (ARCHITECTURE.md "One request through the code"). */
import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { stripSecrets } from './secrets';
import { DEFAULT_MAX_RESPONSE_MB, DEFAULT_RETRY_POLICY, MAX_RETRY_AFTER_MS, MB, NO_RETRY, parseRetryAfterMs, retryDelayMs, shouldRetry } from './retry';
import type { ApiClient, ApiClientOptions, ApiContext, ApiErrorEntry, ApiRequest, ApiResponse, Auth, Headers } from './types';
import { appendQuery } from './url';

export type { ApiClient, ApiClientOptions, ApiContext, ApiErrorEntry, ApiRequest, ApiResponse } from './types';

const DEFAULT_TIMEOUT_MS = 60_000;

/** An answer cut off by a bound: too large, or not complete before the deadline. */
type LimitError = Error & { limit: 'size' | 'deadline' };
const limitError = (limit: LimitError['limit']): LimitError => Object.assign(new Error(limit), { limit });
const cutOff = (error: unknown, limit?: LimitError['limit']) => !!(error as LimitError)?.limit && (!limit || (error as LimitError).limit === limit);

type Stream = AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void };
const isStream = (body: unknown): body is Stream => !!body && typeof (body as Stream)[Symbol.asyncIterator] === 'function';
type Answer = { status: number; headers: Headers; text: string; bytes?: Buffer };

/** Waits for `pending` until the deadline; after it, fails with LimitError('deadline') and calls `expire` (to close what is open). */
function beforeDeadline<T>(pending: Promise<T>, deadline: AbortSignal, expire?: () => void): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => (reject(limitError('deadline')), expire?.());
		if (deadline.aborted) onAbort();
		deadline.addEventListener('abort', onAbort, { once: true });
		pending.then(resolve, reject).finally(() => deadline.removeEventListener('abort', onAbort));
	});
}

/** One exchange within the deadline, the body cut off at `maxBytes` (a gzip bomb stops inflating); a file's bytes never held twice. */
function exchange(send: () => Promise<unknown>, deadline: AbortSignal, maxBytes: number, asBytes: boolean): Promise<Answer> {
	let body: unknown;
	// The deadline closes the connection; an answer arriving after it is closed unread.
	const close = () => isStream(body) && body.destroy?.();
	const read = async (): Promise<Answer> => {
		const raw = (await send()) as { statusCode: number; headers?: Headers; body?: unknown };
		body = raw.body;
		const answer: Answer = { status: Number(raw.statusCode), headers: raw.headers ?? {}, text: '' };
		if (deadline.aborted || (answer.status >= 300 && answer.status < 400)) return (close(), answer);
		// A helper that hands back data, not a stream (tests' fakes), is read as a stream of one chunk.
		const stream = isStream(body) ? body : [Buffer.from(typeof body === 'string' || body instanceof Uint8Array ? body : (JSON.stringify(body) ?? ''))];
		const announced = Number([answer.headers['content-length']].flat()[0]);
		let whole = asBytes && announced > 0 && announced <= maxBytes ? Buffer.allocUnsafe(announced) : undefined;
		const [chunks, decoder] = [[] as Buffer[], new TextDecoder()];
		let received = 0;
		// Leaving the loop (a throw) destroys the stream.
		for await (const chunk of stream) {
			if (received + chunk.byteLength > maxBytes) throw limitError('size');
			if (!asBytes) answer.text += decoder.decode(chunk, { stream: true });
			else if (whole && received + chunk.byteLength <= whole.length) whole.set(chunk, received);
			else {
				if (whole) chunks.push(whole.subarray(0, received));
				whole = undefined;
				chunks.push(Buffer.from(chunk));
			}
			received += chunk.byteLength;
		}
		answer.text += decoder.decode();
		if (whole) chunks.push(whole.subarray(0, received));
		if (asBytes) answer.bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks.splice(0));
		return answer;
	};
	return beforeDeadline(read(), deadline, close);
}

/** The JSON of a text, or the text itself when it is not JSON. */
function parse(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

const words = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : undefined);
const TEXT_KEYS = ['Description', 'description', 'Message', 'message', 'ErrorMessage', 'DefaultText', 'error_description', 'error'];
const entryOf = (e: Record<string, unknown>): ApiErrorEntry => {
	const [code, description] = [words(e.Code ?? e.code), TEXT_KEYS.map((key) => words(e[key])).find(Boolean)];
	return { ...(code && { code }), ...(description && { description }) };
};

/** HTML error pages and other text bodies shrink to their title or first words. */
function summariseText(text: string): string {
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
	if (title) return `HTML page: ${title}`;
	if (!/^\s*</.test(text)) return text.length > 300 ? `${text.slice(0, 300)}…` : text;
	const plain = text.replace(/(<[^>]*>|\s)+/g, ' ').trim();
	return plain ? `HTML page: ${plain.slice(0, 160)}` : 'an HTML page without text';
}

/** The API's own Code and Description from any error body seen (`errors`/`Errors` entries, top-level fields, text), and each entry of the list. */
export function readApiError(body: unknown): ApiErrorEntry & { entries: ApiErrorEntry[] } {
	const parsed = typeof body === 'string' ? parse(body) : body;
	if (typeof parsed === 'string') return { entries: [], ...(parsed.trim() && { description: summariseText(parsed.trim()) }) };
	const isObject = (e: unknown): e is Record<string, unknown> => !!e && typeof e === 'object';
	const list = Array.isArray(parsed) ? parsed : isObject(parsed) ? (parsed.errors ?? parsed.Errors) : undefined;
	const entries = (Array.isArray(list) ? list.filter(isObject) : []).map(entryOf).filter((e) => e.code || e.description);
	if (!entries.length) return { ...(isObject(parsed) && !Array.isArray(parsed) && entryOf(parsed)), entries };
	return { code: entries.find((e) => e.code)?.code, description: entries.flatMap((e) => e.description ?? []).join('; ') || undefined, entries };
}

const REASONS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ECONNRESET: 'the connection was reset by the server',
	ETIMEDOUT: 'the request timed out',
	ECONNABORTED: 'the request timed out',
	ENOTFOUND: 'the host name could not be resolved',
	EAI_AGAIN: 'the host name could not be resolved',
	ERR_CANCELED: 'the execution was cancelled',
};
const networkCode = (value: unknown) =>
	typeof value === 'string' && /^E[A-Z_]+$|^ERR_/.test(value) && !['EAUTH', 'ESTATUS'].includes(value) ? value : undefined;
type Failure = {
	code?: unknown;
	httpCode?: unknown;
	message?: unknown;
	cause?: unknown;
	body?: { error?: unknown; error_description?: unknown };
	failure?: { cause?: unknown };
};
/** An error and its causes, at most 5 deep (n8n wraps its client's errors; 1.x: `httpCode`, token answer as `body`; 2.x: failure.cause). */
function readFailure(error: unknown) {
	const found: { code?: string; message?: string; oauth?: string; reason?: string; text?: string; reconnect?: boolean } = {};
	let current = error as Failure | undefined;
	for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++, current = current.cause as Failure) {
		const oauth = typeof current.body?.error === 'string' ? current.body.error : undefined;
		found.reconnect ||= current.failure?.cause === 'credential-invalid' || oauth === 'invalid_grant';
		const said = typeof current.body?.error_description === 'string' ? `${oauth}: ${current.body.error_description}` : undefined;
		if (oauth && !found.oauth) [found.oauth, found.reason] = [oauth, said];
		const code = networkCode(current.code) ?? networkCode(current.httpCode);
		if (code && !found.code) [found.code, found.message] = [code, current.message as string | undefined];
		if (!found.text && typeof current.message === 'string') found.text = current.message;
	}
	const failure = error as Failure | undefined;
	found.message ??= found.code ? undefined : (((failure?.cause as Failure | undefined)?.message ?? failure?.message) as string | undefined);
	return found;
}

/** Why an OAuth2 refresh did not happen. */
type RefreshError = Error & { kind: 'reconnect' | 'failed'; code?: string; refresh: true };
const refreshError = (kind: RefreshError['kind'], message: string, code?: string): RefreshError =>
	Object.assign(new Error(message), { kind, code, refresh: true as const });

export function classifyRefreshFailure(error: unknown): RefreshError {
	const { reconnect, oauth, reason, code, text } = readFailure(error);
	if (reconnect) return refreshError('reconnect', 'the token endpoint refused the refresh token (invalid_grant)', 'invalid_grant');
	return refreshError('failed', reason ?? text ?? 'the token endpoint did not answer a token', oauth ?? code);
}

/** The refreshes of one client: refresh tokens are single-use, so one refresh per expiry (SECURITY.md "OAuth2 refresh"). */
type Renewal = { generation: number; proven: boolean; pending?: Promise<void>; failed?: RefreshError };

/** After a 401: whether to send once more; n8n's own refresh stores the tokens for every worker; a token refused before any success is not refreshed again. */
async function renew(ctx: ApiContext, auth: Auth, renewal: Renewal, signedAt: number, timeoutMs: number): Promise<boolean> {
	if (renewal.failed) throw renewal.failed;
	if (renewal.generation !== signedAt) return true;
	if (signedAt > 0 && !renewal.proven && !renewal.pending) return false;
	renewal.pending ??= (async () => {
		try {
			const stored = (await ctx.getCredentials(auth.credentialType, auth.itemIndex)).oauthTokenData as IDataObject | undefined;
			// Another execution or worker refreshed since this client read the credential: its tokens are stored already.
			const refresh = async () =>
				stored?.access_token !== auth.accessToken ? stored : ((await ctx.helpers.refreshOAuth2Token.call(ctx, auth.credentialType)) as unknown);
			auth.learn(await beforeDeadline(refresh(), AbortSignal.timeout(timeoutMs)));
			Object.assign(renewal, { generation: renewal.generation + 1, proven: false });
		} catch (caught) {
			const late = `the token endpoint did not answer within ${Math.round(timeoutMs / 1000)} s`;
			renewal.failed = cutOff(caught) ? refreshError('failed', late) : classifyRefreshFailure(caught);
		} finally {
			renewal.pending = undefined;
		}
	})();
	await renewal.pending;
	if (renewal.failed) throw renewal.failed;
	return true;
}

type Fail = (message: string, description: string, status?: number, api?: ApiErrorEntry) => NodeApiError;
/** One request as its checks and error messages see it. */
type Sent = { req: ApiRequest; url: string; operation: string; limit: number; auth: Auth; node: INode; fail: Fail };
type Outcome<T> = ApiResponse<T> | { again: string | undefined };

/** A request's NodeApiError: its words with every secret masked, the status, the API's own Code and Description. */
function failWith(node: INode, secrets: string[], itemIndex?: number): Fail {
	return (message, description, status, api = {}) => {
		const [text, httpCode] = [stripSecrets(message, secrets), status === undefined ? undefined : String(status)];
		const context = { message: text, description: stripSecrets(description, secrets), httpCode, itemIndex };
		const error = new NodeApiError(node, { message: text, ...(httpCode && { httpCode }) }, context);
		// For a network code (ECONNRESET …) n8n swaps in a generic text that drops the operation.
		error.message = text;
		if (api.code) error.context.apiCode = stripSecrets(api.code, secrets);
		if (api.description) error.context.apiDescription = stripSecrets(api.description, secrets);
		return error;
	};
}

/** No answer (a refused refresh, a bound, the network): another try for a read not yet retried enough, else the error saying what to do. */
function noAnswer(error: unknown, { req, operation, limit, auth, node, fail }: Sent, retry: boolean): { again: undefined } {
	if ((error as RefreshError).refresh) {
		const { kind, code, message } = error as RefreshError;
		const name = node.credentials?.[auth.credentialType]?.name;
		if (kind === 'reconnect') {
			const what = `The AccessPoint OAuth2 credential${name ? ` "${name}"` : ''} needs to be reconnected: ${message}`;
			throw fail(what, 'Reconnect the credential, then rerun.', undefined, { code });
		}
		const what = `${operation} failed: the access token expired and refreshing it failed: ${message}`;
		throw fail(what, "Check the credential's Token URL, Client ID and Client Secret, then reconnect it.", undefined, { code });
	}
	// Not retried: the same answer would be read again (and a compressed one inflated again).
	if (cutOff(error, 'size')) {
		throw fail(
			`${operation} failed: the answer is larger than ${Math.round(limit / MB)} MB; it was not read further`,
			req.maxResponseBytes === undefined
				? 'Raise Options › Maximum Response Size if so large an answer is expected; else check the Base URL.'
				: "Raise the node's size option (e.g. Maximum File Size) if so large a file is expected.",
		);
	}
	if (req.signal?.aborted) throw fail(`${operation} was cancelled`, 'The request was no longer needed.');
	const { code, message } = cutOff(error) ? { code: 'ETIMEDOUT', message: undefined } : readFailure(error);
	if (retry && code !== 'ERR_CANCELED') return { again: undefined };
	const reason = (code && REASONS[code]) ?? (message ? stripSecrets(message) : 'a network error occurred');
	const hint = code === 'ENOTFOUND' || code === 'ECONNREFUSED' ? "Check the credential's environment and Base URL." : 'Retry later.';
	throw fail(`${operation} failed: ${reason}`, hint, undefined, { code });
}

/** An answer: a 2xx its body, a read's 429/5xx (or unreadable 2xx) another try, a redirect or any other status the error naming it. */
function readAnswer<T>(answer: Answer, { req, url, operation, auth, node, fail }: Sent, retry: boolean): Outcome<T> {
	const { status, headers, bytes: raw } = answer;
	if (status >= 300 && status < 400) {
		// Where it points, as a host name only (its path or query could carry anything).
		const location = [headers.location].flat()[0];
		const target = !location ? 'no location' : (URL.canParse(location, url) && new URL(location, url).host) || 'an unreadable location';
		const what = `${operation} failed: the API answered HTTP ${status}, a redirect to ${target}; it was not followed`;
		throw fail(what, "If the API has moved, set its new address as the credential's Base URL.", status);
	}
	const ok = status >= 200 && status < 300;
	// Only a body that echoes a secret is rewritten; a body read from its bytes (a file) stays bytes unless it does.
	const echoed = auth.secrets.filter((secret) => (raw ?? answer.text).includes(secret));
	const mask = (text: string) => echoed.reduce((out, secret) => out.split(secret).join('***'), text);
	const bytes = raw && echoed.length ? Buffer.from(mask(raw.toString())) : raw;
	const read = ok && bytes && req.read ? req.read(bytes) : undefined;
	const text = read !== undefined ? '' : bytes ? bytes.toString() : mask(answer.text);
	const body = read ?? parse(text);

	if (ok) {
		if (typeof body === 'string' && (!req.acceptText || /^\s*[<{[]/.test(body))) {
			if (!body.trim()) return { status, headers, body: undefined as T };
			if (req.method === 'GET' && retry) return { again: undefined };
			const what = `${operation} returned a body that is not valid JSON (HTTP ${status}): ${req.brokenText ?? summariseText(body).slice(0, 120)}`;
			throw fail(what, 'Retry; if it persists, check the Base URL is the API, not a web page.', status);
		}
		if (req.method === 'GET' && !req.acceptText && (body === null || typeof body === 'number' || typeof body === 'boolean')) {
			// One n8n item is one JSON object: a read answering a bare value has nothing to output.
			const what = `${operation} answered with ${body === null ? 'null' : `the ${typeof body} ${String(body).slice(0, 40)}`} where a record or a list was expected`;
			throw fail(what, 'Retry; if it persists, check the ID and the Base URL.', status);
		}
		return { status, headers, body: body as T };
	}

	const retryAfter = [headers['retry-after']].flat()[0];
	if (retry && shouldRetry(status)) {
		const asked = parseRetryAfterMs(retryAfter);
		if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
			const what = `${operation} failed with HTTP ${status}: Retry-After asks to wait ${Math.round(asked / 1000)} s, more than the ${MAX_RETRY_AFTER_MS / 1000} s a node waits`;
			throw fail(what, 'Run the workflow later.', status);
		}
		return { again: retryAfter };
	}
	const { entries, ...api } = readApiError(body === '' ? undefined : body);
	const what = api.description ?? (text.trim() ? undefined : 'empty body');
	// The hint for a status is n8n's own wording of it (NodeApiError's status texts); a 401 names the credential.
	const hint = status === 401 ? auth.unauthorizedHint : new NodeApiError(node, {}, { httpCode: String(status) }).message;
	const error = fail(`${operation} failed with HTTP ${status}${api.code ? ` (${api.code})` : ''}${what ? `: ${what}` : ''}`, hint, status, api);
	const clean = (e: ApiErrorEntry) => Object.fromEntries(Object.entries(e).map(([key, value]) => [key, stripSecrets(String(value), auth.secrets)]));
	if (entries.length) error.context.apiErrors = entries.map(clean);
	throw error;
}

/** The client of a credential read (node/credential.ts): n8n adds the apikey/partyID headers or the Bearer token; OAuth2 without a Party ID: node/client.ts picks one. */
export function openClient(this: ApiContext, auth: Auth, options: ApiClientOptions = {}): ApiClient {
	const node = this.getNode();
	const renewal: Renewal = { generation: 0, proven: false };
	const timeoutMs = options.retry?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const send = async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
		// The query is written into the URL here, not by n8n (see url.ts: n8n's splits some emoji).
		const url = appendQuery(/^https?:\/\//i.test(req.path) ? req.path : `${auth.baseUrl}${req.path}`, req.qs);
		const operation = req.operation ?? `${req.method} ${req.path.replace(/^https?:\/\/[^/]+/i, '').split('?')[0]}`;
		const policy = req.retry ?? (req.method === 'GET' ? (options.retry ?? DEFAULT_RETRY_POLICY) : NO_RETRY);
		const limit = req.maxResponseBytes ?? options.retry?.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_MB * MB;
		const sent: Sent = { req, url, operation, limit, auth, node, fail: failWith(node, auth.secrets, req.itemIndex) };
		const [host, home] = [new URL(url), new URL(auth.baseUrl)];
		if (host.origin !== home.origin)
			throw sent.fail(`${operation} was not sent: ${host.host} is not the credential's host`, `The credential goes only to ${home.host}.`);
		const requestOptions: IHttpRequestOptions = {
			method: req.method,
			url,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			encoding: 'stream',
			disableFollowRedirect: true,
			maxRedirects: 0,
			timeout: timeoutMs,
			...(req.body !== undefined && { body: req.body as IDataObject }),
		};
		// n8n (2.x) cancels its request on the execution's cancel signal: a page no longer needed (req.signal) cancels it too.
		const own = (this as { getExecutionCancelSignal?: () => AbortSignal | undefined }).getExecutionCancelSignal?.();
		const signal = req.signal && (own ? AbortSignal.any([own, req.signal]) : req.signal);
		const caller: ApiContext = signal ? Object.create(this, { getExecutionCancelSignal: { value: () => signal } }) : this;
		const call = async () => {
			const signed = auth.sign(client.partyId);
			const options = { ...requestOptions, headers: { Accept: 'application/json', ...req.headers, ...signed.headers } };
			const send = async () => await this.helpers.httpRequestWithAuthentication.call(caller, auth.credentialType, options, signed.options);
			const deadline = AbortSignal.timeout(timeoutMs);
			return await exchange(send, req.signal ? AbortSignal.any([deadline, req.signal]) : deadline, limit, !!req.read);
		};
		let repeated = false; // Sent again after an OAuth2 401: once at most.
		const attempt = async (): Promise<Answer> => {
			let signedAt = renewal.generation;
			let answer = await call();
			if (answer.status === 401 && auth.tokenUrl !== undefined && !repeated) {
				repeated = true;
				const again = await renew(this, auth, renewal, signedAt, timeoutMs);
				signedAt = renewal.generation;
				if (again) answer = await call();
			}
			if (answer.status !== 401 && signedAt === renewal.generation) renewal.proven = true;
			return answer;
		};
		for (let tries = 0; ; tries++) {
			const retry = tries < policy.maxRetries;
			if (req.signal?.aborted) throw sent.fail(`${operation} was cancelled`, 'The request was no longer needed.');
			const outcome = await attempt().then(
				(answer) => readAnswer<T>(answer, sent, retry),
				(error: unknown) => noAnswer(error, sent, retry),
			);
			if (!('again' in outcome)) return outcome;
			await sleep(retryDelayMs(policy, tries, outcome.again));
		}
	};

	const client: ApiClient = {
		baseUrl: auth.baseUrl,
		partyId: (options.partyId ?? '').trim() || auth.partyId,
		method: auth.method,
		requestFull: send,
		request: async <T>(req: ApiRequest) => (await send<T>(req)).body,
	};
	return client;
}
