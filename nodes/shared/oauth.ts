/**
 * The one OAuth2 token refresh of a request, started by the transport on a 401 and done by n8n
 * (`helpers.refreshOAuth2Token`: its OAuth client, its token storage, its lock against two
 * refreshes at once). What we add: the refresh is asked for at most once per request, and never
 * sent to a token URL that redirects. n8n's OAuth client follows redirects, and on a 307/308 it
 * sends the form again (client secret and refresh token included) to wherever the Location
 * points; so the token URL is first asked, with nothing secret in the form, whether it answers
 * or redirects.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { DELEGATED_CREDENTIAL } from './auth';
import { BodyLimitError, discardBody } from './body';
import { headerValue, redirectTarget } from './response';
import type { ApiContext } from './transport';

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

/**
 * Refreshes the credential's access token once, through n8n, after making sure the token URL
 * does not redirect. Resolves with the new token data (for masking); rejects with a RefreshError.
 */
export async function refreshAccessToken(this: ApiContext, tokenUrl: string, timeoutMs: number): Promise<unknown> {
	const probe: IHttpRequestOptions = {
		method: 'POST',
		url: tokenUrl,
		// A refresh request without its secrets: a token endpoint answers it with an OAuth error, a moved one with a redirect.
		body: 'grant_type=refresh_token',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
		disableFollowRedirect: true,
		maxRedirects: 0,
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		encoding: 'stream',
		timeout: timeoutMs,
	};
	let answer: { statusCode: number; headers?: Record<string, string | string[] | undefined>; body?: unknown };
	try {
		// No credential goes with this request (that is its point), so not httpRequestWithAuthentication.
		answer = (await this.helpers.httpRequest(probe)) as typeof answer;
	} catch (error) {
		throw classifyRefreshFailure(error);
	}
	discardBody(answer.body);
	if (answer.statusCode >= 300 && answer.statusCode < 400) {
		const where = redirectTarget(headerValue(answer.headers ?? {}, 'location'), tokenUrl);
		throw new RefreshError('redirect', `the Token URL answered HTTP ${answer.statusCode}, a redirect to ${where}`, `HTTP ${answer.statusCode}`);
	}
	try {
		return (await this.helpers.refreshOAuth2Token.call(this, DELEGATED_CREDENTIAL)) as unknown;
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
			message: `${operation} failed: the access token expired and ${error.message}; the refresh was not sent`,
			description:
				"A refresh follows redirects and would carry the client secret and refresh token there. If the token endpoint has moved, set its new address as the credential's Token URL and reconnect.",
			code: error.code,
		};
	}
	return {
		message: `${operation} failed: the access token expired and refreshing it failed: ${error.message}`,
		description: "Check the credential's Token URL (or Environment), Client ID and Client Secret; if they are right, reconnect the credential.",
		code: error.code,
	};
}
