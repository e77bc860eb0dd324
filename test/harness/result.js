// @ts-check
'use strict';
/**
 * n8n-core 2.x keeps the error a node threw on its task; 1.x keeps a plain copy
 * ({ ...error, message, stack }). A copy of an n8n-workflow error class (its own
 * `name` says which) gets that class's prototype back, so tests read both alike.
 * @param {any} error
 * @returns {(Error & IDataObject) | undefined}
 */
function rehydrate(error) {
	if (!error || typeof error !== 'object' || error instanceof Error) return error;
	/** @type {Record<string, unknown>} */
	const wf = require('n8n-workflow');
	const Type = typeof error.name === 'string' && /^[A-Z]\w*Error$/.test(error.name) ? wf[error.name] : undefined;
	if (typeof Type !== 'function' || !(Type.prototype instanceof Error)) return error;
	return Object.assign(Object.create(Type.prototype), error);
}

/** @typedef {import('n8n-workflow').IDataObject} IDataObject */
/** @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData */
/** @typedef {import('n8n-workflow').ITaskData} ITaskData */

/**
 * @typedef {object} WaitingInfo
 * @property {string} executionId
 * @property {string} nodeName The node that put the execution to wait.
 * @property {string} resumeUrl `$execution.resumeUrl` as the node saw it: `<webhookWaitingBaseUrl>/<executionId>?signature=<resumeToken>`.
 * @property {Date} waitTill
 */

/** Read-side wrapper around n8n's IRun. */
class HarnessResult {
	/**
	 * @param {import('n8n-workflow').IRun} run from WorkflowExecute
	 * @param {{ executionId: string, workflow: import('./workflow').WorkflowJson, executedNodes?: string[], waiting?: WaitingInfo }} info
	 */
	constructor(run, info) {
		this.run = run;
		this.executionId = info.executionId;
		/** The normalised workflow JSON that ran. */
		this.workflow = info.workflow;
		/** Node names in the order they finished (nodeExecuteAfter), across resumes. */
		this.executedNodes = info.executedNodes || [];
		/** Set when status is 'waiting'. */
		this.waiting = info.waiting;
		/** Set by runNode(): the name of the node under test. @type {string | undefined} */
		this.nodeName;
		/** How many times the execution had stopped when this result was made (waitForResume compares it). @type {number | undefined} */
		this.generation;
	}

	/** 'success' | 'error' | 'waiting' | 'canceled' | ... (n8n's ExecutionStatus) */
	get status() {
		return this.run.status;
	}

	get finished() {
		return this.run.finished === true;
	}

	get runData() {
		return this.run.data.resultData.runData;
	}

	/**
	 * Workflow-level error (a plain copy of the error that stopped the run), or undefined.
	 * @returns {(IDataObject & { message: string }) | undefined}
	 */
	get error() {
		return /** @type {any} */ (this.run.data.resultData.error);
	}

	get lastNodeExecuted() {
		return this.run.data.resultData.lastNodeExecuted;
	}

	get resumeUrl() {
		return this.waiting && this.waiting.resumeUrl;
	}

	/** @returns {Date | undefined} */
	get waitTill() {
		return this.run.waitTill || this.run.data.waitTill;
	}

	/**
	 * All runs of a node; [] if it did not run.
	 * @param {string} nodeName
	 * @returns {ITaskData[]}
	 */
	runs(nodeName) {
		return this.runData[nodeName] || [];
	}

	/** @param {string} nodeName */
	executed(nodeName) {
		return this.runs(nodeName).length > 0;
	}

	/**
	 * @param {string} nodeName
	 * @param {number} [runIndex] default: the last run
	 * @returns {ITaskData | undefined}
	 */
	task(nodeName, runIndex) {
		const runs = this.runs(nodeName);
		return runs[runIndex === undefined ? runs.length - 1 : runIndex];
	}

	/**
	 * Full items (json, binary, pairedItem) of one output (default: last run, output 0); [] if none.
	 * @param {string} nodeName
	 * @param {number} [outputIndex]
	 * @param {number} [runIndex]
	 * @returns {INodeExecutionData[]}
	 */
	items(nodeName, outputIndex = 0, runIndex) {
		const task = this.task(nodeName, runIndex);
		const main = task && task.data && task.data.main;
		return (main && main[outputIndex]) || [];
	}

	/**
	 * The `json` of each item of one output.
	 * @template [T=IDataObject]
	 * @param {string} nodeName
	 * @param {number} [outputIndex]
	 * @param {number} [runIndex]
	 * @returns {T[]}
	 */
	output(nodeName, outputIndex = 0, runIndex) {
		return /** @type {T[]} */ (this.items(nodeName, outputIndex, runIndex).map((item) => item.json));
	}

	/**
	 * Every output of a node: json[][] (index = output).
	 * @param {string} nodeName
	 * @param {number} [runIndex]
	 * @returns {IDataObject[][]}
	 */
	outputs(nodeName, runIndex) {
		const task = this.task(nodeName, runIndex);
		const main = (task && task.data && task.data.main) || [];
		return main.map((items) => (items || []).map((item) => item.json));
	}

	/**
	 * The error a node raised: the original instance (NodeApiError,
	 * NodeOperationError, ...) when this process ran the node, else the plain copy
	 * n8n stores in runData. undefined if the node did not fail.
	 * @param {string} nodeName
	 * @param {number} [runIndex]
	 */
	nodeError(nodeName, runIndex) {
		const task = this.task(nodeName, runIndex);
		/** @type {any} */
		const error = task && task.error;
		return rehydrate((error && error.original) || error);
	}

	/**
	 * Throws with a readable message unless the run succeeded.
	 * @returns {this}
	 */
	assertSuccess() {
		if (this.status !== 'success') {
			const err = this.error;
			const node = /** @type {{ name?: string } | undefined} */ (err && err.node);
			const detail = err ? `${err.message}${err.description ? ` (${err.description})` : ''}${node ? ` at node "${node.name}"` : ''}` : '';
			throw new Error(`Workflow run ${this.executionId} ended with status "${this.status}"${detail ? `: ${detail}` : ''}`);
		}
		return this;
	}

	/** { nodeName: json[][] } for every node that ran (last run). */
	summary() {
		/** @type {Record<string, IDataObject[][]>} */
		const out = {};
		for (const name of Object.keys(this.runData)) out[name] = this.outputs(name);
		return out;
	}
}

module.exports = { HarnessResult };
