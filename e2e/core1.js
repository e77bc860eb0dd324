#!/usr/bin/env node
'use strict';
/**
 * The engine-level jest suite (test/workflows) once more, on n8n 1.x: the last 1.x
 * n8n-core with the n8n-workflow and n8n-nodes-base of the same n8n release, under
 * the Node running this script (CI: Node 20, what n8n 1.x runs on).
 *
 * - Installs those three packages (npm, --ignore-scripts; xlsx and linkedom pinned
 *   as for the n8n app, see e2e/install.js) into <E2E_CACHE>/n8n-core-<version>,
 *   reused when present (~1 minute when empty).
 * - Runs jest with e2e/jest.core1.config.js, which maps every require of the three
 *   packages (tests, harness, our dist/, n8n-core itself) to that folder.
 * - Leaves out, by name, the tests listed in SKIPPED below, and prints them with
 *   the reason. Exit code: jest's.
 *
 * Usage: node e2e/core1.js [jest selection, default test/workflows]
 * Env: E2E_CACHE, CORE1_LOG (file for jest's output)
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const REPO = path.resolve(__dirname, '..');
const CACHE = process.env.E2E_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-access-point-e2e');

/** n8n 1.123.81, the last 1.x release: its n8n-core (the last 1.x) and the packages it ships with. */
const VERSIONS = { 'n8n-core': '1.122.48', 'n8n-workflow': '1.120.31', 'n8n-nodes-base': '1.121.53' };
const OVERRIDES = { xlsx: '0.18.5', linkedom: '0.18.12' };

/**
 * Tests that resume a waiting execution through the harness's model of n8n 2.x's
 * waiting-webhook service (signed resume URLs, 2.x restart-webhook lookup). Resuming
 * on n8n 1.x is checked against the real n8n 1.123.81 app on demand
 * (E2E_N8N_VERSION=1.123.81 E2E_NODE_MAJOR=20 npm run e2e -- --skip-jest, step
 * "resume"): 1.x passes on only the first output of a resumed node, so "Identified"
 * (output 2) does not come back there; see docs/e2e.md.
 */
const SKIPPED = [
	'waits, exposes the resume URL the node saw and refuses a wrong token',
	'accepts the resume URL with parameters appended, as a provider redirect does',
	'routes the resumed items to the output the webhook chose',
	'success round trip: start',
	'the resume URL still validates with registrationID and success appended',
	'sends the browser on to a chosen URL with the accepted result appended',
	'the link is out before the wait, and the browser resumes the same execution',
	'waits for the signatory and ends on "Identified"',
	'runs the five templates in turn and reports node by node',
	'runs the eight templates in turn and reports node by node',
	'runs the nine templates in turn and reports node by node',
	'runs the ten templates in turn and reports node by node',
	'runs the eleven templates in turn and reports node by node',
	"the editor's waiting tooltip links to the identity check",
	// The identification result's re-read ends on "Identified" (output 2) after a resume: the 1.x limit above.
	"where the registration read shows no status (as published), a success stays the browser's word",
	"a registration read that fails leaves the success as the browser's word",
	// n8n 1.x's file nodes have no default folder restriction (N8N_RESTRICT_FILE_ACCESS_TO came with 2.0), so the
	// blocked write this test provokes succeeds there.
	'a file that cannot be written fails that invoice only, on the error output; the others are written',
	// The credential's declarative Test replayed as n8n 2.41's runner does it (test/workflows/credentialTestRun.ts); n8n 1.x's
	// runner answers a refused test with its own generic "Authorization failed" text, not the rule's message.
	'a wrong key says what to check, and does not echo the key',
	"a Party ID that is not the account's says the same",
	'a closed port fails with the code n8n shows',
	'a redirect (HTTP 301) is not followed: the key stays on the configured host, and the message says so',
	'a redirect (HTTP 302) is not followed: the key stays on the configured host, and the message says so',
	'a redirect (HTTP 307) is not followed: the key stays on the configured host, and the message says so',
	'a redirect (HTTP 308) is not followed: the key stays on the configured host, and the message says so',
	'403 and 404 say what to check',
	// n8n 1.x's binary metadata has no `bytes`, and its Read/Write Files node is of an older type version.
	'creates with an own PDF and an xlsx attachment; Download Files returns both byte-identical',
	'a file above Maximum File Size fails the item without being read whole',
	'archive-invoice-files.json imports into n8n as it is has nodes with unique names',
];

