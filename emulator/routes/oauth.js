'use strict';

/**
 * OAuth 2.0 pages and endpoints of the authorization server (see emulator/oauth.js for the state):
 *  - GET  /Account/Logon?client_id=..&redirect_uri=..&state=..[&response_type=code][&code_challenge=..]
 *         the sign-in and consent page (documented path); an HTML form with Allow and Deny buttons
 *  - POST /Account/Logon   the form's submission: Allow redirects with code=..&state=.., Deny with
 *         error=access_denied&state=..; a wrong e-mail or password shows the form again
 *  - POST /OAuth2/token    token endpoint, form-encoded or JSON body: authorization_code and refresh_token grants,
 *         client authentication by HTTP Basic or client_id/client_secret, RFC 6749 errors
 * An unknown client or a redirect URI that is not registered exactly gets an error page, never a
 * redirect (RFC 6749 4.1.2.1).
 * @module emulator/routes/oauth
 */

const { ApiError, page, escapeHtml } = require('../util');
const { OAuthError } = require('../oauth');

/** @typedef {import('../server').Ctx} Ctx */

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/**
 * The token request's parameters: form-urlencoded, or a JSON object of strings (the service's page "How do I get started
 * with OAuth" sends JSON; its OpenAPI document accepts both).
 * @param {Ctx} ctx @returns {URLSearchParams}
 */
function tokenParams(ctx) {
	const type = String(ctx.header('content-type') || '').toLowerCase();
	if (type.startsWith('application/x-www-form-urlencoded')) return new URLSearchParams(ctx.raw || '');
	if (!/^application\/([\w.+-]+\+)?json\b/.test(type))
		throw new OAuthError('invalid_request', 'The request body must be application/json or application/x-www-form-urlencoded');
	let body;
	try {
		body = JSON.parse(ctx.raw || '');
	} catch {
		throw new OAuthError('invalid_request', 'The request body is not valid JSON');
	}
	if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_request', 'The request body must be a JSON object');
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(body)) {
		if (typeof value !== 'string') throw new OAuthError('invalid_request', `Parameter ${key} must be a string`);
		params.append(key, value);
	}
	return params;
}

/**
 * Append parameters to a registered redirect URI, keeping its own query.
 * @param {string} uri @param {Record<string, string | null | undefined>} params
 */
function redirectTo(uri, params) {
	const u = new URL(uri);
	for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) u.searchParams.set(k, v);
	return {
		status: 302,
		headers: { location: u.toString(), ...NO_STORE },
		html: page('Redirecting', `<p><a href="${escapeHtml(u.toString())}">Continue</a></p>`),
	};
}

/** @param {OAuthError} e */
const errorPage = (e) => ({
	status: 400,
	html: page(
		'Sign-in request refused',
		`<p id="error" data-error="${escapeHtml(e.error)}">${escapeHtml(e.message)}</p><p>The application that sent you here is not set up correctly.</p>`,
	),
});

/**
 * The sign-in and consent form. Fields are prefilled with the first user so a headless browser only
 * has to click Allow.
 * @param {Ctx} ctx @param {Record<string, string>} hidden @param {string} clientId @param {{ email?: string, error?: string }} [o]
 */
function consentForm(ctx, hidden, clientId, o = {}) {
	const first = ctx.emu.oauth.users.values().next().value;
	const email = o.email !== undefined ? o.email : first ? first.email : '';
	const password = o.email === undefined && first ? first.password : '';
	const fields = Object.entries(hidden)
		.map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
		.join('');
	return {
		status: 200,
		headers: NO_STORE,
		html: page(
			'Sign in to the access point',
			`${o.error ? `<p id="error" style="color:#b00">${escapeHtml(o.error)}</p>` : ''}` +
				`<p>The application <strong id="client">${escapeHtml(clientId)}</strong> asks to act on your account.</p>` +
				`<form id="logon" method="post" action="/Account/Logon">${fields}` +
				`<p><label>E-mail <input id="email" name="email" type="email" value="${escapeHtml(email)}"></label></p>` +
				`<p><label>Password <input id="password" name="password" type="password" value="${escapeHtml(password)}"></label></p>` +
				`<p><button id="allow" type="submit" name="decision" value="allow">Allow</button> ` +
				`<button id="deny" type="submit" name="decision" value="deny">Deny</button></p></form>`,
		),
	};
}

const PASS_THROUGH = ['client_id', 'redirect_uri', 'state', 'response_type', 'scope', 'code_challenge', 'code_challenge_method'];

/**
 * Shared checks of the authorization request (query of the GET, fields of the POST).
 * @param {Ctx} ctx @param {URLSearchParams} p
 */
