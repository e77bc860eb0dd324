'use strict';
/**
 * n8n in queue mode: one main (`n8n start`), workers (`n8n worker`) and a webhook process
 * (`n8n webhook`), sharing Postgres, Redis, the encryption key and one N8N_USER_FOLDER
 * (where the package is installed). Each process logs JSON lines to its own file and is
 * stopped or killed by its PID.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');

const { n8nEnv, freePort } = require('./n8n');
const { descendants } = require('./procs');

/** The environment of one process: shared database, queue, key and folder; its own port, task broker port and event log. */
function queueEnv({ userFolder, n8nVersion, pg, redis, mainPort, webhookPort, port, brokerPort, eventLog, extra = {} }) {
	const env = n8nEnv({ userFolder, port, brokerPort, n8nVersion });
	// n8nEnv drops the caller's N8N_*/DB_*/EXECUTIONS_*; queue settings from the shell go too.
	for (const k of Object.keys(env)) if (/^(QUEUE_|OFFLOAD_)/.test(k)) delete env[k];
	Object.assign(env, {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: '',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		// Manual runs (the editor's "Execute workflow") go to the workers too; n8n 2.x says this
		// becomes the only behaviour in v3. Needed on the webhook process as well: a waiting
		// manual run is resumed there and is enqueued only with this set.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		// Detect a dead worker in seconds rather than the default ~90 s (lock 60 s + check every 30 s).
		QUEUE_WORKER_LOCK_DURATION: '10000',
		QUEUE_WORKER_LOCK_RENEW_TIME: '2500',
		QUEUE_WORKER_STALLED_INTERVAL: '5000',
		// Waiting-run resume URLs point at the webhook process, the editor at main.
		WEBHOOK_URL: `http://127.0.0.1:${webhookPort}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${mainPort}/`,
		N8N_LOG_FORMAT: 'json',
		// One event log per process (n8n's own record of which process ran which node).
		N8N_EVENTBUS_LOGWRITER_LOGFULLPATH: eventLog,
		N8N_EVENTBUS_LOGWRITER_KEEPLOGCOUNT: '20', // n8n rotates it on every start
		...extra,
	});
	return env;
}

const READY = {
	main: async (proc) => {
		const ready = await fetch(`${proc.base}/healthz/readiness`);
		if (!ready.ok) return false;
		return (await fetch(`${proc.base}/rest/settings`)).ok;
	},
	webhook: async (proc) => (await fetch(`${proc.base}/healthz/readiness`)).ok,
	worker: async (proc) => proc.logSince().includes('n8n worker is now ready'),
};

const COMMAND = { main: 'start', worker: 'worker', webhook: 'webhook' };

/** Can this process give a child its own host name (a UTS namespace: root, or a user namespace)? */
const UTS = (() => {
	try {
		return (
			execFileSync('unshare', ['--uts', '--', '/bin/sh', '-c', 'hostname e2e-probe && hostname'], {
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'ignore'],
			}).trim() === 'e2e-probe'
		);
	} catch {
		return false;
	}
})();

class Cluster {
	/**
	 * @param {{ tc: any, userFolder: string, logDir: string, pg: any, redis: any, n8nVersion: string }} o
	 */
	constructor(o) {
		Object.assign(this, o);
		this.procs = new Map(); // name -> process record
		this.ports = {};
	}

	async init() {
		this.ports.main = await freePort();
		this.ports.webhook = await freePort();
		fs.mkdirSync(this.logDir, { recursive: true });
	}

	get mainBase() {
		return `http://127.0.0.1:${this.ports.main}`;
	}

	get webhookBase() {
		return `http://127.0.0.1:${this.ports.webhook}`;
	}

