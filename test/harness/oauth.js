// @ts-check
'use strict';
/**
 * An accessPointOAuth2Api credential with real tokens, obtained the way n8n obtains them: the
 * emulator's sign-in and consent page is fetched and its form submitted (Allow), the code from
 * the redirect is exchanged at the token endpoint with the client id and secret in the form (the
 * credential's `authentication: 'body'`). What the token endpoint answers is what n8n stores as
 * the credential's `oauthTokenData`. Nothing of n8n's OAuth controller is involved: the tests
 * check what the nodes do with the tokens, the e2e checks n8n's Connect button.
 */

/** The OAuth2 credential type of this package. */
const OAUTH2_CREDENTIAL_TYPE = 'accessPointOAuth2Api';

/**
 * @typedef {object} OAuthEmulator what connectOAuth needs of emulator/index.js's emulator
 * @property {string} url
 * @property {{ authorizeUrl: string, tokenUrl: string, client: { clientId: string, clientSecret: string, redirectUris: string[] } }} oauth
 */

/**
 * @typedef {object} ConnectOptions
 * @property {string} [redirectUri] a URI registered for the client (default: its first)
 * @property {string} [state]
 * @property {Record<string, string>} [signIn] form fields to change (email, password)
 */

/** @param {string} s */
const unescapeHtml = (s) =>
	s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => /** @type {Record<string, string>} */ ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]);

/**
 * The fields a browser submits from the page's form: hidden ones and the prefilled sign-in.
 * @param {string} html
 * @returns {Record<string, string>}
 */
function formFields(html) {
	/** @type {Record<string, string>} */
	const out = {};
	for (const m of html.matchAll(/<input ([^>]*)>/g)) {
		const name = /name="([^"]*)"/.exec(m[1]);
		const value = /value="([^"]*)"/.exec(m[1]);
		if (name) out[unescapeHtml(name[1])] = value ? unescapeHtml(value[1]) : '';
	}
	return out;
}

/**
 * Signs in on the consent page, allows, and exchanges the code: resolves with the token answer.
 * @param {OAuthEmulator} emulator
 * @param {ConnectOptions} [options]
 * @returns {Promise<Record<string, unknown>>}
 */
async function connectOAuth(emulator, options = {}) {
	const { clientId, clientSecret, redirectUris } = emulator.oauth.client;
	const redirectUri = options.redirectUri || redirectUris[0];
	const state = options.state || `harness-${Date.now()}`;
	const query = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, state, response_type: 'code' });
	const page = await fetch(`${emulator.oauth.authorizeUrl}?${query.toString()}`);
	const html = await page.text();
	if (page.status !== 200) throw new Error(`[harness] the consent page answered HTTP ${page.status}`);
	const fields = { ...formFields(html), ...(options.signIn || {}), decision: 'allow' };
	const allowed = await fetch(`${emulator.url}/Account/Logon`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields).toString(),
		redirect: 'manual',
	});
	const location = allowed.headers.get('location');
	if (allowed.status !== 302 || !location) throw new Error(`[harness] Allow answered HTTP ${allowed.status} without a redirect`);
	const back = new URL(location);
	const code = back.searchParams.get('code');
	if (!code || back.searchParams.get('state') !== state) throw new Error(`[harness] the redirect carried no code for our state: ${back.search}`);
	const token = await fetch(emulator.oauth.tokenUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
		body: new URLSearchParams({
			grant_type: 'authorization_code',
			code,
			redirect_uri: redirectUri,
			client_id: clientId,
			client_secret: clientSecret,
		}).toString(),
	});
	const data = /** @type {Record<string, unknown>} */ (await token.json());
	if (token.status !== 200 || typeof data.access_token !== 'string')
		throw new Error(`[harness] the code exchange answered HTTP ${token.status}: ${JSON.stringify(data.error)}`);
	return data;
}

/**
 * The credential's data as n8n holds it after Connect: environment Custom on the emulator, the
 * client of the emulator, the token answer as oauthTokenData; `extra` merged over it.
 * @param {OAuthEmulator} emulator
 * @param {Record<string, unknown>} tokenData
 * @param {Record<string, unknown>} [extra]
 * @returns {import('n8n-workflow').IDataObject}
 */
function oauthCredentialData(emulator, tokenData, extra = {}) {
	const { clientId, clientSecret } = emulator.oauth.client;
	return /** @type {import('n8n-workflow').IDataObject} */ ({
		environment: 'custom',
		baseUrl: emulator.url,
		clientId,
		clientSecret,
		partyId: '',
		oauthTokenData: tokenData,
		...extra,
	});
}

/**
 * The anchors GitHub gives the README's headings (lower case, punctuation dropped, spaces as
 * hyphens), for the credentials' documentation links.
 * @returns {string[]}
 */
function readmeAnchors() {
	const text = require('node:fs').readFileSync(require('node:path').join(__dirname, '..', '..', 'README.md'), 'utf8');
	return text
		.split('\n')
		.filter((line) => /^#{1,6} /.test(line))
		.map((line) =>
			line
				.replace(/^#+ /, '')
				.trim()
				.toLowerCase()
				.replace(/[^\p{L}\p{N} _-]/gu, '')
				.replace(/ /g, '-'),
		);
}

module.exports = { OAUTH2_CREDENTIAL_TYPE, connectOAuth, oauthCredentialData, formFields, readmeAnchors };
