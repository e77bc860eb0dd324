#!/usr/bin/env node
'use strict';
/**
 * npm run e2e -- --queue (or node e2e/queue.js): the packed package in n8n's queue mode.
 *
 *  services     Debian's postgresql + redis-server (installed when missing), started on
 *               127.0.0.1 as unprivileged processes in a temp folder
 *  cluster      n8n (the e2e toolchain's) as `n8n start` (main), `n8n worker` x2 and
 *               `n8n webhook`, EXECUTIONS_MODE=queue, one shared N8N_USER_FOLDER holding the
 *               package installed as n8n's installer does; the emulator behind a relay that
 *               names the process behind every API call (lib/callers.js)
 *  templates    every template in examples/ runs on a worker (lib/queue-proof.js)
 *  resume       onboarding waits on a worker, the identity page's redirect reaches the
 *               webhook process, the run finishes on a worker
 *  trigger x2   Order Trigger published on main: each new order exactly once across 30+ polls
 *               with concurrent inserts and a restart of main, durable poll cursors off and on;
 *               and (default cursors) a poll slower than the poll interval
 *  webhook trg  the AccessPoint Trigger through the webhook process (e2e/lib/webhook.js)
 *  worker kill  Create and Send of 50 orders, its worker SIGKILLed mid-run (during the creates,
 *               and after the send): nothing lost or sent twice after the retry
 *  throughput   200 webhook-started Create and Send executions with one worker, then two
 *
 * Flags: --keep (keep the temp folder), --skip-throughput, --skip-trigger
 * Env: E2E_CACHE / E2E_N8N_VERSION (see install.js), E2E_ARTIFACTS (default .artifacts/e2e-queue),
 *      E2E_QUEUE_POLLS (polls per trigger leg, default 32), E2E_QUEUE_EXECUTIONS (default 200)
 * Last line: "e2e-queue: N passed, N failed, N skipped"; exit code 1 when any step failed.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureToolchain } = require('./install');
const { freePort, Rest, publishWorkflow, unpublishWorkflow } = require('./lib/n8n');
const { createSteps, secs } = require('./lib/steps');
const T = require('./lib/templates');
const S = require('./lib/services');
const { Cluster, UTS } = require('./lib/cluster');
const { packAndInstall } = require('./lib/pack');
const { startCallerRelay } = require('./lib/callers');
const { Proof } = require('./lib/queue-proof');
const { checkListing } = require('./lib/checks');
const W = require('./lib/queue-workflows');
const { cpuByTree, descendants, alive } = require('./lib/procs');

const REPO = path.resolve(__dirname, '..');
const ARGS = new Set(process.argv.slice(2));
const ARTIFACTS = path.resolve(REPO, process.env.E2E_ARTIFACTS || path.join('.artifacts', 'e2e-queue'));
const POLLS = Number(process.env.E2E_QUEUE_POLLS) || 32;
const POLL_EVERY_S = 4; // 15 poll times a minute; closer ones make late crons overlap on a loaded machine
const EXECUTIONS = Number(process.env.E2E_QUEUE_EXECUTIONS) || 200;
const DURABLE_ENV = {
	// N8N_POLLER_DURABLE_CURSORS_ENABLED alone is ignored by n8n 2.41 (it logs that it needs the
	// durable scheduler for poll triggers and the publication service, the latter on by default).
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	// The scheduler's executor looks for due polls every 5 s by default; every second here so
	// the 4-second poll times are kept.
	N8N_SCHEDULER_EXECUTOR_INTERVAL: '1',
	// Poll times missed while main is down are dropped, not caught up: n8n 2.41 runs the
	// caught-up polls of one node at the same time, each from the same cursor (its fence checks
	// the task's lease, not the cursor), so with 20 poll times and the default grace (60 s) a
	// 15 s restart gave 5 simultaneous polls and 5 executions of the same orders.
	// E2E_QUEUE_MISFIRE_GRACE=60 shows it.
	N8N_SCHEDULER_MISFIRE_GRACE: process.env.E2E_QUEUE_MISFIRE_GRACE || '2',
};

const { step, crashed, summary } = createSteps();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (line = '') => console.log(line);

async function until(what, fn, ms, every = 250) {
	const end = Date.now() + ms;
	for (;;) {
		const v = await fn();
		if (v) return v;
		if (Date.now() > end) throw new Error(`${what} (waited ${secs(ms)})`);
		await sleep(every);
	}
}

// ---- everything the run starts, stopped by PID at the end (also on SIGINT/SIGTERM) -----------

const started = { pg: undefined, redis: undefined, cluster: undefined, emu: undefined, relay: undefined, work: undefined };

async function stopEverything() {
	const { cluster, pg, redis, emu, relay } = started;
	const leftovers = [];
	if (cluster) {
		// n8n's task runners are children of each process; note them to check they went too.
		for (const p of cluster.procs.values()) if (!p.exited) leftovers.push(...descendants(p.pid));
		await cluster.stopAll();
	}
	if (redis) await redis.stop().catch(() => {});
	if (pg) await pg.stop().catch(() => {});
	if (relay) await relay.close().catch(() => {});
	if (emu) await emu.close().catch(() => {});
	for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
	started.cluster = started.pg = started.redis = started.relay = started.emu = undefined;
}

function stopEverythingSync() {
	if (started.cluster) started.cluster.killAllSync();
	for (const h of [started.redis, started.pg]) {
		if (h && !h.exited) {
			try {
				process.kill(h.pid, h === started.pg ? 'SIGQUIT' : 'SIGKILL'); // SIGQUIT: Postgres' immediate shutdown, backends included
			} catch {
				// gone
			}
		}
	}
}

for (const sig of ['SIGINT', 'SIGTERM']) {
	process.once(sig, () => {
		log(`\n${sig}: stopping every process this run started`);
		stopEverything()
			.catch(() => stopEverythingSync())
			.finally(() => {
				if (started.work && !ARGS.has('--keep')) fs.rmSync(started.work, { recursive: true, force: true });
				process.exit(1);
			});
	});
}
process.once('exit', stopEverythingSync);

// ---- n8n REST ----------------------------------------------------------------------------------

let flatted;
function parseExecution(full) {
	if (!flatted) flatted = require(require.resolve('flatted', { paths: [path.join(started.tc.n8n.dir, 'node_modules', 'n8n')] }));
	const data = typeof full.data === 'string' ? flatted.parse(full.data) : full.data;
	return { ...full, data };
}

const FINAL = ['success', 'error', 'crashed', 'canceled'];

async function waitExecution(rest, id, { statuses = FINAL, timeoutMs = 90000 } = {}) {
	let last;
	await until(
		`execution ${id} did not reach ${statuses.join('/')} (last status: ${last && last.status})`,
		async () => {
			last = await rest.get(`/rest/executions/${id}`);
			return statuses.includes(last.status);
		},
		timeoutMs,
		300,
	);
	return parseExecution(last);
}

const activate = publishWorkflow;
const deactivate = unpublishWorkflow;

/** Executions of a workflow from Postgres: [{ id, status, mode, createdMs, startedMs, stoppedMs }]. */
function executionsOf(pg, workflowId) {
	const rows = pg.psql(
		`select id, status, mode, extract(epoch from "createdAt")*1000, coalesce(extract(epoch from "startedAt")*1000, 0), coalesce(extract(epoch from "stoppedAt")*1000, 0) from execution_entity where "workflowId" = '${workflowId.replace(/'/g, "''")}' order by id`,
	);
	return rows
		.split('\n')
		.filter(Boolean)
		.map((l) => {
			const [id, status, mode, c, s, e] = l.split('|');
			return { id, status, mode, createdMs: Number(c), startedMs: Number(s), stoppedMs: Number(e) };
		});
}

