// @ts-check
'use strict';
/**
 * Running a workflow: the editor's "Execute workflow" (manual mode, input
 * pinned on the start node) or a production run (trigger mode, the start
 * node receives the input).
 */
const { normalizeWorkflow, MANUAL_TRIGGER } = require('./workflow');
const { typesWithData } = require('./credentials');
const { descriptionOf, chainWorkflow } = require('./naming');
const { newRecord } = require('./records');
const { execute } = require('./engine');

/** @typedef {import('./context').HarnessContext} HarnessContext */
/** @typedef {import('./workflow').WorkflowJson} WorkflowJson */
/** @typedef {import('./workflow').ChainStep} ChainStep */
/** @typedef {import('./result').HarnessResult} HarnessResult */
/** @typedef {import('n8n-workflow').IDataObject} IDataObject */

/** @typedef {IDataObject | import('n8n-workflow').INodeExecutionData} ItemInput */

/**
 * @typedef {object} RunOptionsOwn
 * @property {ItemInput[]} [input] Items the start node outputs (manual mode: pinned on the start node; trigger mode: its input).
 * @property {string} [startNode] Name of the node to start from (default: the manual trigger, else the first trigger/poll node).
 * @property {import('n8n-workflow').WorkflowExecuteMode} [mode] 'manual' (default, like "Execute workflow" in the editor) or 'trigger' (production run).
 * @property {IDataObject} [staticData] Initial workflow static data.
 */
/** @typedef {RunOptionsOwn & import('./credentials').CredentialOverrides} RunOptions */

/**
 * The workflow as the harness runs it (defaults filled, credentials referenced).
 * @param {HarnessContext} ctx
 * @param {WorkflowJson} workflowJson
 * @param {RunOptions} [runOptions]
 * @returns {WorkflowJson}
 */
function normalize(ctx, workflowJson, runOptions = {}) {
	return normalizeWorkflow(workflowJson, { nodeTypes: ctx.nodeTypes, credentialTypesWithData: typesWithData(ctx.store, runOptions) });
}

/**
 * @param {HarnessContext} ctx
 * @param {WorkflowJson} workflowJson n8n export format
 * @param {RunOptions} [runOptions]
 * @returns {Promise<HarnessResult>}
 */
async function run(ctx, workflowJson, runOptions = {}) {
	const json = normalize(ctx, workflowJson, runOptions);
	const record = newRecord(ctx, json, runOptions);
	const startNode = runOptions.startNode || pickStartNode(ctx, json);
	const input = runOptions.input && runOptions.input.map((item) => (item && item.json !== undefined ? item : { json: item }));
	if (!input) return execute(ctx, record, { startNode });
	if (record.mode === 'manual') {
		// The editor way: the start node's output pinned to the given items.
		return execute(ctx, record, { startNode, pinData: { ...(json.pinData || {}), [String(startNode)]: /** @type {any} */ (input) } });
	}
	// The production way (a trigger fired): the start node receives the items as its input.
	const node = json.nodes.find((n) => n.name === startNode);
	const runExecutionData = /** @type {any} */ (ctx.env.workflow).createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node, data: { main: [input] }, source: null }] },
	});
	return execute(ctx, record, { runExecutionData });
}

/**
 * The manual trigger, else the first trigger or polling node, else undefined
 * (n8n-core picks: Workflow.getStartNode).
 * @param {HarnessContext} ctx
 * @param {WorkflowJson} json
 * @returns {string | undefined}
 */
function pickStartNode(ctx, json) {
	const enabled = json.nodes.filter((n) => !n.disabled);
	const manual = enabled.find((n) => n.type === MANUAL_TRIGGER);
	if (manual) return manual.name;
	const trigger = enabled.find((n) => {
		const d = descriptionOf(ctx.nodeTypes, n);
		return d !== undefined && (d.group.includes('trigger') || d.polling === true || n.type.endsWith('Trigger'));
	});
	return trigger && trigger.name;
}

/**
 * Manual Trigger (output pinned to inputItems) -> the node; result.nodeName is the node's name.
 * @param {HarnessContext} ctx
 * @param {string} type
 * @param {IDataObject} [parameters]
 * @param {ItemInput[]} [inputItems] default: one empty item
 * @param {Omit<ChainStep, 'type' | 'parameters'> & { runOptions?: RunOptions }} [nodeOptions]
 * @returns {Promise<HarnessResult & { nodeName: string }>}
 */
async function runNode(ctx, type, parameters = {}, inputItems, nodeOptions = {}) {
	const step = { ...nodeOptions, type, parameters };
	const json = chainWorkflow(ctx.nodeTypes, [step]);
	const result = await run(ctx, json, { ...(nodeOptions.runOptions || {}), input: inputItems || [{ json: {} }] });
	result.nodeName = json.nodes[1].name;
	return /** @type {HarnessResult & { nodeName: string }} */ (result);
}

module.exports = { normalize, run, runNode };
