'use strict';
/**
 * An ICredentialsHelper that behaves like n8n's CLI CredentialsHelper for what
 * nodes can observe, with an in-memory store instead of the database:
 *
 * - `getDecrypted` returns the stored data for the credential *type* (any id),
 *   with the type's property defaults applied and non-displayed properties
 *   dropped (`NodeHelpers.getNodeParameters`, as the CLI does), and
 *   expressions in credential values resolved;
 * - `authenticate` runs a function authenticate, or for a generic one resolves
 *   `={{$credentials.x}}` with the workflow's expression engine and writes
 *   `requestOptions[headers|qs|body|auth][key] = value`;
 * - `preAuthentication` only does something for credential types with an
 *   expirable hidden property and a preAuthentication method (as in n8n).
 *
 * Per-run overrides travel on additionalData (`__harnessCredentials`), so one
 * helper serves concurrent runs with different credentials.
 *
 * The store is a Map from credential type to its data (any credential id of
 * that type gets it).
 */
const { boot } = require('./env');

/** The credential type of this package's nodes. */
const CREDENTIAL_TYPE = 'accessPointApi';

/**
 * What the accessPointApi credential holds.
 * @typedef {object} AccessPointCredentialData
 * @property {string} apiKey
 * @property {string} partyId
 * @property {'sandbox' | 'production' | 'custom'} [environment]
 * @property {string} [baseUrl]
 */

/** @typedef {import('n8n-workflow').ICredentialDataDecryptedObject} CredentialData */
/** @typedef {Map<string, CredentialData>} CredentialStore */

/**
 * Data for other credential types for the run, by type name (`credentialTypesOverride`),
 * and accessPointApi data merged over the harness's (`credentialsOverride`).
 * @typedef {object} CredentialOverrides
 * @property {Partial<AccessPointCredentialData>} [credentialsOverride]
 * @property {Record<string, CredentialData>} [credentialTypesOverride]
 */

/**
 * The store a harness starts with: `credentialTypes` by type, accessPointApi =
 * the emulator's credentials with `credentials` merged over them.
 * @param {{ credentials?: Partial<AccessPointCredentialData>, credentialTypes?: Record<string, CredentialData> }} options
 * @param {{ credentials?: CredentialData } | undefined} emulator
 * @returns {CredentialStore}
 */
function createCredentialStore(options, emulator) {
	/** @type {CredentialStore} */
	const store = new Map();
	for (const [type, data] of Object.entries(options.credentialTypes || {})) store.set(type, { ...data });
	const initial = { ...((emulator && emulator.credentials) || {}), ...(options.credentials || {}) };
	if (Object.keys(initial).length) store.set(CREDENTIAL_TYPE, initial);
	return store;
}

/**
 * A run's own credential data (what `getDecrypted` prefers over the store), or undefined.
 * @param {CredentialStore} store
 * @param {CredentialOverrides} overrides
 * @returns {Record<string, CredentialData> | undefined}
 */
function runCredentials(store, { credentialsOverride, credentialTypesOverride }) {
	/** @type {Record<string, CredentialData> | undefined} */
	let data;
	if (credentialsOverride) data = { [CREDENTIAL_TYPE]: { ...(store.get(CREDENTIAL_TYPE) || {}), ...credentialsOverride } };
	if (credentialTypesOverride) data = { ...(data || {}), ...credentialTypesOverride };
	return data;
}

/**
 * Credential types the harness has data for, in the store or for this run: a
 * node declaring one of them gets a reference to it (normalizeWorkflow).
 * @param {CredentialStore} store
 * @param {CredentialOverrides} overrides
 */
function typesWithData(store, { credentialsOverride, credentialTypesOverride }) {
	const types = new Set(store.keys());
	for (const type of Object.keys(credentialTypesOverride || {})) types.add(type);
	if (credentialsOverride) types.add(CREDENTIAL_TYPE);
	return types;
}

