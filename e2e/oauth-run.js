#!/usr/bin/env node
'use strict';
/**
 * Runs e2e/lib/oauth.js (checkOAuth) alone against the real n8n from the e2e cache, with the shared set-up of
 * e2e/lib/alone.js (the emulator with 1,000 orders, as `npm run e2e` has it, and the editor signed in in headless
 * Chromium). Screenshots and n8n's log go to E2E_ARTIFACTS (default .artifacts/e2e-oauth).
 *
 *   npm run build && node e2e/oauth-run.js [--keep]
 */
const fs = require('node:fs');
const path = require('node:path');

const { runAlone } = require('./lib/alone');
const { checkOAuth } = require('./lib/oauth');

const ARTIFACTS = path.resolve(__dirname, '..', process.env.E2E_ARTIFACTS || path.join('.artifacts', 'e2e-oauth'));
fs.mkdirSync(ARTIFACTS, { recursive: true });

runAlone(
	'oauth',
	/oauth|token|refresh|error/i,
	async ({ page, rest, server, emulator, log }) => {
		const result = await checkOAuth({ page, rest, baseUrl: server.base, emulator, artifactsDir: ARTIFACTS, log });
		if (result.problems.length) throw new Error(result.problems.join('; '));
		return result.counts;
	},
	{ browser: true, logDir: ARTIFACTS, orders: 1000 },
);
