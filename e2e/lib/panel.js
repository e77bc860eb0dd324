'use strict';
/**
 * The node panel as a new user meets it (issue 24): search it for what they want to do and
 * expect our nodes; then add every action of every node from the panel (search, pick the
 * node, pick the action) on a fresh workflow, and check that the node opens on that action
 * with no error toast. A screenshot of each fresh node panel goes to artifactsDir.
 *
 * The actions expected are those n8n's editor generates from the node types it serves
 * (/types/nodes.json): each operation (per resource) and each trigger event. A trigger node
 * whose name is an app's name + "Trigger" is listed under the app (n8n merges them); one with
 * no such app is listed under its name without " Trigger".
 *
 * checkNodePanel({ page, baseUrl, artifactsDir, log }) -> { problems, lines, counts }
 * `page` is a logged-in editor page; fresh workflows open in new pages of its context.
 */
const path = require('node:path');

const PKG = 'n8n-nodes-access-point';

/** The six nodes of the sending side, which every word about e-invoicing must find. */
const SENDING = [
	'accessPointRegistration',
	'accessPointIntegration',
	'accessPointIdentification',
	'accessPointPeppolLookup',
	'accessPointOrder',
	'accessPointOrderTrigger',
];

/** [what a user types, node types of ours the results must list (by name without the package)] */
const SEARCHES = Object.freeze([
	['invoice', SENDING],
	['e-invoice', SENDING],
	['einvoice', SENDING],
	['peppol', SENDING],
	['UBL', ['accessPointOrder', 'accessPointOrderTrigger']],
	['credit note', ['accessPointOrder', 'accessPointOrderTrigger']],
	['KYC', ['accessPointIdentification']],
	['billit', SENDING],
	['inbox', ['accessPointInbox']],
	['supplier invoice', ['accessPointInbox']],
	// The package's name as two words (issue 28): the codex alias "access point" of every node.
	['access point', [...SENDING, 'accessPointTrigger', 'accessPointInbox', 'accessPointInboxTrigger']],
]);

const SEL = {
	plus: '[data-test-id="canvas-plus-button"]',
	search: '[data-test-id="node-creator-search-bar"] input, input[data-test-id="node-creator-search-bar"]',
	itemName: '[data-test-id="node-creator-item-name"]',
	item: '[data-test-id="item-iterator-item"]',
	category: '[data-test-id="node-creator-category-item"]',
	ndv: '[data-test-id="ndv"]',
	errorToast: '.el-notification:has(.el-notification--error)',
};

const short = (type) => type.slice(PKG.length + 1);
const fileSafe = (s) => String(s).replace(/[^A-Za-z0-9_-]+/g, '-');

/** Our node types as the running n8n serves them, one entry per name (latest version first in the list). */
async function ourNodeTypes(page) {
	const all = await page.evaluate(async () => {
		const res = await fetch('/types/nodes.json', { credentials: 'include' });
		return res.ok ? await res.json() : [];
	});
	const byName = new Map();
	for (const d of all) if (d.name.startsWith(`${PKG}.`) && !/Tool$/.test(d.name) && !byName.has(d.name)) byName.set(d.name, d);
	return [...byName.values()];
}

/** n8n adds this operation to the served types of nodes whose credential can sign HTTP requests; the panel hides it. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

function optionsOf(property) {
	return (property && Array.isArray(property.options) ? property.options : []).filter((o) => o && 'value' in o && o.value !== CUSTOM_API_CALL);
}

/**
 * The actions the panel offers for a node type, as editor-ui's useActionsGenerator makes them:
 * { param, value, optionName, resource?, label? } (label when the node gives one; a trigger
 * event's label is "On <event name>").
 */
function actionsOf(d) {
	const actions = [];
	if (d.displayName.toLowerCase().includes('trigger')) {
		const event = d.properties.find((p) => ['event', 'events', 'trigger on'].includes(String(p.displayName).toLowerCase()));
		for (const o of optionsOf(event)) actions.push({ param: event.name, value: o.value, optionName: o.name, label: o.action, event: true });
		// No event parameter: editor-ui offers one action, "On new <display name without Trigger> event".
		if (!event)
			actions.push({
				param: undefined,
				value: undefined,
				optionName: undefined,
				label: `On new ${d.displayName.replace('Trigger', '').trimEnd()} event`,
				event: true,
			});
	}
	const resource = d.properties.find((p) => p.name === 'resource');
	const operations = d.properties.filter((p) => p.name === 'operation');
	if (!resource && operations[0]) {
		for (const o of optionsOf(operations[0])) actions.push({ param: 'operation', value: o.value, optionName: o.name, label: o.action });
	}
	for (const r of optionsOf(resource)) {
		const ops = operations.find((p) => ((p.displayOptions && p.displayOptions.show && p.displayOptions.show.resource) || []).includes(r.value));
		for (const o of optionsOf(ops)) actions.push({ param: 'operation', value: o.value, optionName: o.name, label: o.action, resource: r });
	}
	return actions;
}