	/** Starts `name` (main | webhook | worker-N) and resolves once it is ready. `extra` env only for this start. */
	async start(name, { extra = {}, timeoutMs = 240000 } = {}) {
		const role = name.startsWith('worker') ? 'worker' : name;
		const port = role === 'main' ? this.ports.main : role === 'webhook' ? this.ports.webhook : await freePort();
		const env = queueEnv({
			userFolder: this.userFolder,
			n8nVersion: this.n8nVersion,
			pg: this.pg,
			redis: this.redis,
			mainPort: this.ports.main,
			webhookPort: this.ports.webhook,
			port,
			brokerPort: await freePort(),
			eventLog: path.join(this.logDir, `events-${name}.log`),
			extra,
		});
		const logFile = path.join(this.logDir, `${name}.log`);
		const offset = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
		fs.appendFileSync(logFile, `${JSON.stringify({ e2e: `start ${name}`, at: new Date().toISOString(), extra })}\n`);
		const out = fs.openSync(logFile, 'a');
		const t0 = Date.now();
		const argv = [this.tc.node.bin, this.tc.n8n.bin, COMMAND[role]];
		// Own host name per process (as each container has one): n8n names a process
		// `<type>-<hostname>` in a container, so without it both workers are "worker-<host>"
		// and n8n's record of who ran an execution cannot tell them apart. unshare + exec keep
		// the PID: child.pid is n8n's.
		const hostname = UTS ? `e2e-${name}` : undefined;
		const cmd = UTS ? ['unshare', '--uts', '--', '/bin/sh', '-c', 'hostname "$0" && exec "$@"', hostname, ...argv] : argv;
		const child = spawn(cmd[0], cmd.slice(1), { env, cwd: this.userFolder, stdio: ['ignore', out, out] });
		fs.closeSync(out);
		const proc = {
			name,
			role,
			pid: child.pid,
			child,
			port,
			base: `http://127.0.0.1:${port}`,
			logFile,
			offset,
			exited: null,
			extra,
			hostname,
			logSince: () => readFrom(logFile, offset),
		};
		child.on('exit', (code, signal) => (proc.exited = { code, signal }));
		this.procs.set(name, proc);
		if (this.onStart) this.onStart(proc);
		for (;;) {
			if (proc.exited) throw new Error(`${name} exited during start-up (${JSON.stringify(proc.exited)}); see ${logFile}`);
			if (Date.now() - t0 > timeoutMs) {
				await this.kill(name);
				throw new Error(`${name} was not ready within ${timeoutMs / 1000} s; see ${logFile}`);
			}
			try {
				if (await READY[role](proc)) break;
			} catch {
				// not listening yet
			}
			await new Promise((r) => setTimeout(r, 300));
		}
		proc.readyMs = Date.now() - t0;
		return proc;
	}

	get(name) {
		return this.procs.get(name);
	}

	/** Graceful stop (SIGTERM, n8n's shutdown), SIGKILL after 40 s. */
	async stop(name) {
		const proc = this.procs.get(name);
		if (!proc || proc.exited) return;
		const done = new Promise((r) => proc.child.once('exit', r));
		process.kill(proc.pid, 'SIGTERM');
		const timer = setTimeout(() => proc.exited || process.kill(proc.pid, 'SIGKILL'), 40000);
		await done;
		clearTimeout(timer);
	}

	/** SIGKILL: the process dies where it stands (a crashed worker). */
	async kill(name) {
		const proc = this.procs.get(name);
		if (!proc || proc.exited) return;
		const done = new Promise((r) => proc.child.once('exit', r));
		process.kill(proc.pid, 'SIGKILL');
		await done;
	}

	/**
	 * SIGKILL now, synchronously (callable from inside a request listener): returns the PID
	 * and the descendants it had (n8n's task runner), for the caller to stop if they stay.
	 */
	killNow(name) {
		const proc = this.procs.get(name);
		if (!proc || proc.exited) return { pid: undefined, descendants: [] };
		const kids = descendants(proc.pid);
		process.kill(proc.pid, 'SIGKILL');
		return { pid: proc.pid, descendants: kids };
	}

	/** Stops every running process by PID: workers and webhook first, main last. */
	async stopAll() {
		const order = [...this.procs.keys()].sort((a, b) => (a === 'main') - (b === 'main'));
		await Promise.all(order.filter((n) => n !== 'main').map((n) => this.stop(n).catch(() => {})));
		await this.stop('main').catch(() => {});
	}

	/** Synchronous last resort (process exit): SIGKILL whatever is still running. */
	killAllSync() {
		for (const proc of this.procs.values()) {
			if (!proc.exited) {
				try {
					process.kill(proc.pid, 'SIGKILL');
				} catch {
					// already gone
				}
			}
		}
	}

	/** Parsed JSON log lines of a process (all its starts), optionally since a byte offset. */
	logLines(name, from = 0) {
		const proc = this.procs.get(name);
		if (!proc) return [];
		return parseLog(readFrom(proc.logFile, from));
	}
}

function readFrom(file, offset) {
	try {
		const fd = fs.openSync(file, 'r');
		try {
			const size = fs.fstatSync(fd).size;
			const buf = Buffer.alloc(Math.max(0, size - offset));
			fs.readSync(fd, buf, 0, buf.length, offset);
			return buf.toString('utf8');
		} finally {
			fs.closeSync(fd);
		}
	} catch {
		return '';
	}
}

/** n8n's JSON log lines ({ level, message, timestamp, metadata }); other lines as { message }. */
function parseLog(text) {
	return text
		.split('\n')
		.filter(Boolean)
		.map((line) => {
			try {
				const j = JSON.parse(line);
				return typeof j === 'object' && j ? j : { message: line };
			} catch {
				return { message: line };
			}
		});
}

module.exports = { Cluster, queueEnv, parseLog, UTS };
