'use strict';
/**
 * The editor in headless Chromium (Debian's /usr/bin/chromium driven by
 * playwright-core; no browser download): log in through the sign-in form, open
 * every imported workflow and look for n8n's node-issue markers on the canvas,
 * open the Order node's filter builder and the credential form, save screenshots.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { OWNER } = require('./n8n');
const { PKG } = require('./templates');

/** Canvas markers n8n puts on a node with parameter/credential issues (n8n 2.x editor). */
const ISSUE_MARKERS = ['[data-test-id="node-issues"]', '[data-test-id="node-setup-required"]'];

/** A workflow whose Order node lacks its required Order ID: the marker must show here, or the check proves nothing. */
const CANARY = Object.freeze({
	id: 'apE2eCanaryIssues1',
	name: '[e2e] canary: a node with a parameter issue',
	nodes: [
		{ parameters: {}, id: 'c0a1b2c3-0000-4000-8000-000000000001', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
		{
			parameters: { resource: 'order', operation: 'get', orderId: '' },
			id: 'c0a1b2c3-0000-4000-8000-000000000002',
			name: 'Order without ID',
			type: `${PKG}.accessPointOrder`,
			typeVersion: 1,
			position: [240, 0],
		},
	],
	connections: { Start: { main: [[{ node: 'Order without ID', type: 'main', index: 0 }]] } },
	active: false,
	settings: { executionOrder: 'v1' },
});

/** Chromium's flags for a quiet headless run here (the profile folder goes to launchPersistentContext). */
function chromiumArgs() {
	return [
		'--headless',
		'--no-sandbox',
		'--disable-gpu',
		'--disable-quic',
		'--no-first-run',
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
	];
}

async function nodesWithIssues(page) {
	return await page.$$eval(ISSUE_MARKERS.join(','), (els) =>
		els.map((el) => {
			const node = el.closest('[data-node-name]');
			return `${node ? node.getAttribute('data-node-name') : '?'} (${el.getAttribute('data-test-id')})`;
		}),
	);
}

/** Opens a workflow and waits until every (non-sticky) node is on the canvas. */
async function openWorkflow(page, base, workflow) {
	const want = workflow.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length;
	await page.goto(`${base}/workflow/${workflow.id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60000 });
	await page.waitForFunction((n) => document.querySelectorAll('[data-test-id="canvas-node"]').length >= n, want, { timeout: 30000 });
	// Issues are computed once node types and credentials are in the store; give the canvas a moment.
	await page.waitForTimeout(1500);
}

/**
 * Headless Chromium on a fresh profile, signed in through n8n's sign-in form. Resolves
 * { page, context, pageErrors, signedIn: '<path after login>', close() }.
 */
async function openEditor({ tc, base }) {
	const { chromium } = require(tc.playwright.module);
	const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-e2e-chromium-'));
	// launchPersistentContext owns --user-data-dir; it is passed here as the probe does, and must match.
	const context = await chromium.launchPersistentContext(userDataDir, {
		executablePath: tc.chromium.executablePath,
		headless: true,
		args: chromiumArgs(),
		viewport: { width: 1440, height: 900 },
	});
	const close = async () => {
		await context.close();
		fs.rmSync(userDataDir, { recursive: true, force: true });
	};
	const pageErrors = [];
	try {
		const page = context.pages()[0] || (await context.newPage());
		page.on('pageerror', (e) => pageErrors.push(e.message));
		await page.goto(`${base}/signin`);
		await page.locator('input[name="emailOrLdapLoginId"]').waitFor({ timeout: 60000 });
		await page.fill('input[name="emailOrLdapLoginId"]', OWNER.email);
		await page.fill('input[name="password"]', OWNER.password);
		await page.click('[data-test-id="form-submit-button"]');
		await page.waitForURL((u) => !String(u).includes('/signin'), { timeout: 30000 });
		return { page, context, pageErrors, signedIn: new URL(page.url()).pathname, close };
	} catch (error) {
		await close();
		throw error;
	}
}

/**
 * `also`: more checks that need the logged-in editor, each `async (page) => { problems, lines }`
 * (the node panel, the OAuth2 sign-in); they run after the templates, in order.
 */
async function runEditorChecks({ tc, base, templates, artifacts, also = [] }) {
	const problems = [];
	const lines = [];
	const shot = (name) => path.join(artifacts, name);
	const editor = await openEditor({ tc, base });
	const { page, pageErrors } = editor;
	try {
		lines.push(`logged in through the sign-in form -> ${editor.signedIn}`);

		await openWorkflow(page, base, CANARY);
		const canary = await nodesWithIssues(page);
		await page.screenshot({ path: shot('canvas-canary-issue.png') });
		if (!canary.length) problems.push(`the issue marker did not show on the canary workflow (${CANARY.id}); the "no issues" check cannot be trusted`);
		else lines.push(`canary: issue marker shows on ${canary.join(', ')} (so the marker check works)`);

		let orderDone = false;
		for (const t of templates) {
			const opened = Date.now();
			await openWorkflow(page, base, t.prepared);
			const openMs = Date.now() - opened;
			const name = t.file.replace(/\.json$/, '');
			await page.screenshot({ path: shot(`canvas-${name}.png`) });
			// A chat model node asks for the user's own model credential, which the CLI import cannot carry: the editor-import
			// step checks those templates with a throwaway credential; here only the other nodes must be free of issues.
			const modelNodes = new Set(t.prepared.nodes.filter((n) => String(n.type).startsWith('@n8n/n8n-nodes-langchain.lmChat')).map((n) => n.name));
			const issues = (await nodesWithIssues(page)).filter((issue) => !modelNodes.has(issue.replace(/ \([^)]*\)$/, '')));
			const ours = await page.$$eval(`[data-test-id="canvas-node"][data-node-type^="${PKG}."]`, (els) => els.length);
			if (issues.length) problems.push(`${t.label}: nodes show issues on the canvas: ${issues.join(', ')}`);
			lines.push(
				`${t.label}: ${ours} AccessPoint node(s) on the canvas, ${issues.length ? `ISSUES ${issues.join(', ')}` : 'no node issues'} (opened in ${(openMs / 1000).toFixed(1)} s)`,
			);

			const order = t.prepared.nodes.find((n) => n.type === `${PKG}.accessPointOrder` && n.parameters.operation === 'getAll' && n.parameters.filters);
			if (order && !orderDone) {
				orderDone = true;
				await page.locator(`[data-test-id="canvas-node"][data-node-name="${order.name}"]`).dblclick();
				await page.locator('[data-test-id="node-parameters"]').waitFor({ timeout: 30000 });
				const filters = page.locator('[data-test-id="fixed-collection-filters"]');
				await filters.waitFor({ timeout: 15000 });
				await page.waitForTimeout(500);
				await page.screenshot({ path: shot('order-filter-builder.png') });
				await page.locator('[data-test-id="node-parameters"]').screenshot({ path: shot('order-filter-builder-panel.png') });
				const paramIssues = await page.locator('[data-test-id="node-parameters"] [data-test-id="parameter-issues"]').count();
				const conditions = await filters.locator('[data-test-id="parameter-input-field"]').count();
				if (paramIssues) problems.push(`"${order.name}": ${paramIssues} parameter issue marker(s) in the node panel`);
				lines.push(`"${order.name}" panel: filter builder with ${conditions} condition(s), ${paramIssues} parameter issue(s) -> order-filter-builder.png`);

				await page.click('[data-test-id="credential-edit-button"]');
				const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
				await dialog.waitFor({ timeout: 30000 });
				// n8n tests a saved credential when its form opens: against the emulator, through our credential's test request.
				const tested = await dialog
					.getByText('Connection tested successfully')
					.waitFor({ timeout: 20000 })
					.then(
						() => true,
						() => false,
					);
				await page.screenshot({ path: shot('credential-form.png') });
				const text = await dialog.innerText();
				if (!tested) problems.push(`credential test did not succeed in the form: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
				const fields = ['API Key', 'Party ID', 'Environment', 'Base URL'].filter((f) => !text.includes(f));
				if (fields.length) problems.push(`credential form lacks ${fields.join(', ')}`);
				lines.push(
					`credential form "${(
						await page
							.locator('[data-test-id="credential-name"]')
							.innerText()
							.catch(() => '?')
					).trim()}" shows API Key, Party ID, Environment, Base URL; ${tested ? '"Connection tested successfully" (against the emulator)' : 'connection test FAILED'} -> credential-form.png`,
				);
			}
		}
		if (!orderDone) problems.push('no imported workflow has an AccessPoint Order "Get Many" node with filters to screenshot');
		for (const check of also) {
			const out = await check(page);
			lines.push(...out.lines);
			problems.push(...out.problems);
		}
		if (pageErrors.length) lines.push(`page errors (not failing): ${pageErrors.slice(0, 3).join(' | ')}`);
	} finally {
		await editor.close();
	}
	return { problems, lines };
}

module.exports = { runEditorChecks, openEditor, nodesWithIssues, chromiumArgs, CANARY, ISSUE_MARKERS };