/** The panel entry a node type is listed under: a trigger merged into its app shows as the app. */
function panelEntries(types) {
	const byName = new Map(types.map((d) => [d.name, d]));
	const entries = new Map();
	for (const d of types) {
		const app = d.group.includes('trigger') ? byName.get(d.name.replace('Trigger', '')) : undefined;
		const host = app && actionsOf(app).length ? app : d;
		// A trigger with no app of its own is listed under its name without " Trigger" ("AccessPoint").
		const displayName = host === d && d.group.includes('trigger') ? d.displayName.replace(/ Trigger$/, '') : host.displayName;
		if (!entries.has(host.name)) entries.set(host.name, { displayName, types: [] });
		entries.get(host.name).types.push(d);
	}
	return entries;
}

/** Closes the node panel and any toast, deletes every node: the canvas shows its "add first step" button again. */
async function emptyCanvas(page) {
	if (
		await page
			.locator(SEL.ndv)
			.isVisible()
			.catch(() => false)
	) {
		await page.keyboard.press('Escape');
		await page.locator(SEL.ndv).waitFor({ state: 'hidden', timeout: 10000 });
	}
	for (const close of await page.locator('.el-notification .el-notification__closeBtn').all()) await close.click().catch(() => {});
	if (await page.locator('[data-test-id="canvas-node"]').count()) {
		await page.locator('[data-test-id="canvas-wrapper"]').click({ position: { x: 20, y: 20 } });
		await page.keyboard.press('ControlOrMeta+a');
		await page.keyboard.press('Delete');
	}
	await page.locator(SEL.plus).waitFor({ timeout: 15000 });
}

async function openPanel(page) {
	await page.locator(SEL.plus).waitFor({ timeout: 60000 });
	await page.click(SEL.plus);
	await page.locator(SEL.search).first().waitFor({ timeout: 15000 });
}

async function searchNames(page, term) {
	await page.locator(SEL.search).first().fill(term);
	await page.waitForTimeout(700);
	return await page.$$eval(SEL.itemName, (els) => els.map((e) => e.textContent.trim()));
}

async function errorToasts(page) {
	return await page.$$eval(SEL.errorToast, (els) => els.map((e) => e.innerText.replace(/\s+/g, ' ').trim()));
}

/** The visible value of a parameter's input in the open node panel ('' when not shown). */
async function shownValue(page, param) {
	const field = page.locator(`${SEL.ndv} [data-test-id="parameter-input-${param}"]`).first();
	if (!(await field.count())) return '';
	const input = field.locator('input').first();
	const typed = (await input.count()) ? (await input.inputValue().catch(() => '')).trim() : '';
	return typed || (await field.innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
}

/** Clicks the action in the open node's action list; expands a collapsed "Actions"/"Triggers" section first. */
async function pickAction(page, label) {
	const item = page
		.locator(SEL.item)
		.filter({ hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'i') })
		.first();
	if (!(await item.isVisible().catch(() => false))) {
		const sections = page.locator(SEL.category);
		for (let i = 0; i < (await sections.count()); i++) {
			if (await item.isVisible().catch(() => false)) break;
			await sections.nth(i).click();
			await page.waitForTimeout(300);
		}
	}
	await item.click({ timeout: 10000 });
}