function log(msg) {
	process.stdout.write(`${msg}\n`);
}

function escapeRegExp(text) {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Installs the 1.x packages once; returns their node_modules folder. */
function ensureCore1() {
	const dir = path.join(CACHE, `n8n-core-${VERSIONS['n8n-core']}`);
	const stamp = path.join(dir, '.installed.json');
	const modules = path.join(dir, 'node_modules');
	const want = JSON.stringify({ dependencies: VERSIONS, overrides: OVERRIDES });
	if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === want && fs.existsSync(path.join(modules, 'n8n-core'))) return modules;
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({ name: 'n8n-core1-suite', private: true, dependencies: VERSIONS, overrides: OVERRIDES }, null, 2),
	);
	log(
		`core1: installing ${Object.entries(VERSIONS)
			.map(([n, v]) => `${n}@${v}`)
			.join(' ')} into ${dir}`,
	);
	const t0 = Date.now();
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const r = spawnSync(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
	if (r.status !== 0) throw new Error(`npm install of the n8n 1.x packages failed (exit ${r.status})`);
	fs.writeFileSync(stamp, want);
	log(`core1: installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
	return modules;
}

function main() {
	const modules = ensureCore1();
	const selection = process.argv.slice(2).length ? process.argv.slice(2) : ['test/workflows'];
	const pattern = `^(?!.*(${SKIPPED.map(escapeRegExp).join('|')})).*$`;
	const args = [
		path.join(REPO, 'node_modules', 'jest', 'bin', 'jest.js'),
		'-c',
		path.join(__dirname, 'jest.core1.config.js'),
		'--ci',
		'--silent',
		'--forceExit',
		'--testNamePattern',
		pattern,
		...selection,
	];
	log(
		`core1: jest ${selection.join(' ')} on n8n-core ${VERSIONS['n8n-core']} / n8n-workflow ${VERSIONS['n8n-workflow']} / n8n-nodes-base ${VERSIONS['n8n-nodes-base']}, Node ${process.version}`,
	);
	const r = spawnSync(process.execPath, args, {
		cwd: REPO,
		encoding: 'utf8',
		// 1.x's default expression engine needs isolated-vm, which is not built here (--ignore-scripts).
		env: { ...process.env, CI: 'true', CORE1_MODULES: modules, N8N_EXPRESSION_ENGINE: 'legacy' },
		timeout: 20 * 60 * 1000,
		maxBuffer: 256 * 1024 * 1024,
	});
	const out = `${r.stdout || ''}\n${r.stderr || ''}`;
	if (process.env.CORE1_LOG) fs.writeFileSync(process.env.CORE1_LOG, out);
	if (r.error) throw r.error;
	for (const l of out.split('\n').filter((line) => /^(Tests|Test Suites):/.test(line))) log(`core1: ${l}`);
	log(`core1: left out on 1.x (resume goes through the harness's model of n8n 2.x's waiting-webhook service; see docs/e2e.md for resuming on 1.x):`);
	for (const name of SKIPPED) log(`core1:   - ${name}`);
	if (r.status !== 0) {
		const failed = out.split('\n').filter((l) => /^\s+● /.test(l) && !/● Console/.test(l));
		for (const l of failed.slice(0, 20)) log(`core1: FAILED ${l.trim().slice(2)}`);
	}
	return r.status ?? 1;
}

if (require.main === module) {
	try {
		process.exitCode = main();
	} catch (error) {
		log(`core1: ${error.message}`);
		process.exitCode = 1;
	}
}

module.exports = { VERSIONS, SKIPPED, ensureCore1 };
