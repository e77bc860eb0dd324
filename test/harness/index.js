// @ts-check
'use strict';
/**
 * Engine-level test harness: runs workflow JSON through n8n-core's
 * WorkflowExecute with this package loaded by n8n-core's own package loader.
 *
 *   const { createHarness } = require('./test/harness');
 *   const h = await createHarness();            // starts the emulator if it exists
 *   const r = await h.run(h.chain([{ type: 'accessPointRegistration', parameters: {...} }]));
 *   r.output('AccessPoint Registration');       // json of output 0
 *   await h.close();
 *
 * This file assembles the modules (README.md lists them); their JSDoc is the
 * harness's types (no .d.ts).
 */
const path = require('node:path');

const { boot } = require('./env');
const { loadPackages } = require('./loader');
const { CREDENTIAL_TYPE } = require('./credentials');
const { chain, uuid } = require('./workflow');
const { request } = require('./http');
const { formatResult } = require('./print');
const { createContext, closeContext } = require('./context');
const { chainWorkflow } = require('./naming');
const { getRecord } = require('./records');
const { expire } = require('./engine');
const { normalize, run, runNode } = require('./run');
const { poller, pollOnce } = require('./poll');
const { waitForResume, resume, browse, checkResumeUrl } = require('./waiting');

/** @typedef {import('./context').HarnessOptions} HarnessOptions */
/** @typedef {import('./credentials').AccessPointCredentialData} AccessPointCredentialData */
/** @typedef {import('./workflow').WorkflowJson} WorkflowJson */
/** @typedef {import('./workflow').ChainStep} ChainStep */
/** @typedef {import('./run').RunOptions} RunOptions */
/** @typedef {import('./run').ItemInput} ItemInput */
/** @typedef {import('./result').HarnessResult} HarnessResult */
/** @typedef {import('./result').WaitingInfo} WaitingInfo */
/** @typedef {import('./poll').Poller} Poller */
/** @typedef {import('./poll').PollerOptions} PollerOptions */
/** @typedef {import('./poll').PollOptions} PollOptions */
/** @typedef {import('./poll').PollResult} PollResult */
/** @typedef {import('./waiting').ResumeOptions} ResumeOptions */
/** @typedef {import('./records').ExecutionRef} ExecutionRef */
/** @typedef {import('./http').HttpResponse} HttpResponse */
/** @typedef {import('./loader').LoadedPackages} LoadedPackages */
/** @typedef {import('./registry').HarnessNodeTypes} HarnessNodeTypes */
/** @typedef {import('./registry').HarnessCredentialTypes} HarnessCredentialTypes */
/** @typedef {Awaited<ReturnType<typeof createHarness>>} Harness */

/**
 * Loads the package (dist/) and n8n-nodes-base, starts the emulator (if the
 * package has one) and the harness's server for resume URLs.
 * @param {HarnessOptions} [options]
 */
async function createHarness(options = {}) {
	const t0 = Date.now();
	const ctx = await createContext(options);
	const { loaded, nodeTypes, store } = ctx;
	const harness = {
		/** The emulator the harness started (emulator/index.js owns its type). @type {any} */
		emulator: ctx.emulator,
		loaded,
		nodeTypes,
		credentialTypes: loaded.credentialTypes,
		credentialsHelper: ctx.credentialsHelper,
		/** Base URLs handed to the engine (webhookWaitingBaseUrl points at the harness's own server). */
		urls: ctx.urls,
		packageName: loaded.packageName,
		/** Full type names of this package's loaded nodes. */
		nodeTypeNames: loaded.nodeTypeNames,
		credentialTypeNames: loaded.credentialTypeNames,
		missing: loaded.missing,
		/** What the accessPointApi credential holds. */
		get credentials() {
			return /** @type {AccessPointCredentialData} */ ({ ...(store.get(CREDENTIAL_TYPE) || {}) });
		},
		/**
		 * Merge into a credential's data (default type accessPointApi).
		 * @param {import('n8n-workflow').IDataObject} partial
		 */
		setCredentials(partial, type = CREDENTIAL_TYPE) {
			store.set(type, { ...(store.get(type) || {}), ...partial });
			return { ...store.get(type) };
		},
		/**
		 * Expand a short node type name (`set` -> `n8n-nodes-base.set`).
		 * @param {string} short
		 */
		type: (short) => nodeTypes.expandType(short),
		normalize: normalize.bind(null, ctx),
		/**
		 * Manual Trigger -> step 1 -> step 2 ...
		 * @param {ChainStep[]} steps
		 * @param {{ triggerName?: string, settings?: import('n8n-workflow').IDataObject }} [options]
		 */
		chain: (steps, options) => chainWorkflow(nodeTypes, steps, options),
		run: run.bind(null, ctx),
		runNode: runNode.bind(null, ctx),
		poller: poller.bind(null, ctx),
		poll: pollOnce.bind(null, ctx),
		waitForResume: waitForResume.bind(null, ctx),
		resume: resume.bind(null, ctx),
		browse: browse.bind(null, ctx),
		checkResumeUrl: checkResumeUrl.bind(null, ctx),
		expire: expire.bind(null, ctx),
		/** @param {HarnessResult | ExecutionRef} ref */
		execution: (ref) => {
			const r = getRecord(ctx, ref);
			return { id: r.id, status: r.status, latest: r.latest, data: r.persisted };
		},
		format: formatResult,
		close: () => closeContext(ctx),
		/** ms spent in createHarness (first call in a process includes requiring n8n-core). */
		startupMs: 0,
	};
	harness.startupMs = Date.now() - t0;
	return harness;
}

module.exports = {
	createHarness,
	/** Packages used by the harness's own tests (waitingPackage: node `waitingProbe` that waits like Identification). */
	fixtures: { waitingPackage: path.join(__dirname, 'fixtures', 'waiting-package') },
	/** @type {typeof import('./build').buildIfNeeded} */
	buildIfNeeded: (...args) => require('./build').buildIfNeeded(...args),
	/** @type {typeof import('./build').buildReason} */
	buildReason: (...args) => require('./build').buildReason(...args),
	loadPackages,
	chain,
	formatResult,
	CREDENTIAL_TYPE,
	uuid,
	request,
	boot,
};
