/**
 * The one OAuth2 token refresh of a request, started by the transport on a 401 (README.md "OAuth2").
 *
 * 1. Ours first: the refresh request (grant_type=refresh_token with the refresh token, client_id
 *    and client_secret in the form, as the service documents) goes to the Token URL through
 *    `helpers.httpRequest` like every API call: no redirect followed, the answer read within
 *    TOKEN_ANSWER_MAX_BYTES and the request's deadline. A redirect, an oversized, slow or tokenless
 *    answer stops the refresh there: the secrets went to the Token URL and nowhere else.
 * 2. Then n8n's own refresh (`helpers.refreshOAuth2Token`, given the refresh token step 1 received)
 *    stores the new tokens where every execution and queue-mode worker reads them, under n8n's
 *    lock against two refreshes at once. n8n gives nodes no other way to store tokens; its OAuth
 *    client follows redirects and reads its whole answer, so a Token URL that answers step 1
 *    correctly and then misbehaves is not stopped (the README's residual).
 */
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { DELEGATED_CREDENTIAL } from './auth';
import { BodyLimitError, discardBody, readBody } from './body';
import { headerValue, parseIfJson, redirectTarget } from './response';
import type { ApiContext } from './transport';

/** A token answer is a few hundred bytes; this much is read, no more. */
export const TOKEN_ANSWER_MAX_BYTES = 64 * 1024;
/** How long a refused refresh waits for another process's refresh to be stored. */
const RACE_WAIT_MS = 1_000;

/** Why a refresh did not happen; the transport words it for the user. */
export class RefreshError extends Error {
	constructor(
		readonly kind: 'reconnect' | 'redirect' | 'failed',
		message: string,
		readonly code?: string,
	) {
		super(message);
	}
}

interface ErrorLike {
	message?: unknown;
	code?: unknown;
	body?: unknown;
	failure?: { cause?: unknown };
	cause?: unknown;
	description?: unknown;
}

/**
 * n8n 2.x turns a refused refresh token (`invalid_grant`) into its own "needs to be reconnected"
 * error (failure.cause `credential-invalid`); n8n 1.x lets the OAuth client's error through, with
 * the token endpoint's answer as `body`.
 */
export function classifyRefreshFailure(error: unknown): RefreshError {
	let reason: string | undefined;
	let code: string | undefined;
	for (let current = error as ErrorLike | undefined, depth = 0; current && typeof current === 'object' && depth < 5; current = current.cause as ErrorLike, depth++) {
		const body = current.body as { error?: unknown; error_description?: unknown } | undefined;
		const oauthError = body && typeof body === 'object' && typeof body.error === 'string' ? body.error : undefined;
		if (current.failure?.cause === 'credential-invalid' || oauthError === 'invalid_grant') {
			return new RefreshError('reconnect', 'the token endpoint refused the refresh token (invalid_grant)', 'invalid_grant');
		}
		if (oauthError && !code) {
			code = oauthError;
			if (typeof body?.error_description === 'string') reason = `${oauthError}: ${body.error_description}`;
		}
		if (!code && typeof current.code === 'string' && /^E[A-Z_]+$|^ERR_/.test(current.code) && !['EAUTH', 'ESTATUS'].includes(current.code)) {
			code = current.code;
		}
		if (!reason && typeof current.message === 'string' && current.message) reason = current.message;
	}
	return new RefreshError('failed', reason ?? 'the token endpoint did not answer a token', code);
}

/** What the refresh needs of the transport's credential (auth.ts Auth). */
export interface RefreshTarget {
	/** The access token the refused request carried. */
	accessToken?: string;
	itemIndex?: number;
	/** Adds the secrets of a token answer to the masking. */
	learn(tokenData: unknown): void;
}

/** Step 1: the refresh request through the bounded path; resolves with the token answer. */
async function requestToken(ctx: ApiContext, tokenUrl: string, stored: ICredentialDataDecryptedObject, token: IDataObject, timeoutMs: number): Promise<IDataObject> {
	const form = new URLSearchParams({
		grant_type: 'refresh_token',
		refresh_token: String(token.refresh_token ?? ''),
		client_id: String(stored.clientId ?? ''),
		client_secret: String(stored.clientSecret ?? ''),
	});
	const deadline = AbortSignal.timeout(timeoutMs);
	const options: IHttpRequestOptions = {
		method: 'POST',
		url: tokenUrl,
		body: form.toString(),
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
		disableFollowRedirect: true,
		maxRedirects: 0,
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		encoding: 'stream',
		timeout: timeoutMs,
		abortSignal: deadline,
	};
	let answer: { statusCode: number; headers?: Record<string, string | string[] | undefined>; body?: unknown };
	try {
		// The credential goes in the form, so not httpRequestWithAuthentication (which would add the old Bearer token).
		answer = (await ctx.helpers.httpRequest(options)) as typeof answer;
	} catch (error) {
		throw deadline.aborted ? new RefreshError('failed', `the token endpoint did not answer within ${Math.round(timeoutMs / 1000)} s`, 'ETIMEDOUT') : classifyRefreshFailure(error);
	}
	const status = Number(answer.statusCode);
	if (status >= 300 && status < 400) {
		discardBody(answer.body);
		const where = redirectTarget(headerValue(answer.headers ?? {}, 'location'), tokenUrl);
		throw new RefreshError('redirect', `the Token URL answered HTTP ${status}, a redirect to ${where}`, `HTTP ${status}`);
	}
	const read = await readBody(answer.body, { maxBytes: TOKEN_ANSWER_MAX_BYTES, deadline, tail: false, watch: [] }).catch((error: unknown) => {
		if (!(error instanceof BodyLimitError)) throw classifyRefreshFailure(error);
		throw error.reason === 'size'
			? new RefreshError('failed', `the token endpoint's answer is larger than ${TOKEN_ANSWER_MAX_BYTES / 1024} KB; it was not read further`)
			: new RefreshError('failed', `the token endpoint's answer did not arrive in full within ${Math.round(timeoutMs / 1000)} s`, 'ETIMEDOUT');
	});
	const body = 'text' in read ? parseIfJson(read.text) : read.value;
	const data = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as IDataObject;
	if (status >= 200 && status < 300 && typeof data.access_token === 'string' && data.access_token) return data;
	if (typeof data.error === 'string') throw classifyRefreshFailure({ body: data });
	throw new RefreshError('failed', `the token endpoint answered HTTP ${status} without an access token`, `HTTP ${status}`);
}

