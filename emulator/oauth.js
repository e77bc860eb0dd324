'use strict';

/**
 * OAuth 2.0 authorization server state (RFC 6749, Authorization Code grant with refresh tokens; no
 * client credentials grant, as the service). Registered clients, sign-in users, authorization codes,
 * access and refresh tokens, and counters of grants and errors for tests.
 *
 * Choices where the service publishes nothing (documented in emulator/README.md):
 *  - refresh tokens rotate (config `oauthRotateRefreshTokens`, default true): a refresh_token grant
 *    answers a new refresh token and the old one stops working (invalid_grant);
 *  - with `oauthRevokeOnReuse` (default false), reusing a rotated refresh token also revokes every
 *    access and refresh token of its sign-in (counted in `reuse`), as servers with reuse detection do;
 *  - refresh tokens do not expire; access tokens live `oauthAccessTokenSeconds` (default 3600),
 *    codes `oauthCodeSeconds` (600), both on the emulator clock;
 *  - a code used twice is refused (invalid_grant) and the tokens issued from it are revoked (RFC 6749 4.1.2);
 *  - PKCE (code_challenge S256/plain) is honoured when the client sends it.
 * @module emulator/oauth
 */

const crypto = require('node:crypto');

/** Defaults of the OAuth switches in `emu.config`. */
const OAUTH_DEFAULTS = Object.freeze({
	oauthAccessTokenSeconds: 3600,
	oauthCodeSeconds: 600,
	oauthRotateRefreshTokens: true,
	/** Reusing a rotated refresh token revokes every token of its sign-in (RFC 9700 4.14.2 reuse detection); a guess, off by default. */
	oauthRevokeOnReuse: false,
	/** GET /v1/account/accountInformation lists the active registrations after the account's own company (routes/account.js). */
	accountListsRegistrations: false,
});

/** The client registered at start unless options say otherwise (n8n's default callback on port 5678). */
const DEFAULT_CLIENT = Object.freeze({
	clientId: 'emu-oauth-client',
	clientSecret: 'emu-oauth-client-secret',
	redirectUris: Object.freeze(['http://localhost:5678/rest/oauth2-credential/callback', 'http://127.0.0.1:5678/rest/oauth2-credential/callback']),
});

/** Password of the default sign-in users (one per account, login = the account's e-mail). */
const DEFAULT_PASSWORD = 'emulator';

/**
 * @typedef {{ clientId: string, clientSecret: string, redirectUris: string[] }} OAuthClient
 * @typedef {{ email: string, password: string, apiKey: string }} OAuthUser
 * @typedef {{ grantId: number, clientId: string, apiKey: string, redirectUri: string | null, expiresAt: number, used: boolean,
 *   challenge: { value: string, method: 'S256'|'plain' } | null }} CodeRecord
 * @typedef {{ grantId: number, clientId: string, apiKey: string, expiresAt: number, revoked: boolean }} AccessRecord
 * @typedef {{ grantId: number, clientId: string, apiKey: string, active: boolean, reason?: string }} RefreshRecord
 * @typedef {{ error: string, description: string, status?: number }} OAuthErrorShape
 */

class OAuthError extends Error {
	/** @param {string} error RFC 6749 error code @param {string} description @param {number} [status] */
	constructor(error, description, status = 400) {
		super(description);
		this.error = error;
		this.status = status;
	}
}

const token = (/** @type {string} */ prefix) => `${prefix}_${crypto.randomBytes(24).toString('base64url')}`;

