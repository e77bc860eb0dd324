// @ts-check
'use strict';
/**
 * Credential data the harness hands to nodes: a store from credential type to
 * its data (any credential id of that type gets it), accessPointApi filled from
 * the emulator, and per-run overrides. credentials-helper.js serves it to n8n.
 */

/** The credential type of this package's nodes. */
const CREDENTIAL_TYPE = 'accessPointApi';

/**
 * @typedef {object} AccessPointCredentialFields
 * @property {string} apiKey
 * @property {string} partyId
 * @property {'sandbox' | 'production' | 'custom'} [environment]
 * @property {string} [baseUrl]
 */
/**
 * What the accessPointApi credential holds.
 * @typedef {AccessPointCredentialFields & Record<string, unknown>} AccessPointCredentialData
 */

/** @typedef {import('n8n-workflow').ICredentialDataDecryptedObject} CredentialData */
/** @typedef {Map<string, import('n8n-workflow').IDataObject>} CredentialStore */

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
	const initial = /** @type {import('n8n-workflow').IDataObject} */ ({ ...((emulator && emulator.credentials) || {}), ...(options.credentials || {}) });
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
	if (credentialsOverride) data = { [CREDENTIAL_TYPE]: /** @type {CredentialData} */ ({ ...(store.get(CREDENTIAL_TYPE) || {}), ...credentialsOverride }) };
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

module.exports = { createCredentialStore, runCredentials, typesWithData, CREDENTIAL_TYPE };
