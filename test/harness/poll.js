// @ts-check
'use strict';
/**
 * Poll triggers. A poller keeps one Workflow alive, so the node's static data
 * (`getWorkflowStaticData('node')`) persists between polls as in an active
 * workflow; a scheduled poll goes through n8n-core's PollTriggerExecutor.
 */
const { clone } = require('./workflow');
const { descriptionOf, editorName } = require('./naming');
const { newRecord } = require('./records');
const { createWorkflowInstance, createHooks, makeAdditionalData } = require('./engine');
const { normalize, run } = require('./run');

/** @typedef {import('./context').HarnessContext} HarnessContext */
/** @typedef {import('./workflow').WorkflowJson} WorkflowJson */
/** @typedef {import('./workflow').ChainStep} ChainStep */
/** @typedef {import('n8n-workflow').IDataObject} IDataObject */
/** @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData */

/**
 * @typedef {object} PollOptions
 * @property {'trigger' | 'manual'} [mode] 'trigger' (default): a scheduled poll, through n8n-core's PollTriggerExecutor. 'manual': "Fetch test event".
 * @property {boolean} [execute] Also run the workflow downstream of the trigger with the emitted items (trigger mode).
 */

/**
 * @typedef {object} PollerOptionsOwn
 * @property {IDataObject} [staticData]
 * @property {string} [nodeName] When a whole workflow is given: which node polls (default: the first polling node).
 */
/** @typedef {PollOptions & PollerOptionsOwn & import('./credentials').CredentialOverrides} PollerOptions */

/**
 * @typedef {object} PollResult
 * @property {INodeExecutionData[][] | null} data What poll() returned (null: nothing new).
 * @property {IDataObject[] | null} items json of output 0, or null.
 * @property {IDataObject} staticData Whole workflow static data after the poll (pass back as `staticData` to continue).
 * @property {IDataObject} nodeStaticData This node's static data (`getWorkflowStaticData('node')`).
 * @property {import('./result').HarnessResult} [execution] With `execute: true` and items: the workflow run started from the trigger.
 */

/**
 * @typedef {object} Poller
 * @property {import('n8n-workflow').INode} node
 * @property {import('n8n-workflow').Workflow} workflow The Workflow instance kept alive between polls (its staticData persists).
 * @property {(options?: PollOptions | 'trigger' | 'manual') => Promise<PollResult>} poll
 * @property {IDataObject} staticData
 * @property {IDataObject} nodeStaticData
 */

/**
 * The workflow to poll and the polling node's name: a lone node gets a
 * workflow of its own; in a whole workflow, the first polling node unless named.
 * @param {HarnessContext} ctx
 * @param {ChainStep | WorkflowJson} nodeOrWorkflow
 * @param {PollerOptions} pollOptions
 * @returns {{ json: WorkflowJson, nodeName: string }}
 */
function pollTarget(ctx, nodeOrWorkflow, pollOptions) {
	const given = /** @type {Partial<WorkflowJson & ChainStep>} */ (nodeOrWorkflow || {});
	if (Array.isArray(given.nodes)) {
		const json = normalize(ctx, /** @type {WorkflowJson} */ (given), pollOptions);
		if (pollOptions.nodeName) return { json, nodeName: pollOptions.nodeName };
		const polling = json.nodes.find((n) => {
			const d = descriptionOf(ctx.nodeTypes, n);
			return d !== undefined && d.polling === true;
		});
		if (!polling) throw new Error('[harness] no polling node found in the workflow; pass { nodeName }');
		return { json, nodeName: polling.name };
	}
	const node = { ...given, name: given.name || editorName(ctx.nodeTypes, ctx.nodeTypes.expandType(given.type || '')), parameters: given.parameters || {} };
	const json = normalize(ctx, /** @type {WorkflowJson} */ ({ nodes: [node], connections: {} }), pollOptions);
	return { json, nodeName: node.name };
}

/**
 * A poll trigger kept alive between polls (static data persists on its Workflow).
 * @param {HarnessContext} ctx
 * @param {ChainStep | WorkflowJson} nodeOrWorkflow
 * @param {PollerOptions} [pollOptions]
 * @returns {Poller}
 */
function poller(ctx, nodeOrWorkflow, pollOptions = {}) {
	const { core, Container } = ctx.env;
	const { json, nodeName } = pollTarget(ctx, nodeOrWorkflow, pollOptions);
	const record = newRecord(ctx, json, { ...pollOptions, mode: 'trigger' });
	ctx.executions.delete(record.id); // a poller is not an execution
	const workflow = createWorkflowInstance(ctx, record);
	const node = workflow.getNode(nodeName);
	if (!node) throw new Error(`[harness] node "${nodeName}" not found`);
	const nodeType = ctx.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const pollFn = nodeType.poll;
	if (typeof pollFn !== 'function') throw new Error(`[harness] node "${nodeName}" (${node.type}) has no poll() method`);
	/** @returns {IDataObject} `getWorkflowStaticData('node')`, a copy */
	const nodeStaticData = () => clone(/** @type {IDataObject} */ (workflow.staticData[`node:${node.name}`] || {}));

	/**
	 * @param {PollOptions | 'trigger' | 'manual'} [arg]
	 * @returns {Promise<PollResult>}
	 */
	const poll = async (arg) => {
		const opts = typeof arg === 'string' ? { mode: arg } : arg || {};
		const mode = opts.mode || pollOptions.mode || 'trigger';
		const hooks = createHooks(ctx, record, workflow);
		const additionalData = makeAdditionalData(ctx, record, hooks);
		/** @type {INodeExecutionData[][] | null} */
		let data = null;
		if (mode === 'manual') {
			// What WorkflowExecute does for a poll node in a manual run ("Fetch test event").
			const context = new core.PollContext(workflow, node, additionalData, 'manual', 'manual');
			data = await pollFn.call(context);
		} else {
			// What n8n's active-workflow manager does on each scheduled poll.
			/** @type {INodeExecutionData[][] | null} */
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
					const response = await pollFn.call(context);
					if (response !== null) emitted = response;
				} catch (error) {
					emittedError = error;
				}
			}
			if (emittedError) throw emittedError;
			data = emitted;
		}
		/** @type {PollResult} */
		const out = {
			data,
			items: data ? (data[0] || []).map((i) => i.json) : null,
			staticData: clone(workflow.staticData),
			nodeStaticData: nodeStaticData(),
		};
		if (opts.execute && data) {
			out.execution = await run(ctx, json, {
				...pollOptions,
				mode: 'trigger',
				startNode: node.name,
				input: data[0] || [],
				staticData: workflow.staticData,
			});
		}
		return out;
	};

	return {
		node,
		workflow,
		poll,
		get staticData() {
			return clone(workflow.staticData);
		},
		get nodeStaticData() {
			return nodeStaticData();
		},
	};
}

/**
 * One poll with a fresh Workflow (pass back `staticData` to continue).
 * @param {HarnessContext} ctx
 * @param {ChainStep | WorkflowJson} nodeOrWorkflow
 * @param {PollerOptions} [pollOptions]
 * @returns {Promise<PollResult>}
 */
async function pollOnce(ctx, nodeOrWorkflow, pollOptions = {}) {
	return poller(ctx, nodeOrWorkflow, pollOptions).poll({ mode: pollOptions.mode, execute: pollOptions.execute });
}

module.exports = { poller, pollOnce };
