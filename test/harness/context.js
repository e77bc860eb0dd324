// @ts-check
'use strict';
/**
 * What one harness holds, shared by the modules that act on it (engine, run,
 * poll, waiting, webhooks): the loaded node types, the credential store, the
 * executions it ran, its server's URLs.
 */
const fs = require('node:fs');
const path = require('node:path');

const { loadPackages, ROOT } = require('./loader');
const { createCredentialStore } = require('./credentials');
const { createCredentialsHelper } = require('./credentials-helper');
const { startServer } = require('./server');
const { handleHttp } = require('./webhooks');

/**
 * @typedef {object} HarnessOptions
 * @property {Record<string, unknown> | false} [emulator] Options for emulator's createEmulator (default {}: start one on port 0); false: no emulator.
 * @property {Partial<import('./credentials').AccessPointCredentialData>} [credentials] accessPointApi data (merged over the emulator's credentials).
 * @property {Record<string, import('./credentials').CredentialData>} [credentialTypes] Data for other credential types, by type name.
 * @property {boolean} [allowMissingNodes] Skip package.json-listed files that are not built yet (default true, with a warning).
 * @property {boolean} [waitTracker] Expire waiting executions when waitTill passes, if within 10 minutes (default true).
 * @property {boolean} [reload] Re-require dist/ (after a rebuild in the same process).
 * @property {boolean} [quiet] No warnings about missing or stale dist/ files.
 * @property {string} [root] Package root (default: this repo).
 */

/**
 * @typedef {object} HarnessContext
 * @property {HarnessOptions} options
 * @property {import('./loader').LoadedPackages} loaded
 * @property {import('./env').Env} env
 * @property {import('./registry').HarnessNodeTypes} nodeTypes
 * @property {import('./credentials').CredentialStore} store
 * @property {any} credentialsHelper ICredentialsHelper
 * @property {any} emulator what emulator/index.js's createEmulator returned, if started
 * @property {import('./server').HarnessUrls} urls
 * @property {() => Promise<void>} closeServer
 * @property {Map<string, import('./records').ExecutionRecord>} executions by id
 * @property {Set<NodeJS.Timeout>} timers pending expiries (engine.js)
 * @property {boolean} closed
 */

/**
 * Starts emulator/ (if the package has one) unless `options === false`.
 * @param {string} root
 * @param {Record<string, unknown> | false | undefined} options
 * @returns {Promise<any>}
 */
async function startEmulator(root, options) {
	if (options === false) return undefined;
	const file = path.join(root, 'emulator', 'index.js');
	const mod = fs.existsSync(file) ? require(file) : undefined;
	if (mod && typeof mod.createEmulator === 'function') return mod.createEmulator({ port: 0, ...(options || {}) });
	if (options) throw new Error('[harness] emulator options were given but emulator/index.js (createEmulator) does not exist yet');
	return undefined;
}

/**
 * Loads the packages, starts the emulator and the harness server.
 * @param {HarnessOptions} options
 * @returns {Promise<HarnessContext>}
 */
async function createContext(options) {
	const root = path.resolve(options.root || ROOT);
	const loaded = await loadPackages({ root, allowMissingNodes: options.allowMissingNodes, reload: options.reload, quiet: options.quiet });
	const emulator = await startEmulator(root, options.emulator);
	const store = createCredentialStore(options, emulator);
	/** @type {HarnessContext | undefined} */
	let ctx;
	const server = await startServer((req, res) => handleHttp(/** @type {HarnessContext} */ (ctx), req, res));
	ctx = {
		options,
		loaded,
		env: loaded.env,
		nodeTypes: loaded.nodeTypes,
		store,
		credentialsHelper: createCredentialsHelper(loaded.credentialTypes, store),
		emulator,
		urls: server.urls,
		closeServer: server.close,
		executions: new Map(),
		timers: new Set(),
		closed: false,
	};
	return ctx;
}

/**
 * Stops expiry timers, rejects pending waitForResume() calls, closes the server and the emulator.
 * @param {HarnessContext} ctx
 */
async function closeContext(ctx) {
	if (ctx.closed) return;
	ctx.closed = true;
	for (const t of ctx.timers) clearTimeout(t);
	ctx.timers.clear();
	for (const record of ctx.executions.values()) {
		for (const w of record.waiters.splice(0)) w.reject(new Error('[harness] closed'));
	}
	await ctx.closeServer();
	if (ctx.emulator && typeof ctx.emulator.close === 'function') await ctx.emulator.close();
}

module.exports = { createContext, closeContext };
