'use strict';
/**
 * n8n-core 2.x keeps the error a node threw on its task; 1.x keeps a plain copy
 * ({ ...error, message, stack }). A copy of an n8n-workflow error class (its own
 * `name` says which) gets that class's prototype back, so tests read both alike.
 */
function rehydrate(error) {
	if (!error || typeof error !== 'object' || error instanceof Error) return error;
	const wf = require('n8n-workflow');
	const Type = typeof error.name === 'string' && /^[A-Z]\w*Error$/.test(error.name) ? wf[error.name] : undefined;
	if (typeof Type !== 'function' || !(Type.prototype instanceof Error)) return error;
	return Object.assign(Object.create(Type.prototype), error);
}

/** Read-side wrapper around n8n's IRun. */

class HarnessResult {
	/**
	 * @param {object} run IRun from WorkflowExecute
	 * @param {object} info { executionId, workflow (normalised JSON), executedNodes, waiting }
	 */
	constructor(run, info) {
		this.run = run;
		this.executionId = info.executionId;
		this.workflow = info.workflow;
		/** Node names in the order they finished (nodeExecuteAfter), across resumes. */
		this.executedNodes = info.executedNodes || [];
		/** For status 'waiting': { executionId, nodeName, resumeUrl, waitTill }. */
		this.waiting = info.waiting;
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

	/** Workflow-level error (a plain copy of the error that stopped the run), or undefined. */
	get error() {
		return this.run.data.resultData.error;
	}

	get lastNodeExecuted() {
		return this.run.data.resultData.lastNodeExecuted;
	}

	get resumeUrl() {
		return this.waiting && this.waiting.resumeUrl;
	}

	get waitTill() {
		return this.run.waitTill || this.run.data.waitTill;
	}

	/** All runs (ITaskData[]) of a node; [] if it did not run. */
	runs(nodeName) {
		return this.runData[nodeName] || [];
	}

	executed(nodeName) {
		return this.runs(nodeName).length > 0;
	}

	task(nodeName, runIndex) {
		const runs = this.runs(nodeName);
		return runs[runIndex === undefined ? runs.length - 1 : runIndex];
	}

	/** INodeExecutionData[] of one output (default: last run, output 0); [] if none. */
	items(nodeName, outputIndex = 0, runIndex) {
		const task = this.task(nodeName, runIndex);
		const main = task && task.data && task.data.main;
		return (main && main[outputIndex]) || [];
	}

	/** The `json` of each item of one output. */
	output(nodeName, outputIndex = 0, runIndex) {
		return this.items(nodeName, outputIndex, runIndex).map((item) => item.json);
	}

	/** Every output of a node: json[][] (index = output). */
	outputs(nodeName, runIndex) {
		const task = this.task(nodeName, runIndex);
		const main = (task && task.data && task.data.main) || [];
		return main.map((items) => (items || []).map((item) => item.json));
	}

	/**
	 * The error a node raised: the original instance (NodeApiError,
	 * NodeOperationError, ...) when this process ran the node, else the plain copy
	 * n8n stores in runData. undefined if the node did not fail.
	 */
	nodeError(nodeName, runIndex) {
		const task = this.task(nodeName, runIndex);
		const error = task && task.error;
		return rehydrate((error && error.original) || error);
	}

	/** Throws with a readable message unless the run succeeded. Returns this. */
	assertSuccess() {
		if (this.status !== 'success') {
			const err = this.error;
			const detail = err ? `${err.message}${err.description ? ` (${err.description})` : ''}${err.node ? ` at node "${err.node.name}"` : ''}` : '';
			throw new Error(`Workflow run ${this.executionId} ended with status "${this.status}"${detail ? `: ${detail}` : ''}`);
		}
		return this;
	}

	/** { nodeName: json[][] } for every node that ran (last run). */
	summary() {
		const out = {};
		for (const name of Object.keys(this.runData)) out[name] = this.outputs(name);
		return out;
	}
}

module.exports = { HarnessResult };
