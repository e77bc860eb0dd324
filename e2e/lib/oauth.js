'use strict';
/**
 * The OAuth2 credential in the real n8n (issue 22), in the browser as a user meets it:
 *
 *  1. the emulator's OAuth client gets n8n's callback (<n8n>/rest/oauth2-credential/callback) as
 *     its redirect URI, and access tokens that live TOKEN_SECONDS;
 *  2. an "AccessPoint Sign-In OAuth2 API" credential (environment Custom on the emulator, client id
 *     and secret, Party ID EMPTY) is created through REST and opened in the editor; the form must
 *     show that callback as its OAuth Redirect URL;
 *  3. *Connect my account* opens the emulator's sign-in and consent page in a popup; *Allow*
 *     sends the browser back to n8n, which exchanges the code; the form shows "Account
 *     connected" (screenshot) and the emulator counted one authorization_code grant;
 *  4. n8n's credential test API runs the credential's test (GET /v1/account/accountInformation
 *     with the Bearer token); the API key credential's Test with a wrong key answers its 401 rule
 *     (what to check);
 *  5. a template (the daily order export, its Schedule Trigger swapped for a Manual Trigger, every
 *     AccessPoint node on Authentication OAuth2 with this credential) is run from the editor's
 *     Execute button and must succeed, its requests reaching the emulator with the Bearer token;
 *     with the Party ID empty, the node reads the account information (the service's published
 *     shape: no top-level PartyID, one company) and acts for that company;
 *  6. once the access token has expired, the same run again: it must succeed, and the emulator
 *     (reuse detection on: a rotated refresh token used again revokes the sign-in) must have seen
 *     an expired token and exactly one refresh_token grant, n8n's OAuth client's, which stores the tokens;
 *  7. the same run at once: it must use the stored token (no refresh, no expired token).
 *
 * checkOAuth({ page, rest, baseUrl, emulator, artifactsDir, log }) -> { problems, lines, counts }
 * `page`: a logged-in editor page; `rest`: a logged-in e2e/lib/n8n.js Rest; `emulator`: the
 * in-process emulator (emulator/index.js) the n8n under test can reach. Nothing is left running:
 * the popup closes itself, the credential and workflow stay in n8n (the caller's user folder).
 */
const path = require('node:path');

const { CREDENTIAL_BLANKING_VALUE } = require('n8n-workflow');

const T = require('./templates');

