#!/usr/bin/env node
'use strict';

/**
 * Start the access-point API emulator for local workflow development.
 * Usage: node scripts/emulator.js [--port 3999] [--orders 1000] [--seed 42]
 */

const { createEmulator, DEFAULTS } = require('../emulator');

/** @param {string[]} argv @returns {Record<string, string>} */
function parseArgs(argv) {
	/** @type {Record<string, string>} */
	const out = {};
	for (let i = 0; i < argv.length; i++) {
		const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
		if (!m) throw new Error(`Unknown argument '${argv[i]}'. Usage: node scripts/emulator.js [--port 3999] [--orders 1000] [--seed 42]`);
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
		console.log('Usage: node scripts/emulator.js [--port 3999] [--orders 1000] [--seed 42]');
		return;
	}
	const emu = await createEmulator({
		port: intArg(args.port, 3999, 'port'),
		orders: intArg(args.orders, DEFAULTS.orders, 'orders'),
		seed: intArg(args.seed, DEFAULTS.seed, 'seed'),
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
