// @ts-check
'use strict';
/**
 * Boots the parts of n8n-core's runtime that executing a workflow needs,
 * without a database, a CLI process or ~/.n8n:
 *
 * - the DI container n8n-core itself uses (n8n-core ships its own nested
 *   `@n8n/di`, `@n8n/config`, `@n8n/backend-common`; resolving them from the
 *   project root would give a *different* Container than the one
 *   n8n-core's classes call `Container.get()` on);
 * - `InstanceSettings` pointed at a throw-away folder (its constructor writes
 *   an encryption key file into `<n8nFolder>/config`, by default ~/.n8n);
 * - the n8n Logger at a quiet level (HARNESS_LOG_LEVEL or N8N_LOG_LEVEL,
 *   default "warn");
 * - the legacy (in-process) expression engine. isolated-vm is not built in
 *   this project; n8n-workflow 2.41 only loads it when
 *   `Expression.initExpressionEngine({ engine: 'vm' })` is called, which the
 *   harness never does.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');

const coreDir = path.dirname(require.resolve('n8n-core/package.json'));
const coreRequire = createRequire(path.join(coreDir, 'package.json'));

/** @typedef {ReturnType<typeof start>} Env */

/** @type {Env | undefined} */
let booted;

/**
 * Packages that n8n-nodes-base requires but jest's module runtime cannot load:
 * they (or their dependencies) are ES modules, which Node 20.19+ can require()
 * but jest cannot (e.g. sanitize-html -> htmlparser2 10, used by the Wait and
 * Form nodes). Under jest they are served from Node's own loader instead. They
 * do not depend on n8n-workflow, so no class identity is split.
 */
const NATIVE_UNDER_JEST = ['sanitize-html'];

function routeEsmOnlyPackagesUnderJest() {
	// `jest` is the per-module object jest-runtime passes to every module it loads.
	const j = typeof jest !== 'undefined' ? jest : undefined;
	if (!j || typeof j.doMock !== 'function') return;
	// jest also patches the `module` builtin: its Module is a subclass of Node's
	// whose createRequire returns jest's own require. Use the parent class's.
	const patched = require('node:module');
	const RealModule = Object.getPrototypeOf(patched);
	if (!RealModule || typeof RealModule.createRequire !== 'function' || RealModule.createRequire === patched.createRequire) return;
	const nativeRequire = RealModule.createRequire(__filename);
	for (const name of NATIVE_UNDER_JEST) {
		try {
			require.resolve(name);
		} catch {
			continue;
		}
		j.doMock(name, () => nativeRequire(name));
	}
	// n8n-core tells a file that does not exist yet (Read/Write Files from Disk writing a new
	// file) by `error instanceof Error`; Node's fs errors come from outside jest's sandbox and
	// fail that test. Under jest, realpath's errors are re-made as this realm's Errors.
	const fsp = nativeRequire('node:fs/promises');
	/** @param {any[]} args */
	const realpath = async (...args) => {
		try {
			return await fsp.realpath(.../** @type {[any]} */ (args));
		} catch (error) {
			throw Object.assign(new Error(error.message), { code: error.code, errno: error.errno, syscall: error.syscall, path: error.path });
		}
	};
	for (const name of ['node:fs/promises', 'fs/promises']) j.doMock(name, () => ({ ...fsp, realpath }));
}

/**
 * A private n8n folder for this process (InstanceSettings writes its config file
 * there). One per pid, reused by every harness in the process; folders of
 * processes that are gone are removed on the next boot. No exit handler: jest
 * runs many test files per worker process.
 */
