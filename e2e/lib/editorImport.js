'use strict';
/**
 * Every template as a user gets it (issue 28): examples/<file> imported into a new workflow
 * through the editor's own import (workflow menu > Import > From file, n8n's file chooser),
 * then run from the canvas without opening a node. What must hold, per template:
 *
 *  - the import fills in the AccessPoint API credential by itself: no node shows n8n's issue
 *    marker ("Credentials ... not set"), and the saved workflow's AccessPoint nodes hold the
 *    credential created for this check (the newest one, as n8n picks it), not the CLI's;
 *  - no sticky note's text is covered by a node (measured on the canvas);
 *  - the run, started with the canvas's Execute workflow button, succeeds and outputs what
 *    `npm run demo` expects of the template (e2e/lib/templates.js judge), without the
 *    CLI-specific checks (exact trigger counts, files on disk);
 *  - the onboarding run waits at the identity check and the editor shows the way on: the
 *    canvas draws no item count on a branch of the waiting node, its output pane shows the
 *    waiting tooltip with the link "Open the identity check" (the run's signed resume URL),
 *    and the logs under the canvas show the same; following that link in the browser, through the
 *    emulator's provider page, resumes the run to "Ready to send invoices".
 *    Screenshots: import-<template>.png, onboarding-*.png.
 *
 * How each template is started: the Execute workflow button (Manual, Schedule and Order
 * Trigger: n8n runs the poll once); the AccessPoint Trigger listens for a test event, and the
 * emulator then refuses an invoice (one signed call to n8n's test webhook URL). The one step a
 * template's note asks before a run is done as a user does it: outside Docker the archive
 * template's two Write nodes get the folder of the user n8n runs as (~/.n8n-files/invoices), and
 * that folder is created (n8n's Write node does not create it).
 *
 * A fresh emulator and a credential pointing at it are created for this check (the CLI steps
 * already registered the onboarding company in the shared one), and removed after.
 *
 * checkEditorImport({ page, rest, baseUrl, templates, artifactsDir, repo, log }) -> { problems, lines }
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const T = require('./templates');
const { nodesWithIssues } = require('./browser');

const SEL = {
	canvasNode: '[data-test-id="canvas-node"]',
	firstStep: '[data-test-id="canvas-add-first-step-button"], [data-test-id="canvas-plus-button"]',
	menu: '[data-test-id="workflow-menu"]',
	importInput: '[data-test-id="workflow-import-input"]',
	execute: '[data-test-id="execute-workflow-button"]',
	sticky: '[data-test-id="sticky"]',
	ndv: '[data-test-id="ndv"]',
	output: '[data-test-id="output-panel"]',
	edgeLabel: '[data-test-id="edge-label"]',
	logs: '[data-test-id="logs-panel"]',
	logsHeader: '[data-test-id="logs-overview-header"]',
	toast: '.el-notification',
};
const STICKY = 'n8n-nodes-base.stickyNote';
const ONBOARDING = 'onboard-company.json';
const WAITING_NODE = 'Identify the signatory';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fileSafe = (s) =>
	String(s)
		.replace(/\.json$/, '')
		.replace(/[^A-Za-z0-9_-]+/g, '-');

/** The newest execution of a workflow not in `after` once its status is one of `statuses`, with parsed data. */
async function execution(rest, workflowId, { after, statuses, timeoutMs }) {
	const { parse } = require('flatted');
	const until = Date.now() + timeoutMs;
	let last;
	while (Date.now() < until) {
		const list = await rest.get(`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
		last = ((list && (list.results || list)) || []).find((r) => !after.has(String(r.id)));
		if (last && statuses.includes(last.status)) {
			const full = await rest.get(`/rest/executions/${last.id}`);
			return { ...full, data: typeof full.data === 'string' ? parse(full.data) : full.data };
		}
		await sleep(1000);
	}
	throw new Error(
		`no ${statuses.join('/')} execution of workflow ${workflowId} within ${timeoutMs / 1000} s (last seen: ${last ? `${last.id} ${last.status}` : 'none'})`,
	);
}

async function executionIds(rest, workflowId) {
	const list = await rest.get(`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
	return new Set(((list && (list.results || list)) || []).map((r) => String(r.id)));
}

/** Imports `file` into the open (new) workflow through the workflow menu's Import > From file. */
async function importFromFile(page, file) {
	await page.locator(SEL.menu).first().click();
	const importItem = page.getByText('Import', { exact: true }).last();
	await importItem.waitFor({ timeout: 10000 });
	await importItem.hover();
	const fromFile = page.getByText('From file', { exact: true }).last();
	await fromFile.waitFor({ timeout: 10000 });
	const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 10000 }), fromFile.click()]);
	await chooser.setFiles(file);
}

