// @ts-check
'use strict';
/**
 * Execution records: what n8n keeps in its database for an execution (the
 * persisted run data, status), plus who waits for its next result.
 */
const { boot } = require('./env');
const { clone } = require('./workflow');
const { runCredentials } = require('./credentials');

/** @typedef {import('./context').HarnessContext} HarnessContext */
/** @typedef {import('./result').HarnessResult} HarnessResult */

/**
 * @typedef {object} ExecutionRecord
 * @property {string} id
 * @property {string} workflowId
 * @property {import('./workflow').WorkflowJson} workflowJson normalised
 * @property {import('n8n-workflow').WorkflowExecuteMode} mode
 * @property {import('n8n-workflow').IDataObject} staticData
 * @property {Record<string, import('n8n-workflow').ICredentialDataDecryptedObject> | undefined} credentialsOverride
 * @property {string[]} executedNodes node names in the order they finished, across resumes
 * @property {Array<{ resolve(result: HarnessResult): void, reject(error: Error): void }>} waiters waitForResume() calls
 * @property {Array<(result: HarnessResult | undefined) => void>} attempts resume() requests in flight
 * @property {number} generation how many times the execution has stopped (finished, failed or waited)
 * @property {string} status 'new' | 'running' | 'waiting' | an n8n ExecutionStatus
 * @property {any} [persisted] IRunExecutionData as n8n would have stored it
 * @property {HarnessResult} [latest]
 */

/**
 * A result, an execution id or `{ executionId, generation? }`.
 * @typedef {string | number | { executionId: string, generation?: number }} ExecutionRef
 */

let executionCounter = 0;

/**
 * JSON round trip, like n8n persisting an execution to its database (circular references replaced).
 * @param {any} runExecutionData IRunExecutionData
 * @returns {any}
 */
function persist(runExecutionData) {
	const { workflow: wf } = boot();
	const copy = JSON.parse(wf.jsonStringify(runExecutionData, { replaceCircularRefs: true }));
	if (copy.waitTill) copy.waitTill = new Date(copy.waitTill);
	return copy;
}

/**
 * @param {ExecutionRef | HarnessResult} ref
 * @returns {string}
 */
function resolveExecutionId(ref) {
	if (ref === undefined || ref === null) throw new Error('Pass a result, an execution id or { executionId }');
	if (typeof ref === 'string' || typeof ref === 'number') return String(ref);
	if (ref.executionId !== undefined) return String(ref.executionId);
	throw new Error('Pass a result, an execution id or { executionId }');
}

/**
 * @param {HarnessContext} ctx
 * @param {import('./workflow').WorkflowJson} workflowJson normalised
 * @param {{ mode?: import('n8n-workflow').WorkflowExecuteMode, staticData?: import('n8n-workflow').IDataObject } & import('./credentials').CredentialOverrides} [runOptions]
 * @returns {ExecutionRecord}
 */
function newRecord(ctx, workflowJson, runOptions = {}) {
	const id = String(++executionCounter);
	/** @type {ExecutionRecord} */
	const record = {
		id,
		workflowId: workflowJson.id || `harness-wf-${id}`,
		workflowJson,
		mode: runOptions.mode || 'manual',
		staticData: clone(runOptions.staticData) || {},
		credentialsOverride: runCredentials(ctx.store, runOptions),
		executedNodes: [],
		waiters: [],
		attempts: [],
		generation: 0,
		status: 'new',
	};
	ctx.executions.set(id, record);
	return record;
}

/**
 * @param {HarnessContext} ctx
 * @param {ExecutionRef | HarnessResult} ref
 */
function getRecord(ctx, ref) {
	const id = resolveExecutionId(ref);
	const record = ctx.executions.get(id);
	if (!record) throw new Error(`[harness] unknown execution "${id}"`);
	return record;
}

/**
 * Answers the resume() requests waiting on this execution.
 * @param {ExecutionRecord} record
 * @param {HarnessResult | undefined} result
 */
function settleAttempts(record, result) {
	for (const settle of record.attempts.splice(0)) settle(result);
}

module.exports = { persist, resolveExecutionId, newRecord, getRecord, settleAttempts };
