// @ts-check
'use strict';
/**
 * Runs and continues executions through n8n-core's WorkflowExecute, and plays
 * n8n's WaitTracker: a waiting execution whose waitTill passes (within
 * MAX_AUTO_EXPIRE_MS) is continued as if the wait timed out.
 */
const { clone } = require('./workflow');
const { HarnessResult } = require('./result');
const { persist, getRecord, settleAttempts } = require('./records');

/** @typedef {import('./context').HarnessContext} HarnessContext */
/** @typedef {import('./records').ExecutionRecord} ExecutionRecord */
/** @typedef {import('./records').ExecutionRef} ExecutionRef */
/** @typedef {import('n8n-workflow').Workflow} Workflow */

/** The longest wait the harness schedules a timeout for (n8n's WaitTracker has no limit; tests do). */
const MAX_AUTO_EXPIRE_MS = 10 * 60 * 1000;

/**
 * IWorkflowExecuteAdditionalData for one execution (`__harnessCredentials`: see credentials.js).
 * @param {HarnessContext} ctx
 * @param {ExecutionRecord} record
 * @param {any} hooks ExecutionLifecycleHooks
 * @param {object} [extra]
 * @returns {any}
 */
function makeAdditionalData(ctx, record, hooks, extra = {}) {
	return {
		...ctx.urls,
		credentialsHelper: ctx.credentialsHelper,
		hooks,
		executionId: record.id,
		workflowId: record.workflowId,
		userId: 'harness-user',
		variables: {},
		currentNodeExecutionIndex: 0,
		executeWorkflow: async () => {
			throw new Error('[harness] sub-workflow execution (Execute Workflow node) is not supported');
		},
		getRunExecutionData: async (/** @type {string} */ id) => (ctx.executions.get(String(id)) || {}).persisted,
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

/**
 * A Workflow over the record's JSON; the record's static data becomes the Workflow's.
 * @param {HarnessContext} ctx
 * @param {ExecutionRecord} record
 * @returns {Workflow}
 */
function createWorkflowInstance(ctx, record) {
	const json = record.workflowJson;
	const workflow = new ctx.env.workflow.Workflow({
		id: record.workflowId,
		name: json.name || 'Harness workflow',
		nodes: /** @type {import('n8n-workflow').INode[]} */ (clone(json.nodes)),
		connections: /** @type {import('n8n-workflow').IConnections} */ (clone(json.connections)),
		active: record.mode !== 'manual',
		nodeTypes: ctx.nodeTypes,
		// A plain copy: Workflow wraps static data in an ObservableObject proxy.
		staticData: clone(record.staticData),
		settings: clone(json.settings),
		pinData: clone(json.pinData),
	});
	record.staticData = workflow.staticData;
	return workflow;
}

/**
 * Lifecycle hooks that record the order in which nodes finish.
 * @param {HarnessContext} ctx
 * @param {ExecutionRecord} record
 * @param {Workflow} workflow
 * @returns {any} ExecutionLifecycleHooks
 */
function createHooks(ctx, record, workflow) {
	const hooks = new ctx.env.core.ExecutionLifecycleHooks(
		record.mode,
		record.id,
		/** @type {any} */ ({
			id: record.workflowId,
			name: workflow.name,
			nodes: record.workflowJson.nodes,
			connections: record.workflowJson.connections,
			active: false,
			settings: record.workflowJson.settings,
			createdAt: new Date(),
			updatedAt: new Date(),
		}),
	);
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		record.executedNodes.push(nodeName);
	});
	return hooks;
}

/**
 * Runs (or continues, given runExecutionData) an execution and records its outcome.
 * @param {HarnessContext} ctx
 * @param {ExecutionRecord} record
 * @param {{ runExecutionData?: any, startNode?: string, pinData?: import('n8n-workflow').IPinData, restart?: boolean }} [options]
 * @returns {Promise<HarnessResult>}
 */