/** Boxes of the canvas nodes (not stickies) and of each sticky note's rendered text, in page pixels. */
async function stickyCoverage(page) {
	return await page.evaluate(
		({ node, sticky }) => {
			const box = (r) => ({ x: r.left, y: r.top, r: r.right, b: r.bottom });
			const nodes = [...document.querySelectorAll(node)]
				.filter((el) => !el.querySelector('[data-test-id="sticky"]') && !/stickyNote/.test(el.getAttribute('data-node-type') || ''))
				.map((el) => ({ name: el.getAttribute('data-node-name'), ...box(el.getBoundingClientRect()) }));
			const notes = [...document.querySelectorAll(sticky)].map((el) => {
				const parts = [...el.querySelectorAll('h1, h2, h3, h4, p, li')].map((p) => p.getBoundingClientRect()).filter((r) => r.height > 0);
				const title = (el.querySelector('h1, h2, h3, p') || el).textContent.trim().slice(0, 40);
				return { title, parts: parts.map(box), note: box(el.getBoundingClientRect()) };
			});
			return { nodes, notes };
		},
		{ node: SEL.canvasNode, sticky: SEL.sticky },
	);
}

function covered({ nodes, notes }) {
	const overlap = (a, b) => a.x < b.r && b.x < a.r && a.y < b.b && b.y < a.b;
	const problems = [];
	for (const n of notes) {
		const hiding = nodes.filter((node) => n.parts.some((p) => overlap(p, node))).map((node) => node.name);
		if (hiding.length) problems.push(`the note "${n.title}" has text behind ${hiding.join(', ')}`);
		const outside = n.parts.some((p) => p.b > n.note.b + 1);
		if (outside) problems.push(`the note "${n.title}" has text below its bottom edge`);
	}
	return problems;
}

