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
 * Node types are addressed as n8n addresses them: `<packageName>.<name>`, i.e.
 * `n8n-nodes-access-point.accessPointRegistration` and `n8n-nodes-base.set`.
 */
const fs = require('node:fs');
const path = require('node:path');
const { boot } = require('./env');

const ROOT = path.resolve(__dirname, '..', '..');
const BASE_PACKAGE = 'n8n-nodes-base';

const cache = new Map();

function lowerFirst(s) {
	return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Newest mtime of the TypeScript sources (nodes/, credentials/). */
function newestSourceMtime(root) {
	let newest = 0;
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

function makeLoaderClasses(core) {
	class TolerantPackageLoader extends core.PackageDirectoryLoader {
		constructor(dir, options) {
			super(dir);
			this.allowMissing = options.allowMissing;
			this.missing = { nodes: [], credentials: [] };
		}

		loadNodeFromFile(filePath, packageVersion) {
			if (!fs.existsSync(this.resolvePath(filePath))) {
				this.missing.nodes.push(filePath);
				if (!this.allowMissing) throw new Error(`${this.packageName}: node file ${filePath} does not exist (run npm run build)`);
				return;
			}
			return super.loadNodeFromFile(filePath, packageVersion);
		}

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
			this.known.nodes = await this.readJSON('dist/known/nodes.json');
			this.known.credentials = await this.readJSON('dist/known/credentials.json');
			this.isLazyLoaded = true;
		}
	}

	return { TolerantPackageLoader, KnownOnlyLazyLoader };
}

/**
 * Loads this package (default: the repo root) and n8n-nodes-base.
 * Results are cached per process; pass `reload: true` after a rebuild.
 */
async function loadPackages(options = {}) {
	const root = path.resolve(options.root || ROOT);
	// Tolerated while nodes are being written; HARNESS_REQUIRE_ALL_NODES=1 (or the option) makes it fatal.
	const allowMissing =
		options.allowMissingNodes !== undefined ? options.allowMissingNodes !== false : !process.env.HARNESS_REQUIRE_ALL_NODES;
	const key = `${root}|${allowMissing}`;
	if (!options.reload && cache.has(key)) return cache.get(key);

	const env = boot();
	const { core } = env;
	const { TolerantPackageLoader, KnownOnlyLazyLoader } = makeLoaderClasses(core);
	const t0 = Date.now();

	const pkg = new TolerantPackageLoader(root, { allowMissing });
	if (options.reload) pkg.unloadAll();
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

	const loaded = {
		root,
		env,
		pkg,
		base,
		packageName: pkg.packageName,
		listedNodes,
		missing: pkg.missing,
		stale,
		loadMs: Date.now() - t0,
	};
	const nodeTypes = new HarnessNodeTypes(loaded, env.workflow);
	const credentialTypes = new HarnessCredentialTypes(loaded);
	Object.assign(loaded, {
		nodeTypes,
		credentialTypes,
		/** Full type names of this package's loaded nodes. */
		nodeTypeNames: Object.keys(pkg.nodeTypes).map((n) => `${pkg.packageName}.${n}`),
		credentialTypeNames: Object.keys(pkg.credentialTypes),
	});

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

/** INodeTypes over this package and n8n-nodes-base. */
class HarnessNodeTypes {
	constructor(loaded, workflowLib) {
		this.loaded = loaded;
		this.NodeHelpers = workflowLib.NodeHelpers;
	}

	split(type) {
		const dot = type.lastIndexOf('.');
		if (dot < 0) return { pkgName: undefined, name: type };
		return { pkgName: type.slice(0, dot), name: type.slice(dot + 1) };
	}

	getByName(type) {
		const { pkg, base, packageName, listedNodes, missing } = this.loaded;
		const { pkgName, name } = this.split(type);
		if (pkgName === packageName) {
			if (name in pkg.nodeTypes) return pkg.nodeTypes[name].type;
			const listed = listedNodes.find((n) => n.name === name);
			if (listed && missing.nodes.includes(listed.file)) {
				throw new Error(`Node type "${type}" is not built yet: ${listed.file} does not exist (run npm run build)`);
			}
			throw new Error(`Unknown node type "${type}": ${packageName} has ${Object.keys(pkg.nodeTypes).join(', ') || 'no nodes'}`);
		}
		if (pkgName === BASE_PACKAGE) {
			if (!(name in base.known.nodes)) throw new Error(`Unknown node type "${type}" (not in ${BASE_PACKAGE})`);
			return base.getNode(name).type;
		}
		throw new Error(`Unknown node type "${type}": the harness loads only ${packageName} and ${BASE_PACKAGE}`);
	}

	getByNameAndVersion(type, version) {
		return this.NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	}

	getKnownTypes() {
		const { pkg, base, packageName } = this.loaded;
		const known = {};
		for (const [n, v] of Object.entries(pkg.known.nodes)) known[`${packageName}.${n}`] = v;
		for (const [n, v] of Object.entries(base.known.nodes)) known[`${BASE_PACKAGE}.${n}`] = v;
		return known;
	}

	/** Full type for a short name: our package first, then n8n-nodes-base. */
	expandType(type) {
		if (type.includes('.')) return type;
		const { pkg, base, packageName, listedNodes } = this.loaded;
		if (type in pkg.nodeTypes || listedNodes.some((n) => n.name === type)) return `${packageName}.${type}`;
		if (type in base.known.nodes) return `${BASE_PACKAGE}.${type}`;
		throw new Error(`Unknown node type "${type}" (neither ${packageName}.${type} nor ${BASE_PACKAGE}.${type})`);
	}

	/** The version a new node of this type gets in the editor. */
	latestVersion(type) {
		const nodeType = this.getByName(type);
		if ('nodeVersions' in nodeType) return nodeType.description.defaultVersion ?? nodeType.currentVersion;
		const v = nodeType.description.version;
		return Array.isArray(v) ? Math.max(...v) : v;
	}

	/** Credential type names a node (at a version) declares. */
	credentialNames(type, version) {
		try {
			const nodeType = this.getByNameAndVersion(type, version);
			return (nodeType.description.credentials || []).map((c) => c.name);
		} catch {
			return [];
		}
	}
}

/** ICredentialTypes-like lookup over this package and n8n-nodes-base. */
class HarnessCredentialTypes {
	constructor(loaded) {
		this.loaded = loaded;
	}

	recognizes(name) {
		const { pkg, base } = this.loaded;
		return name in pkg.credentialTypes || name in base.known.credentials;
	}

	getByName(name) {
		const { pkg, base } = this.loaded;
		if (name in pkg.credentialTypes) return pkg.credentialTypes[name].type;
		if (name in base.known.credentials) return base.getCredential(name).type;
		throw new Error(`Unknown credential type "${name}"`);
	}

	getParentTypes(name) {
		const parents = this.getByName(name).extends || [];
		return parents.flatMap((p) => [p, ...this.getParentTypes(p)]);
	}

	getSupportedNodes(name) {
		const { pkg, base, packageName } = this.loaded;
		if (name in pkg.known.credentials) {
			return (pkg.known.credentials[name].supportedNodes || []).map((n) => `${packageName}.${n}`);
		}
		return ((base.known.credentials[name] || {}).supportedNodes || []).map((n) => `${BASE_PACKAGE}.${n}`);
	}
}

module.exports = { loadPackages, HarnessNodeTypes, HarnessCredentialTypes, ROOT, BASE_PACKAGE };