// ---- the run -------------------------------------------------------------------------------------

async function main() {
	fs.rmSync(ARTIFACTS, { recursive: true, force: true });
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-e2e-queue-'));
	fs.chmodSync(work, 0o711); // Postgres and Redis run as their own users below it
	started.work = work;
	const userFolder = path.join(work, 'n8n');
	const ctx = { work, userFolder };

	try {
		const { ok: toolsOk } = await step('toolchain (cache outside the repo)', () => {
			const tc = ensureToolchain({ browser: false });
			started.tc = tc;
			ctx.tc = tc;
			log(`   node ${tc.node.version}, n8n ${tc.n8n.version} (${tc.cache})`);
		});
		if (!toolsOk) return;

		const { ok: servicesOk } = await step('Postgres + Redis (Debian packages) on loopback, unprivileged', async () => {
			const pkgs = S.ensurePackages((l) => log(`   ${l}`));
			started.pg = await S.startPostgres({
				pgBin: pkgs.pgBin,
				dir: path.join(work, 'pg'),
				port: await freePort(),
				logFile: path.join(ARTIFACTS, 'postgres.log'),
			});
			started.redis = await S.startRedis({
				redisServer: pkgs.redisServer,
				dir: path.join(work, 'redis'),
				port: await freePort(),
				logFile: path.join(ARTIFACTS, 'redis.log'),
			});
			log(`   ${pkgs.pgVersion}: pid ${started.pg.pid} as ${started.pg.runAs}, 127.0.0.1:${started.pg.port}`);
			log(`   ${pkgs.redisVersion.split(' sha=')[0]}: pid ${started.redis.pid} as ${started.redis.runAs}, 127.0.0.1:${started.redis.port}, no persistence`);
		});
		if (!servicesOk) return;

		const { ok: packOk } = await step('npm pack + install into the shared <N8N_USER_FOLDER>/.n8n/nodes', () => {
			const p = packAndInstall({ repo: REPO, work, userFolder, tc: ctx.tc });
			log(`   ${path.basename(p.file)} (${p.sizeKb.toFixed(1)} kB) -> ${path.relative(work, p.installedDir)}`);
		});
		if (!packOk) return;

		const { createEmulator } = require(path.join(REPO, 'emulator'));
		const emu = (started.emu = await createEmulator({ port: 0, orders: 1000 }));
		const relay = (started.relay = await startCallerRelay(emu.url));
		relay.watch('e2e', process.pid);
		const cluster = (started.cluster = new Cluster({
			tc: ctx.tc,
			userFolder,
			logDir: path.join(ARTIFACTS, 'n8n'),
			pg: started.pg,
			redis: started.redis,
			n8nVersion: ctx.tc.n8n.version,
		}));
		cluster.onStart = (proc) => relay.watch(proc.name, proc.pid);
		await cluster.init();
		Object.assign(ctx, { emu, relay, cluster, pg: started.pg, redisPid: started.redis.pid, proof: new Proof(cluster) });

		const { ok: clusterOk } = await step('n8n main + 2 workers + webhook process (EXECUTIONS_MODE=queue)', async () => {
			const m = await cluster.start('main');
			log(`   main      pid ${m.pid} ${m.base} ready in ${secs(m.readyMs)} (migrations on an empty database)`);
			const others = await Promise.all(['worker-1', 'worker-2', 'webhook'].map((n) => cluster.start(n)));
			for (const p of others) log(`   ${p.name.padEnd(9)} pid ${p.pid}${p.role === 'webhook' ? ` ${p.base}` : ''} ready in ${secs(p.readyMs)}`);
			log(`   host names per process: ${UTS ? 'own UTS namespace each (n8n hostIds differ)' : 'shared (no unshare): n8n hostIds may be equal'}`);
			log(`   emulator ${emu.url}, reached by n8n through the caller relay ${relay.url}`);
			ctx.rest = new Rest(cluster.mainBase);
			await ctx.rest.loginOwner();
			const pgWarning = cluster.logLines('main').find((l) => /Postgres \d+ is not supported/.test(l.message || ''));
			if (pgWarning) log(`   note: n8n says "${pgWarning.message}" (Debian 12 ships Postgres 15; everything below runs on it)`);
			const ids = ctx.proof.hostIds();
			log(
				`   n8n hostIds: ${Object.entries(ids)
					.map(([h, n]) => `${n} = ${h}`)
					.join(', ')}`,
			);
			if (Object.keys(ids).length < 2)
				throw new Error(
					`the two workers report the same n8n hostId (${JSON.stringify(ids)}): in a container n8n uses the host name, and \`unshare --uts\` was not available to give each process its own`,
				);
		});
		if (!clusterOk) return;

		await step('main lists the credentials and all seven nodes (/types/*.json)', async (fail) => {
			const { problems, found } = await checkListing(ctx.rest);
			log(`   found ${found.nodes} node types, ${found.credentials} credential(s) of those required, on main`);
			problems.forEach(fail);
		});

		const { ok: importOk } = await step("credential + templates through main's REST API", async () => {
			const { apiKey, partyId } = emu.credentials;
			ctx.credential = await ctx.rest.post('/rest/credentials', {
				name: T.CREDENTIAL.name,
				type: T.CREDENTIAL.type,
				data: { apiKey, partyId, environment: 'custom', baseUrl: relay.url },
			});
			ctx.templates = T.listTemplates(REPO).map((t, i) => ({ ...t, start: T.startOf(t), index: i }));
			ctx.importWorkflow = async (wf) => {
				const body = JSON.parse(JSON.stringify(wf));
				delete body.id;
				for (const n of body.nodes)
					if (n.credentials && n.credentials[T.CREDENTIAL.type]) n.credentials[T.CREDENTIAL.type] = { id: ctx.credential.id, name: ctx.credential.name };
				const created = await ctx.rest.post('/rest/workflows', body);
				return created.id;
			};
			for (const t of ctx.templates) {
				if (t.start === 'activate') continue; // imported per trigger leg, with fast poll times
				t.workflowId = await ctx.importWorkflow(T.prepare(t, t.index));
			}
			log(
				`   credential ${ctx.credential.id} -> ${relay.url}; ${ctx.templates.length} templates: ${ctx.templates.map((t) => `${t.file} [${t.start}]`).join(', ')}`,
			);
		});
		if (!importOk) return;

		const Q = require('./lib/queue-checks');
		const checks = Q.create({
			ctx,
			Rest,
			step,
			log,
			until,
			sleep,
			secs,
			waitExecution,
			activate,
			deactivate,
			executionsOf,
			FINAL,
			POLLS,
			POLL_EVERY_S,
			EXECUTIONS,
			DURABLE_ENV,
			ARGS,
			W,
			T,
			cpuByTree,
		});
		await checks.templates();
		await checks.onboarding();
		if (!ARGS.has('--skip-trigger')) {
			await checks.trigger({ mode: 'durable poll cursors off (n8n default)', env: {} });
			await checks.triggerSlowApi();
			await checks.trigger({ mode: 'durable poll cursors on', env: DURABLE_ENV });
		}
		await checks.webhookTrigger();
		await checks.workerKill({ phase: 'creates', prefix: 'KILL-A' });
		await checks.workerKill({ phase: 'send', prefix: 'KILL-B' });
		if (!ARGS.has('--skip-throughput')) await checks.throughput();
	} finally {
		await step('stop every process by PID', async (fail) => {
			const pids = [];
			if (started.cluster) for (const p of started.cluster.procs.values()) if (!p.exited) pids.push(p.pid);
			for (const h of [started.pg, started.redis]) if (h && !h.exited) pids.push(h.pid);
			await stopEverything();
			const still = pids.filter(alive);
			log(`   stopped ${pids.length} process(es)${still.length ? `; still alive: ${still.join(', ')}` : ''}`);
			if (still.length) fail(`processes still alive after stop: ${still.join(', ')}`);
		});
		if (ARGS.has('--keep')) log(`\nkept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

main()
	.catch((error) => crashed('e2e-queue runner', error))
	.finally(() => summary({ title: 'summary (queue mode)', label: 'e2e-queue', where: `n8n logs in ${path.relative(REPO, ARTIFACTS)}/` }));