function authorizeRequest(ctx, p) {
	const req = ctx.emu.oauth.checkAuthorizeRequest(p.get('client_id'), p.get('redirect_uri'));
	const state = p.get('state');
	/** @type {Record<string, string>} */
	const hidden = {};
	for (const k of PASS_THROUGH) {
		const v = p.get(k);
		if (v !== null) hidden[k] = v;
	}
	const rt = p.get('response_type');
	if (rt !== null && rt !== 'code')
		return {
			req,
			state,
			hidden,
			early: redirectTo(req.redirectUri, { error: 'unsupported_response_type', error_description: 'Only response_type=code is supported', state }),
		};
	const challenge = p.get('code_challenge');
	const method = p.get('code_challenge_method') || 'plain';
	if (challenge !== null && method !== 'S256' && method !== 'plain')
		return {
			req,
			state,
			hidden,
			early: redirectTo(req.redirectUri, { error: 'invalid_request', error_description: 'code_challenge_method must be S256 or plain', state }),
		};
	return { req, state, hidden, early: null, challenge: challenge ? { value: challenge, method: /** @type {'S256'|'plain'} */ (method) } : null };
}

/** GET /Account/Logon @param {Ctx} ctx */
function logonPage(ctx) {
	try {
		const a = authorizeRequest(ctx, ctx.query);
		return a.early || consentForm(ctx, a.hidden, a.req.client.clientId);
	} catch (e) {
		if (e instanceof OAuthError) return errorPage(e);
		throw e;
	}
}

/** POST /Account/Logon (the form) @param {Ctx} ctx */
function logonSubmit(ctx) {
	const p = new URLSearchParams(ctx.raw || '');
	const oauth = ctx.emu.oauth;
	let a;
	try {
		a = authorizeRequest(ctx, p);
	} catch (e) {
		if (e instanceof OAuthError) return errorPage(e);
		throw e;
	}
	if (a.early) return a.early;
	if (p.get('decision') !== 'allow') {
		oauth.counters.consent.deny++;
		return redirectTo(a.req.redirectUri, { error: 'access_denied', error_description: 'The user refused access', state: a.state });
	}
	const user = oauth.signIn(p.get('email') || '', p.get('password') || '');
	if (!user) {
		oauth.counters.consent.badLogin++;
		return consentForm(ctx, a.hidden, a.req.client.clientId, { email: p.get('email') || '', error: 'Wrong e-mail address or password.' });
	}
	oauth.counters.consent.allow++;
	const code = oauth.issueCode(a.req, user, a.challenge || null);
	return redirectTo(a.req.redirectUri, { code, state: a.state });
}

/** POST /OAuth2/token @param {Ctx} ctx */
function tokenEndpoint(ctx) {
	const authorization = ctx.header('authorization');
	try {
		return { status: 200, headers: NO_STORE, body: ctx.emu.oauth.token(tokenParams(ctx), authorization) };
	} catch (e) {
		if (!(e instanceof OAuthError)) throw e;
		ctx.emu.oauth.countError(e);
		/** @type {Record<string, string>} */
		const headers = { ...NO_STORE };
		if (e.status === 401 && /^basic\s/i.test(String(authorization || ''))) headers['www-authenticate'] = 'Basic realm="access-point-emulator"';
		return { status: e.status, headers, body: { error: e.error, error_description: e.message } };
	}
}

/**
 * The account of an `Authorization: Bearer <token>` call, or undefined when the call carries no Bearer
 * token (then the apikey header applies). A bad token is a 401 in the service's error shape, with
 * RFC 6750's WWW-Authenticate header so OAuth clients know to refresh.
 * @param {Ctx} ctx @returns {import('../store').Account | undefined}
 */
function bearerAccount(ctx) {
	const authz = String(ctx.header('authorization') || '').trim();
	const m = /^bearer(?:\s+(.*))?$/i.exec(authz);
	if (!m) return undefined;
	const value = (m[1] || '').trim();
	const r = ctx.emu.oauth.check(value);
	if (r.ok) {
		const account = ctx.emu.store.accounts.get(/** @type {{ apiKey: string }} */ (r).apiKey);
		if (account) return account;
	}
	const description = r.ok ? 'The account of this access token no longer exists' : /** @type {any} */ (r).description;
	const err = new ApiError(401, 'Unauthorized', `${description}; refresh the token or sign in again`);
	/** @type {any} */ (err).headers = {
		'www-authenticate': `Bearer realm="access-point-emulator", error="invalid_token", error_description="${description.replace(/"/g, "'")}"`,
	};
	throw err;
}

/** @type {Array<[string, RegExp, (ctx: Ctx) => any, boolean]>} */
const ROUTES = [
	['GET', /^\/Account\/Logon\/?$/i, logonPage, false],
	['POST', /^\/Account\/Logon\/?$/i, logonSubmit, false],
	['POST', /^\/OAuth2\/token\/?$/i, tokenEndpoint, false],
];

module.exports = { ROUTES, bearerAccount };
