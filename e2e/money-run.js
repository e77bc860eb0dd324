#!/usr/bin/env node
'use strict';
/**
 * Runs e2e/lib/money.js alone against the real n8n from the e2e cache (e2e/lib/alone.js), in headless Chromium:
 * all of checkMoney's checks, or those named (e.g. typedAmounts). Screenshots and n8n's log go to E2E_ARTIFACTS
 * (default .artifacts/e2e-money). `npm run e2e` runs the same checks in its editor step.
 *
 *   npm run build && node e2e/money-run.js [typedAmounts ...] [--keep]
 */
const fs = require('node:fs');
const path = require('node:path');

const { runAlone } = require('./lib/alone');
const { checkMoney } = require('./lib/money');

const REPO = path.resolve(__dirname, '..');
const ARTIFACTS = path.resolve(REPO, process.env.E2E_ARTIFACTS || path.join('.artifacts', 'e2e-money'));
fs.rmSync(ARTIFACTS, { recursive: true, force: true });
fs.mkdirSync(ARTIFACTS, { recursive: true });
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));

runAlone(
	'money',
	/error|AccessPoint/i,
	async ({ page, rest, server, emulator, log }) => {
		const result = await checkMoney({ page, rest, baseUrl: server.base, emulator, artifactsDir: ARTIFACTS, only, log });
		if (result.problems.length) throw new Error(result.problems.join('; '));
		return { screenshots: path.relative(REPO, ARTIFACTS) };
	},
	{ browser: true, logDir: ARTIFACTS },
);
