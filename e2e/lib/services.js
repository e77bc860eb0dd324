'use strict';
/**
 * Postgres and Redis for the queue-mode e2e: Debian's packages (installed when missing),
 * started by us on 127.0.0.1 as unprivileged processes in a temporary folder, and
 * stopped by PID. Nothing is registered as a system service.
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync, spawn } = require('node:child_process');

const APT_ENV = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };

/** The newest /usr/lib/postgresql/<major>/bin that has initdb and postgres. */
function postgresBin() {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return undefined;
	const majors = fs
		.readdirSync(root)
		.filter((d) => /^\d+$/.test(d) && fs.existsSync(path.join(root, d, 'bin', 'initdb')) && fs.existsSync(path.join(root, d, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(root, majors[0], 'bin') : undefined;
}

function redisBin() {
	for (const p of ['/usr/bin/redis-server', '/usr/local/bin/redis-server']) if (fs.existsSync(p)) return p;
	return undefined;
}

/**
 * Installs Debian's postgresql and redis-server when either is missing (root only; apt's
 * policy-rc.d in containers keeps them from starting as services). Returns the binaries.
 */
function ensurePackages(log = () => {}) {
	let pg = postgresBin();
	let redis = redisBin();
	if (!pg || !redis) {
		const missing = [!pg && 'postgresql', !redis && 'redis-server'].filter(Boolean);
		if (!isRoot()) throw new Error(`${missing.join(' and ')} missing: run apt-get install -y postgresql redis-server (as root)`);
		const t0 = Date.now();
		execFileSync('apt-get', ['update', '-qq'], { env: APT_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
		execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql', 'redis-server'], { env: APT_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
		log(`apt-get install ${missing.join(' ')}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		pg = postgresBin();
		redis = redisBin();
		if (!pg || !redis) throw new Error('apt-get install postgresql redis-server did not provide initdb/postgres/redis-server');
	}
	const version = (bin, args) => execFileSync(bin, args, { encoding: 'utf8' }).trim().split('\n')[0];
	return { pgBin: pg, redisServer: redis, pgVersion: version(path.join(pg, 'postgres'), ['--version']), redisVersion: version(redis, ['--version']) };
}

function isRoot() {
	return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** uid/gid to run a server as: the package's own system user when we are root, else ourselves. */
function unprivileged(user) {
	if (!isRoot()) return {};
	for (const name of [user, 'nobody']) {
		try {
			const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
			const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
			if (uid > 0) return { uid, gid, name };
		} catch {
			// no such user
		}
	}
	throw new Error(`no unprivileged user (${user}, nobody) to run ${user} as`);
}

function ownDir(dir, who) {
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	if (who.uid !== undefined) fs.chownSync(dir, who.uid, who.gid);
}

function waitExit(child, ms) {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
		const timer = setTimeout(() => resolve(false), ms);
		child.once('exit', () => {
			clearTimeout(timer);
			resolve(true);
		});
	});
}

/** A spawned server process: its PID, its log, and stop() by PID (signal, then SIGKILL). */
function handle(name, child, logFile, stopSignal) {
	let exited = null;
	child.on('exit', (code, signal) => (exited = { code, signal }));
	return {
		name,
		pid: child.pid,
		child,
		logFile,
		get exited() {
			return exited;
		},
		async stop() {
			if (exited) return;
			process.kill(child.pid, stopSignal);
			if (!(await waitExit(child, 15000))) {
				process.kill(child.pid, 'SIGKILL');
				await waitExit(child, 5000);
			}
		},
	};
}

async function until(what, fn, ms, child) {
	const end = Date.now() + ms;
	let last;
	while (Date.now() < end) {
		if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`${what}: the process exited (${child.exitCode ?? child.signalCode})`);
		try {
			if (await fn()) return;
		} catch (error) {
			last = error;
		}
		await new Promise((r) => setTimeout(r, 200));
	}
	throw new Error(`${what} within ${ms / 1000} s${last ? `: ${last.message}` : ''}`);
}

/**
 * initdb + postgres on 127.0.0.1:<port>, socket in the data folder, trust auth on loopback
 * only, a database "n8n" owned by role "n8n". Resolves { pid, port, user, database, stop }.
 */
async function startPostgres({ pgBin, dir, port, logFile }) {
	const who = unprivileged('postgres');
	const data = path.join(dir, 'pgdata');
	ownDir(dir, who);
	const asUser = { uid: who.uid, gid: who.gid, cwd: dir, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } };
	execFileSync(path.join(pgBin, 'initdb'), ['-D', data, '-U', 'n8n', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'], {
		...asUser,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const out = fs.openSync(logFile, 'a');
	const child = spawn(
		path.join(pgBin, 'postgres'),
		['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`, '-c', 'max_connections=200'],
		{ ...asUser, stdio: ['ignore', out, out] },
	);
	fs.closeSync(out);
	const pg = handle('postgres', child, logFile, 'SIGINT'); // SIGINT: Postgres' fast shutdown
	const psql = (args) =>
		execFileSync(path.join(pgBin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', '-X', '-q', ...args], {
			...asUser,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
	await until('postgres did not accept connections', () => (psql(['-d', 'postgres', '-c', 'select 1']), true), 30000, child);
	psql(['-d', 'postgres', '-c', 'create database n8n']);
	return Object.assign(pg, {
		port,
		user: 'n8n',
		database: 'n8n',
		runAs: who.name || process.env.USER,
		psql: (sql) => psql(['-d', 'n8n', '-At', '-c', sql]).trim(),
	});
}

/** redis-server on 127.0.0.1:<port>, no RDB snapshots, no AOF. */
async function startRedis({ redisServer, dir, port, logFile }) {
	const who = unprivileged('redis');
	ownDir(dir, who);
	const out = fs.openSync(logFile, 'a');
	const child = spawn(
		redisServer,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--protected-mode',
			'yes',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--daemonize',
			'no',
			'--logfile',
			'',
		],
		{ uid: who.uid, gid: who.gid, cwd: dir, stdio: ['ignore', out, out] },
	);
	fs.closeSync(out);
	const redis = handle('redis', child, logFile, 'SIGTERM');
	await until('redis did not answer PING', () => ping(port), 15000, child);
	return Object.assign(redis, { port, runAs: who.name || process.env.USER });
}

/** One RESP PING over a plain socket. */
function ping(port) {
	return new Promise((resolve) => {
		const sock = require('node:net').connect(port, '127.0.0.1');
		let buf = '';
		sock.setTimeout(1000, () => (sock.destroy(), resolve(false)));
		sock.on('error', () => resolve(false));
		sock.on('connect', () => sock.write('PING\r\n'));
		sock.on('data', (d) => {
			buf += d;
			if (buf.includes('\r\n')) {
				sock.destroy();
				resolve(buf.startsWith('+PONG'));
			}
		});
	});
}

module.exports = { ensurePackages, startPostgres, startRedis, postgresBin, redisBin, until };