/**
 * Refreshes the credential's access token once (header: ours, then n8n's to store it). Resolves
 * with the stored token data (for masking); rejects with a RefreshError or n8n's error.
 */
export async function refreshAccessToken(this: ApiContext, target: RefreshTarget, tokenUrl: string, timeoutMs: number): Promise<unknown> {
	const getCredentials = this.getCredentials as (type: string, itemIndex?: number) => Promise<ICredentialDataDecryptedObject>;
	const stored = await getCredentials.call(this, DELEGATED_CREDENTIAL, target.itemIndex);
	const token = (stored.oauthTokenData ?? {}) as IDataObject;
	// Another execution or worker refreshed since this request was signed: its tokens are stored already.
	if (target.accessToken !== undefined && token.access_token !== target.accessToken) return token;
	// A refused refresh token may have been used a moment ago by another execution or worker: its tokens then follow.
	const answer = await requestToken(this, tokenUrl, stored, token, timeoutMs).catch(async (error: unknown) =>
		error instanceof RefreshError && error.kind === 'reconnect' ? error : await Promise.reject(error),
	);
	if (answer instanceof RefreshError) {
		await sleep(RACE_WAIT_MS);
		const now = ((await getCredentials.call(this, DELEGATED_CREDENTIAL, target.itemIndex)).oauthTokenData ?? {}) as IDataObject;
		if (now.access_token !== token.access_token) return now;
		throw new RefreshError(answer.kind, answer.message, answer.code);
	}
	target.learn(answer);
	// n8n's refresh with the refresh token just issued (the old one may no longer work): it stores what it gets.
	const refreshToken = typeof answer.refresh_token === 'string' && answer.refresh_token ? answer.refresh_token : token.refresh_token;
	const view = Object.create(this, {
		getCredentials: {
			value: async (type: string, itemIndex?: number) => {
				const current = await getCredentials.call(this, type, itemIndex ?? target.itemIndex);
				return { ...current, oauthTokenData: { ...((current.oauthTokenData ?? {}) as IDataObject), refresh_token: refreshToken } };
			},
		},
	}) as ApiContext;
	try {
		return (await this.helpers.refreshOAuth2Token.call(view, DELEGATED_CREDENTIAL)) as unknown;
	} catch (error) {
		throw classifyRefreshFailure(error);
	}
}

/** A failed refresh in words for the user (the transport raises it as final: retrying would ask the token endpoint again). */
export function describeRefreshFailure(
	caught: unknown,
	operation: string,
	credentialName: string | undefined,
): { message: string; description: string; code?: string } {
	const error =
		caught instanceof RefreshError
			? caught
			: caught instanceof BodyLimitError
				? new RefreshError('failed', 'the token endpoint did not answer in time')
				: classifyRefreshFailure(caught);
	const credential = `The AccessPoint OAuth2 credential${credentialName ? ` "${credentialName}"` : ''}`;
	if (error.kind === 'reconnect') {
		return {
			message: `${credential} needs to be reconnected: ${error.message}`,
			description:
				'The API refused the access token and the token endpoint refused the refresh token: access was revoked, the refresh token expired, or it was already used (for example by a copy of this credential elsewhere). Open the credential and sign in again (Reconnect), then run the workflow again.',
			code: error.code,
		};
	}
	if (error.kind === 'redirect') {
		return {
			message: `${operation} failed: the access token expired and ${error.message}; it was not followed`,
			description:
				"A redirect would carry the client secret and refresh token to another address, so the node does not follow it. If the token endpoint has moved, set its new address as the credential's Token URL and reconnect.",
			code: error.code,
		};
	}
	return {
		message: `${operation} failed: the access token expired and refreshing it failed: ${error.message}`,
		description: "Check the credential's Token URL (or Environment), Client ID and Client Secret; if they are right, reconnect the credential.",
		code: error.code,
	};
}
