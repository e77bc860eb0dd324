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
 * See index.d.ts for the full API.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const { boot } = require('./env');
const { loadPackages, ROOT } = require('./loader');
const { createCredentialsHelper } = require('./credentials');
const { normalizeWorkflow, chain, clone, uuid, defaultName, MANUAL_TRIGGER } = require('./workflow');
const { HarnessResult } = require('./result');
const { expressRequest, expressResponse, respond, request } = require('./http');
const { formatResult } = require('./print');

const CREDENTIAL_TYPE = 'accessPointApi';
const WAITING_PATH = '/webhook-waiting';
/** The longest wait the harness schedules a timeout for (n8n's WaitTracker has no limit; tests do). */
const MAX_AUTO_EXPIRE_MS = 10 * 60 * 1000;

let executionCounter = 0;

function loadEmulatorModule(root) {
	const file = path.join(root, 'emulator', 'index.js');
	if (!fs.existsSync(file)) return undefined;
	return require(file);
}

/** JSON round trip, like n8n persisting an execution to its database (circular references replaced). */
function persist(runExecutionData) {
	const { workflow: wf } = boot();
	const copy = JSON.parse(wf.jsonStringify(runExecutionData, { replaceCircularRefs: true }));
	if (copy.waitTill) copy.waitTill = new Date(copy.waitTill);
	return copy;
}

function resolveExecutionId(ref) {
	if (ref === undefined || ref === null) throw new Error('Pass a result, an execution id or { executionId }');
	if (typeof ref === 'string' || typeof ref === 'number') return String(ref);
	if (ref.executionId !== undefined) return String(ref.executionId);
	throw new Error('Pass a result, an execution id or { executionId }');
}

/**
 * @param {object} [options]
 * @param {object|false} [options.emulator] options for createEmulator (default {}: start one on port 0), or false
 * @param {object} [options.credentials] accessPointApi data (merged over the emulator's)
 * @param {object} [options.credentialTypes] data for other credential types, by type name
 * @param {boolean} [options.allowMissingNodes=true] skip node files not built yet (with a warning)
 * @param {boolean} [options.waitTracker=true] expire waiting executions when their waitTill passes (if within 10 min)
 * @param {string} [options.root] package root (default: this repo)
 */