/** @param {string} a @param {string} b constant-time string compare */
function same(a, b) {
	const x = Buffer.from(String(a));
	const y = Buffer.from(String(b));
	return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** @param {unknown} v */
function checkUrl(v) {
	let u;
	try {
		u = new URL(String(v));
	} catch {
		throw new TypeError(`redirect URI '${String(v)}' is not an absolute URL`);
	}
	if (u.hash) throw new TypeError(`redirect URI '${String(v)}' must not have a fragment`);
	return String(v);
}

/** Counters of the authorization server, for tests ("exactly one refresh_token grant"). */
function freshCounters() {
	return {
		/** successful token grants by grant_type */
		grants: { authorization_code: 0, refresh_token: 0 },
		/** token endpoint errors by RFC 6749 error code */
		errors: /** @type {Record<string, number>} */ ({}),
		/** consent page decisions */
		consent: { allow: 0, deny: 0, badLogin: 0 },
		/** rotated refresh tokens used again (each revoked its sign-in when oauthRevokeOnReuse is on) */
		reuse: 0,
		/** Bearer-authenticated API calls: accepted, and refused by reason */
		bearer: { ok: 0, expired: 0, invalid: 0, revoked: 0 },
	};
}

class OAuthServer {
	/**
	 * @param {{ config: Record<string, any>, clock: import('./util').Clock }} s
	 * @param {{ clients?: Array<Partial<OAuthClient>>, users: OAuthUser[] }} o
	 */
	constructor(s, o) {
		this.s = s;
		/** @type {Map<string, OAuthClient>} */
		this.clients = new Map();
		for (const c of o.clients || [/** @type {any} */ (DEFAULT_CLIENT)]) this.addClient(c);
		/** @type {Map<string, OAuthUser>} by lower-case e-mail */
		this.users = new Map(o.users.map((u) => [u.email.toLowerCase(), { ...u }]));
		/** @type {Map<string, CodeRecord>} */
		this.codes = new Map();
		/** @type {Map<string, AccessRecord>} */
		this.access = new Map();
		/** @type {Map<string, RefreshRecord>} */
		this.refresh = new Map();
		this.grantSeq = 0;
		this.counters = freshCounters();
	}

	resetStats() {
		this.counters = freshCounters();
	}

	/** @returns {ReturnType<typeof freshCounters>} a copy */
	stats() {
		return JSON.parse(JSON.stringify(this.counters));
	}

	/** Register or replace a client. @param {Partial<OAuthClient> & Record<string, any>} c accepts clientId/client_id spellings */
	addClient(c) {
		const clientId = c.clientId ?? c.client_id;
		const clientSecret = c.clientSecret ?? c.client_secret;
		const uris = c.redirectUris ?? c.redirect_uris;
		if (typeof clientId !== 'string' || !clientId.trim()) throw new TypeError('clientId is required');
		if (typeof clientSecret !== 'string' || !clientSecret) throw new TypeError('clientSecret is required');
		if (!Array.isArray(uris) || !uris.length) throw new TypeError('redirectUris must be a non-empty array of absolute URLs');
		/** @type {OAuthClient} */
		const client = { clientId, clientSecret, redirectUris: uris.map(checkUrl) };
		this.clients.set(clientId, client);
		return { clientId, redirectUris: [...client.redirectUris] };
	}

	/** @param {string} clientId */
	removeClient(clientId) {
		return this.clients.delete(clientId);
	}

	/**
	 * Check an authorization request's client and redirect URI. Failures here must NOT redirect
	 * (RFC 6749 4.1.2.1): the caller shows an error page.
	 * @param {string | null} clientId @param {string | null} redirectUri
	 * @returns {{ client: OAuthClient, redirectUri: string, given: boolean }}
	 */
	checkAuthorizeRequest(clientId, redirectUri) {
		if (!clientId) throw new OAuthError('invalid_request', 'client_id is missing');
		const client = this.clients.get(clientId);
		if (!client) throw new OAuthError('invalid_client', `Unknown client_id '${clientId}'`);
		if (redirectUri === null || redirectUri === '') {
			if (client.redirectUris.length === 1) return { client, redirectUri: client.redirectUris[0], given: false };
			throw new OAuthError('invalid_request', 'redirect_uri is missing and the client has more than one registered');
		}
		// Strict: the exact string registered, no prefix, case or trailing-slash leniency.
		if (!client.redirectUris.includes(redirectUri))
			throw new OAuthError('invalid_request', `redirect_uri '${redirectUri}' is not registered for client '${clientId}'`);
		return { client, redirectUri, given: true };
	}

	/** @param {string} email @param {string} password @returns {OAuthUser | null} */
	signIn(email, password) {
		const u = this.users.get(
			String(email || '')
				.trim()
				.toLowerCase(),
		);
		return u && same(password, u.password) ? u : null;
	}

	/**
	 * Issue an authorization code after consent.
	 * @param {{ client: OAuthClient, redirectUri: string, given: boolean }} req @param {OAuthUser} user
	 * @param {{ value: string, method: 'S256'|'plain' } | null} challenge
	 */
	issueCode(req, user, challenge) {
		const code = token('emu_code');
		this.codes.set(code, {
			grantId: ++this.grantSeq,
			clientId: req.client.clientId,
			apiKey: user.apiKey,
			redirectUri: req.given ? req.redirectUri : null,
			expiresAt: this.now() + Number(this.s.config.oauthCodeSeconds) * 1000,
			used: false,
			challenge,
		});
		return code;
	}

	now() {
		return this.s.clock.now().getTime();
	}

	/**
	 * Authenticate the client of a token request (HTTP Basic or client_id/client_secret form parameters).
	 * @param {URLSearchParams} form @param {string | undefined} authorization
	 * @returns {OAuthClient}
	 */
	authenticateClient(form, authorization) {
		const basic = /^basic\s+(.+)$/i.exec(String(authorization || '').trim());
		if (basic) {
			if (form.has('client_secret'))
				throw new OAuthError('invalid_request', 'Use one client authentication method: HTTP Basic or client_secret in the body, not both');
			const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
			const colon = decoded.indexOf(':');
			if (colon < 0) throw new OAuthError('invalid_client', 'Malformed HTTP Basic client credentials', 401);
			const id = decoded.slice(0, colon);
			const secret = decoded.slice(colon + 1);
			// RFC 6749 2.3.1 form-encodes both before Basic; many clients (n8n's too) do not: accept either.
			const client = [
				[id, secret],
				[safeDecode(id), safeDecode(secret)],
			]
				.map(([i, sec]) => ({ c: this.clients.get(i), sec }))
				.find(({ c, sec }) => c && same(sec, c.clientSecret));
			if (!client || !client.c) throw new OAuthError('invalid_client', 'Client authentication failed: unknown client or wrong secret', 401);
			const bodyId = form.get('client_id');
			if (bodyId !== null && bodyId !== client.c.clientId)
				throw new OAuthError('invalid_client', 'client_id in the body does not match the HTTP Basic client', 401);
			return client.c;
		}
		const id = form.get('client_id');
		const secret = form.get('client_secret');
		if (!id) throw new OAuthError('invalid_client', 'Client authentication failed: no client credentials (HTTP Basic or client_id/client_secret)', 401);
		const client = this.clients.get(id);
		if (!client || secret === null || !same(secret, client.clientSecret))
			throw new OAuthError('invalid_client', 'Client authentication failed: unknown client or wrong secret', 401);
		return client;
	}

	/**
	 * The token endpoint's work after parsing: returns the JSON answer or throws OAuthError.
	 * @param {URLSearchParams} form @param {string | undefined} authorization
	 */
	token(form, authorization) {
		for (const k of ['grant_type', 'code', 'redirect_uri', 'refresh_token', 'client_id', 'client_secret', 'code_verifier'])
			if (form.getAll(k).length > 1) throw new OAuthError('invalid_request', `Parameter ${k} is repeated`);
		const client = this.authenticateClient(form, authorization);
		const grantType = form.get('grant_type');
		if (!grantType) throw new OAuthError('invalid_request', 'grant_type is missing');
		let out;
		if (grantType === 'authorization_code') out = this.codeGrant(client, form);
		else if (grantType === 'refresh_token') out = this.refreshGrant(client, form);
		else throw new OAuthError('unsupported_grant_type', `grant_type '${grantType}' is not supported (authorization_code, refresh_token)`);
		this.counters.grants[/** @type {'authorization_code'} */ (grantType)]++;
		return out;
	}

	/** @param {OAuthError} e count a token endpoint error */
	countError(e) {
		this.counters.errors[e.error] = (this.counters.errors[e.error] || 0) + 1;
	}

	/** @param {OAuthClient} client @param {URLSearchParams} form */
	codeGrant(client, form) {
		const code = form.get('code');
		if (!code) throw new OAuthError('invalid_request', 'code is missing');
		const rec = this.codes.get(code);
		if (!rec) throw new OAuthError('invalid_grant', 'The authorization code is not valid');
		if (rec.clientId !== client.clientId) throw new OAuthError('invalid_grant', 'The authorization code was issued to another client');
		if (rec.used) {
			this.revokeGrant(rec.grantId, 'authorization code reused');
			throw new OAuthError('invalid_grant', 'The authorization code has already been used; tokens issued from it are revoked');
		}
		if (this.now() >= rec.expiresAt) throw new OAuthError('invalid_grant', 'The authorization code has expired');
		const redirectUri = form.get('redirect_uri');
		if (rec.redirectUri !== null && redirectUri !== rec.redirectUri)
			throw new OAuthError('invalid_grant', 'redirect_uri does not match the one of the authorization request');
		if (rec.challenge) {
			const verifier = form.get('code_verifier');
			if (!verifier) throw new OAuthError('invalid_grant', 'code_verifier is missing (the authorization request used PKCE)');
			const computed = rec.challenge.method === 'S256' ? crypto.createHash('sha256').update(verifier).digest('base64url') : verifier;
			if (!same(computed, rec.challenge.value)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
		}
		rec.used = true;
		return this.issueTokens(rec.grantId, client.clientId, rec.apiKey, null);
	}

	/** @param {OAuthClient} client @param {URLSearchParams} form */
	refreshGrant(client, form) {
		const rt = form.get('refresh_token');
		if (!rt) throw new OAuthError('invalid_request', 'refresh_token is missing');
		const rec = this.refresh.get(rt);
		if (!rec) throw new OAuthError('invalid_grant', 'The refresh token is not valid');
		if (rec.clientId !== client.clientId) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client');
		if (!rec.active && /^rotated/.test(rec.reason || '')) {
			this.counters.reuse++;
			if (this.s.config.oauthRevokeOnReuse) this.revokeGrant(rec.grantId, 'a rotated refresh token was used again: every token of the sign-in is revoked');
		}
		if (!rec.active) throw new OAuthError('invalid_grant', `The refresh token is no longer valid (${rec.reason || 'revoked'}); sign in again`);
		const rotate = this.s.config.oauthRotateRefreshTokens !== false;
		if (rotate) Object.assign(rec, { active: false, reason: 'rotated: a newer refresh token was issued' });
		return this.issueTokens(rec.grantId, client.clientId, rec.apiKey, rotate ? null : rt);
	}

	/**
	 * @param {number} grantId @param {string} clientId @param {string} apiKey @param {string | null} keepRefresh
	 */
	issueTokens(grantId, clientId, apiKey, keepRefresh) {
		this.prune();
		const lifetime = Math.max(1, Number(this.s.config.oauthAccessTokenSeconds) || 3600);
		const accessToken = token('emu_at');
		this.access.set(accessToken, { grantId, clientId, apiKey, expiresAt: this.now() + lifetime * 1000, revoked: false });
		let refreshToken = keepRefresh;
		if (!refreshToken) {
			refreshToken = token('emu_rt');
			this.refresh.set(refreshToken, { grantId, clientId, apiKey, active: true });
		}
		return { access_token: accessToken, token_type: 'Bearer', expires_in: lifetime, refresh_token: refreshToken };
	}

	/** Drop expired access tokens and used codes once the maps grow, so a long session stays bounded. */
	prune() {
		const now = this.now();
		if (this.access.size > 1000) for (const [k, v] of this.access) if (v.expiresAt <= now) this.access.delete(k);
		if (this.codes.size > 1000) for (const [k, v] of this.codes) if (v.expiresAt <= now) this.codes.delete(k);
	}

	/**
	 * Validate a Bearer token.
	 * @param {string} accessToken
	 * @returns {{ ok: true, apiKey: string } | { ok: false, reason: 'invalid'|'expired'|'revoked', description: string }}
	 */
	check(accessToken) {
		const rec = this.access.get(accessToken);
		if (!rec) {
			this.counters.bearer.invalid++;
			return { ok: false, reason: 'invalid', description: 'The access token is not valid' };
		}
		if (rec.revoked) {
			this.counters.bearer.revoked++;
			return { ok: false, reason: 'revoked', description: 'The access token has been revoked' };
		}
		if (this.now() >= rec.expiresAt) {
			this.counters.bearer.expired++;
			return { ok: false, reason: 'expired', description: 'The access token has expired' };
		}
		this.counters.bearer.ok++;
		return { ok: true, apiKey: rec.apiKey };
	}

	/** @param {number} grantId @param {string} reason @param {boolean} [accessToo] */
	revokeGrant(grantId, reason, accessToo = true) {
		let n = 0;
		for (const r of this.refresh.values()) {
			if (r.grantId === grantId && r.active) {
				Object.assign(r, { active: false, reason });
				n++;
			}
		}
		if (accessToo) for (const a of this.access.values()) if (a.grantId === grantId) a.revoked = true;
		return n;
	}

	/**
	 * Revoke refresh tokens (and, unless keepAccessTokens, the access tokens of the same sign-in):
	 * one token, every token of a client, or all.
	 * @param {{ refreshToken?: string, clientId?: string, keepAccessTokens?: boolean }} [o]
	 * @returns {number} refresh tokens revoked
	 */
	revoke(o = {}) {
		const grants = new Set();
		for (const [t, r] of this.refresh) {
			if (!r.active) continue;
			if (o.refreshToken !== undefined && t !== o.refreshToken) continue;
			if (o.clientId !== undefined && r.clientId !== o.clientId) continue;
			grants.add(r.grantId);
		}
		let n = 0;
		for (const g of grants) n += this.revokeGrant(g, 'revoked by the emulator control', !o.keepAccessTokens);
		return n;
	}
}

/** @param {string} s */
function safeDecode(s) {
	try {
		return decodeURIComponent(s.replace(/\+/g, ' '));
	} catch {
		return s;
	}
}

module.exports = { OAuthServer, OAuthError, OAUTH_DEFAULTS, DEFAULT_CLIENT, DEFAULT_PASSWORD };