function privateN8nFolder() {
	const prefix = 'ap-harness-n8n-';
	const tmp = os.tmpdir();
	try {
		for (const name of fs.readdirSync(tmp)) {
			if (!name.startsWith(prefix)) continue;
			const suffix = name.slice(prefix.length);
			if (!/^\d+$/.test(suffix)) {
				// Left by an older harness version (mkdtemp names): remove when stale.
				const full = path.join(tmp, name);
				if (Date.now() - fs.statSync(full).mtimeMs > 3600 * 1000) fs.rmSync(full, { recursive: true, force: true });
				continue;
			}
			const m = Number(suffix);
			if (m === process.pid) continue;
			let alive = true;
			try {
				process.kill(m, 0); // existence check only, no signal is sent
			} catch (e) {
				alive = e.code === 'EPERM';
			}
			if (!alive) fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
		}
	} catch {
		/* best effort */
	}
	const dir = path.join(tmp, `${prefix}${process.pid}`);
	fs.mkdirSync(dir, { recursive: true });
	return dir;
}

/**
 * The n8n runtime, booted once per process.
 * @returns {Env}
 */
function boot() {
	if (!booted) booted = start();
	return booted;
}

function start() {
	const t0 = Date.now();
	routeEsmOnlyPackagesUnderJest();
	const core = require('n8n-core');
	const workflow = require('n8n-workflow');
	const { Container } = coreRequire('@n8n/di');
	const { Logger } = coreRequire('@n8n/backend-common');
	const config = coreRequire('@n8n/config');

	const level = process.env.HARNESS_LOG_LEVEL || process.env.N8N_LOG_LEVEL || 'warn';
	const globalConfig = Container.get(config.GlobalConfig);
	globalConfig.logging.level = level;
	if (!process.env.N8N_LOG_OUTPUT) globalConfig.logging.outputs = ['console'];

	const n8nFolder = privateN8nFolder();
	const instanceSettingsConfig = Container.get(config.InstanceSettingsConfig);
	instanceSettingsConfig.n8nFolder = n8nFolder;
	instanceSettingsConfig.userHome = path.dirname(n8nFolder);
	instanceSettingsConfig.encryptionKey = 'access-point-harness-encryption-key';
	instanceSettingsConfig.enforceSettingsFilePermissions = false;

	const logger = Container.get(Logger);
	Container.set(core.InstanceSettings, new core.InstanceSettings(instanceSettingsConfig, logger));

	// n8n's ErrorReporter logs every node error with its stack; collect them instead
	// (set HARNESS_REPORT_ERRORS=1 to also log them).
	/** @type {Array<{ error: unknown, options: unknown }>} */
	const reportedErrors = [];
	const errorReporter = Container.get(core.ErrorReporter);
	errorReporter.report = (/** @type {unknown} */ error, /** @type {unknown} */ opts) => {
		reportedErrors.push({ error, options: opts });
		if (reportedErrors.length > 200) reportedErrors.shift();
		if (process.env.HARNESS_REPORT_ERRORS) errorReporter.defaultReport(error, opts);
	};

	// WorkflowExecute stores a node's error in runData as a plain copy
	// ({ ...error, message, stack }), which is what n8n persists. Keep the original
	// instance reachable (non-enumerable, so it never reaches persisted data) so
	// tests can check `instanceof NodeApiError`.
	/** @type {any} reportNodeExecutionError is private in n8n-core's types */
	const proto = core.WorkflowExecute.prototype;
	if (typeof proto.reportNodeExecutionError === 'function' && !proto.reportNodeExecutionError.harnessWrapped) {
		const original = proto.reportNodeExecutionError;
		/** @param {unknown} error @param {unknown[]} rest */
		proto.reportNodeExecutionError = function (error, ...rest) {
			const copy = original.call(this, error, ...rest);
			if (copy && typeof copy === 'object' && error instanceof Error) {
				Object.defineProperty(copy, 'original', { value: error, enumerable: false, configurable: true });
			}
			return copy;
		};
		proto.reportNodeExecutionError.harnessWrapped = true;
	}

	return { reportedErrors, core, workflow, Container, Logger, logger, n8nFolder, coreRequire, bootMs: Date.now() - t0 };
}

module.exports = { boot, coreRequire };
