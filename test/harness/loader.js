// @ts-check
'use strict';
/**
 * Loads node and credential types the way n8n does:
 * - this package through n8n-core's own `PackageDirectoryLoader` (reads the
 *   `n8n` section of package.json and requires the listed dist/ files);
 * - n8n-nodes-base through a `LazyPackageDirectoryLoader` that only reads
 *   `dist/known/*.json` (name -> file) and loads a node class the first time a
 *   workflow asks for it (the stock lazy loader also parses the 8.7 MB
 *   `dist/types/nodes.json`, which a test never needs).
 *
 * Looking types up by name over both: registry.js.
 */
const fs = require('node:fs');
const path = require('node:path');
const { boot } = require('./env');
const { HarnessNodeTypes, HarnessCredentialTypes, BASE_PACKAGE } = require('./registry');

const ROOT = path.resolve(__dirname, '..', '..');

/** @typedef {import('n8n-core').PackageDirectoryLoader} PackageDirectoryLoader */

/**
 * @typedef {object} LoadOptions
 * @property {string} [root] package root (default: this repo)
 * @property {boolean} [allowMissingNodes] skip listed files that are not built yet (default true unless HARNESS_REQUIRE_ALL_NODES)
 * @property {boolean} [reload] re-require dist/ (after a rebuild in the same process)
 * @property {boolean} [quiet] no warnings about missing or stale files
 */

/**
 * The two loaded packages and what this one's package.json promises.
 * @typedef {object} Packages
 * @property {PackageDirectoryLoader} pkg this package
 * @property {PackageDirectoryLoader} base n8n-nodes-base (lazy: classes load on first use)
 * @property {string} packageName
 * @property {Array<{ file: string, className: string, name: string }>} listedNodes
 * @property {{ nodes: string[], credentials: string[] }} missing Files listed in package.json's n8n section that do not exist (skipped).
 */

/**
 * @typedef {object} LoadedPackagesOwn
 * @property {string} root
 * @property {import('./env').Env} env
 * @property {string[]} stale Listed dist files older than the newest TypeScript source.
 * @property {number} loadMs
 * @property {HarnessNodeTypes} nodeTypes
 * @property {HarnessCredentialTypes} credentialTypes
 * @property {string[]} nodeTypeNames Full type names of this package's loaded nodes.
 * @property {string[]} credentialTypeNames
 */
/** @typedef {Packages & LoadedPackagesOwn} LoadedPackages */

/** @type {Map<string, LoadedPackages>} */
const cache = new Map();

/** @param {string} s */
function lowerFirst(s) {
	return s.charAt(0).toLowerCase() + s.slice(1);
}

/**
 * Newest mtime of the TypeScript sources (nodes/, credentials/).
 * @param {string} root
 */