async function createHarness(options = {}) {
	const t0 = Date.now();
	const root = path.resolve(options.root || ROOT);
	const loaded = await loadPackages({ root, allowMissingNodes: options.allowMissingNodes, reload: options.reload, quiet: options.quiet });
	const { env, nodeTypes, credentialTypes } = loaded;
	const { core, workflow: wf, Container } = env;

	// --- emulator --------------------------------------------------------------
	let emulator;
	if (options.emulator !== false) {
		const mod = loadEmulatorModule(root);
		if (mod && typeof mod.createEmulator === 'function') {
			emulator = await mod.createEmulator({ port: 0, ...(options.emulator || {}) });
		} else if (options.emulator) {
			throw new Error('[harness] emulator options were given but emulator/index.js (createEmulator) does not exist yet');
		}
	}

	// --- credentials -----------------------------------------------------------
	const store = new Map();
	for (const [type, data] of Object.entries(options.credentialTypes || {})) store.set(type, { ...data });
	const initial = { ...((emulator && emulator.credentials) || {}), ...(options.credentials || {}) };
	if (Object.keys(initial).length) store.set(CREDENTIAL_TYPE, initial);
	const credentialsHelper = createCredentialsHelper(credentialTypes, store);

	// --- waiting-webhook server -------------------------------------------------
	const executions = new Map();
	const server = http.createServer((req, res) => {
		handleHttp(req, res).catch((error) => {
			if (!res.headersSent) {
				res.statusCode = 500;
				res.setHeader('Content-Type', 'application/json');
			}
			if (!res.writableEnded) res.end(JSON.stringify({ code: 500, message: error.message }));
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	// A test that fails before close() must not keep jest (or a script) alive.
	server.unref();
	const baseUrl = `http://127.0.0.1:${server.address().port}`;
	const urls = {
		instanceBaseUrl: baseUrl,
		restApiUrl: `${baseUrl}/rest`,
		webhookBaseUrl: `${baseUrl}/webhook`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test`,
		webhookWaitingBaseUrl: `${baseUrl}${WAITING_PATH}`,
		formBaseUrl: `${baseUrl}/form`,
		formTestBaseUrl: `${baseUrl}/form-test`,
		formWaitingBaseUrl: `${baseUrl}/form-waiting`,
		mcpBaseUrl: `${baseUrl}/mcp`,
		mcpTestBaseUrl: `${baseUrl}/mcp-test`,
	};

	let closed = false;
	const timers = new Set();

	// --- engine plumbing --------------------------------------------------------
	function credentialTypesWithData(override) {
		const set = new Set(store.keys());
		for (const k of Object.keys(override || {})) set.add(k);
		return set;
	}

	function makeAdditionalData(record, hooks, extra = {}) {
		return {
			...urls,
			credentialsHelper,
			hooks,
			executionId: record.id,
			workflowId: record.workflowId,
			userId: 'harness-user',
			variables: {},
			currentNodeExecutionIndex: 0,
			executeWorkflow: async () => {
				throw new Error('[harness] sub-workflow execution (Execute Workflow node) is not supported');
			},
			getRunExecutionData: async (id) => (executions.get(String(id)) || {}).persisted,
			getRuntimeCredential: async () => undefined,
			startRunnerTask: async () => {
				throw new Error('[harness] this node needs an n8n task runner (e.g. the Code node), which the harness does not provide');
			},
			logAiEvent: () => {},
			sendDataToUI: () => {},
			setExecutionStatus: () => {},
			__harnessCredentials: record.credentialsOverride,
			...extra,
		};
	}

	function createWorkflowInstance(record) {
		const json = record.workflowJson;
		const workflow = new wf.Workflow({
			id: record.workflowId,
			name: json.name || 'Harness workflow',
			nodes: clone(json.nodes),
			connections: clone(json.connections),
			active: record.mode !== 'manual',
			nodeTypes,
			// A plain copy: Workflow wraps static data in an ObservableObject proxy.
			staticData: clone(record.staticData),
			settings: clone(json.settings),
			pinData: clone(json.pinData),
		});
		record.staticData = workflow.staticData;
		return workflow;
	}

	function createHooks(record, workflow) {
		const hooks = new core.ExecutionLifecycleHooks(record.mode, record.id, {
			id: record.workflowId,
			name: workflow.name,
			nodes: record.workflowJson.nodes,
			connections: record.workflowJson.connections,
			active: false,
			settings: record.workflowJson.settings,
			createdAt: new Date(),
			updatedAt: new Date(),
		});
		hooks.addHandler('nodeExecuteAfter', (nodeName) => {
			record.executedNodes.push(nodeName);
		});
		return hooks;
	}

	/** Runs (or continues) an execution and records its outcome. */
	async function execute(record, { runExecutionData, startNode, pinData, restart = false } = {}) {
		record.status = 'running';
		let additionalData = makeAdditionalData(record, undefined);
		let run;
		try {
			// Inside the try: the Workflow constructor applies parameter defaults and
			// throws on parameter data that does not fit the node's properties.
			const workflow = createWorkflowInstance(record);
			const hooks = createHooks(record, workflow);
			additionalData = makeAdditionalData(record, hooks, restart ? { restartExecutionId: record.id } : {});
			const workflowExecute = new core.WorkflowExecute(additionalData, record.mode, runExecutionData);
			if (runExecutionData) {
				run = await workflowExecute.processRunExecutionData(workflow);
			} else {
				const node = startNode ? workflow.getNode(startNode) : undefined;
				if (startNode && !node) throw new Error(`Start node "${startNode}" not found`);
				// n8n-core 2.x takes one options object; 1.x takes (workflow, startNode, destinationNode, pinData).
				run =
					core.WorkflowExecute.prototype.run.length > 1
						? await workflowExecute.run(workflow, node || undefined, undefined, pinData)
						: await workflowExecute.run({ workflow, startNode: node || undefined, pinData });
			}
		} catch (error) {
			// Thrown before the engine produced a run: WorkflowHasIssuesError (a required
			// parameter is empty or invalid: n8n refuses to start), bad parameter data, ...
			run = {
				data: runExecutionData || emptyRunExecutionData(),
				mode: record.mode,
				startedAt: new Date(),
				stoppedAt: new Date(),
				status: 'error',
			};
			run.data.resultData.error = { ...error, message: error.message, stack: error.stack, name: error.name };
			run.thrown = error;
		}
		return finalize(record, run, additionalData);
	}

	/** An empty run (n8n-workflow 2.x has a factory for it; 1.x has not). */
	function emptyRunExecutionData() {
		if (typeof wf.createRunExecutionData === 'function') return wf.createRunExecutionData();
		return { startData: {}, resultData: { runData: {} }, executionData: { contextData: {}, nodeExecutionStack: [], metadata: {}, waitingExecution: {}, waitingExecutionSource: {} } };
	}

	function finalize(record, run, additionalData) {
		record.generation += 1;
		let waiting;
		if (run.status === 'waiting' && run.data.waitTill) {
			const keys = core.getAdditionalKeys(additionalData, record.mode, run.data);
			waiting = {
				executionId: record.id,
				nodeName: run.data.resultData.lastNodeExecuted,
				resumeUrl: keys.$execution.resumeUrl,
				waitTill: new Date(run.data.waitTill),
			};
			record.persisted = persist(run.data);
			record.status = 'waiting';
			scheduleExpiry(record, waiting.waitTill);
		} else {
			record.persisted = persist(run.data);
			record.status = run.status;
		}
		const result = new HarnessResult(run, {
			executionId: record.id,
			workflow: record.workflowJson,
			executedNodes: [...record.executedNodes],
			waiting,
		});
		result.generation = record.generation;
		record.latest = result;
		const waiters = record.waiters.splice(0);
		for (const w of waiters) w.resolve(result);
		settleAttempts(record, result);
		return result;
	}

	function scheduleExpiry(record, waitTill) {
		if (options.waitTracker === false) return;
		const delay = waitTill.getTime() - Date.now();
		if (delay > MAX_AUTO_EXPIRE_MS) return;
		const generation = record.generation;
		const timer = setTimeout(
			() => {
				timers.delete(timer);
				if (closed || record.status !== 'waiting' || record.generation !== generation) return;
				expire(record.id).catch(() => {});
			},
			Math.max(0, delay),
		);
		timer.unref();
		timers.add(timer);
	}

	function newRecord(workflowJson, runOptions = {}) {
		const id = String(++executionCounter);
		const record = {
			id,
			workflowId: workflowJson.id || `harness-wf-${id}`,
			workflowJson,
			mode: runOptions.mode || 'manual',
			staticData: clone(runOptions.staticData) || {},
			credentialsOverride: runOptions.credentialsOverride
				? { [CREDENTIAL_TYPE]: { ...(store.get(CREDENTIAL_TYPE) || {}), ...runOptions.credentialsOverride } }
				: undefined,
			executedNodes: [],
			waiters: [],
			attempts: [],
			generation: 0,
			status: 'new',
		};
		if (runOptions.credentialTypesOverride) {
			record.credentialsOverride = { ...(record.credentialsOverride || {}), ...runOptions.credentialTypesOverride };
		}
		executions.set(id, record);
		return record;
	}

	function normalize(workflowJson, runOptions = {}) {
		const override = { ...(runOptions.credentialTypesOverride || {}) };
		if (runOptions.credentialsOverride) override[CREDENTIAL_TYPE] = runOptions.credentialsOverride;
		return normalizeWorkflow(workflowJson, { nodeTypes, credentialTypesWithData: credentialTypesWithData(override) });
	}

	// --- public: running ----------------------------------------------------------
	async function run(workflowJson, runOptions = {}) {
		const json = normalize(workflowJson, runOptions);
		const record = newRecord(json, runOptions);
		const mode = record.mode;
		const startNode = runOptions.startNode || pickStartNode(json);
		const input = runOptions.input && runOptions.input.map((item) => (item && item.json !== undefined ? item : { json: item }));
		if (!input) return execute(record, { startNode });
		if (mode === 'manual') {
			// The editor way: the start node's output pinned to the given items.
			return execute(record, { startNode, pinData: { ...(json.pinData || {}), [startNode]: input } });
		}
		// The production way (a trigger fired): the start node receives the items as its input.
		const node = json.nodes.find((n) => n.name === startNode);
		const runExecutionData = wf.createRunExecutionData({
			executionData: { nodeExecutionStack: [{ node, data: { main: [input] }, source: null }] },
		});
		return execute(record, { runExecutionData });
	}

	function pickStartNode(json) {
		const byType = (pred) => json.nodes.filter((n) => !n.disabled && pred(n));
		const manual = byType((n) => n.type === MANUAL_TRIGGER);
		if (manual.length) return manual[0].name;
		const triggers = byType((n) => {
			try {
				const d = nodeTypes.getByNameAndVersion(n.type, n.typeVersion).description;
				return d.group.includes('trigger') || d.polling === true || n.type.endsWith('Trigger');
			} catch {
				return false;
			}
		});
		if (triggers.length) return triggers[0].name;
		return undefined; // let n8n-core pick (Workflow.getStartNode)
	}

	/** The name the editor gives a new node of this type (description.defaults.name). */
	function editorName(type) {
		try {
			const d = nodeTypes.getByName(type).description;
			return (d.defaults && d.defaults.name) || d.displayName || defaultName(type);
		} catch {
			return defaultName(type);
		}
	}

	function chainWorkflow(steps, chainOptions = {}) {
		return chain(
			steps.map((s) => ({ ...s, type: nodeTypes.expandType(s.type) })),
			{ nameFor: editorName, ...chainOptions },
		);
	}

	async function runNode(type, parameters = {}, inputItems, nodeOptions = {}) {
		const step = { ...nodeOptions, type, parameters };
		const json = chainWorkflow([step]);
		const result = await run(json, { ...(nodeOptions.runOptions || {}), input: inputItems || [{ json: {} }] });
		result.nodeName = json.nodes[1].name;
		return result;
	}

	// --- public: polling ----------------------------------------------------------
	function poller(nodeOrWorkflow, pollOptions = {}) {
		let workflowJson;
		let nodeName;
		if (Array.isArray(nodeOrWorkflow && nodeOrWorkflow.nodes)) {
			workflowJson = nodeOrWorkflow;
			nodeName = pollOptions.nodeName;
		} else {
			const n = nodeOrWorkflow || {};
			workflowJson = {
				nodes: [{ ...n, name: n.name || editorName(nodeTypes.expandType(n.type || '')), parameters: n.parameters || {} }],
				connections: {},
			};
			nodeName = workflowJson.nodes[0].name;
		}
		const json = normalize(workflowJson, pollOptions);
		if (!nodeName) {
			const polling = json.nodes.find((n) => {
				try {
					return nodeTypes.getByNameAndVersion(n.type, n.typeVersion).description.polling === true;
				} catch {
					return false;
				}
			});
			if (!polling) throw new Error('[harness] no polling node found in the workflow; pass { nodeName }');
			nodeName = polling.name;
		}
		const record = newRecord(json, { ...pollOptions, mode: 'trigger' });
		executions.delete(record.id); // a poller is not an execution
		const workflow = createWorkflowInstance(record);
		const node = workflow.getNode(nodeName);
		if (!node) throw new Error(`[harness] node "${nodeName}" not found`);
		const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		if (typeof nodeType.poll !== 'function') throw new Error(`[harness] node "${nodeName}" (${node.type}) has no poll() method`);

		async function poll(arg) {
			const opts = typeof arg === 'string' ? { mode: arg } : arg || {};
			const mode = opts.mode || pollOptions.mode || 'trigger';
			const hooks = createHooks(record, workflow);
			const additionalData = makeAdditionalData(record, hooks);
			let data = null;
			if (mode === 'manual') {
				// What WorkflowExecute does for a poll node in a manual run ("Fetch test event").
				const context = new core.PollContext(workflow, node, additionalData, 'manual', 'manual');
				data = await nodeType.poll.call(context);
			} else {
				// What n8n's active-workflow manager does on each scheduled poll.
				let emitted = null;
				let emittedError;
				const context = new core.PollContext(
					workflow,
					node,
					additionalData,
					'trigger',
					'activate',
					(d) => {
						emitted = d;
					},
					(e) => {
						emittedError = e;
					},
				);
				if (core.PollTriggerExecutor) {
					const executor = Container.get(core.PollTriggerExecutor);
					await executor.create(workflow, node, context, () => true)(false);
				} else {
					// n8n-core 1.x (no executor exported): the active-workflow manager calls poll()
					// through TriggersAndPollers.runPoll and emits what it returns, or the error.
					try {
						const response = await nodeType.poll.call(context);
						if (response !== null) emitted = response;
					} catch (error) {
						emittedError = error;
					}
				}
				if (emittedError) throw emittedError;
				data = emitted;
			}
			const out = {
				data,
				items: data ? (data[0] || []).map((i) => i.json) : null,
				staticData: clone(workflow.staticData),
				nodeStaticData: clone(workflow.staticData[`node:${node.name}`] || {}),
			};
			if (opts.execute && data) {
				out.execution = await run(json, {
					...pollOptions,
					mode: 'trigger',
					startNode: node.name,
					input: data[0] || [],
					staticData: workflow.staticData,
				});
			}
			return out;
		}

		return {
			node,
			workflow,
			poll,
			get staticData() {
				return clone(workflow.staticData);
			},
			get nodeStaticData() {
				return clone(workflow.staticData[`node:${node.name}`] || {});
			},
		};
	}

	async function pollOnce(nodeOrWorkflow, pollOptions = {}) {
		return poller(nodeOrWorkflow, pollOptions).poll({ mode: pollOptions.mode, execute: pollOptions.execute });
	}

	// --- public: waiting executions ------------------------------------------------
	function getRecord(ref) {
		const id = resolveExecutionId(ref);
		const record = executions.get(id);
		if (!record) throw new Error(`[harness] unknown execution "${id}"`);
		return record;
	}

	function waitForResume(ref, { timeoutMs = 30000 } = {}) {
		const record = getRecord(ref);
		const since = ref && typeof ref === 'object' && ref.generation !== undefined ? ref.generation : record.generation;
		if (record.generation > since && record.status !== 'running') return Promise.resolve(record.latest);
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				const i = record.waiters.indexOf(waiter);
				if (i >= 0) record.waiters.splice(i, 1);
				reject(new Error(`[harness] execution ${record.id} was not resumed within ${timeoutMs} ms (status ${record.status})`));
			}, timeoutMs);
			timer.unref();
			const waiter = {
				resolve: (r) => {
					clearTimeout(timer);
					resolve(r);
				},
				reject: (e) => {
					clearTimeout(timer);
					reject(e);
				},
			};
			record.waiters.push(waiter);
		});
	}

	/** Lets a waiting execution time out now, the way n8n's WaitTracker resumes it. */
	async function expire(ref) {
		const record = getRecord(ref);
		if (record.status !== 'waiting') throw new Error(`[harness] execution ${record.id} is not waiting (status ${record.status})`);
		const runExecutionData = persist(record.persisted);
		if (!runExecutionData.waitTill) runExecutionData.waitTill = new Date();
		return execute(record, { runExecutionData, restart: true });
	}

	/** Makes an HTTP request to the execution's resume URL and waits for the resumed run. */
	async function resume(ref, { query = {}, method = 'GET', body, headers, suffix, url, timeoutMs = 30000 } = {}) {
		const record = getRecord(ref);
		const target = new URL(url || (record.latest && record.latest.resumeUrl) || `${urls.webhookWaitingBaseUrl}/${record.id}`);
		if (suffix) target.pathname = `${target.pathname.replace(/\/$/, '')}/${suffix}`;
		for (const [k, v] of Object.entries(query)) target.searchParams.append(k, String(v));
		const since = record.generation;
		let settle;
		const outcome = new Promise((resolve) => {
			settle = resolve;
		});
		record.attempts.push(settle);
		const response = await request(target.toString(), { method, headers, body });
		let result;
		if (record.generation === since && record.status !== 'running') {
			// Refused (bad token, finished, no matching webhook ...) or the node chose not to resume.
			result = undefined;
		} else {
			let timer;
			const timeout = new Promise((_, reject) => {
				timer = setTimeout(
					() => reject(new Error(`[harness] execution ${record.id} did not finish within ${timeoutMs} ms after the resume request`)),
					timeoutMs,
				);
				timer.unref();
			});
			try {
				result = await Promise.race([outcome, timeout]);
			} finally {
				clearTimeout(timer);
			}
		}
		const i = record.attempts.indexOf(settle);
		if (i >= 0) record.attempts.splice(i, 1);
		return { response, result };
	}

	/** The execution id a URL under webhookWaitingBaseUrl addresses, or undefined. */
	function waitingExecutionOf(url) {
		const u = new URL(url);
		const base = new URL(urls.webhookWaitingBaseUrl);
		if (u.origin !== base.origin || !u.pathname.startsWith(`${base.pathname}/`)) return undefined;
		return decodeURIComponent(u.pathname.slice(base.pathname.length + 1).split('/')[0]);
	}

	/**
	 * Would n8n's waiting-webhook service accept this URL (token check only)?
	 * { valid, executionId?, reason? }
	 */
	function checkResumeUrl(url) {
		const executionId = waitingExecutionOf(url);
		if (executionId === undefined) return { valid: false, reason: 'not a waiting-webhook URL of this harness' };
		const record = executions.get(executionId);
		if (!record || !record.persisted) return { valid: false, executionId, reason: 'unknown execution' };
		const u = new URL(url);
		const req = {
			url: `${u.pathname}${u.search}`,
			headers: { host: u.host },
			query: Object.fromEntries(u.searchParams),
		};
		const valid = validateResumeRequest(record, req);
		return valid ? { valid, executionId } : { valid, executionId, reason: 'Invalid token' };
	}

	/**
	 * GET a URL like a browser: follows redirects (up to maxRedirects) and, when
	 * a hop is a resume URL of this harness, waits for the resumed run.
	 * Resolves { response, result, url } (url: the last one requested).
	 */
	async function browse(url, { maxRedirects = 5, timeoutMs } = {}) {
		let hop = new URL(url).toString();
		for (let i = 0; ; i++) {
			const executionId = waitingExecutionOf(hop);
			if (executionId !== undefined && executions.has(executionId)) {
				const { response, result } = await resume(executionId, { url: hop, timeoutMs });
				return { response, result, url: hop };
			}
			const response = await request(hop);
			const location = response.headers.location;
			if (response.status >= 300 && response.status < 400 && location && i < maxRedirects) {
				hop = new URL(String(location), hop).toString();
				continue;
			}
			return { response, result: undefined, url: hop };
		}
	}

	function settleAttempts(record, result) {
		for (const settle of record.attempts.splice(0)) settle(result);
	}

	async function handleHttp(rawReq, rawRes) {
		const req = await expressRequest(rawReq);
		const res = expressResponse(rawRes);
		if (!req.path.startsWith(`${WAITING_PATH}/`)) {
			return respond(res, { responseCode: 404, data: { code: 404, message: `Not found: ${req.path}` } });
		}
		const [executionId, ...rest] = req.path.slice(WAITING_PATH.length + 1).split('/');
		const suffix = rest.length ? rest.join('/') : undefined;
		return handleWaitingWebhook(req, res, decodeURIComponent(executionId), suffix && decodeURIComponent(suffix));
	}

	/** Token check equivalent to n8n's waiting-webhooks service. */
	function validateResumeRequest(record, req) {
		const data = record.persisted;
		const lastNode = record.workflowJson.nodes.find((n) => n.name === data.resultData.lastNodeExecuted);
		const token = req.query[core.WAITING_TOKEN_QUERY_PARAM];
		if (lastNode && lastNode.parameters && lastNode.parameters.operation === wf.SEND_AND_WAIT_OPERATION) {
			if (!data.validateSignature) return true;
			// HMAC over the whole URL (minus the signature), as getSignedResumeUrl() made it.
			if (typeof token !== 'string') return false;
			const parsed = new URL(req.url, `http://${req.headers.host}`);
			parsed.searchParams.delete(core.WAITING_TOKEN_QUERY_PARAM);
			const expected = core.generateUrlSignature(core.prepareUrlForSigning(parsed), Container.get(core.InstanceSettings).hmacSignatureSecret);
			return safeEqual(token, expected);
		}
		if (!data.resumeToken) return true;
		// $execution.resumeUrl carries ?signature=<resumeToken>; parameters appended later do not matter.
		return typeof token === 'string' && safeEqual(token, data.resumeToken);
	}

	function safeEqual(a, b) {
		const ba = Buffer.from(String(a));
		const bb = Buffer.from(String(b));
		return ba.length === bb.length && crypto.timingSafeEqual(ba, bb);
	}

	function findRestartWebhook(workflow, node, method, suffix) {
		if (node.disabled) return undefined;
		const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		for (const description of nodeType.description.webhooks || []) {
			const restart = workflow.expression.getSimpleParameterValue(node, description.restartWebhook, 'internal', {}, undefined, false);
			if (restart !== true) continue;
			if (description.nodeType === 'form') continue; // forms resume through /form-waiting
			let p = workflow.expression.getSimpleParameterValue(node, description.path, 'internal', {});
			if (p === undefined) continue;
			p = String(p).replace(/^\//, '').replace(/\/$/, '');
			const methods = String(workflow.expression.getSimpleParameterValue(node, description.httpMethod, 'internal', {}, undefined, 'GET'))
				.split(',')
				.map((m) => m.trim());
			if (!methods.includes(method) || p !== (suffix || '')) continue;
			return {
				httpMethod: method,
				node: node.name,
				path: p,
				webhookDescription: description,
				workflowId: workflow.id,
			};
		}
		return undefined;
	}

	async function handleWaitingWebhook(req, res, executionId, suffix) {
		const record = executions.get(executionId);
		if (!record) return respond(res, { responseCode: 404, data: { code: 404, message: `The execution "${executionId}" does not exist.` } });
		if (record.status === 'running') {
			return respond(res, { responseCode: 409, data: { code: 409, message: `The execution "${executionId}" is running already.` } });
		}
		if (record.status !== 'waiting') {
			const message =
				record.persisted && record.persisted.resultData.error
					? `The execution "${executionId}" has finished with error.`
					: `The execution "${executionId} has finished already.`;
			return respond(res, { responseCode: 409, data: { code: 409, message } });
		}
		if (!validateResumeRequest(record, req)) return respond(res, { responseCode: 401, data: { error: 'Invalid token' } });

		const lastNodeExecuted = record.persisted.resultData.lastNodeExecuted;
		const webhookWorkflow = createWorkflowInstance(record);
		const startNode = webhookWorkflow.getNode(lastNodeExecuted);
		const webhookData = startNode && findRestartWebhook(webhookWorkflow, startNode, req.method, suffix);
		if (!webhookData) {
			return respond(res, {
				responseCode: 404,
				data: {
					code: 404,
					message: `The workflow for execution "${executionId}" does not contain a waiting webhook with a matching path/method.`,
				},
			});
		}

		// As n8n's waiting-webhooks service: the waiting node is disabled so it is not
		// executed again, its waiting run is dropped and waitTill is cleared.
		const runExecutionData = persist(record.persisted);
		const stackEntry = runExecutionData.executionData.nodeExecutionStack[0];
		stackEntry.node.disabled = true;
		runExecutionData.waitTill = undefined;
		const runs = runExecutionData.resultData.runData[lastNodeExecuted];
		if (runs && runs.length) runs.pop();

		record.status = 'running';
		const hooks = createHooks(record, webhookWorkflow);
		const additionalData = makeAdditionalData(record, hooks, { httpRequest: req, httpResponse: res });
		webhookData.workflowExecuteAdditionalData = additionalData;
		const nodeType = nodeTypes.getByNameAndVersion(startNode.type, startNode.typeVersion);
		let webhookResult;
		try {
			const context = new core.WebhookContext(webhookWorkflow, startNode, additionalData, record.mode, webhookData, [], runExecutionData);
			webhookResult = nodeType instanceof wf.Node ? await nodeType.webhook(context) : await nodeType.webhook.call(context);
		} catch (error) {
			respond(res, { responseCode: 500, data: { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' } });
			const failed = persist(record.persisted);
			failed.resultData.error = { ...error, message: error.message, stack: error.stack };
			failed.resultData.lastNodeExecuted = lastNodeExecuted;
			return finalize(record, { data: failed, mode: record.mode, startedAt: new Date(), stoppedAt: new Date(), status: 'error' }, additionalData);
		}

		const expr = (value, fallback) =>
			webhookWorkflow.expression.getSimpleParameterValue(startNode, value, record.mode, { $executionId: executionId }, undefined, fallback);
		const responseMode = expr(webhookData.webhookDescription.responseMode, 'onReceived');
		const responseCode = Number(expr(webhookData.webhookDescription.responseCode, 200)) || 200;

		if (webhookResult.workflowData === undefined) {
			// The node decided not to resume (yet): answer and keep waiting.
			record.status = 'waiting';
			settleAttempts(record, undefined);
			if (!webhookResult.noWebhookResponse) {
				respond(res, {
					responseCode,
					data: webhookResult.webhookResponse !== undefined ? webhookResult.webhookResponse : { message: 'Webhook call received' },
				});
			}
			return;
		}
		if (!webhookResult.noWebhookResponse && responseMode === 'onReceived') {
			respond(res, {
				responseCode,
				data: webhookResult.webhookResponse !== undefined ? webhookResult.webhookResponse : { message: 'Workflow was started' },
			});
		}

		stackEntry.data.main = webhookResult.workflowData;
		stackEntry.metadata = { ...(stackEntry.metadata || {}), forwardAllOutputs: true };
		const result = await execute(record, { runExecutionData, restart: true });

		if (!res.writableEnded) {
			if (responseMode === 'lastNode' && !webhookResult.noWebhookResponse) {
				const last = result.lastNodeExecuted;
				const first = last ? result.items(last)[0] : undefined;
				respond(res, { responseCode, data: first ? first.json : {} });
			} else if (!webhookResult.noWebhookResponse) {
				respond(res, { responseCode, data: { message: 'Workflow was started' } });
			} else {
				respond(res, { responseCode: 204 });
			}
		}
		return result;
	}

	// --- public: misc ---------------------------------------------------------------
	async function close() {
		if (closed) return;
		closed = true;
		for (const t of timers) clearTimeout(t);
		timers.clear();
		for (const record of executions.values()) {
			for (const w of record.waiters.splice(0)) w.reject(new Error('[harness] closed'));
		}
		await new Promise((resolve) => server.close(() => resolve()));
		if (typeof server.closeAllConnections === 'function') server.closeAllConnections();
		if (emulator && typeof emulator.close === 'function') await emulator.close();
	}

	const harness = {
		emulator,
		loaded,
		nodeTypes,
		credentialTypes,
		credentialsHelper,
		urls,
		packageName: loaded.packageName,
		/** Full type names of this package's loaded nodes. */
		nodeTypeNames: loaded.nodeTypeNames,
		credentialTypeNames: loaded.credentialTypeNames,
		missing: loaded.missing,
		get credentials() {
			return { ...(store.get(CREDENTIAL_TYPE) || {}) };
		},
		setCredentials(partial, type = CREDENTIAL_TYPE) {
			store.set(type, { ...(store.get(type) || {}), ...partial });
			return { ...store.get(type) };
		},
		type: (short) => nodeTypes.expandType(short),
		normalize,
		chain: chainWorkflow,
		run,
		runNode,
		poller,
		poll: pollOnce,
		waitForResume,
		resume,
		browse,
		checkResumeUrl,
		expire,
		execution: (ref) => {
			const r = getRecord(ref);
			return { id: r.id, status: r.status, latest: r.latest, data: r.persisted };
		},
		format: formatResult,
		close,
		startupMs: 0,
	};
	harness.startupMs = Date.now() - t0;
	return harness;
}

module.exports = {
	createHarness,
	/** Packages used by the harness's own tests. */
	fixtures: { waitingPackage: path.join(__dirname, 'fixtures', 'waiting-package') },
	buildIfNeeded: (...args) => require('./build').buildIfNeeded(...args),
	buildReason: (...args) => require('./build').buildReason(...args),
	loadPackages,
	chain,
	formatResult,
	CREDENTIAL_TYPE,
	uuid,
	request,
	boot,
};
