'use strict';
/**
 * Running the real n8n application for the e2e: its environment (loopback,
 * no telemetry), its CLI (import, execute) and its server with a small REST client.
 */
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');

const OWNER = Object.freeze({
	email: 'owner@e2e.example.com',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-owner-Passw0rd',
});
/** n8n ties the auth cookie to this header (its browserId check). */
const BROWSER_ID = 'n8n-nodes-access-point-e2e';

function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.once('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/**
 * Environment for every n8n process of one run: same user folder, encryption
 * key, port and webhook URL, so CLI executions and the server share one instance.
 */
function n8nEnv({ userFolder, port, brokerPort, n8nVersion = '2' }) {
	const base = `http://127.0.0.1:${port}`;
	const env = {};
	// Keep PATH/HOME/locale, drop anything N8N_* or DB_* the caller's shell may carry.
	for (const [k, v] of Object.entries(process.env)) {
		if (/^(N8N_|DB_|WEBHOOK_URL$|NODE_OPTIONS$|NODE_ENV$|EXECUTIONS_)/.test(k)) continue;
		env[k] = v;
	}
	Object.assign(env, {
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: 'n8n-nodes-access-point-e2e-encryption-key',
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${base}/`,
		WEBHOOK_URL: `${base}/`,
		N8N_SECURE_COOKIE: 'false',
		// No calls home; those that remain (MCP registry, license) fail harmlessly offline.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		// Task runners are always on in 2.x (internal mode); give each process its own broker port.
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_TASK_TIMEOUT: '300',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		DB_TYPE: 'sqlite',
		GENERIC_TIMEZONE: 'Europe/Brussels',
		TZ: 'Europe/Brussels',
		NO_COLOR: '1',
	});
	// n8n 1.x defaults to the isolated-vm expression engine, whose native module is not built
	// (--ignore-scripts); its in-process engine is what 1.x used before and still ships.
	if (Number(String(n8nVersion).split('.')[0]) < 2) env.N8N_EXPRESSION_ENGINE = 'legacy';
	return env;
}

/** Runs one n8n CLI command to completion; resolves { code, stdout, stderr, ms }. */
function cli(tc, env, args, { timeoutMs = 180000 } = {}) {
	return new Promise((resolve) => {
		const t0 = Date.now();
		const child = spawn(tc.node.bin, [tc.n8n.bin, ...args], { env, cwd: env.N8N_USER_FOLDER, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code: code === null ? `signal ${signal}` : code, stdout, stderr, ms: Date.now() - t0 });
		});
	});
}

/**
 * The JSON document `n8n execute --rawOutput` prints (JSON.stringify(run, null, 2)),
 * cut out of the surrounding log lines: from a line that is exactly "{" to the
 * first line that is exactly "}".
 */
function extractRunJson(stdout) {
	const lines = stdout.split('\n');
	const start = lines.findIndex((l) => l === '{');
	if (start < 0) return undefined;
	for (let end = start + 1; end < lines.length; end++) {
		if (lines[end] !== '}') continue;
		try {
			return JSON.parse(lines.slice(start, end + 1).join('\n'));
		} catch {
			// keep looking for a later closing brace
		}
	}
	return undefined;
}

/** Starts `n8n start`; resolves a handle once /healthz answers. Log goes to logFile. */
async function startServer(tc, env, { logFile, timeoutMs = 180000 } = {}) {
	const out = fs.openSync(logFile, 'a');
	const t0 = Date.now();
	const child = spawn(tc.node.bin, [tc.n8n.bin, 'start'], { env, cwd: env.N8N_USER_FOLDER, stdio: ['ignore', out, out] });
	fs.closeSync(out);
	let exited = null;
	child.on('exit', (code, signal) => (exited = { code, signal }));
	const base = `http://127.0.0.1:${env.N8N_PORT}`;
	for (;;) {
		if (exited) throw new Error(`n8n exited during start-up (${JSON.stringify(exited)}); see ${logFile}`);
		if (Date.now() - t0 > timeoutMs) {
			child.kill('SIGKILL');
			throw new Error(`n8n did not answer /healthz/readiness within ${timeoutMs / 1000} s; see ${logFile}`);
		}
		try {
			// Readiness means database up; /rest/settings answers once the controllers are registered.
			const ready = await fetch(`${base}/healthz/readiness`);
			const settings = ready.ok ? await fetch(`${base}/rest/settings`) : undefined;
			if (settings && settings.ok) break;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 500));
	}
	return {
		base,
		child,
		ms: Date.now() - t0,
		async stop() {
			if (exited) return;
			const done = new Promise((r) => child.once('exit', r));
			child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), 20000);
			await done;
			clearTimeout(timer);
		},
	};
}

/** Minimal REST client holding n8n's auth cookie. */
class Rest {
	constructor(base) {
		this.base = base;
		this.cookie = '';
	}

	async request(method, urlPath, body, { raw = false } = {}) {
		const headers = { 'browser-id': BROWSER_ID };
		if (this.cookie) headers.cookie = this.cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const res = await fetch(`${this.base}${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
		const setCookie = res.headers.getSetCookie ? res.headers.getSetCookie() : [];
		const auth = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth;
		if (raw) return res;
		const text = await res.text();
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		if (!res.ok) {
			const err = new Error(`${method} ${urlPath} -> HTTP ${res.status}: ${text.slice(0, 300)}`);
			err.status = res.status;
			throw err;
		}
		return json && json.data !== undefined && Object.keys(json).length === 1 ? json.data : json;
	}

	get(p, opts) {
		return this.request('GET', p, undefined, opts);
	}

	post(p, body, opts) {
		return this.request('POST', p, body, opts);
	}

	/** Owner set-up on a fresh instance (idempotent), then log in. */
	async loginOwner() {
		const settings = await this.get('/rest/settings');
		if (settings.userManagement && settings.userManagement.showSetupOnFirstLoad) {
			await this.post('/rest/owner/setup', OWNER);
		}
		await this.post('/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
		if (!this.cookie) throw new Error('n8n did not set an auth cookie on login');
	}
}

function writeJson(file, data) {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}

/**
 * Publishes a workflow (n8n 2.x: POST .../activate with the version; n8n 1.x: PATCH active)
 * and answers n8n's workflow, or throws when n8n did not publish it.
 */
async function publishWorkflow(rest, id) {
	const wf = await rest.get(`/rest/workflows/${id}`);
	let out;
	try {
		out = await rest.post(`/rest/workflows/${id}/activate`, { versionId: wf.versionId });
	} catch (error) {
		if (error.status !== 404) throw error;
		out = await rest.request('PATCH', `/rest/workflows/${id}`, { active: true, versionId: wf.versionId });
	}
	if (!out || (!out.activeVersionId && out.active !== true)) throw new Error(`n8n did not publish workflow ${id}: ${JSON.stringify(out).slice(0, 300)}`);
	return out;
}

/** Unpublishes a workflow (n8n 2.x: POST .../deactivate; n8n 1.x: PATCH active). */
async function unpublishWorkflow(rest, id) {
	try {
		await rest.post(`/rest/workflows/${id}/deactivate`, {});
	} catch (error) {
		if (error.status !== 404) throw error;
		const wf = await rest.get(`/rest/workflows/${id}`);
		await rest.request('PATCH', `/rest/workflows/${id}`, { active: false, versionId: wf.versionId });
	}
}

module.exports = { OWNER, BROWSER_ID, freePort, n8nEnv, cli, extractRunJson, startServer, Rest, writeJson, publishWorkflow, unpublishWorkflow };
