#!/usr/bin/env node
'use strict';

/**
 * Start the access-point API emulator for local workflow development.
 * Usage: node scripts/emulator.js [--port 3999] [--orders 1000] [--seed 42] [--redirect-uri URL] [--token-lifetime SECONDS]
 */

const { createEmulator, DEFAULTS } = require('../emulator');
const { DEFAULT_CLIENT } = require('../emulator/oauth');

/** @param {string[]} argv @returns {Record<string, string>} */
function parseArgs(argv) {
	/** @type {Record<string, string>} */
	const out = {};
	for (let i = 0; i < argv.length; i++) {
		const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
		if (!m)
			throw new Error(
				`Unknown argument '${argv[i]}'. Usage: node scripts/emulator.js [--port 3999] [--orders 1000] [--seed 42] [--redirect-uri URL] [--token-lifetime SECONDS]`,
			);
		out[m[1]] = m[2] !== undefined ? m[2] : argv[++i];
	}
	return out;
}

/** @param {string | undefined} v @param {number} dflt @param {string} name */
function intArg(v, dflt, name) {
	if (v === undefined) return dflt;
	if (!/^\d+$/.test(v)) throw new Error(`--${name} must be a non-negative integer, got '${v}'`);
	return Number(v);
}

async function main() {
	const args = parseArgs(process.argv.slice(2));
	if ('help' in args) {
		console.log('Usage: node scripts/emulator.js [--port 3999] [--orders 1000] [--seed 42] [--redirect-uri URL] [--token-lifetime SECONDS]');
		console.log("  --redirect-uri     one more OAuth redirect URI for the emulator's client (n8n: <n8n URL>/rest/oauth2-credential/callback)");
		console.log('  --token-lifetime   OAuth access-token lifetime in seconds (default 3600)');
		return;
	}
	const redirectUris = [...DEFAULT_CLIENT.redirectUris];
	if (args['redirect-uri'] !== undefined) {
		try {
			new URL(args['redirect-uri']);
		} catch {
			throw new Error(`--redirect-uri must be an absolute URL, got '${args['redirect-uri']}'`);
		}
		redirectUris.push(args['redirect-uri']);
	}
	const emu = await createEmulator({
		port: intArg(args.port, 3999, 'port'),
		orders: intArg(args.orders, DEFAULTS.orders, 'orders'),
		seed: intArg(args.seed, DEFAULTS.seed, 'seed'),
		config: { oauthAccessTokenSeconds: intArg(args['token-lifetime'], DEFAULTS.config.oauthAccessTokenSeconds, 'token-lifetime') || 1 },
		oauth: { clients: [{ clientId: DEFAULT_CLIENT.clientId, clientSecret: DEFAULT_CLIENT.clientSecret, redirectUris }] },
	});
	const c = emu.credentials;
	console.log(`Access-point API emulator listening on ${emu.url}`);
	console.log('');
	console.log('n8n credential "AccessPoint API":');
	console.log(`  API Key:     ${c.apiKey}`);
	console.log(`  Party ID:    ${c.partyId}`);
	console.log('  Environment: Custom');
	console.log(`  Base URL:    ${c.baseUrl}`);
	console.log('');
	console.log(`Second account (not whitelisted for identification): API Key ${emu.otherAccount.apiKey}, Party ID ${emu.otherAccount.partyId}`);
	console.log('');
	const o = emu.oauth;
	console.log('n8n credential "AccessPoint Sign-In OAuth2 API" (Environment: Custom):');
	console.log(`  Authorization URL: ${o.authorizeUrl}`);
	console.log(`  Access Token URL:  ${o.tokenUrl}`);
	console.log(`  Client ID:         ${o.client.clientId}`);
	console.log(`  Client Secret:     ${o.client.clientSecret}`);
	console.log(`  Redirect URIs registered (exact match): ${o.client.redirectUris.join(', ')}`);
	console.log('    (another n8n URL: restart with --redirect-uri <n8n URL>/rest/oauth2-credential/callback, or');
	console.log(`     curl -X POST ${emu.url}/_emulator/oauth/clients -H 'content-type: application/json' \\`);
	console.log(`       -d '{"client_id":"my-client","client_secret":"my-secret","redirect_uris":["http://localhost:5678/rest/oauth2-credential/callback"]}')`);
	console.log(`  Sign in on the consent page as ${o.user.email} / ${o.user.password} (prefilled), then Allow.`);
	console.log(`  Access tokens live ${emu.config.oauthAccessTokenSeconds} s (--token-lifetime); counters: GET ${emu.url}/_emulator/oauth/stats;`);
	console.log(`  revoke every refresh token (to see the "reconnect" error): curl -X POST ${emu.url}/_emulator/oauth/revoke`);
	console.log('');
	console.log('Webhooks (AccessPoint Trigger): the emulator calls http URLs on loopback only (the service: https only).');
	console.log(`  Deliveries and attempts:  GET ${emu.url}/_emulator/webhooks/deliveries`);
	console.log(`  Delivery faults:          curl -X POST ${emu.url}/_emulator/webhooks/faults -H 'content-type: application/json' -d '{"kind":"duplicate"}'`);
	console.log('                            (kinds: wrong-signature, stale-timestamp, duplicate, out-of-order)');
	console.log(
		`  A delivery status event:  curl -X POST ${emu.url}/_emulator/orders/<OrderID>/status -H 'content-type: application/json' -d '{"status":"Delivered"}'`,
	);
	console.log('                            (after sending the order; Delivered, Accepted, Refused or Error)');
	console.log('');
	console.log('Try:');
	console.log(`  curl -H 'apikey: ${c.apiKey}' -H 'partyID: ${c.partyId}' '${emu.url}/v1/orders?$top=2'`);
	console.log('');
	console.log('Press Ctrl-C to stop.');
	const stop = () => {
		emu.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((err) => {
	console.error(err instanceof Error ? err.message : err);
	process.exit(1);
});