async function checkEditorImport({ page, rest, baseUrl, templates, artifactsDir, log = () => {} }) {
	const problems = [];
	const lines = [];
	const say = (line) => {
		lines.push(line);
		log(line);
	};
	const base = String(baseUrl).replace(/\/$/, '');
	const shot = (name) => path.join(artifactsDir, name);
	const { createEmulator } = require(path.join(__dirname, '..', '..', 'emulator'));
	const emu = await createEmulator({ port: 0, orders: 1000 });
	const { apiKey, partyId, baseUrl: emuUrl } = emu.credentials;
	const credential = await rest.post('/rest/credentials', {
		name: 'AccessPoint (editor import e2e)',
		type: T.CREDENTIAL.type,
		data: { apiKey, partyId, environment: 'custom', baseUrl: emuUrl },
	});
	say(`credential "${credential.name}" (${credential.id}) -> a fresh emulator ${emu.url}; the import must pick it (the newest)`);
	// The AI template's chat model needs its own credential (issue 40); the run is e2e/lib/agent.js's.
	const openAi = await rest.post('/rest/credentials', {
		name: 'OpenAI (editor import e2e)',
		type: 'openAiApi',
		data: { apiKey: 'e2e', url: 'http://127.0.0.1:9/v1' },
	});
	const created = [];
	const madeFolders = [];
	try {
		for (const t of templates) {
			const file = path.join(t.dir, t.file);
			const name = fileSafe(t.file);
			const what = `${t.file}`;
			try {
				const setup = await T.runSetup(t, emu);
				if (setup) say(`${what}: set-up ${setup}`);
				const source = outsideDocker(t, (folder) => say(`${what}: the one step its note asks outside Docker: its Write nodes' folder set to ${folder}`));
				for (const folder of writeFolders(source.workflow)) {
					if (fs.existsSync(folder)) continue;
					let top = folder;
					while (!fs.existsSync(path.dirname(top))) top = path.dirname(top);
					fs.mkdirSync(folder, { recursive: true });
					madeFolders.push(top); // removed after the check, with what the run wrote there
					say(`${what}: created the folder ${folder} (n8n's Write node does not)`);
				}
				await page.goto(`${base}/workflow/new`);
				await page.locator(SEL.firstStep).first().waitFor({ timeout: 60000 });
				await importFromFile(page, source.file);
				const want = t.workflow.nodes.filter((n) => n.type !== STICKY).length;
				await page.waitForFunction(
					(n) => document.querySelectorAll('[data-test-id="canvas-node"]:not([data-node-type="n8n-nodes-base.stickyNote"])').length >= n,
					want,
					{ timeout: 30000 },
				);
				await sleep(2000); // credentials and issues settle after the nodes are drawn
				const toasts = (
					await page
						.locator(SEL.toast)
						.allInnerTexts()
						.catch(() => [])
				).map((x) => x.replace(/\s+/g, ' ').trim());
				const issues = await nodesWithIssues(page);
				const notes = covered(await stickyCoverage(page));
				await page.screenshot({ path: shot(`import-${name}.png`) });
				if (issues.length) problems.push(`${what}: after the editor's import, nodes show issues: ${issues.join(', ')}`);
				problems.push(...notes.map((p) => `${what}: ${p}`));
				say(
					`${what}: imported through Import > From file; ${issues.length ? `ISSUES ${issues.join(', ')}` : 'no node issues'}; ${toasts.filter((x) => /credential/i.test(x)).join(' | ') || 'no credential message'}; sticky notes ${notes.length ? 'COVERED' : 'clear of nodes'} -> import-${name}.png`,
				);

				// Save (a new workflow is saved before it runs) and check the credential n8n filled in.
				await page.keyboard.press('ControlOrMeta+s');
				await page.waitForURL((u) => /\/workflow\/(?!new)[^/?#]+/.test(new URL(String(u)).pathname), { timeout: 30000 });
				const id = new URL(page.url()).pathname.split('/')[2];
				created.push(id);
				const saved = await rest.get(`/rest/workflows/${id}`);
				const ours = saved.nodes.filter(T.isOurs);
				const wrong = ours.filter((n) => !(n.credentials && n.credentials[T.CREDENTIAL.type] && n.credentials[T.CREDENTIAL.type].id === credential.id));
				if (wrong.length)
					problems.push(
						`${what}: the import did not put the newest credential in ${wrong.map((n) => `${n.name} (${JSON.stringify(n.credentials || {})})`).join(', ')}`,
					);
				else say(`${what}: saved as ${id}; all ${ours.length} AccessPoint node(s) hold "${credential.name}"`);

				const before = await executionIds(rest, id);
				const start = T.startOf(t);
				let run;
				if (t.file === ONBOARDING) {
					run = await onboardingInTheEditor({ page, rest, id, before, emu, shot, say, problems });
				} else if (start === 'agent' || start === 'mcp') {
					say(`${what}: imported and checked; run by the AI agent / MCP step (e2e/lib/agent.js)`);
					continue;
				} else if (start === 'webhook') {
					run = await webhookInTheEditor({ page, rest, id, before, emu, say });
				} else {
					await page.locator(SEL.execute).first().click();
					run = await execution(rest, id, { after: before, statuses: ['success', 'error', 'crashed', 'canceled'], timeoutMs: 120000 });
				}
				await page.screenshot({ path: shot(`import-${name}-run.png`) });
				const why = T.judge({ ...t, file: `editor-import/${t.file}` }, run, { testPoll: start === 'activate' });
				say(`${what}: run from the canvas: execution ${run.id} ${run.status}; ${T.summarize(run).join('; ')}`);
				if (why) problems.push(`${what}: the run from the editor: ${why}`);
			} catch (error) {
				await page.screenshot({ path: shot(`import-FAILED-${name}.png`) }).catch(() => {});
				problems.push(`${what}: ${String(error && error.message ? error.message : error).split('\n')[0]} -> import-FAILED-${name}.png`);
			}
		}
	} finally {
		for (const id of created) await rest.request('DELETE', `/rest/workflows/${id}`).catch(() => {});
		await rest.request('DELETE', `/rest/credentials/${credential.id}`).catch(() => {});
		await rest.request('DELETE', `/rest/credentials/${openAi.id}`).catch(() => {});
		await emu.close();
		for (const folder of madeFolders) fs.rmSync(folder, { recursive: true, force: true });
	}
	return { problems, lines };
}

/** The Docker image's folder the archive template's note names as its default. */
const DOCKER_FOLDER = '/home/node/.n8n-files/';

/**
 * The template as this n8n needs it: where a Write node names Docker's folder and n8n runs
 * elsewhere (here: as the user running the e2e), the step the note asks, its folder changed to
 * `~/.n8n-files/` of that user, in a copy imported instead. Else the file as it is.
 */
function outsideDocker(t, say) {
	const home = path.join(os.homedir(), '.n8n-files') + path.sep;
	const text = fs.readFileSync(path.join(t.dir, t.file), 'utf8');
	if (home === DOCKER_FOLDER || !text.includes(DOCKER_FOLDER)) return { file: path.join(t.dir, t.file), workflow: t.workflow };
	const copy = path.join(os.tmpdir(), `ap-e2e-import-${process.pid}-${t.file}`);
	fs.writeFileSync(copy, text.split(DOCKER_FOLDER).join(home));
	say(`${home}invoices`);
	return { file: copy, workflow: JSON.parse(fs.readFileSync(copy, 'utf8')) };
}

/**
 * The folders a template's Read/Write Files from Disk nodes write into (the fixed part of the
 * file name before any expression; `~` is the home of the user n8n runs as, as n8n reads it).
 */
function writeFolders(workflow) {
	const folders = new Set();
	for (const node of workflow.nodes) {
		if (node.type !== 'n8n-nodes-base.readWriteFile' || node.parameters.operation !== 'write') continue;
		const fixed = String(node.parameters.fileName || '')
			.replace(/^=/, '')
			.split('{{')[0];
		const dir = fixed.endsWith('/') ? fixed : path.dirname(fixed);
		if (dir && dir !== '.') folders.add(dir.startsWith('~') ? path.join(os.homedir(), dir.slice(1)) : path.resolve(dir));
	}
	return [...folders];
}

/** The AccessPoint Trigger listens for a test event; the emulator then refuses a sent invoice (one signed call). */
async function webhookInTheEditor({ page, rest, id, before, emu, say }) {
	// Sent over Peppol with no outcome of its own later, so the one event while listening is the refusal.
	emu.config.deliveryOutcome = 'Pending';
	const order = await T.api(emu, 'POST', '/v1/orders', {
		OrderType: 'Invoice',
		OrderDirection: 'Income',
		OrderDate: new Date().toISOString().slice(0, 10),
		Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
		OrderLines: [{ Quantity: 1, Description: 'Editor import e2e', UnitPriceExcl: 100, VATPercentage: 21 }],
	});
	const orderId = Number(order && typeof order === 'object' ? order.OrderID : order);
	await T.api(emu, 'POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [orderId] });
	// Delivered before listening: the refusal is then the one new step (a refusal of a pending invoice is delivered first).
	emu.delivery.set(orderId, 'Delivered', { info: 'Delivered (editor import e2e)' });
	await emu.webhooks.settle();
	await page.locator(SEL.execute).first().click();
	const until = Date.now() + 30000;
	while (!emu.webhooks.list().some((w) => /\/webhook-test\//.test(w.WebhookURL)) && Date.now() < until) await sleep(250);
	const hooks = emu.webhooks.list();
	say(
		`${id}: listening for a test event: ${hooks.length} webhook(s) at the emulator (${hooks.map((w) => `${w.EntityType} ${w.EntityUpdateType}`).join(', ')})`,
	);
	if (!hooks.length) throw new Error('Execute workflow did not register the test webhooks at the emulator');
	emu.delivery.set(orderId, 'Refused', { reason: 'REF', info: 'Unknown purchase order (editor import e2e)' });
	return await execution(rest, id, { after: before, statuses: ['success', 'error', 'crashed', 'canceled'], timeoutMs: 60000 });
}

/**
 * The onboarding run from the canvas: it waits at the identity check; the canvas, the node's
 * output pane and the link it shows are checked, the link is followed in the browser to the
 * emulator's provider page and confirmed there, and the run ends on "Ready to send invoices".
 */
async function onboardingInTheEditor({ page, rest, id, before, emu, shot, say, problems }) {
	await page.locator(SEL.execute).first().click();
	const waiting = await execution(rest, id, { after: before, statuses: ['waiting', 'error', 'crashed', 'canceled', 'success'], timeoutMs: 120000 });
	if (waiting.status !== 'waiting') throw new Error(`expected the run to wait for the identity check, status is "${waiting.status}"`);
	const resumeUrl = T.waitingLink(waiting);
	await sleep(1500);
	// The canvas: no item count on either branch of the waiting node.
	const labels = await page.$$eval(`${SEL.edgeLabel}[data-source-node-name="${WAITING_NODE}"]`, (els) =>
		els.map((e) => e.textContent.replace(/\s+/g, ' ').trim()),
	);
	await page.screenshot({ path: shot('onboarding-waiting-canvas.png') });
	if (labels.some((l) => /\d+\s+items?/.test(l)))
		problems.push(`onboarding: while waiting, the canvas draws ${labels.join(' / ')} on the branches of "${WAITING_NODE}"`);
	say(
		`onboarding: execution ${waiting.id} waits at "${WAITING_NODE}"; its branches read ${labels.map((l) => `"${l}"`).join(', ') || 'nothing'} on the canvas -> onboarding-waiting-canvas.png`,
	);

	// The node's output pane: n8n's "waiting" view with the node's tooltip and its link.
	await page.locator(`${SEL.canvasNode}[data-node-name="${WAITING_NODE}"]`).dblclick();
	await page.locator(SEL.ndv).waitFor({ timeout: 30000 });
	const link = page.locator(`${SEL.output} a`, { hasText: 'Open the identity check' }).first();
	await link.waitFor({ timeout: 20000 });
	const pane = (await page.locator(SEL.output).innerText()).replace(/\s+/g, ' ').trim();
	const href = await link.getAttribute('href');
	await page.screenshot({ path: shot('onboarding-waiting-output-pane.png') });
	say(
		`onboarding: the output pane of "${WAITING_NODE}" shows "${pane.slice(0, 160)}"; its link is ${href === resumeUrl ? "the run's signed resume URL" : href} -> onboarding-waiting-output-pane.png`,
	);
	if (!resumeUrl || href !== resumeUrl) problems.push(`onboarding: the output pane's link ${href} is not the run's resume URL ${resumeUrl}`);
	// Issue 39.15: the provider's page and this execution's link, to copy, in the waiting run's hint (each in a <code>).
	const codes = await page.$$eval(`${SEL.ndv} [data-test-id="node-hint"] code`, (els) => els.map((e) => e.textContent.trim())).catch(() => []);
	say(`onboarding: the waiting node's hint shows ${codes.length ? codes.map((c) => `"${c.slice(0, 90)}"`).join(' and ') : 'no link'} to copy`);
	if (!codes.some((c) => /\/provider\//.test(c)) || !codes.includes(resumeUrl))
		problems.push(`onboarding: the waiting node's panel shows no copyable provider page and resume link (hint codes: ${JSON.stringify(codes)})`);

	// The logs under the canvas show the same waiting view for the node.
	await page.keyboard.press('Escape');
	await page
		.locator(SEL.ndv)
		.waitFor({ state: 'hidden', timeout: 10000 })
		.catch(() => {});
	await page.locator(SEL.logsHeader).first().click();
	const logsLink = page.locator(`${SEL.logs} a`, { hasText: 'Open the identity check' }).first();
	const inLogs = await logsLink.waitFor({ timeout: 20000 }).then(
		() => true,
		() => false,
	);
	const logsHref = inLogs ? await logsLink.getAttribute('href') : undefined;
	await page.screenshot({ path: shot('onboarding-waiting-logs.png') });
	if (!inLogs || logsHref !== resumeUrl) problems.push(`onboarding: the logs do not show the link to the identity check (${inLogs ? logsHref : 'no link'})`);
	else say('onboarding: the logs under the canvas show the same "Open the identity check" link -> onboarding-waiting-logs.png');

	// Follow it as the user does: a new tab, the provider's page, "Confirm", back to n8n.
	const [tab] = await Promise.all([page.context().waitForEvent('page', { timeout: 15000 }), (inLogs ? logsLink : link).click()]);
	await tab.waitForLoadState('domcontentloaded');
	const providerPage = tab.url();
	if (!/\/provider\/[^/?#]+/.test(providerPage)) problems.push(`onboarding: the link opened ${providerPage}, not the provider page`);
	const confirm = tab.locator('a[href*="result=success"]').first();
	await confirm.waitFor({ timeout: 15000 });
	await Promise.all([tab.waitForURL((u) => /\/webhook-waiting\//.test(String(u)), { timeout: 30000 }), confirm.click()]);
	await tab.waitForLoadState('domcontentloaded');
	const answer = (
		await tab
			.locator('body')
			.innerText()
			.catch(() => '')
	)
		.replace(/\s+/g, ' ')
		.trim();
	await tab.screenshot({ path: shot('onboarding-browser-back.png') });
	say(
		`onboarding: the link opened the provider page (${providerPage.replace(/[^/]+$/, '...')}); confirmed there, the browser came back to n8n: "${answer.slice(0, 80)}" -> onboarding-browser-back.png`,
	);
	await tab.close();
	const done = await execution(rest, id, { after: before, statuses: ['success', 'error', 'crashed', 'canceled'], timeoutMs: 60000 });
	await sleep(1500);
	await page.screenshot({ path: shot('onboarding-done-canvas.png') });
	void emu;
	return done;
}

module.exports = { checkEditorImport };