async function execute(ctx, record, { runExecutionData, startNode, pinData, restart = false } = {}) {
	const { core } = ctx.env;
	record.status = 'running';
	let additionalData = makeAdditionalData(ctx, record, undefined);
	/** @type {any} IRun */
	let run;
	try {
		// Inside the try: the Workflow constructor applies parameter defaults and
		// throws on parameter data that does not fit the node's properties.
		const workflow = createWorkflowInstance(ctx, record);
		const hooks = createHooks(ctx, record, workflow);
		additionalData = makeAdditionalData(ctx, record, hooks, restart ? { restartExecutionId: record.id } : {});
		/** @type {any} 1.x and 2.x differ in run()'s signature */
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
			data: runExecutionData || emptyRunExecutionData(ctx),
			mode: record.mode,
			startedAt: new Date(),
			stoppedAt: new Date(),
			status: 'error',
		};
		run.data.resultData.error = { ...error, message: error.message, stack: error.stack, name: error.name };
		run.thrown = error;
	}
	return finalize(ctx, record, run, additionalData);
}

/**
 * An empty run (n8n-workflow 2.x has a factory for it; 1.x has not).
 * @param {HarnessContext} ctx
 * @returns {any} IRunExecutionData
 */
function emptyRunExecutionData(ctx) {
	const wf = ctx.env.workflow;
	if (typeof wf.createRunExecutionData === 'function') return wf.createRunExecutionData();
	return {
		startData: {},
		resultData: { runData: {} },
		executionData: { contextData: {}, nodeExecutionStack: [], metadata: {}, waitingExecution: {}, waitingExecutionSource: {} },
	};
}

/**
 * Stores a run as n8n would, wraps it in a HarnessResult and hands that to
 * whoever waits for it.
 * @param {HarnessContext} ctx
 * @param {ExecutionRecord} record
 * @param {any} run IRun
 * @param {any} additionalData
 * @returns {HarnessResult}
 */
function finalize(ctx, record, run, additionalData) {
	record.generation += 1;
	/** @type {import('./result').WaitingInfo | undefined} */
	let waiting;
	if (run.status === 'waiting' && run.data.waitTill) {
		const keys = /** @type {any} */ (ctx.env.core.getAdditionalKeys(additionalData, record.mode, run.data));
		waiting = {
			executionId: record.id,
			nodeName: run.data.resultData.lastNodeExecuted,
			resumeUrl: keys.$execution.resumeUrl,
			waitTill: new Date(run.data.waitTill),
		};
		record.persisted = persist(run.data);
		record.status = 'waiting';
		scheduleExpiry(ctx, record, waiting.waitTill);
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

/**
 * Expires the wait when waitTill passes, unless the execution moved on first.
 * @param {HarnessContext} ctx
 * @param {ExecutionRecord} record
 * @param {Date} waitTill
 */
function scheduleExpiry(ctx, record, waitTill) {
	if (ctx.options.waitTracker === false) return;
	const delay = waitTill.getTime() - Date.now();
	if (delay > MAX_AUTO_EXPIRE_MS) return;
	const generation = record.generation;
	const timer = setTimeout(
		() => {
			ctx.timers.delete(timer);
			if (ctx.closed || record.status !== 'waiting' || record.generation !== generation) return;
			expire(ctx, record.id).catch(() => {});
		},
		Math.max(0, delay),
	);
	timer.unref();
	ctx.timers.add(timer);
}

/**
 * Lets a waiting execution time out now, the way n8n's WaitTracker resumes it.
 * @param {HarnessContext} ctx
 * @param {ExecutionRef | HarnessResult} ref
 * @returns {Promise<HarnessResult>}
 */
async function expire(ctx, ref) {
	const record = getRecord(ctx, ref);
	if (record.status !== 'waiting') throw new Error(`[harness] execution ${record.id} is not waiting (status ${record.status})`);
	const runExecutionData = persist(record.persisted);
	if (!runExecutionData.waitTill) runExecutionData.waitTill = new Date();
	return execute(ctx, record, { runExecutionData, restart: true });
}

module.exports = { makeAdditionalData, createWorkflowInstance, createHooks, execute, finalize, expire };
