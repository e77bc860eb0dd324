// @ts-check
'use strict';
/**
 * n8n's waiting-webhooks service, for requests to the harness server: the
 * resume token is checked, the waiting node's `webhook()` runs in n8n-core's
 * WebhookContext and the execution continues from that node with what it
 * returned (all outputs forwarded).
 */
const crypto = require('node:crypto');

const { expressRequest, expressResponse, respond } = require('./http');
const { WAITING_PATH } = require('./server');
const { persist, settleAttempts } = require('./records');
const { createWorkflowInstance, createHooks, makeAdditionalData, execute, finalize } = require('./engine');

/** @typedef {import('./context').HarnessContext} HarnessContext */
/** @typedef {import('./records').ExecutionRecord} ExecutionRecord */
/** @typedef {import('n8n-workflow').Workflow} Workflow */
/** @typedef {import('n8n-workflow').INode} INode */

/**
 * What the token check reads of a request.
 * @typedef {{ url?: string, headers: { host?: string }, query: Record<string, unknown> }} ResumeRequest
 */

/**
 * @param {HarnessContext} ctx
 * @param {import('node:http').IncomingMessage} rawReq
 * @param {import('node:http').ServerResponse} rawRes
 */
async function handleHttp(ctx, rawReq, rawRes) {
	const req = await expressRequest(rawReq);
	const res = expressResponse(rawRes);
	if (!req.path.startsWith(`${WAITING_PATH}/`)) {
		return respond(res, { responseCode: 404, data: { code: 404, message: `Not found: ${req.path}` } });
	}
	const [executionId, ...rest] = req.path.slice(WAITING_PATH.length + 1).split('/');
	const suffix = rest.length ? decodeURIComponent(rest.join('/')) : undefined;
	return handleWaitingWebhook(ctx, req, res, decodeURIComponent(executionId), suffix);
}

/**
 * Token check equivalent to n8n's waiting-webhooks service.
 * @param {HarnessContext} ctx
 * @param {ExecutionRecord} record
 * @param {ResumeRequest} req
 */
function validateResumeRequest(ctx, record, req) {
	const { core, workflow: wf, Container } = ctx.env;
	const data = record.persisted;
	const lastNode = record.workflowJson.nodes.find((n) => n.name === data.resultData.lastNodeExecuted);
	const token = req.query[core.WAITING_TOKEN_QUERY_PARAM];
	if (lastNode && lastNode.parameters && lastNode.parameters.operation === wf.SEND_AND_WAIT_OPERATION) {
		if (!data.validateSignature) return true;
		// HMAC over the whole URL (minus the signature), as getSignedResumeUrl() made it.
		if (typeof token !== 'string') return false;
		const parsed = new URL(String(req.url), `http://${req.headers.host}`);
		parsed.searchParams.delete(core.WAITING_TOKEN_QUERY_PARAM);
		const expected = core.generateUrlSignature(core.prepareUrlForSigning(parsed), Container.get(core.InstanceSettings).hmacSignatureSecret);
		return safeEqual(token, expected);
	}
	if (!data.resumeToken) return true;
	// $execution.resumeUrl carries ?signature=<resumeToken>; parameters appended later do not matter.
	return typeof token === 'string' && safeEqual(token, data.resumeToken);
}

/**
 * @param {string} a
 * @param {string} b
 */
function safeEqual(a, b) {
	const ba = Buffer.from(String(a));
	const bb = Buffer.from(String(b));
	return ba.length === bb.length && crypto.timingSafeEqual(ba, bb);
}

/**
 * The node's restart webhook (the one a waiting node resumes through) for this method and path suffix.
 * @param {HarnessContext} ctx
 * @param {Workflow} workflow
 * @param {INode} node
 * @param {string} method
 * @param {string | undefined} suffix
 * @returns {any} IWebhookData, or undefined
 */
function findRestartWebhook(ctx, workflow, node, method, suffix) {
	if (node.disabled) return undefined;
	const nodeType = ctx.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	/** @param {any} value @param {unknown} [fallback] */
	const param = (value, fallback) => workflow.expression.getSimpleParameterValue(node, value, 'internal', {}, undefined, /** @type {any} */ (fallback));
	for (const description of nodeType.description.webhooks || []) {
		if (param(description.restartWebhook, false) !== true) continue;
		if (description.nodeType === 'form') continue; // forms resume through /form-waiting
		let p = param(description.path);
		if (p === undefined) continue;
		p = String(p).replace(/^\//, '').replace(/\/$/, '');
		const methods = String(param(description.httpMethod, 'GET'))
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

/**
 * A request to `<webhookWaitingBaseUrl>/<executionId>[/<suffix>]`.
 * @param {HarnessContext} ctx
 * @param {any} req express-like request (http.js)
 * @param {any} res express-like response (http.js)
 * @param {string} executionId
 * @param {string | undefined} suffix
 */
async function handleWaitingWebhook(ctx, req, res, executionId, suffix) {
	const { core, workflow: wf } = ctx.env;
	const record = ctx.executions.get(executionId);
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
	if (!validateResumeRequest(ctx, record, req)) return respond(res, { responseCode: 401, data: { error: 'Invalid token' } });

	const lastNodeExecuted = record.persisted.resultData.lastNodeExecuted;
	const webhookWorkflow = createWorkflowInstance(ctx, record);
	const startNode = webhookWorkflow.getNode(lastNodeExecuted);
	const webhookData = startNode && findRestartWebhook(ctx, webhookWorkflow, startNode, req.method, suffix);
	if (!startNode || !webhookData) {
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
	const hooks = createHooks(ctx, record, webhookWorkflow);
	const additionalData = makeAdditionalData(ctx, record, hooks, { httpRequest: req, httpResponse: res });
	webhookData.workflowExecuteAdditionalData = additionalData;
	/** @type {any} */
	const nodeType = ctx.nodeTypes.getByNameAndVersion(startNode.type, startNode.typeVersion);
	let webhookResult;
	try {
		const context = new core.WebhookContext(webhookWorkflow, startNode, additionalData, record.mode, webhookData, [], runExecutionData);
		// A Node subclass (n8n's class-based nodes) has webhook() as a method; others take the context as `this`.
		webhookResult = nodeType instanceof wf.Node ? await /** @type {any} */ (nodeType).webhook(context) : await nodeType.webhook.call(context);
	} catch (error) {
		respond(res, { responseCode: 500, data: { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' } });
		const failed = persist(record.persisted);
		failed.resultData.error = { ...error, message: error.message, stack: error.stack };
		failed.resultData.lastNodeExecuted = lastNodeExecuted;
		return finalize(ctx, record, { data: failed, mode: record.mode, startedAt: new Date(), stoppedAt: new Date(), status: 'error' }, additionalData);
	}

	/** @param {any} value @param {unknown} fallback */
	const expr = (value, fallback) =>
		webhookWorkflow.expression.getSimpleParameterValue(startNode, value, record.mode, { $executionId: executionId }, undefined, /** @type {any} */ (fallback));
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
	const result = await execute(ctx, record, { runExecutionData, restart: true });

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

module.exports = { handleHttp, validateResumeRequest };
