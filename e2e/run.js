#!/usr/bin/env node
'use strict';
/**
 * npm run e2e: the packed package inside the real n8n application.
 *
 *  1. toolchain     Node 24, n8n, playwright-core, Chromium (cached; e2e/install.js)
 *  2. pack+install  npm pack, then `npm install <tgz>` in <N8N_USER_FOLDER>/.n8n/nodes
 *  3. import        credential (pointing at the emulator) and templates, with n8n's CLI
 *  4. execute       `n8n execute --id` for every template that starts manually
 *  5. server        `n8n start` on loopback; owner set-up and login through REST
 *  6. listing       /types/nodes.json + /types/credentials.json list every node and
 *                   the credential; every icon URL is served
 *  7. trigger       polling templates are published through REST and must emit; the AccessPoint
 *                   Trigger's webhooks; the Peppol Inbox Trigger hands a refused invoice's IMR over
 *  8. resume        a run waiting for the identity check is resumed by the provider redirect
 *  9. editor        headless Chromium: log in, canvas without node issues, screenshots; the node
 *                   panel, Download Files' binary output pane (e2e/lib/binary.js), money typed
 *                   and re-run (e2e/lib/money.js), OAuth2
 * 10. jest@24       the engine-level jest suite (test/workflows) under Node 24
 * 11. jest@core1    the same suite on the last 1.x n8n-core under this Node (e2e/core1.js)
 *
 * Flags: --skip-browser --skip-jest (steps 10 and 11) --skip-core1 --keep (keep the temp folder)
 *        --queue: the queue-mode leg instead (e2e/queue.js: Postgres, Redis, main, workers, webhook)
 * Env: E2E_CACHE, E2E_N8N_VERSION (see e2e/install.js), E2E_ARTIFACTS (default .artifacts/e2e),
 *      E2E_JEST_ARGS (default test/workflows)
 * Exit code 1 when any step fails; the summary names what failed.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const { ensureToolchain } = require('./install');
const { n8nEnv, freePort, cli, extractRunJson, startServer, Rest, writeJson, publishWorkflow, unpublishWorkflow } = require('./lib/n8n');
const T = require('./lib/templates');
const { checkListing, packageLoadErrors } = require('./lib/checks');
const { createSteps, secs } = require('./lib/steps');
const { packAndInstall } = require('./lib/pack');

const REPO = path.resolve(__dirname, '..');
const ARGS = new Set(process.argv.slice(2));
const ARTIFACTS = path.resolve(REPO, process.env.E2E_ARTIFACTS || path.join('.artifacts', 'e2e'));

const { step, crashed, summary } = createSteps();

function log(line = '') {
	console.log(line);
}

async function main() {
	fs.rmSync(ARTIFACTS, { recursive: true, force: true });
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-e2e-'));
	const userFolder = path.join(work, 'n8n');
	const serverLog = path.join(ARTIFACTS, 'n8n-server.log');
	let emu;
	let server;

	try {
		const { value: tc, ok: toolsOk } = await step('toolchain (cache outside the repo)', () => {
			const tc = ensureToolchain({ browser: !ARGS.has('--skip-browser') });
			log(`   cache ${tc.cache}`);
			log(`   node ${tc.node.version}, n8n ${tc.n8n.version}${tc.playwright ? `, playwright-core ${tc.playwright.version}, ${tc.chromium.version}` : ''}`);
			return tc;
		});
		if (!toolsOk) return;

		const { value: tgz, ok: packOk } = await step('npm pack + install into <N8N_USER_FOLDER>/.n8n/nodes', () => {
			// As a user does it (n8n docs, manual install), under Node 24; the recipe is e2e/lib/pack.js.
			const { file, sizeKb, installedDir } = packAndInstall({ repo: REPO, work, userFolder, tc });
			log(`   ${path.basename(file)} (${sizeKb.toFixed(1)} kB) -> ${path.relative(work, installedDir)}`);
			return file;
		});
		if (!packOk) return;

		const { createEmulator } = require(path.join(REPO, 'emulator'));
		emu = await createEmulator({ port: 0, orders: 1000 });
		const port = await freePort();
		const cliEnv = n8nEnv({ userFolder, port, brokerPort: await freePort(), n8nVersion: tc.n8n.version });
		const serverEnv = n8nEnv({ userFolder, port, brokerPort: await freePort(), n8nVersion: tc.n8n.version });
		log(`\n   emulator ${emu.url}; n8n user folder ${userFolder}; n8n port ${port}`);

		const templates = T.listTemplates(REPO).map((t, i) => ({ ...t, prepared: T.prepare(t, i), start: T.startOf(t) }));

		const { ok: importOk } = await step('import credential + templates (n8n import:credentials / import:workflow)', async (fail) => {
			const dir = path.join(work, 'import');
			writeJson(path.join(dir, 'credentials.json'), [T.credentialFor(emu)]);
			for (const t of templates) writeJson(path.join(dir, 'workflows', t.file), t.prepared);
			if (!ARGS.has('--skip-browser')) writeJson(path.join(dir, 'workflows', 'zz-canary.json'), require('./lib/browser').CANARY);
			const c = await cli(tc, cliEnv, ['import:credentials', `--input=${path.join(dir, 'credentials.json')}`]);
			if (c.code !== 0) fail(`import:credentials exited ${c.code}: ${tail(c.stdout + c.stderr)}`);
			const w = await cli(tc, cliEnv, ['import:workflow', '--separate', `--input=${path.join(dir, 'workflows')}`]);
			if (w.code !== 0) fail(`import:workflow exited ${w.code}: ${tail(w.stdout + w.stderr)}`);
			log(
				`   credential "${T.CREDENTIAL.name}" -> ${emu.url}; ${templates.length} workflow(s) from ${templates[0] ? path.basename(templates[0].dir) : '-'}/: ${templates.map((t) => `${t.file} [${t.start || 'no start'}]`).join(', ')} (${secs(c.ms + w.ms)})`,
			);
			if (!templates.length) fail('no templates found in examples/ or e2e/workflows/');
		});

		const waiting = [];
		if (importOk) {
			for (const t of templates.filter((x) => x.start === 'cli' || x.start === 'cli+resume')) {
				await step(`n8n execute --id ${t.prepared.id}  (${t.label})`, async (fail) => {
					const note = await T.runSetup(t, emu);
					if (note) log(`   set-up: ${note}`);
					emu.clearRequests();
					const r = await cli(tc, cliEnv, ['execute', `--id=${t.prepared.id}`, '--rawOutput']);
					fs.writeFileSync(path.join(ARTIFACTS, `execute-${t.file.replace(/\.json$/, '')}.log`), `${r.stdout}\n--- stderr ---\n${r.stderr}`);
					const run = extractRunJson(r.stdout);
					for (const line of T.summarize(run)) log(`   ${line}`);
					log(`   exit ${r.code}, ${emu.requests.length} request(s) reached the emulator, ${secs(r.ms)}`);
					if (r.code !== 0) fail(`n8n execute exited ${r.code}: ${tail(r.stdout + r.stderr)}`);
					const why = T.judge(t, run, { allowWaiting: t.start === 'cli+resume' });
					if (why) fail(why);
					if (!emu.requests.length) fail('no request reached the emulator');
					if (t.start === 'cli+resume' && !why) {
						if (run.status !== 'waiting') fail(`expected the run to wait for the identity check, status is "${run.status}"`);
						else waiting.push({ t, run });
					}
				});
			}
		}

		const { value: srv, ok: serverOk } = await step('n8n start (loopback) + owner set-up + login (REST)', async () => {
			server = await startServer(tc, serverEnv, { logFile: serverLog });
			const rest = new Rest(server.base);
			await rest.loginOwner();
			const me = await rest.get('/rest/login');
			log(`   ${server.base} ready in ${secs(server.ms)}; logged in as ${me.email}`);
			return { rest };
		});

		if (serverOk) {
			const { rest } = srv;
			await step('n8n lists the credential and every node, icons served (/types/*.json)', async (fail) => {
				const { problems, lines, found } = await checkListing(rest);
				for (const l of lines) log(`   ${l}`);
				log(`   found ${found.nodes} node types, ${found.credentials} credential(s) of those required`);
				problems.forEach(fail);
				if (problems.length) {
					for (const l of packageLoadErrors(fs.readFileSync(serverLog, 'utf8'), 'n8n-nodes-access-point')) log(`   n8n log: ${l.trim().slice(0, 300)}`);
				}
			});

			// Publish polling templates now; their scheduled poll runs while the editor is checked.
			const polling = [];
			for (const t of templates.filter((x) => x.start === 'activate')) {
				const { value, ok } = await step(`publish ${t.label} (REST activate; n8n polls on activation)`, async () => {
					emu.clearRequests();
					await publishWorkflow(rest, t.prepared.id);
					// Publication goes through n8n's outbox: the activation poll follows shortly after the answer.
					const polled = () => emu.requests.filter((r) => r.method === 'GET' && /^\/v1\/orders/.test(r.path)).length;
					const until = Date.now() + 30000;
					while (!polled() && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
					await new Promise((r) => setTimeout(r, 1000)); // let the baseline finish paging
					const polls = polled();
					if (!polls) throw new Error('activation did not poll the emulator within 30 s');
					const scenario = T.SCENARIOS[t.file] || {};
					const orders = (scenario.newOrders || []).map((o) => emu.store.addOrder(emu.credentials.partyId, o));
					if (scenario.afterAdd) scenario.afterAdd(emu, orders);
					const added = orders.map((o) => o.OrderNumber);
					log(`   activated; activation poll made ${polls} request(s); then added ${added.length} order(s): ${added.join(', ')}`);
					return { t, since: Date.now(), added };
				});
				if (ok) polling.push(value);
			}

			for (const { t, run } of waiting) {
				await step(`resume ${t.label} through the identity provider redirect`, async (fail) => {
					// The link the editor shows on the waiting node: its resume URL, which sends a visit without a result on to the provider.
					const link = T.waitingLink(run);
					if (!link) throw new Error("the waiting node put no resume URL in its run's metadata (the editor's link)");
					const opened = await fetch(link, { redirect: 'manual' });
					const url = opened.headers.get('location');
					log(`   the waiting node's link answered HTTP ${opened.status} -> ${url ? url.replace(/[^/]+$/, '...') : 'no redirect'}`);
					if (opened.status !== 302 || !url || url !== T.findProviderUrl(run))
						throw new Error(`the waiting node's link did not lead to the session's provider page (HTTP ${opened.status}, ${url})`);
					const done = await emu.provider.complete(url, 'success');
					if (!done.location) throw new Error(`provider answered ${done.status} without a redirect`);
					log(`   provider -> ${done.location.replace(/[?#].*$/, '?...')}`);
					const res = await fetch(done.location, { redirect: 'manual' });
					log(`   n8n answered the redirect with HTTP ${res.status}`);
					const exec = await waitForExecution(rest, t.prepared.id, { status: ['success', 'error', 'crashed', 'canceled'], timeoutMs: 60000 });
					for (const line of T.summarize(exec)) log(`   ${line}`);
					const why = T.judge(t, exec);
					if (why) fail(why);
				});
			}

			await step(
				'AccessPoint Trigger: publish creates the webhooks, signed events (published shapes) start executions, a forged call none, a replay never passed on, a restart re-creates a deleted webhook, unpublish deletes them, refusals before any request',
				async () => {
					const { checkWebhookTrigger } = require('./lib/webhook');
					// A restart with a webhook deleted at the service meanwhile (the same folder and port, so the other steps' client still works).
					const restart = async (whileDown) => {
						await server.stop();
						await whileDown();
						server = await startServer(tc, serverEnv, { logFile: serverLog });
						const again = new Rest(server.base);
						await again.loginOwner();
						return again;
					};
					const figures = await checkWebhookTrigger({ rest, baseUrl: server.base, emulator: emu, log: (line) => log(`   ${line}`), restart });
					log(`   ${JSON.stringify(figures)}`);
				},
			);

			await step(
				'Peppol Inbox Trigger: a customer\'s IMR "rejected" for a sent invoice reaches a workflow once, with its reason, and is confirmed at the next poll',
				async () => {
					const { checkInboxTrigger } = require('./lib/inbox');
					const figures = await checkInboxTrigger({ rest, emulator: emu, log: (line) => log(`   ${line}`) });
					log(`   ${JSON.stringify(figures)}`);
				},
			);

			await step(
				'AI Agent (scripted local chat model) and MCP Server Trigger (MCP client): every answer reaches the model, a repeated payment is recorded once',
				async () => {
					const figures = await require('./lib/agent').checkAgentAndMcp({
						rest,
						baseUrl: server.base,
						repo: REPO, // on an emulator of its own
						tc,
						log: (line) => log(`   ${line}`),
					});
					log(`   ${JSON.stringify(figures)}`);
				},
			);

			if (!ARGS.has('--skip-browser')) {
				await step('editor in headless Chromium: login, no node issues, screenshots', async (fail) => {
					const { runEditorChecks } = require('./lib/browser');
					const { checkNodePanel } = require('./lib/panel');
					const panel = (page) => checkNodePanel({ page, baseUrl: server.base, artifactsDir: ARTIFACTS });
					const { checkOAuth } = require('./lib/oauth');
					// OAuth2 in the browser: create the credential, Connect, the emulator's consent page, a run, one refresh.
					const oauth = (page) => checkOAuth({ page, rest, baseUrl: server.base, emulator: emu, artifactsDir: ARTIFACTS });
					const { checkBinaryOutput } = require('./lib/binary');
					// Order › Download Files run from the canvas: its output pane shows the PDF and UBL as binary data.
					const binary = (page) => checkBinaryOutput({ page, rest, baseUrl: server.base, emulator: emu, artifactsDir: ARTIFACTS });
					const { checkMoney } = require('./lib/money');
					// Money typed as a user types it: "12,50" recorded as 12.50; a credit note run twice is made once.
					const money = (page) => checkMoney({ page, rest, baseUrl: server.base, emulator: emu, artifactsDir: ARTIFACTS });
					const out = await runEditorChecks({
						tc,
						base: server.base,
						templates,
						artifacts: ARTIFACTS,
						credentialId: T.CREDENTIAL.id,
						also: [panel, binary, money, oauth],
					});
					for (const l of out.lines) log(`   ${l}`);
					out.problems.forEach(fail);
				});
			}

			if (!ARGS.has('--skip-browser')) {
				await step(
					"every template imported through the editor's Import > From file and run from the canvas, without opening a node (onboarding: the waiting node's link)",
					async (fail) => {
						const { openEditor } = require('./lib/browser');
						const { checkEditorImport } = require('./lib/editorImport');
						const editor = await openEditor({ tc, base: server.base });
						try {
							const out = await checkEditorImport({
								page: editor.page,
								rest,
								baseUrl: server.base,
								templates,
								artifactsDir: ARTIFACTS,
								log: (line) => log(`   ${line}`),
							});
							out.problems.forEach(fail);
						} finally {
							await editor.close();
						}
					},
				);
			}

			for (const p of polling) {
				await step(`scheduled poll of ${p.t.label} emits the new orders`, async (fail) => {
					const exec = await waitForExecution(rest, p.t.prepared.id, { status: ['success', 'error', 'crashed'], timeoutMs: 150000 });
					// Polls during the editor checks may have run more than once (other steps add orders too).
					const earlier = await earlierExecutions(rest, p.t.prepared.id, exec.id);
					for (const e of earlier) log(`   earlier execution ${e.id} (${e.mode}): ${T.summarize(e).join('; ')}`);
					for (const line of T.summarize(exec)) log(`   ${line}`);
					log(`   execution ${exec.id} (${exec.mode}) ${secs(Date.now() - p.since)} after the orders were added`);
					const why = T.judge(p.t, exec, { added: p.added, runs: earlier });
					if (why) fail(why);
					await unpublishWorkflow(rest, p.t.prepared.id);
				});
			}
		}

		if (server) await server.stop();
		server = undefined;

		if (!ARGS.has('--skip-jest')) {
			// The engine-level suite (workflows through n8n-core 2.x) under the Node that n8n 2.x needs;
			// E2E_JEST_ARGS overrides the selection (e.g. "test" for every suite).
			const selection = (process.env.E2E_JEST_ARGS || 'test/workflows').split(/\s+/).filter(Boolean);
			await step(`jest ${selection.join(' ')} under Node ${tc.node.version}`, (fail) => {
				const r = spawnSync(tc.node.bin, [path.join(REPO, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--silent', '--forceExit', ...selection], {
					cwd: REPO,
					encoding: 'utf8',
					env: { ...process.env, CI: 'true' },
					timeout: 20 * 60 * 1000,
					maxBuffer: 256 * 1024 * 1024,
				});
				if (r.error) fail(`jest did not finish: ${r.error.message}`);
				fs.writeFileSync(path.join(ARTIFACTS, 'jest-node24.log'), `${r.stdout}\n${r.stderr}`);
				const summary = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /^(Tests|Test Suites):/.test(l));
				for (const l of summary) log(`   ${l}`);
				if (r.status !== 0) fail(`jest exited ${r.status} under Node 24 (see ${path.relative(REPO, path.join(ARTIFACTS, 'jest-node24.log'))})`);
			});
		}
		if (!ARGS.has('--skip-jest') && !ARGS.has('--skip-core1')) {
			// The same suite on n8n 1.x: the last 1.x n8n-core (+ its n8n-workflow, n8n-nodes-base)
			// under this Node (20 in CI), through e2e/core1.js.
			await step(`jest test/workflows on n8n-core 1.x under Node ${process.version}`, (fail) => {
				const logFile = path.join(ARTIFACTS, 'jest-core1.log');
				const r = spawnSync(process.execPath, [path.join(__dirname, 'core1.js')], {
					cwd: REPO,
					encoding: 'utf8',
					env: { ...process.env, CORE1_LOG: logFile },
					timeout: 25 * 60 * 1000,
					maxBuffer: 64 * 1024 * 1024,
				});
				if (r.error) fail(`core1 did not finish: ${r.error.message}`);
				for (const l of `${r.stdout}`.split('\n').filter((line) => /^core1: (Test|FAILED|installed)/.test(line))) log(`   ${l}`);
				if (r.status !== 0) fail(`jest on n8n-core 1.x exited ${r.status} (see ${path.relative(REPO, logFile)})`);
			});
		}
		void tgz;
	} finally {
		if (server) await server.stop().catch(() => {});
		if (emu) await emu.close().catch(() => {});
		if (ARGS.has('--keep')) log(`\nkept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

/** Polls n8n's executions of a workflow until the newest one has one of the statuses; returns it with parsed data. */
async function waitForExecution(rest, workflowId, { status, timeoutMs }) {
	const { parse } = requireFromN8n('flatted');
	const until = Date.now() + timeoutMs;
	let last;
	while (Date.now() < until) {
		const list = await rest.get(`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
		const rows = (list && (list.results || list)) || [];
		last = rows[0];
		if (last && status.includes(last.status)) {
			const full = await rest.get(`/rest/executions/${last.id}`);
			const data = typeof full.data === 'string' ? parse(full.data) : full.data;
			return { ...full, data, status: full.status };
		}
		await new Promise((r) => setTimeout(r, 2000));
	}
	throw new Error(`no finished execution of workflow ${workflowId} within ${timeoutMs / 1000} s (last seen: ${last ? `${last.id} ${last.status}` : 'none'})`);
}

/** The finished executions of a workflow older than `beforeId`, oldest first, with parsed data. */
async function earlierExecutions(rest, workflowId, beforeId) {
	const { parse } = requireFromN8n('flatted');
	const list = await rest.get(`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
	const rows = ((list && (list.results || list)) || []).filter((r) => Number(r.id) < Number(beforeId));
	const runs = [];
	for (const row of rows.sort((a, b) => Number(a.id) - Number(b.id))) {
		const full = await rest.get(`/rest/executions/${row.id}`);
		runs.push({ ...full, data: typeof full.data === 'string' ? parse(full.data) : full.data });
	}
	return runs;
}

let n8nDir;
function requireFromN8n(name) {
	if (!n8nDir) n8nDir = ensureToolchain({ browser: false }).n8n.dir;
	return require(require.resolve(name, { paths: [path.join(n8nDir, 'node_modules', 'n8n')] }));
}

/** The last meaningful lines of a CLI's output (stack frames left out). */
function tail(text, n = 4) {
	const lines = text
		.trim()
		.split('\n')
		.map((l) => l.trim())
		.filter((l) => l && !/^at\s/.test(l) && !/^=+$/.test(l));
	return lines.slice(-n).join(' | ').slice(0, 800);
}

if (ARGS.has('--queue')) {
	// The queue-mode leg (Postgres, Redis, main, workers, webhook process) is its own runner.
	require('./queue');
} else {
	runAll();
}

function runAll() {
	main()
		.catch((error) => crashed('e2e runner', error))
		.finally(() => summary({ title: 'summary', label: 'e2e', where: `artifacts in ${path.relative(REPO, ARTIFACTS)}/` }));
}
