// @ts-check
'use strict';
/**
 * Node and credential types by name over the two loaded packages (this one and
 * n8n-nodes-base), as n8n addresses them: `<packageName>.<name>`. A short
 * name (`accessPointOrder`, `set`) is expanded to this package's type first.
 */

const BASE_PACKAGE = 'n8n-nodes-base';

/** @typedef {import('./loader').Packages} Packages */
/** @typedef {import('n8n-workflow').INodeType} INodeType */
/** @typedef {import('n8n-workflow').IVersionedNodeType} IVersionedNodeType */
/** @typedef {import('n8n-workflow').ICredentialType} ICredentialType */
/** @typedef {import('n8n-workflow').INodeTypes} INodeTypes */

/**
 * INodeTypes over this package and n8n-nodes-base.
 * @implements {INodeTypes}
 */
class HarnessNodeTypes {
	/**
	 * @param {Packages} loaded
	 * @param {typeof import('n8n-workflow')} workflowLib
	 */
	constructor(loaded, workflowLib) {
		this.loaded = loaded;
		this.NodeHelpers = workflowLib.NodeHelpers;
	}

	/**
	 * `<package>.<name>` -> its parts (pkgName undefined for a short name).
	 * @param {string} type
	 */
	split(type) {
		const dot = type.lastIndexOf('.');
		if (dot < 0) return { pkgName: undefined, name: type };
		return { pkgName: type.slice(0, dot), name: type.slice(dot + 1) };
	}

	/**
	 * @param {string} type full type name
	 * @returns {INodeType | IVersionedNodeType}
	 */
	getByName(type) {
		const { pkg, base, packageName, listedNodes, missing } = this.loaded;
		const { pkgName, name } = this.split(type);
		if (pkgName === packageName) {
			if (name in pkg.nodeTypes) return pkg.nodeTypes[name].type;
			// n8n's `<name>Tool` variant of a usableAsTool node (the AI Agent's tool): the same execute in the
			// same kind of context; n8n changes only its description (an ai_tool output), kept main here.
			const base = name.replace(/Tool$/, '');
			if (base !== name && pkg.nodeTypes[base]?.type.description.usableAsTool) return pkg.nodeTypes[base].type;
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

	/**
	 * @param {string} type full type name
	 * @param {number} [version] default: the latest
	 * @returns {INodeType}
	 */
	getByNameAndVersion(type, version) {
		return this.NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	}

	getKnownTypes() {
		const { pkg, base, packageName } = this.loaded;
		/** @type {import('n8n-workflow').IDataObject} */
		const known = {};
		for (const [n, v] of Object.entries(pkg.known.nodes)) known[`${packageName}.${n}`] = v;
		for (const [n, v] of Object.entries(base.known.nodes)) known[`${BASE_PACKAGE}.${n}`] = v;
		return known;
	}

	/**
	 * Full type for a short name: our package first, then n8n-nodes-base
	 * (`accessPointOrder` -> `n8n-nodes-access-point.accessPointOrder`, `set` -> `n8n-nodes-base.set`).
	 * @param {string} type
	 * @returns {string}
	 */
	expandType(type) {
		if (type.includes('.')) return type;
		const { pkg, base, packageName, listedNodes } = this.loaded;
		if (type in pkg.nodeTypes || type.replace(/Tool$/, '') in pkg.nodeTypes || listedNodes.some((n) => n.name === type)) return `${packageName}.${type}`;
		if (type in base.known.nodes) return `${BASE_PACKAGE}.${type}`;
		throw new Error(`Unknown node type "${type}" (neither ${packageName}.${type} nor ${BASE_PACKAGE}.${type})`);
	}

	/**
	 * The version a new node of this type gets in the editor.
	 * @param {string} type full type name
	 * @returns {number}
	 */
	latestVersion(type) {
		const nodeType = this.getByName(type);
		if ('nodeVersions' in nodeType) return nodeType.description.defaultVersion ?? nodeType.currentVersion;
		const v = nodeType.description.version;
		return Array.isArray(v) ? Math.max(...v) : v;
	}

	/**
	 * Credential type names a node (at a version) declares.
	 * @param {string} type full type name
	 * @param {number} [version]
	 * @returns {string[]}
	 */
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
	/** @param {Packages} loaded */
	constructor(loaded) {
		this.loaded = loaded;
	}

	/** @param {string} name */
	recognizes(name) {
		const { pkg, base } = this.loaded;
		return name in pkg.credentialTypes || name in base.known.credentials;
	}

	/**
	 * @param {string} name
	 * @returns {ICredentialType}
	 */
	getByName(name) {
		const { pkg, base } = this.loaded;
		if (name in pkg.credentialTypes) return pkg.credentialTypes[name].type;
		if (name in base.known.credentials) return base.getCredential(name).type;
		throw new Error(`Unknown credential type "${name}"`);
	}

	/**
	 * The types it extends, transitively.
	 * @param {string} name
	 * @returns {string[]}
	 */
	getParentTypes(name) {
		const parents = this.getByName(name).extends || [];
		return parents.flatMap((p) => [p, ...this.getParentTypes(p)]);
	}

	/**
	 * Full type names of the nodes the credential is restricted to.
	 * @param {string} name
	 * @returns {string[]}
	 */
	getSupportedNodes(name) {
		const { pkg, base, packageName } = this.loaded;
		if (name in pkg.known.credentials) {
			return (pkg.known.credentials[name].supportedNodes || []).map((n) => `${packageName}.${n}`);
		}
		return ((base.known.credentials[name] || {}).supportedNodes || []).map((n) => `${BASE_PACKAGE}.${n}`);
	}
}

module.exports = { HarnessNodeTypes, HarnessCredentialTypes, BASE_PACKAGE };
