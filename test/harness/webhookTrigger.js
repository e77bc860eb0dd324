// @ts-check
'use strict';
/**
 * Webhook triggers in the harness: a published workflow whose trigger the outside world
 * calls over HTTP. What n8n 2.x does for such a workflow, step for step:
 *
 * - activate() = n8n 2.41's workflow publication (WorkflowTriggerActivator, its default since
 *   `N8N_USE_WORKFLOW_PUBLICATION_SERVICE` is on): for each webhook of the node, the node's
 *   webhookMethods `checkExists`, then `create` when it answers false (n8n-core's HookContext,
 *   mode 'trigger'), tried up to 5 times (TRIGGER_ACTIVATION_MAX_ATTEMPTS) on the same
 *   workflow and static data; after a failed attempt `delete` runs on that same workflow
 *   (clearRegisteredWebhook) and static data is saved. A node that is also an in-memory
 *   trigger (trigger() or poll()) gets its trigger() called. The webhook's path is stored
 *   first, so calls during the activation (the service's confirmation) reach webhook(). Static data is saved at the end,
 *   also when every attempt failed; then the last error is thrown (n8n shows its message).
 *   The waits between attempts (1, 2, 4, 8 s in n8n) are `retryDelayMs` here.
 * - restart() = what n8n 2.41 does for a published workflow at start-up: its reconciler
 *   activates again (mode 'init') only the nodes that are in-memory triggers, since their
 *   trigger is gone with the process; a node that only has webhooks gets no call at all
 *   (checked against the real n8n 2.41: no request reached the API at start-up).
 * - deactivate() = unpublishing: `delete` on a workflow built from the saved static data,
 *   which is saved afterwards.
 * - A production server on 127.0.0.1 (`/webhook/<path>`), like n8n's live-webhooks
 *   service: each request builds the workflow from the saved static data, runs the node's
 *   webhook() in n8n-core's WebhookContext (mode 'webhook') with an express-like request
 *   carrying `rawBody` (the exact bytes received), and answers as n8n's webhook helpers do:
 *   nothing when the node answered itself (`noWebhookResponse`), `webhookResponse` or
 *   "Webhook call received" when it returned no workflowData, otherwise "Workflow was
 *   started" while the execution runs (responseMode onReceived). A webhook() that throws gets
 *   HTTP 500 (n8n also records an error execution: here in `errors`).
 * - Static data as n8n 2.41 keeps it: what webhook() changed is saved when the call starts no
 *   execution. When it starts one, n8n's WorkflowRunner first wraps the same static data
 *   object in a new Workflow (establishContextForPersistence: the change mark is reset, so
 *   live-webhooks' save finds nothing to save) and the execution reloads static data from
 *   the database (loadStaticData); the execution saves what IT changed when it ends
 *   (workflowExecuteAfter). The same sequence runs here, with n8n-workflow's own Workflow.
 * - n8n's deduplication store (`checkProcessedAndRecord`) is installed in memory when the
 *   process has none (the CLI keeps it in its processed_data table).
 *
 * Requests are handled concurrently, each with the static data saved when it started, as
 * n8n does; `saves` counts the writes.
 *
 *   const { webhookTrigger, signature } = require('./webhookTrigger');
 *   const t = await webhookTrigger(h, { type: 'accessPointTrigger', parameters });
 *   await t.activate();
 *   const r = await t.post(body, { headers: { 'billit-signature': signature(secret, body) } });
 *   r.status; r.executions;      // the executions this call started, finished
 *   await t.deactivate(); await t.close();
 */
const crypto = require('node:crypto');
const http = require('node:http');

const { expressRequest, expressResponse, respond, request } = require('./http');
const { HarnessResult } = require('./result');
const { clone } = require('./workflow');
const { editorName } = require('./naming');