function newestSourceMtime(root) {
	let newest = 0;
	/** @param {string} dir */
	const walk = (dir) => {
		let entries;
		try {
			entries = fs.readdirSync(dir, { withFileTypes: true });
		} catch {
			return;
		}
		for (const e of entries) {
			const p = path.join(dir, e.name);
			if (e.isDirectory()) walk(p);
			else if (e.name.endsWith('.ts') || e.name.endsWith('.json')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
		}
	};
	walk(path.join(root, 'nodes'));
	walk(path.join(root, 'credentials'));
	return newest;
}

/** @param {typeof import('n8n-core')} core */
function makeLoaderClasses(core) {
	/** A package loader that skips (and lists) files not built yet, unless told not to. */
	class TolerantPackageLoader extends core.PackageDirectoryLoader {
		/**
		 * @param {string} dir
		 * @param {{ allowMissing: boolean }} options
		 */
		constructor(dir, options) {
			super(dir);
			this.allowMissing = options.allowMissing;
			/** @type {{ nodes: string[], credentials: string[] }} */
			this.missing = { nodes: [], credentials: [] };
		}

		/**
		 * @param {string} filePath
		 * @param {string} [packageVersion]
		 */
		loadNodeFromFile(filePath, packageVersion) {
			if (!fs.existsSync(this.resolvePath(filePath))) {
				this.missing.nodes.push(filePath);
				if (!this.allowMissing) throw new Error(`${this.packageName}: node file ${filePath} does not exist (run npm run build)`);
				return;
			}
			return super.loadNodeFromFile(filePath, packageVersion);
		}

		/** @param {string} filePath */
		loadCredentialFromFile(filePath) {
			if (!fs.existsSync(this.resolvePath(filePath))) {
				this.missing.credentials.push(filePath);
				if (!this.allowMissing) throw new Error(`${this.packageName}: credential file ${filePath} does not exist (run npm run build)`);
				return;
			}
			return super.loadCredentialFromFile(filePath);
		}
	}

	class KnownOnlyLazyLoader extends core.LazyPackageDirectoryLoader {
		async loadAll() {
			this.known.nodes = await this.readJSON(/** @type {string} */ ('dist/known/nodes.json'));
			this.known.credentials = await this.readJSON(/** @type {string} */ ('dist/known/credentials.json'));
			this.isLazyLoaded = true;
		}
	}

	return { TolerantPackageLoader, KnownOnlyLazyLoader };
}

/**
 * Loads this package (default: the repo root) and n8n-nodes-base.
 * Results are cached per process; pass `reload: true` after a rebuild.
 * @param {LoadOptions} [options]
 * @returns {Promise<LoadedPackages>}
 */
async function loadPackages(options = {}) {
	const root = path.resolve(options.root || ROOT);
	// Tolerated while nodes are being written; HARNESS_REQUIRE_ALL_NODES=1 (or the option) makes it fatal.
	const allowMissing = options.allowMissingNodes !== undefined ? options.allowMissingNodes !== false : !process.env.HARNESS_REQUIRE_ALL_NODES;
	const key = `${root}|${allowMissing}`;
	const cached = cache.get(key);
	if (!options.reload && cached) return cached;

	const env = boot();
	const { core } = env;
	const { TolerantPackageLoader, KnownOnlyLazyLoader } = makeLoaderClasses(core);
	const t0 = Date.now();

	const pkg = new TolerantPackageLoader(root, { allowMissing });
	if (options.reload) /** @type {any} private in n8n-core's types */ (pkg).unloadAll();
	await pkg.loadAll();

	const baseDir = path.dirname(require.resolve(`${BASE_PACKAGE}/package.json`));
	const base = new KnownOnlyLazyLoader(baseDir);
	await base.loadAll();

	// What package.json promises, for reporting.
	const n8nSection = pkg.packageJson.n8n || {};
	const listedNodes = (n8nSection.nodes || []).map((file) => {
		const className = path.basename(file).split('.')[0];
		return { file, className, name: lowerFirst(className) };
	});

	// Stale build detection: a dist file older than the newest source.
	const newest = newestSourceMtime(root);
	const stale = [];
	for (const file of [...(n8nSection.nodes || []), ...(n8nSection.credentials || [])]) {
		const abs = path.join(root, file);
		if (fs.existsSync(abs) && fs.statSync(abs).mtimeMs + 1 < newest) stale.push(file);
	}

	/** @type {Packages} */
	const packages = { pkg, base, packageName: pkg.packageName, listedNodes, missing: pkg.missing };
	/** @type {LoadedPackages} */
	const loaded = {
		root,
		env,
		...packages,
		stale,
		loadMs: Date.now() - t0,
		nodeTypes: new HarnessNodeTypes(packages, env.workflow),
		credentialTypes: new HarnessCredentialTypes(packages),
		nodeTypeNames: Object.keys(pkg.nodeTypes).map((n) => `${pkg.packageName}.${n}`),
		credentialTypeNames: Object.keys(pkg.credentialTypes),
	};

	if (!options.quiet) {
		if (pkg.missing.nodes.length || pkg.missing.credentials.length) {
			const list = [...pkg.missing.credentials, ...pkg.missing.nodes].join(', ');
			process.emitWarning(`[harness] ${pkg.packageName}: not built yet, skipped: ${list}`, { code: 'AP_HARNESS_MISSING' });
		}
		if (stale.length) {
			process.emitWarning(`[harness] dist/ is older than the TypeScript sources (run npm run build): ${stale.join(', ')}`, {
				code: 'AP_HARNESS_STALE',
			});
		}
	}

	cache.set(key, loaded);
	return loaded;
}

module.exports = { loadPackages, ROOT };
