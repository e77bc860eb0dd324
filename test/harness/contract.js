// @ts-check
'use strict';
/**
 * The published-contract check of the test suite: every request a test sends to an emulator (through the engine, the
 * harness or a direct fetch) is checked by the emulator against the service's published contract
 * (emulator/contract.js: emulator/openapi.json plus the docs pages). After each test the violations and the
 * properties the emulator dropped since the previous check fail that test; what is left after the last test
 * fails the file (afterAll). Installed for every test file by test/harness/contract-setup.js
 * (jest.config.js setupFilesAfterEnv).
 *
 * CONTRACT_CHECK=enforce (default) | warn (print, do not fail: local debugging) | off.
 *
 * A test that sends a bad request on purpose (hostile and bad-input tests, the emulator's own tests of its
 * refusals) is named in test/harness/contract-allowlist.js with its reason, or calls
 * `allowContractViolations(reason)` inside the test. Nothing else is exempt.
 */
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * @typedef {{ emu: any, seen: number }} Tracked
 * @typedef {{ file: string, test: string | RegExp, reason: string }} AllowEntry
 */

/** @returns {'enforce' | 'warn' | 'off'} */
function mode() {
	const v = String(process.env.CONTRACT_CHECK || 'enforce').toLowerCase();
	return v === 'warn' || v === 'off' ? v : 'enforce';
}

/** Emulators started in this test file (jest gives each file its own module registry, so its own set). */
/** @type {Set<Tracked>} */
const tracked = new Set();
/** Reasons given by allowContractViolations() in the running test. */
/** @type {string[]} */
let allowedNow = [];

/** The jest `expect` of the file (set by install), to name the running test when an emulator closes. */
/** @type {any} */
let jestExpect;

/**
 * Track an emulator. Its close() also checks what it received since the last check, so requests sent in a
 * file's own afterAll (which jest runs after this module's) are not missed: the close that follows them throws.
 * @param {any} emu an emulator (emulator/index.js createEmulator's answer)
 */
function track(emu) {
	if (!emu || !emu.contract || typeof emu.contract.violations !== 'function') return emu;
	/** @type {Tracked} */
	const t = { emu, seen: 0 };
	tracked.add(t);
	const close = emu.close;
	emu.close = async (/** @type {any[]} */ ...args) => {
		const r = await close.apply(emu, args);
		const state = jestExpect ? jestExpect.getState() : {};
		const allowed = isAllowed(state.testPath, state.currentTestName);
		assertClean(state.currentTestName ? `the test "${state.currentTestName}" (or a hook after it)` : 'this file (closing an emulator)', allowed, [t]);
		return r;
	};
	return emu;
}

/**
 * Wrap emulator/index.js' createEmulator so every emulator this file starts is tracked.
 * @param {{ createEmulator: (...a: any[]) => Promise<any> }} mod
 */
function instrument(mod) {
	if (!mod || typeof mod.createEmulator !== 'function' || /** @type {any} */ (mod.createEmulator).contractTracked) return;
	const original = mod.createEmulator;
	const wrapped = async (/** @type {any[]} */ ...args) => track(await original(...args));
	/** @type {any} */ (wrapped).contractTracked = true;
	mod.createEmulator = wrapped;
}

/**
 * Violations and dropped properties since the previous call, over every tracked emulator (or the ones given).
 * @param {Iterable<Tracked>} [which]
 * @returns {{ violations: any[], dropped: any[] }}
 */
function collect(which = tracked) {
	/** @type {any[]} */
	const violations = [];
	/** @type {any[]} */
	const dropped = [];
	for (const t of which) {
		// Entries are numbered across both logs (seq), so a test's emu.contract.clear() loses nothing here.
		const v = t.emu.contract.violations().filter((/** @type {any} */ e) => e.seq > t.seen);
		const d = t.emu.contract.dropped().filter((/** @type {any} */ e) => e.seq > t.seen);
		violations.push(...v);
		dropped.push(...d);
		for (const e of [...v, ...d]) t.seen = Math.max(t.seen, e.seq);
	}
	return { violations, dropped };
}

/** @returns {AllowEntry[]} */
function allowlist() {
	return require('./contract-allowlist');
}

/**
 * Is the test allowed to violate the published contract (named in the allowlist, or allowContractViolations was called)?
 * @param {string | undefined} testPath @param {string | undefined} testName
 */
function isAllowed(testPath, testName) {
	if (allowedNow.length) return true;
	if (!testPath || !testName) return false;
	const file = path.relative(ROOT, testPath).split(path.sep).join('/');
	return allowlist().some((a) => a.file === file && (a.test instanceof RegExp ? a.test.test(testName) : a.test === testName));
}

/**
 * For a test that sends bad requests on purpose: its violations are not failures. Say why.
 * @param {string} reason
 */
function allowContractViolations(reason) {
	if (!reason || !String(reason).trim()) throw new Error('[contract] allowContractViolations needs a reason');
	allowedNow.push(String(reason));
}

/**
 * @param {{ violations: any[], dropped: any[] }} found @param {string} where
 */
function report(found, where) {
	const lines = [];
	for (const v of found.violations) {
		const q = Object.keys(v.query || {}).length ? `?${new URLSearchParams(v.query).toString()}` : '';
		lines.push(`${v.method} ${v.path}${q}`);
		for (const x of v.violations) lines.push(`  - ${x.message}`);
	}
	for (const d of found.dropped) lines.push(`dropped by the emulator (the service drops them too): ${d.method} ${d.path}: ${d.dropped.join(', ')}`);
	return (
		`[contract] ${where} sent ${found.violations.length} request(s) the service does not publish as sent ` +
		`(emulator/openapi.json and the docs pages; emulator/contract.js):\n${lines.join('\n')}\n` +
		'Fix the request. A test that sends such requests on purpose is named in test/harness/contract-allowlist.js ' +
		'(or calls allowContractViolations(reason)); CONTRACT_CHECK=warn only prints this.'
	);
}

/**
 * Check what the tests sent since the previous check; throws (enforce) or prints (warn).
 * @param {string} where @param {boolean} allowed @param {Iterable<Tracked>} [which] default: every tracked emulator
 */
function assertClean(where, allowed, which) {
	const m = mode();
	const found = collect(which);
	if (m === 'off' || allowed || (!found.violations.length && !found.dropped.length)) return found;
	const text = report(found, where);
	if (m === 'warn') console.warn(text);
	else throw new Error(text);
	return found;
}

/**
 * Install the hooks in the current test file (called by contract-setup.js).
 * @param {{ beforeEach: Function, afterEach: Function, afterAll: Function, expect: any }} jestGlobals
 */
function install({ beforeEach, afterEach, afterAll, expect }) {
	jestExpect = jestExpect || expect;
	instrument(require(path.join(ROOT, 'emulator', 'index.js')));
	beforeEach(() => {
		allowedNow = [];
	});
	afterEach(() => {
		const state = expect.getState();
		const allowed = isAllowed(state.testPath, state.currentTestName);
		allowedNow = [];
		assertClean(`the test "${state.currentTestName}"`, allowed);
	});
	afterAll(() => {
		const state = expect.getState();
		assertClean(`${path.relative(ROOT, String(state.testPath || 'this file'))} (outside its tests: beforeAll/afterAll)`, false);
	});
}

module.exports = { install, track, instrument, collect, allowContractViolations, isAllowed, mode, report };
