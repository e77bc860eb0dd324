// @ts-check
'use strict';
/**
 * Waiting executions from a test's side: wait for the next resume, call the
 * resume URL (as a provider redirect or a browser would) and check a URL's
 * token the way n8n's waiting-webhooks service does (webhooks.js).
 */
const { request } = require('./http');
const { getRecord } = require('./records');
const { validateResumeRequest } = require('./webhooks');

/** @typedef {import('./context').HarnessContext} HarnessContext */
/** @typedef {import('./records').ExecutionRef} ExecutionRef */
/** @typedef {import('./result').HarnessResult} HarnessResult */
/** @typedef {import('./http').HttpResponse} HttpResponse */

/**
 * @typedef {object} ResumeOptions
 * @property {Record<string, string | number | boolean>} [query] Query parameters appended to the resume URL (as a provider redirect would).
 * @property {string} [method]
 * @property {unknown} [body]
 * @property {Record<string, string>} [headers]
 * @property {string} [suffix] Webhook suffix path (Wait node "webhookSuffix").
 * @property {string} [url] Use this URL instead of the execution's resume URL (e.g. to test a tampered signature).
 * @property {number} [timeoutMs]
 */

/**
 * Resolves with the result of the next resume (webhook or expiry) of a waiting
 * execution; at once if it already came after the given result's.
 * @param {HarnessContext} ctx
 * @param {HarnessResult | ExecutionRef} ref
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<HarnessResult>}
 */
function waitForResume(ctx, ref, { timeoutMs = 30000 } = {}) {
	const record = getRecord(ctx, ref);
	const since = ref && typeof ref === 'object' && ref.generation !== undefined ? ref.generation : record.generation;
	if (record.generation > since && record.status !== 'running') return Promise.resolve(/** @type {HarnessResult} */ (record.latest));
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			const i = record.waiters.indexOf(waiter);
			if (i >= 0) record.waiters.splice(i, 1);
			reject(new Error(`[harness] execution ${record.id} was not resumed within ${timeoutMs} ms (status ${record.status})`));
		}, timeoutMs);
		timer.unref();
		const waiter = {
			/** @param {HarnessResult} r */
			resolve: (r) => {
				clearTimeout(timer);
				resolve(r);
			},
			/** @param {Error} e */
			reject: (e) => {
				clearTimeout(timer);
				reject(e);
			},
		};
		record.waiters.push(waiter);
	});
}

/**
 * Makes an HTTP request to the execution's resume URL and waits for the resumed
 * run (`result` undefined when the request was refused or the node chose not to resume).
 * @param {HarnessContext} ctx
 * @param {HarnessResult | ExecutionRef} ref
 * @param {ResumeOptions} [options]
 * @returns {Promise<{ response: HttpResponse, result: HarnessResult | undefined }>}
 */
async function resume(ctx, ref, { query = {}, method = 'GET', body, headers, suffix, url, timeoutMs = 30000 } = {}) {
	const record = getRecord(ctx, ref);
	const target = new URL(url || (record.latest && record.latest.resumeUrl) || `${ctx.urls.webhookWaitingBaseUrl}/${record.id}`);
	if (suffix) target.pathname = `${target.pathname.replace(/\/$/, '')}/${suffix}`;
	for (const [k, v] of Object.entries(query)) target.searchParams.append(k, String(v));
	const since = record.generation;
	/** @type {(result: HarnessResult | undefined) => void} */
	let settle = () => {};
	/** @type {Promise<HarnessResult | undefined>} */
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
		/** @type {NodeJS.Timeout | undefined} */
		let timer;
		/** @type {Promise<never>} */
		const timeout = new Promise((_, reject) => {
			timer = setTimeout(() => reject(new Error(`[harness] execution ${record.id} did not finish within ${timeoutMs} ms after the resume request`)), timeoutMs);
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

/**
 * The execution id a URL under webhookWaitingBaseUrl addresses, or undefined.
 * @param {HarnessContext} ctx
 * @param {string} url
 */
function waitingExecutionOf(ctx, url) {
	const u = new URL(url);
	const base = new URL(ctx.urls.webhookWaitingBaseUrl);
	if (u.origin !== base.origin || !u.pathname.startsWith(`${base.pathname}/`)) return undefined;
	return decodeURIComponent(u.pathname.slice(base.pathname.length + 1).split('/')[0]);
}

/**
 * Would n8n's waiting-webhook service accept this URL's token (e.g. with parameters appended)?
 * @param {HarnessContext} ctx
 * @param {string} url
 * @returns {{ valid: boolean, executionId?: string, reason?: string }}
 */
function checkResumeUrl(ctx, url) {
	const executionId = waitingExecutionOf(ctx, url);
	if (executionId === undefined) return { valid: false, reason: 'not a waiting-webhook URL of this harness' };
	const record = ctx.executions.get(executionId);
	if (!record || !record.persisted) return { valid: false, executionId, reason: 'unknown execution' };
	const u = new URL(url);
	const req = {
		url: `${u.pathname}${u.search}`,
		headers: { host: u.host },
		query: Object.fromEntries(u.searchParams),
	};
	const valid = validateResumeRequest(ctx, record, req);
	return valid ? { valid, executionId } : { valid, executionId, reason: 'Invalid token' };
}

/**
 * GET a URL like a browser: follows redirects (up to maxRedirects) and, when a
 * hop is a resume URL of this harness, waits for the resumed run (e.g. an
 * emulator provider page that redirects to RedirectURL). `url`: the last one requested.
 * @param {HarnessContext} ctx
 * @param {string} url
 * @param {{ maxRedirects?: number, timeoutMs?: number }} [options]
 * @returns {Promise<{ response: HttpResponse, result: HarnessResult | undefined, url: string }>}
 */
async function browse(ctx, url, { maxRedirects = 5, timeoutMs } = {}) {
	let hop = new URL(url).toString();
	for (let i = 0; ; i++) {
		const executionId = waitingExecutionOf(ctx, hop);
		if (executionId !== undefined && ctx.executions.has(executionId)) {
			const { response, result } = await resume(ctx, executionId, { url: hop, timeoutMs });
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

module.exports = { waitForResume, resume, checkResumeUrl, browse };