/** @typedef {import('./index').Harness} Harness */
/** @typedef {import('./workflow').WorkflowJson} WorkflowJson */
/** @typedef {import('n8n-workflow').IDataObject} IDataObject */
/** @typedef {import('n8n-workflow').INode} INode */
/** @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData */
/** @typedef {import('n8n-workflow').IWebhookDescription} IWebhookDescription */
/** @typedef {import('n8n-workflow').Workflow} Workflow */
/** @typedef {{ workflow: { id?: string }, node: { id?: string } }} DeduplicationContext */

/**
 * @typedef {object} WebhookCall
 * @property {number} at Date.now() when the call arrived
 * @property {string} path
 * @property {number} [status] HTTP status answered (set once the answer was sent)
 * @property {boolean} started whether the call started an execution
 * @property {Error} [error] what webhook() threw (n8n answers 500 and records an error execution)
 */

/** An execution the trigger started, with when its call arrived and when it started (Date.now()). */
class WebhookExecution extends HarnessResult {
	/**
	 * @param {import('n8n-workflow').IRun} run
	 * @param {{ executionId: string, workflow: WorkflowJson, executedNodes: string[] }} info
	 * @param {number} startedAt
	 * @param {number | undefined} receivedAt
	 */
	constructor(run, info, startedAt, receivedAt) {
		super(run, info);
		this.startedAt = startedAt;
		this.receivedAt = receivedAt;
	}
}

/**
 * @typedef {object} WebhookTriggerOptions
 * @property {string} [nodeName] which node of a whole workflow (default: the first with a webhook())
 * @property {IDataObject} [staticData] the workflow's static data to start from
 * @property {import('./credentials').AccessPointCredentialData} [credentialsOverride] accessPointApi data merged over the harness's
 * @property {string} [webhookBaseUrl] what n8n's WEBHOOK_URL gives the node (default: this server); the server still listens on loopback
 * @property {boolean} [queueMode] executions run as on an n8n 2.41 queue-mode worker: the workflow comes from the execution's
 *   snapshot, which has no static data (toWorkflowSnapshot keeps id, name, nodes, connections, settings), and a new
 *   execution's job does not reload it (loadStaticData is false), so the execution starts from `{}`; what it changed is
 *   saved over the workflow's whole static data when it ends
 */

const REQUEST_TAG = 'x-harness-call';

/**
 * n8n's deduplication store (`this.helpers.checkProcessedAndRecord`), which the CLI backs with
 * its processed_data table (one row per workflow and context, 'entries' mode: hashes of the
 * items, the oldest dropped beyond maxEntries). Here in memory, installed once per process
 * when nothing else installed one, with n8n's races: it reads the row, then writes it back
 * whole (or inserts it, failing on the unique key when another execution inserted first).
 * @param {any} core n8n-core (its DataDeduplicationService exists from 1.6x on)
 */
function installDeduplicationStore(core) {
	const Service = core.DataDeduplicationService;
	if (!Service) return undefined;
	try {
		Service.getInstance();
		return undefined; // already there
	} catch {
		// not initialised yet
	}
	/** @type {Map<string, string[]>} */
	const rows = new Map();
	/** @param {string} scope @param {DeduplicationContext} contextData */
	const contextOf = (scope, { workflow, node }) => `${workflow.id}|${scope === 'node' ? `n:${node.id}` : ''}`;
	/** One database query's worth of waiting (a macrotask, so other executions' queries get in between). */
	const roundTrip = () => new Promise((resolve) => setImmediate(resolve));
	/** @param {unknown} item */
	const hash = (item) => crypto.createHash('md5').update(String(item)).digest('base64');
	const store = {
		/**
		 * @param {unknown[]} items @param {string} scope @param {DeduplicationContext} contextData
		 * @param {{ mode: string, maxEntries?: number }} options
		 */
		async checkProcessedAndRecord(items, scope, contextData, options) {
			if (options.mode !== 'entries') throw new Error(`[harness] deduplication mode ${options.mode} is not modelled`);
			const key = contextOf(scope, contextData);
			// n8n's DeduplicationHelper: findOne, then insert (no row yet) or update with the list it read,
			// each a database round trip; concurrent executions interleave between them.
			const row = rows.get(key);
			await roundTrip();
			if (!row && rows.has(key)) throw new Error('SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data.workflowId, processed_data.context');
			const data = row ? [...row] : [];
			const known = new Set(data);
			/** @type {{ new: unknown[], processed: unknown[] }} */
			const result = { new: [], processed: [] };
			for (const item of items) {
				const h = hash(item);
				if (known.has(h)) result.processed.push(item);
				else {
					result.new.push(item);
					data.push(h);
					known.add(h);
				}
			}
			if (options.maxEntries) data.splice(0, Math.max(0, data.length - options.maxEntries));
			await roundTrip();
			rows.set(key, data);
			return result;
		},
		/** @param {unknown[]} items @param {string} scope @param {DeduplicationContext} contextData */
		async removeProcessed(items, scope, contextData) {
			const key = contextOf(scope, contextData);
			const drop = new Set(items.map(hash));
			rows.set(
				key,
				(rows.get(key) || []).filter((h) => !drop.has(h)),
			);
		},
		/** @param {string} scope @param {DeduplicationContext} contextData */
		async clearAllProcessedItems(scope, contextData) {
			rows.delete(contextOf(scope, contextData));
		},
		/** @param {string} scope @param {DeduplicationContext} contextData */
		async getProcessedDataCount(scope, contextData) {
			return (rows.get(contextOf(scope, contextData)) || []).length;
		},
	};
	void Service.init(store);
	return store;
}

