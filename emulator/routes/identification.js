'use strict';

/**
 * Identification (docs/api.md "Identification"): start call and the identity provider pages.
 * @module emulator/routes/identification
 */

const crypto = require('node:crypto');
const { ApiError, badRequest, isoSeconds, page, escapeHtml } = require('../util');
const { ownRegistration } = require('./registrations');

/** @typedef {import('../server').Ctx} Ctx @typedef {import('../store').Session} Session */

const SESSION_MS = 5 * 60 * 1000;
const MAX_ATTEMPTS = 5;

/** @param {Ctx} ctx */
function start(ctx) {
	const pid = ctx.partyId;
	if (ctx.party.kind !== 'master' || !ctx.account.whitelisted) {
		throw new ApiError(
			403,
			'Forbidden',
			`PartyID ${pid} is not whitelisted for identification. The master account must contact support and quote its PartyID ${pid} to be whitelisted.`,
		);
	}
	const reg = ownRegistration(ctx, ctx.params.id);
	if (!reg.Active) throw new ApiError(404, 'GenericError', `Registration ${reg.RegistrationID} is not active (deactivated); register the entity again`);
	const b = ctx.json() || {};
	const code = ctx.emu.config.identificationProviderCode;
	if (!b.IdentificationProviderTC) throw badRequest(`IdentificationProviderTC is required (supported: ${code})`);
	if (b.IdentificationProviderTC !== code) throw badRequest(`Unknown IdentificationProviderTC '${b.IdentificationProviderTC}'; supported: ${code}`);
	let redirect;
	try {
		redirect = new URL(String(b.RedirectURL));
	} catch {
		redirect = null;
	}
	if (!b.RedirectURL || !redirect || (redirect.protocol !== 'http:' && redirect.protocol !== 'https:'))
		throw badRequest('RedirectURL is required and must be an absolute http(s) URL');
	if (reg.IdentificationAttempts >= MAX_ATTEMPTS) throw new ApiError(400, 'TooManyTrials', 'Too many attempts');
	reg.IdentificationAttempts++;
	const token = crypto.randomBytes(16).toString('hex');
	const now = ctx.emu.clock.now().getTime();
	ctx.emu.store.sessions.set(token, {
		token,
		registrationId: reg.RegistrationID,
		apiKey: ctx.account.apiKey,
		redirectUrl: String(b.RedirectURL),
		created: now,
		expires: now + SESSION_MS,
		status: 'open',
	});
	return { status: 200, body: { [ctx.emu.config.identificationUrlField]: `${ctx.emu.url}/provider/${token}` } };
}

/**
 * Append registrationID and success to a URL, keeping its query and fragment.
 * @param {string} url @param {number} registrationId @param {boolean} success
 */
function appendResult(url, registrationId, success) {
	const hashAt = url.indexOf('#');
	const base = hashAt >= 0 ? url.slice(0, hashAt) : url;
	const hash = hashAt >= 0 ? url.slice(hashAt) : '';
	const sep = !base.includes('?') ? '?' : /[?&]$/.test(base) ? '' : '&';
	return `${base}${sep}registrationID=${registrationId}&success=${success}${hash}`;
}

/**
 * The open session for a token, or an HTML answer explaining why there is none.
 * @param {Ctx} ctx @returns {{ session: Session } | { result: { status: number, html: string } }}
 */
function liveSession(ctx) {
	const s = ctx.emu.store.sessions.get(ctx.params.token);
	if (!s) return { result: { status: 404, html: page('Session not found', '<p id="result">This identification link is not valid.</p>') } };
	if (s.status !== 'open')
		return { result: { status: 409, html: page('Already completed', '<p id="result">This identification session has already been completed.</p>') } };
	if (ctx.emu.clock.now().getTime() >= s.expires) {
		return {
			result: { status: 410, html: page('Session expired', '<p id="result">This identification session has expired. Start a new identification.</p>') },
		};
	}
	return { session: s };
}

/** GET /provider/{token}: the provider's page, with a succeed and a fail link. @param {Ctx} ctx */
function providerPage(ctx) {
	const r = liveSession(ctx);
	if ('result' in r) return r.result;
	const base = `${ctx.emu.url}/provider/${encodeURIComponent(r.session.token)}/complete?result=`;
	return {
		status: 200,
		html: page(
			'Identity check',
			`<p>Confirm your identity to continue. The session expires at ${escapeHtml(isoSeconds(r.session.expires))}.</p>` +
				`<p><a id="succeed" href="${escapeHtml(base)}success">Confirm identity</a></p>` +
				`<p><a id="fail" href="${escapeHtml(base)}failure">Cancel</a></p>`,
		),
	};
}

/** GET /provider/{token}/complete?result=success|failure: finish and redirect the browser. @param {Ctx} ctx */
function providerComplete(ctx) {
	const r = liveSession(ctx);
	if ('result' in r) return r.result;
	const s = r.session;
	const result = ctx.query.get('result');
	if (result !== 'success' && result !== 'failure')
		return { status: 400, html: page('Invalid request', '<p id="result">result must be success or failure.</p>') };
	const reg = ctx.emu.store.registrations.get(s.registrationId);
	let host = '';
	try {
		host = new URL(s.redirectUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
	} catch {
		host = '';
	}
	const allowed = (ctx.emu.config.allowedRedirectHosts || []).map((/** @type {string} */ h) => String(h).toLowerCase());
	const at = isoSeconds(ctx.emu.clock.now());
	if (!allowed.includes('*') && !allowed.includes(host)) {
		s.status = 'invalid_redirect';
		if (reg) reg.LastIdentification = { Result: 'invalid_redirect', Date: at };
		return { status: 302, headers: { location: `${ctx.emu.url}/provider/error?error=invalid_redirect` }, raw: '' };
	}
	const success = result === 'success';
	s.status = success ? 'success' : 'failure';
	if (reg) {
		if (success) reg.Identified = true;
		reg.LastIdentification = { Result: s.status, Date: at };
	}
	return { status: 302, headers: { location: appendResult(s.redirectUrl, s.registrationId, success) }, raw: '' };
}

/** GET /provider/error: the provider's error page. @param {Ctx} ctx */
function providerError(ctx) {
	const err = ctx.query.get('error') || 'unknown_error';
	return { status: 400, html: page('Identification error', `<p id="result">The identification could not be completed: <code>${escapeHtml(err)}</code>.</p>`) };
}

module.exports = { start, providerPage, providerComplete, providerError, appendResult, SESSION_MS, MAX_ATTEMPTS };