function createCredentialsHelper(credentialTypes, store) {
	const { workflow: wf } = boot();
	const { ICredentialsHelper, NodeHelpers, isExpression } = wf;

	const dataFor = (additionalData, type) => {
		const override = additionalData && additionalData.__harnessCredentials;
		if (override && override[type]) return { ...override[type] };
		if (store.has(type)) return { ...store.get(type) };
		return undefined;
	};

	class HarnessCredentialsHelper extends ICredentialsHelper {
		getParentTypes(name) {
			return credentialTypes.getParentTypes(name);
		}

		isCredentialUsableByNode(credentialType, nodeType) {
			try {
				const def = credentialTypes.getByName(credentialType);
				if (!def.restrictToSupportedNodes) return true;
				return credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
			} catch {
				return true;
			}
		}

		async authenticate(credentials, typeName, requestOptions, workflow, node) {
			const credentialType = credentialTypes.getByName(typeName);
			const { authenticate } = credentialType;
			if (!authenticate) return requestOptions;
			if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
			if (authenticate.type !== 'generic') return requestOptions;
			if (!workflow || !node) throw new Error('Workflow and node are required for declarative credential authentication');
			const resolve = (value) => {
				if (!isExpression(value)) return value;
				const out = workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials }, undefined, '');
				return out ? out.toString() : '';
			};
			if (requestOptions.headers === undefined) requestOptions.headers = {};
			for (const [outerKey, entries] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(entries)) {
					if (!requestOptions[outerKey]) requestOptions[outerKey] = {};
					requestOptions[outerKey][resolve(key)] = resolve(value);
				}
			}
			return requestOptions;
		}

		async preAuthentication(helpers, credentials, typeName, node, credentialsExpired) {
			const credentialType = credentialTypes.getByName(typeName);
			const expirable = credentialType.properties.find((p) => p.type === 'hidden' && p.typeOptions && p.typeOptions.expirable === true);
			if (!expirable || typeof credentialType.preAuthentication !== 'function') return undefined;
			if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
			const output = await credentialType.preAuthentication.call(helpers, credentials);
			if (!output || output[expirable.name] === undefined) return undefined;
			const current = store.get(typeName) || {};
			store.set(typeName, { ...current, ...output });
			return Object.assign(credentials, output);
		}

		async runPreAuthentication(helpers, credentials, typeName) {
			const credentialType = credentialTypes.getByName(typeName);
			if (typeof credentialType.preAuthentication !== 'function') return undefined;
			return (await credentialType.preAuthentication.call(helpers, credentials)) || undefined;
		}

		async getCredentials(nodeCredentials, type) {
			const data = store.get(type) || {};
			return {
				id: nodeCredentials && nodeCredentials.id,
				name: nodeCredentials && nodeCredentials.name,
				type,
				getData: async () => ({ ...data }),
				setData: async (d) => store.set(type, { ...d }),
				updateData: async (d) => store.set(type, { ...(store.get(type) || {}), ...d }),
				getDataToSave: () => ({ id: nodeCredentials && nodeCredentials.id, name: nodeCredentials && nodeCredentials.name, type, data: '' }),
			};
		}

		getCredentialsProperties(type) {
			const def = credentialTypes.getByName(type);
			if (!def.extends) return def.properties;
			const combined = [];
			for (const parent of def.extends) NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
			NodeHelpers.mergeNodeProperties(combined, def.properties);
			return combined;
		}

		async getDecrypted(additionalData, nodeCredentials, type, mode, executeData, raw, expressionResolveValues) {
			const stored = dataFor(additionalData, type);
			if (stored === undefined) {
				throw new Error(
					`[harness] no data for credential type "${type}" (node credential ${JSON.stringify(nodeCredentials)}); pass it in createHarness({ credentials }) or run(..., { credentialsOverride })`,
				);
			}
			if (raw === true) return stored;
			let data = NodeHelpers.getNodeParameters(this.getCredentialsProperties(type), stored, true, false, null, null);
			if (stored.oauthTokenData !== undefined) data.oauthTokenData = stored.oauthTokenData;
			const hasExpression = Object.values(data).some((v) => isExpression(v));
			if (hasExpression && expressionResolveValues) {
				const { core } = boot();
				const additionalKeys = core.getAdditionalKeys(additionalData, mode, null, { isCredential: true });
				const r = expressionResolveValues;
				data = r.workflow.expression.getParameterValue(
					data,
					r.runExecutionData,
					r.runIndex,
					r.itemIndex,
					r.node.name,
					r.connectionInputData,
					mode,
					additionalKeys,
					executeData,
					false,
					data,
				);
			}
			return data;
		}

		async updateCredentials(nodeCredentials, type, data) {
			store.set(type, { ...data });
		}

		async updateCredentialsOauthTokenData(nodeCredentials, type, data) {
			store.set(type, { ...(store.get(type) || {}), oauthTokenData: data.oauthTokenData });
		}
	}

	return new HarnessCredentialsHelper();
}

module.exports = { createCredentialsHelper, createCredentialStore, runCredentials, typesWithData, CREDENTIAL_TYPE };