/**
 * `t=<seconds>,s=<hex HMAC-SHA256(secret, "<t>.<body>")>` over the exact bytes of `body`
 * (objects as JSON.stringify).
 * @param {string} secret
 * @param {unknown} body
 * @param {number} [t] unix seconds (default now)
 */
function signature(secret, body, t = Math.floor(Date.now() / 1000)) {
	const raw = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
	const s = crypto.createHmac('sha256', secret).update(`${t}.`).update(raw).digest('hex');
	return `t=${t},s=${s}`;
}

/**
 * A workflow with a webhook trigger, published in the harness.
 * @param {Harness} h a harness (createHarness())
 * @param {{ type: string, parameters?: IDataObject, name?: string } | WorkflowJson} nodeOrWorkflow
 * @param {WebhookTriggerOptions} [options]
 */
async function webhookTrigger(h, nodeOrWorkflow, options = {}) {
	/** @type {{ core: any, workflow: any }} n8n-core and n8n-workflow as loaded (1.x or 2.x) */
	const { core, workflow: wf } = h.loaded.env;
	const nodeTypes = h.nodeTypes;
	installDeduplicationStore(core);

	/** @type {WorkflowJson} */
	let source;
	let nodeName = options.nodeName;
	if ('nodes' in nodeOrWorkflow && Array.isArray(nodeOrWorkflow.nodes)) {
		source = nodeOrWorkflow;
	} else {
		const n = /** @type {{ type: string, parameters?: IDataObject, name?: string }} */ (nodeOrWorkflow);
		const type = h.type(n.type || '');
		const name = n.name || editorName(nodeTypes, type);
		source = /** @type {WorkflowJson} */ ({ nodes: [{ ...n, type, name, parameters: n.parameters || {} }], connections: {} });
		nodeName = name;
	}
	const runOptions = options.credentialsOverride ? { credentialsOverride: options.credentialsOverride } : {};
	const json = h.normalize(source, runOptions);
	const workflowId = String(json.id || `harness-webhook-wf-${crypto.randomUUID().slice(0, 8)}`);
	json.id = workflowId;
	for (const node of json.nodes) {
		// As n8n does when a workflow is saved: every node with webhooks gets its own id (the URL path).
		const description = nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description;
		if (description.webhooks && description.webhooks.length && !node.webhookId) node.webhookId = crypto.randomUUID();
	}
	if (!nodeName) {
		const hit = json.nodes.find((n) => typeof nodeTypes.getByNameAndVersion(n.type, n.typeVersion).webhook === 'function' && !n.disabled);
		if (!hit) throw new Error('[harness] no node with a webhook() in the workflow; pass { nodeName }');
		nodeName = hit.name;
	}
	const triggerName = nodeName;
	const nodeJson = json.nodes.find((n) => n.name === triggerName);
	if (!nodeJson) throw new Error(`[harness] node "${triggerName}" not found`);
	/** @type {any} the node type (its webhookMethods, webhook()) */
	const nodeType = nodeTypes.getByNameAndVersion(nodeJson.type, nodeJson.typeVersion);
	/** @type {IWebhookDescription[]} */
	const descriptions = nodeType.description.webhooks || [];
	if (!descriptions.length) throw new Error(`[harness] node "${triggerName}" declares no webhooks`);

	/** The workflow's row in n8n's database: its static data. @type {IDataObject} */
	let saved = clone(options.staticData) || {};
	let saves = 0;
	/** @type {WebhookExecution[]} */
	const executions = [];
	/** @type {Map<string, Promise<WebhookExecution>[]>} */
	const byTag = new Map();
	/** @type {WebhookCall[]} */
	const calls = [];
	/** @type {Error[]} */
	const errors = [];
	let active = false;
	/** n8n stores the webhook's path before it runs checkExists/create, so calls reach webhook() during activation. */
	let registering = false;
	let closed = false;
	/** @type {Array<() => void>} */
	let waiters = [];

	const server = http.createServer((req, res) => {
		handle(req, res).catch((error) => {
			if (!res.headersSent) respond(expressResponse(res), { responseCode: 500, data: { code: 500, message: error.message } });
			else if (!res.writableEnded) res.end();
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	server.unref();
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	const base = `http://127.0.0.1:${address.port}`;
	// webhookBaseUrl: what n8n's WEBHOOK_URL gives the node (default: this server).
	const urls = { ...h.urls, instanceBaseUrl: base, webhookBaseUrl: options.webhookBaseUrl || `${base}/webhook`, webhookTestBaseUrl: `${base}/webhook-test` };
	const credentialsOverride = options.credentialsOverride ? { accessPointApi: { ...h.credentials, ...options.credentialsOverride } } : undefined;

	/**
	 * IWorkflowExecuteAdditionalData for a hook, a call or an execution (`__harnessCredentials`: see credentials.js).
	 * @param {Record<string, unknown>} [extra]
	 * @returns {any}
	 */
	function additionalData(extra = {}) {
		return {
			...urls,
			credentialsHelper: h.credentialsHelper,
			workflowId,
			userId: 'harness-user',
			variables: {},
			currentNodeExecutionIndex: 0,
			logAiEvent: () => {},
			sendDataToUI: () => {},
			setExecutionStatus: () => {},
			getRunExecutionData: async () => undefined,
			executeWorkflow: async () => {
				throw new Error('[harness] sub-workflows are not supported');
			},
			__harnessCredentials: credentialsOverride,
			...extra,
		};
	}

	/**
	 * A Workflow as n8n builds it from the database row (or over a given static data object).
	 * @param {IDataObject} [staticData]
	 * @returns {Workflow}
	 */
	function loadWorkflow(staticData = clone(saved)) {
		return new wf.Workflow({
			id: workflowId,
			name: json.name || 'Harness webhook workflow',
			nodes: clone(json.nodes),
			connections: clone(json.connections),
			active: true,
			nodeTypes,
			staticData,
			settings: clone(json.settings),
		});
	}

	/** @param {Workflow} workflow */
	function save(workflow) {
		const data = /** @type {IDataObject & { __dataChanged?: boolean }} */ (workflow.staticData);
		if (data.__dataChanged !== true) return;
		saved = clone(data);
		data.__dataChanged = false;
		saves++;
	}

	/** @param {Workflow} workflow */
	function triggerNode(workflow) {
		const node = workflow.getNode(triggerName);
		if (!node) throw new Error(`[harness] node "${triggerName}" not found`);
		return node;
	}

	/**
	 * IWebhookData for one of the node's webhooks, as n8n's WebhookService builds it.
	 * @param {Workflow} workflow @param {INode} node @param {IWebhookDescription} description @param {unknown} data
	 */
	function webhookData(workflow, node, description, data) {
		/** @type {(value: unknown, fallback?: unknown) => unknown} */
		const value = (v, fallback) =>
			workflow.expression.getSimpleParameterValue(node, /** @type {any} */ (v), 'internal', {}, undefined, /** @type {any} */ (fallback));
		const p = String(value(description.path)).replace(/^\//, '');
		return {
			httpMethod: String(value(description.httpMethod, 'GET')),
			node: node.name,
			path: wf.NodeHelpers.getNodeWebhookPath(workflowId, node, p, value(description.isFullPath, false)),
			webhookDescription: description,
			workflowId,
			workflowExecuteAdditionalData: data,
			isTest: false,
		};
	}

	/** @param {Workflow} workflow @param {'checkExists' | 'create' | 'delete'} method @param {string} activation */
	async function runMethod(workflow, method, activation) {
		const node = triggerNode(workflow);
		const data = additionalData();
		const results = [];
		for (const description of descriptions) {
			const fn = nodeType.webhookMethods && nodeType.webhookMethods[description.name] && nodeType.webhookMethods[description.name][method];
			if (!fn) continue;
			const context = new core.HookContext(workflow, node, data, 'trigger', activation, webhookData(workflow, node, description, data));
			results.push(await fn.call(context));
		}
		return results;
	}

	/** Whether n8n counts the node as an in-memory trigger too (it has trigger() or poll()). */
	const inMemory = typeof nodeType.trigger === 'function' || typeof nodeType.poll === 'function';

	/**
	 * n8n 2.41's publication of the node (see the header); rejects with the last error.
	 * @param {string} [activation] 'activate' (first publish), 'update', 'init' (start-up)
	 * @param {{ attempts?: number, retryDelayMs?: number }} [options]
	 */
	async function activate(activation = 'activate', { attempts = 5, retryDelayMs = 1 } = {}) {
		const workflow = loadWorkflow();
		const node = triggerNode(workflow);
		/** @type {unknown} */
		let failure;
		registering = true;
		for (const description of descriptions) {
			const data = additionalData();
			const wd = webhookData(workflow, node, description, data);
			const methods = (nodeType.webhookMethods && nodeType.webhookMethods[description.name]) || {};
			const hook = (/** @type {string} */ mode) => new core.HookContext(workflow, node, data, 'trigger', mode, wd);
			for (let attempt = 1; attempt <= attempts; attempt++) {
				try {
					const exists = methods.checkExists ? await methods.checkExists.call(hook(activation)) : false;
					if (!exists && methods.create) await methods.create.call(hook(activation));
					failure = undefined;
					break;
				} catch (error) {
					failure = error;
					// clearRegisteredWebhook: delete on the same workflow, static data saved.
					try {
						if (methods.delete) await methods.delete.call(hook('update'));
					} catch {
						// n8n logs a failed clean-up
					}
					save(workflow);
					if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
				}
			}
			if (failure) break;
		}
		if (!failure && inMemory && typeof nodeType.trigger === 'function') {
			const context = new core.TriggerContext(workflow, node, additionalData(), 'trigger', activation);
			await (nodeType instanceof wf.Node ? nodeType.trigger(context) : nodeType.trigger.call(context));
		}
		save(workflow);
		registering = false;
		if (failure) throw failure;
		active = true;
	}

	/** n8n 2.41 starting with this workflow published: see the header. Resolves whether the node was activated again. */
	async function restart() {
		if (!inMemory) return false;
		await activate('init');
		return true;
	}

	/** delete (n8n's deactivation); resolves with what each delete returned. */
	async function deactivate() {
		const workflow = loadWorkflow();
		const results = await runMethod(workflow, 'delete', 'update');
		save(workflow);
		active = false;
		return results;
	}

	let executionCounter = 0;

	/**
	 * n8n's runMainProcess: static data reloaded, WorkflowExecute from the trigger with its items,
	 * static data saved at the end if the execution changed it.
	 * @param {INodeExecutionData[]} items
	 * @param {WebhookCall | undefined} call
	 */
	async function runExecution(items, call) {
		const startedAt = Date.now();
		const executionId = `webhook-${++executionCounter}`;
		const workflow = loadWorkflow(options.queueMode ? {} : undefined);
		const hooks = new core.ExecutionLifecycleHooks('webhook', executionId, {
			id: workflowId,
			name: workflow.name,
			nodes: json.nodes,
			connections: json.connections,
			active: true,
			settings: json.settings,
			createdAt: new Date(),
			updatedAt: new Date(),
		});
		/** @type {string[]} */
		const executedNodes = [];
		hooks.addHandler('nodeExecuteAfter', (/** @type {string} */ name) => executedNodes.push(name));
		const data = additionalData({ hooks, executionId });
		const stack = [{ node: triggerNode(workflow), data: { main: [items] }, source: null }];
		const runExecutionData =
			typeof wf.createRunExecutionData === 'function'
				? wf.createRunExecutionData({ executionData: { nodeExecutionStack: stack } })
				: {
						startData: {},
						resultData: { runData: {} },
						executionData: { contextData: {}, nodeExecutionStack: stack, metadata: {}, waitingExecution: {}, waitingExecutionSource: {} },
					};
		const run = await new core.WorkflowExecute(data, 'webhook', runExecutionData).processRunExecutionData(workflow);
		save(workflow); // workflowExecuteAfter
		return new WebhookExecution(run, { executionId, workflow: json, executedNodes }, startedAt, call ? call.at : undefined);
	}

	/** @param {INodeExecutionData[]} items @param {string | undefined} tag @param {WebhookCall} call */
	function startExecution(items, tag, call) {
		const promise = runExecution(items, call).then((result) => {
			executions.push(result);
			const ready = waiters;
			waiters = [];
			for (const w of ready) w();
			return result;
		});
		if (tag) {
			const list = byTag.get(tag) || [];
			list.push(promise);
			byTag.set(tag, list);
		}
		return promise;
	}

	/** @param {http.IncomingMessage} rawReq @param {http.ServerResponse} rawRes */
	async function handle(rawReq, rawRes) {
		const req = await expressRequest(rawReq);
		const res = expressResponse(rawRes);
		const tagHeader = rawReq.headers[REQUEST_TAG];
		const tag = typeof tagHeader === 'string' ? tagHeader : undefined;
		/** @type {WebhookCall} */
		const call = { at: Date.now(), path: req.path, status: undefined, started: false };
		calls.push(call);
		rawRes.on('finish', () => {
			call.status = rawRes.statusCode;
		});
		const staticData = clone(saved);
		const workflow = loadWorkflow(staticData);
		const node = triggerNode(workflow);
		const data = additionalData({ httpRequest: req, httpResponse: res });
		const description = descriptions.find((d) => {
			const wd = webhookData(workflow, node, d, data);
			return (
				req.path === `/webhook/${wd.path}` &&
				wd.httpMethod
					.split(',')
					.map((m) => m.trim())
					.includes(String(req.method))
			);
		});
		if (!(active || registering) || !description || closed) {
			return respond(res, { responseCode: 404, data: { code: 404, message: `The requested webhook "${req.method} ${req.path}" is not registered.` } });
		}
		/** @type {import('n8n-workflow').IWebhookResponseData} */
		let result;
		try {
			const context = new core.WebhookContext(workflow, node, data, 'webhook', webhookData(workflow, node, description, data), [], null);
			result = nodeType instanceof wf.Node ? await nodeType.webhook(context) : await nodeType.webhook.call(context);
		} catch (error) {
			// n8n: answers 500, starts an execution that fails with this error, saves no static data.
			const e = /** @type {Error} */ (error);
			errors.push(e);
			respond(res, { responseCode: 500, data: { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' } });
			call.error = e;
			return;
		}
		if (result.workflowData === undefined) {
			save(workflow);
			// No execution. With noWebhookResponse the node answered itself and n8n sends nothing more.
			if (!result.noWebhookResponse) {
				respond(res, { responseCode: 200, data: result.webhookResponse !== undefined ? result.webhookResponse : { message: 'Webhook call received' } });
			}
			return;
		}
		// WorkflowRunner.establishContextForPersistence: a Workflow over the same static data object.
		loadWorkflow(staticData);
		save(workflow); // live-webhooks' save, after the execution started: the change mark is gone
		call.started = true;
		const started = startExecution(result.workflowData[0] || [], tag, call);
		if (!result.noWebhookResponse) respond(res, { responseCode: 200, data: { message: 'Workflow was started' } });
		await started;
	}

	function webhookPath() {
		const workflow = loadWorkflow();
		return webhookData(workflow, triggerNode(workflow), descriptions[0], additionalData()).path;
	}

	/** The URL the node registers (n8n's WEBHOOK_URL + path). */
	function url() {
		return `${urls.webhookBaseUrl}/${webhookPath()}`;
	}

	/**
	 * POSTs to the production URL; resolves once the executions this call started have finished.
	 * @param {unknown} body an object (sent as JSON), a string or a Buffer (sent as they are)
	 * @param {{ headers?: Record<string, string>, method?: string, contentType?: string, path?: string }} [options]
	 */
	async function post(body, { headers = {}, method = 'POST', contentType = 'application/json', path } = {}) {
		const tag = crypto.randomUUID();
		const payload = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
		const target = `${base}${path || `/webhook/${webhookPath()}`}`;
		const response = await request(target, { method, headers: { 'content-type': contentType, ...headers, [REQUEST_TAG]: tag }, body: payload });
		const started = byTag.get(tag) || [];
		byTag.delete(tag);
		return { ...response, executions: await Promise.all(started) };
	}

	/**
	 * Resolves once `count` executions in all have finished (deliveries from elsewhere included).
	 * @param {number} count
	 * @param {{ timeoutMs?: number }} [options]
	 */
	async function waitForExecutions(count, { timeoutMs = 20000 } = {}) {
		const until = Date.now() + timeoutMs;
		while (executions.length < count) {
			const left = until - Date.now();
			if (left <= 0) throw new Error(`[harness] ${executions.length} execution(s) after ${timeoutMs} ms, expected ${count}`);
			await new Promise((resolve) => {
				// Not unref'd: a script waiting here for calls from another process must stay alive.
				const timer = setTimeout(resolve, Math.min(left, 200));
				waiters.push(() => {
					clearTimeout(timer);
					resolve(undefined);
				});
			});
		}
		return executions.slice(0, count);
	}

	async function close() {
		if (closed) return;
		closed = true;
		await new Promise((resolve) => server.close(() => resolve(undefined)));
		if (typeof server.closeAllConnections === 'function') server.closeAllConnections();
	}

	return {
		workflow: json,
		nodeName: triggerName,
		baseUrl: base,
		/** The node's production webhook URL (`<webhookBaseUrl>/<webhookId>/<path>`). */
		get url() {
			return url();
		},
		activate,
		restart,
		deactivate,
		post,
		waitForExecutions,
		close,
		get active() {
			return active;
		},
		/** Finished executions, in the order they finished. */
		get executions() {
			return [...executions];
		},
		/** Every call received. */
		get calls() {
			return [...calls];
		},
		/** Errors thrown by webhook() (each an error execution in n8n). */
		get errors() {
			return [...errors];
		},
		/** The workflow's static data as n8n saved it (settable, e.g. to start from another copy). */
		get staticData() {
			return /** @type {IDataObject} */ (clone(saved));
		},
		set staticData(value) {
			saved = clone(value);
		},
		get nodeStaticData() {
			return /** @type {IDataObject} */ (clone(saved[`node:${triggerName}`] || {}));
		},
		/** How often static data was saved. */
		get saves() {
			return saves;
		},
	};
}

/** @typedef {Awaited<ReturnType<typeof webhookTrigger>>} WebhookTrigger */

module.exports = { webhookTrigger, signature, WebhookExecution, REQUEST_TAG, installDeduplicationStore };