async function checkNodePanel({ page, baseUrl, artifactsDir, log = () => {} }) {
	const problems = [];
	const lines = [];
	const say = (line) => {
		lines.push(line);
		log(line);
	};
	const base = String(baseUrl).replace(/\/$/, '');
	const pageErrors = [];
	const counts = { searches: 0, searchesOk: 0, actions: 0, actionsOk: 0, screenshots: 0 };

	await page.goto(`${base}/workflow/new`);
	const types = await ourNodeTypes(page);
	if (!types.length) {
		problems.push(`n8n serves none of ${PKG}'s node types`);
		return { problems, lines, counts };
	}
	const entries = panelEntries(types);
	const entryOf = (typeName) => [...entries.values()].find((e) => e.types.some((d) => d.name === typeName));

	// 1. Search, as a user who does not know the package's name (the first panel of a new workflow).
	await openPanel(page);
	for (const [term, wanted] of SEARCHES) {
		counts.searches++;
		const names = await searchNames(page, term);
		const expected = [
			...new Set(
				wanted
					.map((t) => entryOf(`${PKG}.${t}`))
					.filter(Boolean)
					.map((e) => e.displayName),
			),
		];
		const missing = expected.filter((n) => !names.includes(n));
		const ours = names.filter((n) => [...entries.values()].some((e) => e.displayName === n));
		if (missing.length) problems.push(`panel search "${term}" does not list ${missing.join(', ')} (it lists: ${names.slice(0, 8).join(', ') || 'nothing'})`);
		else counts.searchesOk++;
		say(
			`search "${term}": ${names.length} result(s), ours ${ours.length ? `${ours.join(', ')} (first at #${names.indexOf(ours[0]) + 1})` : 'none'}${missing.length ? `; MISSING ${missing.join(', ')}` : ''}`,
		);
	}
	await page.screenshot({ path: path.join(artifactsDir, 'panel-search-last.png') });

	// 2. Every action of every node, each on an empty canvas (one page, emptied between actions:
	//    reloading the editor per action costs ~15 s each on a busy machine).
	const work = await page.context().newPage();
	work.on('pageerror', (e) => pageErrors.push(e.message));
	await work.goto(`${base}/workflow/new`);
	try {
		for (const [, entry] of entries) {
			for (const d of entry.types) {
				for (const action of actionsOf(d)) {
					counts.actions++;
					const what = `${d.displayName} › ${action.resource ? `${action.resource.name} › ` : ''}${action.optionName || '(node)'}`;
					const label = action.label || (action.event ? `On ${action.optionName || ''}` : action.optionName);
					try {
						await emptyCanvas(work);
						await openPanel(work);
						const names = await searchNames(work, entry.displayName);
						if (!names.includes(entry.displayName))
							throw new Error(`searching "${entry.displayName}" does not list it (lists ${names.join(', ') || 'nothing'})`);
						await work
							.locator(SEL.itemName)
							.filter({ hasText: new RegExp(`^\\s*${entry.displayName}\\s*$`) })
							.first()
							.click();
						// A node with a single action is added straight away; otherwise pick the action.
						const direct = await work
							.locator(SEL.ndv)
							.waitFor({ timeout: 1500 })
							.then(
								() => true,
								() => false,
							);
						if (!direct) await pickAction(work, label);
						await work.locator(`${SEL.ndv} [data-test-id="node-parameters"]`).waitFor({ timeout: 20000 });
						await work.waitForTimeout(800);
						const issues = [];
						const toasts = await errorToasts(work);
						if (toasts.length) issues.push(`error toast: ${toasts.join(' | ')}`);
						const shown = action.param ? await shownValue(work, action.param) : '';
						if (action.param && shown !== action.optionName) issues.push(`opened with ${action.param} "${shown}", expected "${action.optionName}"`);
						const shownResource = action.resource ? await shownValue(work, 'resource') : '';
						if (action.resource && shownResource !== action.resource.name)
							issues.push(`opened with resource "${shownResource}", expected "${action.resource.name}"`);
						const shot = `panel-${fileSafe(short(d.name))}-${fileSafe(action.resource ? `${action.resource.value}-${action.value}` : action.value || 'node')}.png`;
						await work.locator(SEL.ndv).screenshot({ path: path.join(artifactsDir, shot) });
						counts.screenshots++;
						if (issues.length) problems.push(`${what}: ${issues.join('; ')}`);
						else counts.actionsOk++;
						say(`add "${label}" (${what}): ${issues.length ? issues.join('; ') : 'node panel opened on it, no error toast'} -> ${shot}`);
					} catch (error) {
						const toasts = await errorToasts(work).catch(() => []);
						const shot = `panel-FAILED-${fileSafe(short(d.name))}-${fileSafe(action.value || 'node')}.png`;
						await work.screenshot({ path: path.join(artifactsDir, shot) }).catch(() => {});
						problems.push(
							`${what}: could not be added from the panel (${String(error && error.message ? error.message : error).split('\n')[0]})${toasts.length ? `; error toast: ${toasts.join(' | ')}` : ''} -> ${shot}`,
						);
						say(`add "${label}" (${what}): FAILED`);
						// Start the next action from a freshly loaded editor.
						await work.goto(`${base}/workflow/new`).catch(() => {});
					}
				}
			}
		}
	} finally {
		await work.close();
	}
	say(
		`${counts.searchesOk}/${counts.searches} searches list our nodes; ${counts.actionsOk}/${counts.actions} actions added from the panel; ${counts.screenshots} panel screenshot(s)`,
	);
	if (pageErrors.length) say(`page errors (not failing): ${pageErrors.slice(0, 3).join(' | ')}`);
	return { problems, lines, counts };
}

module.exports = { checkNodePanel, SEARCHES };