const TOKEN_SECONDS = 20;
const CLIENT = Object.freeze({ clientId: 'e2e-n8n-oauth-client', clientSecret: 'e2e-n8n-oauth-client-secret-4f1c9a' });
const CREDENTIAL_TYPE = 'accessPointOAuth2Api';
const CREDENTIAL_NAME = 'AccessPoint OAuth2 (e2e)';
const TEMPLATE = 'daily-order-export.json';
const SEL = {
	dialog: '[data-test-id="credential-edit-dialog"]',
	connected: '[data-test-id="oauth-connect-success-banner"]',
	execute: '[data-test-id="execute-workflow-button"]',
	canvasNode: '[data-test-id="canvas-node"]',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The template as the OAuth2 user has it: Manual Trigger instead of the schedule, our nodes on OAuth2 with the credential. */
function oauthWorkflow(template, credential) {
	const wf = JSON.parse(JSON.stringify(template.workflow));
	const schedule = wf.nodes.find((n) => n.type === 'n8n-nodes-base.scheduleTrigger');
	if (schedule) {
		schedule.type = 'n8n-nodes-base.manualTrigger';
		schedule.typeVersion = 1;
		schedule.parameters = {};
	}
	for (const node of wf.nodes) {
		if (!T.isOurs(node)) continue;
		node.parameters = { ...node.parameters, authentication: 'oAuth2' };
		node.credentials = { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
	}
	return { name: `[e2e] ${wf.name} (OAuth2)`, nodes: wf.nodes, connections: wf.connections, settings: { executionOrder: 'v1', ...(wf.settings || {}) } };
}

/** Newest execution of a workflow with one of the statuses, its data parsed (n8n stores it with flatted). */
async function waitForExecution(rest, workflowId, { after, timeoutMs }) {
	const { parse } = require('flatted');
	const until = Date.now() + timeoutMs;
	let last;
	while (Date.now() < until) {
		const list = await rest.get(`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
		const rows = (list && (list.results || list)) || [];
		last = rows.find((r) => !after.has(String(r.id)));
		if (last && ['success', 'error', 'crashed', 'canceled'].includes(last.status)) {
			const full = await rest.get(`/rest/executions/${last.id}`);
			const data = typeof full.data === 'string' ? parse(full.data) : full.data;
			return { ...full, data };
		}
		await sleep(1000);
	}
	throw new Error(`no finished execution of workflow ${workflowId} within ${timeoutMs / 1000} s (last seen: ${last ? `${last.id} ${last.status}` : 'none'})`);
}

async function executionIds(rest, workflowId) {
	const list = await rest.get(`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
	return new Set(((list && (list.results || list)) || []).map((r) => String(r.id)));
}

async function checkOAuth({ page, rest, baseUrl, emulator, artifactsDir, log = () => {} }) {
	const problems = [];
	const lines = [];
	const counts = {};
	const say = (line) => {
		lines.push(line);
		log(line);
	};
	const shot = (name) => path.join(artifactsDir, name);
	const callback = `${baseUrl.replace(/\/+$/, '')}/rest/oauth2-credential/callback`;

	// 1. The service side: n8n's callback registered, short-lived tokens.
	emulator.oauth.addClient({ ...CLIENT, redirectUris: [callback] });
	emulator.config.oauthAccessTokenSeconds = TOKEN_SECONDS;
	emulator.config.oauthRevokeOnReuse = true;
	say(`emulator client "${CLIENT.clientId}" registered with redirect URI ${callback}; access tokens live ${TOKEN_SECONDS} s`);

	// 2. The credential, opened in the editor.
	const credential = await rest.post('/rest/credentials', {
		name: CREDENTIAL_NAME,
		type: CREDENTIAL_TYPE,
		data: { environment: 'custom', baseUrl: emulator.url, clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret, partyId: '' },
	});
	await page.goto(`${baseUrl}/home/credentials/${credential.id}`);
	const dialog = page.locator(SEL.dialog);
	await dialog.waitFor({ timeout: 30000 });
	await page.waitForTimeout(1000);
	const formText = await dialog.innerText();
	if (!formText.includes(callback)) problems.push(`the credential form does not show ${callback} as its OAuth Redirect URL`);
	const fields = ['Client ID', 'Client Secret', 'Environment', 'Base URL', 'Sign-In URL', 'Token URL', 'Party ID'].filter((f) => !formText.includes(f));
	if (fields.length) problems.push(`the credential form lacks ${fields.join(', ')}`);
	await page.screenshot({ path: shot('oauth-credential-form.png') });
	say(
		`credential "${CREDENTIAL_NAME}" (${credential.id}) opened: form shows the redirect URL ${formText.includes(callback) ? callback : '(missing)'} -> oauth-credential-form.png`,
	);

	// 3. Connect: the emulator's consent page in n8n's popup, Allow, back to n8n.
	emulator.oauth.resetStats();
	const connect = dialog.getByRole('button', { name: /^(Connect|Connect my account)$/ }).first();
	const [popup] = await Promise.all([page.context().waitForEvent('page', { timeout: 30000 }), connect.click()]);
	await popup.waitForLoadState('domcontentloaded');
	await popup.locator('#allow').waitFor({ timeout: 30000 });
	const consentUrl = new URL(popup.url());
	await popup.screenshot({ path: shot('oauth-consent.png') });
	say(
		`Connect opened ${consentUrl.origin}${consentUrl.pathname} (client_id ${consentUrl.searchParams.get('client_id')}, redirect_uri ${consentUrl.searchParams.get('redirect_uri')}) -> oauth-consent.png`,
	);
	const closed = popup.waitForEvent('close', { timeout: 30000 }).then(
		() => true,
		() => false,
	);
	await popup.click('#allow');
	const popupClosed = await closed;
	const banner = await dialog
		.locator(SEL.connected)
		.waitFor({ timeout: 30000 })
		.then(
			() => true,
			() => false,
		);
	await page.waitForTimeout(500);
	await page.screenshot({ path: shot('oauth-connected.png') });
	const afterConnect = emulator.oauth.stats();
	counts.authorizationCodeGrants = afterConnect.grants.authorization_code;
	if (!banner) problems.push(`n8n did not show the account as connected: ${(await dialog.innerText()).replace(/\s+/g, ' ').slice(0, 200)}`);
	if (afterConnect.grants.authorization_code !== 1)
		problems.push(`the emulator saw ${afterConnect.grants.authorization_code} authorization_code grant(s), expected 1`);
	say(
		`Allow -> popup ${popupClosed ? 'closed' : 'still open'}; form ${banner ? 'shows "Account connected"' : 'shows NO connected banner'}; ` +
			`emulator: ${afterConnect.grants.authorization_code} authorization_code grant, consent allow ${afterConnect.consent.allow} -> oauth-connected.png`,
	);
	if (!popupClosed) await popup.close().catch(() => {});
	await page.keyboard.press('Escape');

	// 4. The credential's own test, through n8n's credential test API.
	// The stored data as the editor holds it, secrets redacted; n8n puts them back, and the tokens
	// too where oauthTokenData carries the same placeholder (the editor only gets `true` for it).
	const stored = await rest.get(`/rest/credentials/${credential.id}?includeData=true`);
	const data = { ...stored.data, oauthTokenData: CREDENTIAL_BLANKING_VALUE };
	const test = await rest
		.post('/rest/credentials/test', { credentials: { id: credential.id, name: CREDENTIAL_NAME, type: CREDENTIAL_TYPE, data } })
		.catch((error) => ({ status: 'Error', message: error.message }));
	if (!test || test.status !== 'OK') problems.push(`the credential test did not pass: ${JSON.stringify(test).slice(0, 200)}`);
	say(
		`credential test (POST /rest/credentials/test, GET /v1/account/accountInformation with the Bearer token): ${test && test.status} ${test && test.message ? `"${test.message}"` : ''}`,
	);
	// The API key credential's declarative Test with a wrong key: its 401 rule says what to check.
	const keyData = { apiKey: 'e2e-wrong-key', partyId: emulator.credentials.partyId, environment: 'custom', baseUrl: emulator.url };
	const wrong = await rest.post('/rest/credentials', { name: 'AccessPoint account (e2e wrong key)', type: 'accessPointApi', data: keyData });
	const wrongKey = await rest
		.post('/rest/credentials/test', { credentials: { id: wrong.id, name: wrong.name, type: 'accessPointApi', data: keyData } })
		.catch((error) => ({ status: 'Error', message: error.message }));
	// Removed again: later checks pick the API key credential by type.
	await rest.request('DELETE', `/rest/credentials/${wrong.id}`).catch((error) => problems.push(`could not delete the wrong-key credential: ${error.message}`));
	if (!wrongKey || wrongKey.status !== 'Error' || !/check the API Key.*Party ID/i.test(String(wrongKey.message))) {
		problems.push(`the API key credential's Test with a wrong key did not say what to check: ${JSON.stringify(wrongKey).slice(0, 300)}`);
	}
	say(`API key credential Test with a wrong key (POST /rest/credentials/test): ${wrongKey && wrongKey.status} "${wrongKey && wrongKey.message}"`);

	// 5. A template on OAuth2, run from the editor.
	const template = T.listTemplates(path.resolve(__dirname, '..', '..')).find((t) => t.file === TEMPLATE);
	if (!template) {
		problems.push(`template ${TEMPLATE} not found`);
		return { problems, lines, counts };
	}
	const created = await rest.post('/rest/workflows', oauthWorkflow(template, { id: credential.id, name: CREDENTIAL_NAME }));
	const connectedAt = Date.now();
	const runOnce = async (label, screenshot) => {
		const before = await executionIds(rest, created.id);
		emulator.clearRequests();
		emulator.oauth.resetStats();
		await page.goto(`${baseUrl}/workflow/${created.id}`);
		await page.locator(SEL.canvasNode).first().waitFor({ timeout: 60000 });
		await page.locator(SEL.execute).first().click();
		const run = await waitForExecution(rest, created.id, { after: before, timeoutMs: 90000 });
		await page.waitForTimeout(1000);
		await page.screenshot({ path: shot(screenshot) });
		// The polling templates published on the API key keep polling meanwhile (GET /v1/orders and
		// their files): requests with the key and no Authorization are theirs, the rest are this run's.
		const all = emulator.requests.filter((r) => r.path.startsWith('/v1'));
		const requests = all.filter((r) => r.headers.authorization !== undefined || r.headers.apikey === undefined);
		const pollers = all.filter((r) => !requests.includes(r));
		// What the published polling templates do: read orders (list and full, either path), files and the inbox;
		// mark supplier invoices exported (PATCH); confirm inbox items.
		const isPollWork = (r) =>
			(r.method === 'GET' && /^\/v1\/(orders?|files|peppol\/inbox)\b/.test(r.path)) ||
			(r.method === 'PATCH' && /^\/v1\/orders?\/\d+$/.test(r.path)) ||
			(r.method === 'POST' && /^\/v1\/peppol\/inbox\/\d+\/(confirm|refuse)$/.test(r.path));
		const notPolls = pollers.filter((r) => !isPollWork(r));
		const bearer = requests.filter((r) => r.headers.authorization === 'Bearer ***' && r.headers.apikey === undefined).length;
		const stats = emulator.oauth.stats();
		const why = T.judge(template, run);
		if (why) problems.push(`${label}: ${why}`);
		if (!requests.length || bearer !== requests.length)
			problems.push(`${label}: ${bearer} of ${requests.length} API request(s) carried the Bearer token (and no apikey)`);
		if (notPolls.length)
			problems.push(
				`${label}: ${notPolls.length} request(s) with the API key that no polling template makes: ${notPolls.map((r) => `${r.method} ${r.path}`).join(', ')}`,
			);
		say(
			`${label}: execution ${run.id} ${run.status}; ${T.summarize(run).join('; ')}; ${requests.length} API request(s), all with the Bearer token: ${bearer === requests.length}` +
				`${pollers.length ? ` (${pollers.length} poll request(s) with the API key alongside, not counted)` : ''}; ` +
				`token endpoint: ${stats.grants.refresh_token} refresh_token grant(s), bearer ${JSON.stringify(stats.bearer)} -> ${screenshot}`,
		);
		return { run, stats, requests, tokenRequests: emulator.requests.filter((r) => r.path === '/OAuth2/token') };
	};
	const first = await runOnce('run 1 (fresh token)', 'oauth-run-1.png');
	counts.firstRunRefreshes = first.stats.grants.refresh_token;
	if (first.stats.grants.refresh_token !== 0) problems.push(`run 1 refreshed the token ${first.stats.grants.refresh_token} time(s); it was fresh`);
	// The Party ID is empty: the account information's one company is the party of every call.
	const own = emulator.credentials.partyId;
	const bearerCalls = first.requests.filter((r) => r.headers.authorization === 'Bearer ***');
	const info = bearerCalls.filter((r) => r.path === '/v1/account/accountInformation');
	const others = bearerCalls.filter((r) => r.path !== '/v1/account/accountInformation');
	counts.accountInformationReads = info.length;
	if (!info.length || info.some((r) => r.status !== 200))
		problems.push(`run 1: the node did not read the account information (${info.map((r) => r.status).join(', ') || 'no request'})`);
	const wrongParty = others.filter((r) => r.headers.partyid !== own);
	if (!others.length || wrongParty.length)
		problems.push(`run 1: ${wrongParty.length} of ${others.length} call(s) did not act for the account's company ${own}`);
	say(
		`Party ID empty: ${info.length} account information read(s) (published shape, Companies [${own}]), then ${others.length} call(s) with partyID ${own}: ${!wrongParty.length}`,
	);

	// 6. After the token's lifetime: the next run refreshes once (n8n, on the API's 401) and succeeds.
	const wait = connectedAt + (TOKEN_SECONDS + 2) * 1000 - Date.now();
	if (wait > 0) await sleep(wait);
	say(`waited until the access token expired (${TOKEN_SECONDS} s after it was issued)`);
	const second = await runOnce('run 2 (expired token)', 'oauth-run-2-refreshed.png');
	counts.refreshTokenGrants = second.stats.grants.refresh_token;
	counts.expiredTokensSeen = second.stats.bearer.expired;
	const agents = second.tokenRequests.map((r) => `${r.headers['user-agent']} ${r.status}`);
	if (second.stats.grants.refresh_token !== 1 || agents.length !== 1 || second.stats.reuse !== 0) {
		problems.push(
			`run 2: expected one refresh (n8n's, 1 refresh_token grant, no reused token), the emulator saw ${second.stats.grants.refresh_token} grant(s), ${second.stats.reuse} reuse(s): ${agents.join('; ')}`,
		);
	}
	say(`run 2 token requests: ${agents.join('; ')} (one refresh, n8n's OAuth client storing the tokens)`);
	// 7. The next execution reads the tokens n8n stored: no refresh, no expired token.
	const third = await runOnce('run 3 (stored token)', 'oauth-run-3-stored.png');
	counts.thirdRunRefreshes = third.stats.grants.refresh_token;
	if (third.stats.grants.refresh_token !== 0 || third.stats.bearer.expired !== 0) {
		problems.push(
			`run 3: ${third.stats.grants.refresh_token} refresh_token grant(s), ${third.stats.bearer.expired} expired token(s); the stored token was not used`,
		);
	}
	if (second.stats.bearer.expired < 1) problems.push('run 2: the emulator never saw the expired token, so nothing proves the refresh was needed');
	return { problems, lines, counts };
}

module.exports = { checkOAuth, TOKEN_SECONDS, CLIENT, waitForExecution, executionIds };
