// @ts-check
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
 */
const { boot } = require('./env');

/** n8n 2.x's OAUTH_PINNED_FIELDS (cli oauth/dcr-managed-fields). */
const OAUTH_PINNED_FIELDS = [
	'useDynamicClientRegistration',
	'authUrl',
	'accessTokenUrl',
	'grantType',
	'authentication',
	'usePkce',
	'requestTokenUrl',
	'signatureMethod',
];

/** @typedef {import('./credentials').CredentialData} CredentialData */
/** @typedef {import('./credentials').CredentialStore} CredentialStore */
/** @typedef {import('n8n-workflow').IDataObject} IDataObject */
/** @typedef {import('n8n-workflow').INode} INode */
/** @typedef {import('n8n-workflow').INodeCredentialsDetails} INodeCredentialsDetails */
/** @typedef {import('n8n-workflow').IHttpRequestHelper} IHttpRequestHelper */
/** @typedef {import('n8n-workflow').IHttpRequestOptions} IHttpRequestOptions */
/** @typedef {import('n8n-workflow').INodeProperties} INodeProperties */

/**
 * @param {import('./registry').HarnessCredentialTypes} credentialTypes
 * @param {CredentialStore} store
 */
function createCredentialsHelper(credentialTypes, store) {
	const { workflow: wf } = boot();
	const { ICredentialsHelper, NodeHelpers, isExpression } = wf;

	/**
	 * The run's override (see runCredentials), else the store's data; a copy.
	 * @param {any} additionalData
	 * @param {string} type
	 * @returns {IDataObject | undefined}
	 */
	const dataFor = (additionalData, type) => {
		const override = additionalData && additionalData.__harnessCredentials;
		if (override && override[type]) return { ...override[type] };
		if (store.has(type)) return { ...store.get(type) };
		return undefined;
	};

	class HarnessCredentialsHelper extends ICredentialsHelper {
		/** @param {string} name */
		getParentTypes(name) {
			return credentialTypes.getParentTypes(name);
		}

		/** @param {string} credentialType @param {string} nodeType */
		isCredentialUsableByNode(credentialType, nodeType) {
			try {
				const def = credentialTypes.getByName(credentialType);
				if (!def.restrictToSupportedNodes) return true;
				return credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
			} catch {
				return true;
			}
		}

		/**
		 * @param {CredentialData} credentials
		 * @param {string} typeName
		 * @param {any} requestOptions IHttpRequestOptions (or 1.x's IRequestOptionsSimplified)
		 * @param {import('n8n-workflow').Workflow} [workflow]
		 * @param {INode} [node]
		 * @returns {Promise<IHttpRequestOptions>}
		 */
		async authenticate(credentials, typeName, requestOptions, workflow, node) {
			const credentialType = credentialTypes.getByName(typeName);
			const { authenticate } = credentialType;
			if (!authenticate) return requestOptions;
			if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
			if (authenticate.type !== 'generic') return requestOptions;
			if (!workflow || !node) throw new Error('Workflow and node are required for declarative credential authentication');
			/** @param {string} value */
			const resolve = (value) => {
				if (!isExpression(value)) return value;
				const out = workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials }, undefined, '');
				return out ? out.toString() : '';
			};
			if (requestOptions.headers === undefined) requestOptions.headers = {};
			for (const [outerKey, entries] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(/** @type {Record<string, string>} */ (entries))) {
					if (!requestOptions[outerKey]) requestOptions[outerKey] = {};
					requestOptions[outerKey][resolve(key)] = resolve(value);
				}
			}
			return requestOptions;
		}

		/**
		 * @param {IHttpRequestHelper} helpers
		 * @param {CredentialData} credentials
		 * @param {string} typeName
		 * @param {INode} node
		 * @param {boolean} credentialsExpired
		 * @returns {Promise<CredentialData | undefined>}
		 */
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

		/**
		 * @param {IHttpRequestHelper} helpers
		 * @param {CredentialData} credentials
		 * @param {string} typeName
		 * @returns {Promise<CredentialData | undefined>}
		 */
		async runPreAuthentication(helpers, credentials, typeName) {
			const credentialType = credentialTypes.getByName(typeName);
			if (typeof credentialType.preAuthentication !== 'function') return undefined;
			return /** @type {CredentialData | undefined} */ ((await credentialType.preAuthentication.call(helpers, credentials)) || undefined);
		}

		/**
		 * @param {INodeCredentialsDetails} nodeCredentials
		 * @param {string} type
		 * @returns {Promise<any>} ICredentials (only what nodes call)
		 */
		async getCredentials(nodeCredentials, type) {
			const data = store.get(type) || {};
			return {
				id: nodeCredentials && nodeCredentials.id,
				name: nodeCredentials && nodeCredentials.name,
				type,
				getData: async () => ({ ...data }),
				setData: async (/** @type {CredentialData} */ d) => store.set(type, { ...d }),
				updateData: async (/** @type {CredentialData} */ d) => store.set(type, { ...(store.get(type) || {}), ...d }),
				getDataToSave: () => ({ id: nodeCredentials && nodeCredentials.id, name: nodeCredentials && nodeCredentials.name, type, data: '' }),
			};
		}

		/**
		 * The type's properties with those of the types it extends.
		 * @param {string} type
		 * @returns {INodeProperties[]}
		 */
		getCredentialsProperties(type) {
			const def = credentialTypes.getByName(type);
			if (!def.extends) return def.properties;
			/** @type {INodeProperties[]} */
			const combined = [];
			for (const parent of def.extends) NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
			NodeHelpers.mergeNodeProperties(combined, def.properties);
			return combined;
		}

		/**
		 * @param {any} additionalData IWorkflowExecuteAdditionalData
		 * @param {INodeCredentialsDetails} nodeCredentials
		 * @param {string} type
		 * @param {import('n8n-workflow').WorkflowExecuteMode} mode
		 * @param {import('n8n-workflow').IExecuteData} [executeData]
		 * @param {boolean} [raw]
		 * @param {import('n8n-workflow').ICredentialsExpressionResolveValues} [expressionResolveValues]
		 * @returns {Promise<CredentialData>}
		 */
		async getDecrypted(additionalData, nodeCredentials, type, mode, executeData, raw, expressionResolveValues) {
			const stored = dataFor(additionalData, type);
			if (stored === undefined) {
				throw new Error(
					`[harness] no data for credential type "${type}" (node credential ${JSON.stringify(nodeCredentials)}); pass it in createHarness({ credentials }) or run(..., { credentialsOverride })`,
				);
			}
			if (raw === true) return /** @type {CredentialData} */ (stored);
			const properties = this.getCredentialsProperties(type);
			// As n8n 2.x: a stored value of these OAuth fields counts only where the type lets the user edit them.
			for (const field of OAUTH_PINNED_FIELDS) {
				if (properties.some((p) => p.name === field && p.type === 'hidden')) delete stored[field];
			}
			/** @type {any} */
			let data = NodeHelpers.getNodeParameters(properties, /** @type {any} */ (stored), true, false, null, null);
			if (stored.oauthTokenData !== undefined) data.oauthTokenData = stored.oauthTokenData;
			const hasExpression = Object.values(data).some((v) => isExpression(v));
			if (hasExpression && !expressionResolveValues) {
				// As n8n's CLI: without a running node (poll, hook, load options) the credential's own
				// expressions are resolved on a throwaway workflow, `$self` being the credential's data.
				const { core, workflow: wfModule } = boot();
				const additionalKeys = core.getAdditionalKeys(additionalData, mode, null, { isCredential: true });
				const mockNode = {
					id: 'harness-credential',
					name: 'mock',
					type: 'mock',
					typeVersion: 1,
					position: /** @type {[number, number]} */ ([0, 0]),
					parameters: {},
				};
				const nodeTypesStub = /** @type {any} */ ({ getByName: () => undefined, getByNameAndVersion: () => undefined, getKnownTypes: () => ({}) });
				const mock = new wfModule.Workflow({ nodes: [mockNode], connections: {}, active: false, nodeTypes: nodeTypesStub });
				data = mock.expression.getComplexParameterValue(mockNode, data, mode, additionalKeys, undefined, undefined, data);
			}
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

		/**
		 * @param {INodeCredentialsDetails} nodeCredentials
		 * @param {string} type
		 * @param {CredentialData} data
		 */
		async updateCredentials(nodeCredentials, type, data) {
			store.set(type, { ...data });
		}

		/**
		 * Where n8n saves refreshed tokens: the store, and the run's own data when the run has one
		 * for this type (else the run's next request would send the old token again).
		 * @param {INodeCredentialsDetails} nodeCredentials
		 * @param {string} type
		 * @param {CredentialData} data
		 * @param {any} [additionalData]
		 */
		async updateCredentialsOauthTokenData(nodeCredentials, type, data, additionalData) {
			store.set(type, { ...(store.get(type) || {}), oauthTokenData: data.oauthTokenData });
			const override = additionalData && additionalData.__harnessCredentials;
			if (override && override[type]) override[type] = { ...override[type], oauthTokenData: data.oauthTokenData };
		}
	}

	return new HarnessCredentialsHelper();
}

module.exports = { createCredentialsHelper };
