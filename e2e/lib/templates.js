'use strict';
/**
 * The workflows the e2e imports into n8n: the templates in examples/ (or, while
 * there are none, the small workflows in e2e/workflows/), made importable by
 * n8n's CLI, and what each must produce.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const PKG = 'n8n-nodes-access-point';
const MANUAL_START = 'Run now (e2e)';
/** The credential the e2e imports; templates pick it by name in the editor, the e2e also pins its id. */
const CREDENTIAL = Object.freeze({ id: 'apE2eCredential01', name: 'AccessPoint account', type: 'accessPointApi' });

/**
 * How each known template is run and what must come out. `expect` names nodes
 * and the least number of items each must output (all outputs together);
 * `exact` the exact number. `start`:
 *  - 'cli'      n8n execute --id (Manual Trigger; a template that starts with a
 *               Schedule Trigger gets a Manual Trigger wired to the same nodes)
 *  - 'activate' published through the REST API (as the Publish button does):
 *               n8n polls the trigger on activation and then on its schedule
 *               (set to every minute for the e2e)
 *  - 'cli+resume' n8n execute puts the run to wait; the emulator's identity
 *               provider is completed and its redirect resumes the run in the server
 *  - 'webhook'  started by the service's calls (e2e/lib/webhook.js); not run by a step here
 */
const SCENARIOS = {
	'account-audit.json': {
		start: 'cli',
		setup: 'auditCompanies',
		expect: { 'Must be signed': 1, 'Active or ready': 1, 'No network yet': 1 },
	},
	'send-where-peppol-ready.json': { start: 'cli' },
	'daily-order-export.json': { start: 'cli', expect: { 'Export row': 1 } },
	// The emulator's seed has Peppol invoices refused 1 to 30 days ago: they reach the follow-up branch.
	'chase-undelivered-invoices.json': { start: 'cli', expect: { 'FOLLOW UP: not delivered': 1 } },
	// The seed has sent sales invoices past due and unpaid: they get their reminder (each stage once).
	'chase-unpaid-invoices.json': { start: 'cli', expect: { 'Send the reminder': 1 } },
	'new-invoices-feed.json': {
		start: 'activate',
		// Added to the emulator after the activation poll: 2 sales invoices, 1 purchase invoice, 1 credit note.
		newOrders: [
			{ OrderType: 'Invoice', OrderDirection: 'Income', Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749' } },
			{ OrderType: 'Invoice', OrderDirection: 'Income', Customer: { Name: 'Café Zoë BV', VATNumber: 'BE0456789133' } },
			{ OrderType: 'Invoice', OrderDirection: 'Cost', Supplier: { Name: 'Office Supplies NV' } },
			{ OrderType: 'CreditNote', OrderDirection: 'Income' },
		],
		// The two new sales invoices, each exactly once (the trigger node's name is read from the template).
		// Later e2e steps (the AccessPoint Trigger check) create sales invoices of their own before the
		// scheduled poll: those are new sales invoices too and may come with them, once each.
		exactFromTrigger: 2,
	},
	'onboard-company.json': { start: 'cli+resume', expect: { 'Ready to send invoices': 1 } },
	'archive-invoice-files.json': {
		start: 'activate',
		// Published before new-invoices-feed.json (file order), so that feed's baseline covers these;
		// this trigger may also see the feed's invoices, hence no exact count here.
		// A sale (no UBL until sent), two suppliers' invoices with the same number (issue 33), an offer.
		newOrders: [
			{ OrderType: 'Invoice', OrderDirection: 'Income', Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749' } },
			{ OrderType: 'Invoice', OrderDirection: 'Cost', OrderNumber: 'INV-2024-0042', Supplier: { Name: 'Office Supplies NV', VATNumber: 'BE0123456749' } },
			{ OrderType: 'Invoice', OrderDirection: 'Cost', OrderNumber: 'INV-2024-0042', Supplier: { Name: 'Nederland Handel BV', VATNumber: 'NL123456789B01' } },
			{ OrderType: 'Offer', OrderDirection: 'Income' },
		],
		// The second supplier's PDF comes with a file name of 264 characters (its own PDF at the service).
		afterAdd(emu, orders) {
			const order = orders[2];
			const pdf = emu.files.get(emu.files.refs(order.OrderID).OrderPDF.FileID).content;
			emu.files.put(order.OrderID, { FileName: `${'Factuur Nederland Handel BV '.repeat(9)}INV-2024-0042.pdf`, content: pdf }, 'pdf');
		},
		// Every file the trigger emitted must be on disk under its invoice's own name, byte-identical
		// to the emulator's, none overwritten (filesOnDisk below).
		filesOnDisk: true,
	},
	'supplier-invoices-to-accounting.json': {
		start: 'activate',
		// Run from the editor, it hands the invoice to the accounting step and marks nothing (issue 39.3).
		testRun: { reaches: { 'Your accounting tool (replace me)': 1 }, never: ['Mark as exported', 'Exported'] },
		// Supplier documents arriving after the activation poll, as emulator/incoming.js receiveInvoice makes them:
		// Cost orders not exported yet. Each must be handed to the accounting step once and end marked exported.
		newOrders: [
			{ OrderType: 'Invoice', OrderDirection: 'Cost', OrderStatus: 'ToPay', IsSent: false, Supplier: { Name: 'Paper Co NV', VATNumber: 'BE0417497106' } },
			{
				OrderType: 'CreditNote',
				OrderDirection: 'Cost',
				OrderStatus: 'ToPay',
				IsSent: false,
				Supplier: { Name: 'Office Supplies NV', VATNumber: 'BE0403170701' },
			},
		],
		exportedOnce: true,
	},
	'sync-customers.json': { start: 'cli' },
	// The AccessPoint Trigger (webhooks): no step of run.js starts it (imported and checked in the
	// editor only); e2e/lib/webhook.js (checkWebhookTrigger) publishes a workflow with the trigger.
	'delivery-status-alerts.json': { start: 'webhook' },
	// The AI templates (issue 40): no CLI run (a chat or MCP trigger); e2e/lib/agent.js drives them with a
	// local chat model and an MCP client; the editor import checks them without a run.
	'invoice-assistant.json': { start: 'agent' },
	'invoicing-mcp-server.json': { start: 'mcp' },
	// e2e/workflows/ (used only while examples/ is empty)
	'e2e-registrations-and-orders.json': {
		start: 'cli',
		expect: { 'Get many registrations': 1, 'Get many orders': 5 },
	},
};

/**
 * What each template must output, as `npm run demo` (scripts/demo.js, kept with the
 * templates by their author) states it; the table above fills in where it has none.
 */
function expectationsFor(repo, file) {
	let fromDemo;
	try {
		const demo = require(path.join(repo, 'scripts', 'demo.js'));
		const s = (demo.SCENARIOS || []).find((x) => x.file === file);
		fromDemo = s && s.expect;
	} catch {
		fromDemo = undefined;
	}
	return fromDemo || (SCENARIOS[file] && SCENARIOS[file].expect) || {};
}

/** Template files: examples/*.json, or e2e/workflows/*.json while examples/ has none. */
function listTemplates(repo) {
	const examples = path.join(repo, 'examples');
	const own = path.join(repo, 'e2e', 'workflows');
	const pick = (dir) =>
		fs.existsSync(dir)
			? fs
					.readdirSync(dir)
					.filter((f) => f.endsWith('.json'))
					.sort()
			: [];
	const fromExamples = pick(examples);
	const dir = fromExamples.length ? examples : own;
	return (fromExamples.length ? fromExamples : pick(own)).map((file) => ({
		file,
		dir,
		label: `${path.basename(dir)}/${file}`,
		workflow: JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')),
		expect: expectationsFor(repo, file),
	}));
}

function isOurs(node) {
	return typeof node.type === 'string' && node.type.startsWith(`${PKG}.`);
}

/** 'cli' | 'activate' | 'cli+resume' | 'webhook' | 'agent' | 'mcp' (e2e/lib/agent.js) | undefined (no way to start it). */
function startOf(t) {
	const known = SCENARIOS[t.file];
	if (known) return known.start;
	const types = t.workflow.nodes.map((n) => n.type);
	if (types.includes('n8n-nodes-base.manualTrigger') || types.includes('n8n-nodes-base.scheduleTrigger')) return 'cli';
	if (t.workflow.nodes.some((n) => isOurs(n) && /Trigger$/.test(n.type))) return 'activate';
	return undefined;
}

/** A copy of the template ready for `n8n import:workflow`. */
function prepare(t, index) {
	const wf = JSON.parse(JSON.stringify(t.workflow));
	wf.id = `apE2eWorkflow${String(index + 1).padStart(2, '0')}`;
	wf.name = `[e2e] ${wf.name || t.file}`;
	wf.active = false;
	delete wf.pinData;
	const start = startOf(t);
	for (const node of wf.nodes) {
		if (node.credentials && node.credentials[CREDENTIAL.type]) {
			node.credentials[CREDENTIAL.type] = { id: CREDENTIAL.id, name: CREDENTIAL.name };
		}
		if (start === 'activate' && isOurs(node) && /Trigger$/.test(node.type) && node.parameters.pollTimes) {
			node.parameters.pollTimes = { item: [{ mode: 'everyMinute' }] };
		}
	}
	if (SCENARIOS[t.file] && SCENARIOS[t.file].filesOnDisk) {
		// As the template's note asks of a user: n8n's Write node does not create the folder.
		fs.mkdirSync(ARCHIVE_DIR, { recursive: true });
		for (const node of wf.nodes) {
			if (node.type === 'n8n-nodes-base.readWriteFile')
				node.parameters.fileName = node.parameters.fileName.replace(ARCHIVE_FOLDER, `${ARCHIVE_DIR}${path.sep}`);
		}
	}
	const hasManual = wf.nodes.some((n) => n.type === 'n8n-nodes-base.manualTrigger');
	const schedule = wf.nodes.find((n) => n.type === 'n8n-nodes-base.scheduleTrigger');
	if (start !== 'activate' && !hasManual && schedule) {
		// n8n execute starts only at a Manual Trigger: add one wired like the Schedule Trigger
		// (which stays, untouched, for the editor checks), as a user does to test a scheduled flow.
		wf.nodes.push({
			parameters: {},
			id: '5e2e0000-0000-4000-8000-00000000e2e0',
			name: MANUAL_START,
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [schedule.position[0], schedule.position[1] + 200],
		});
		wf.connections[MANUAL_START] = JSON.parse(JSON.stringify(wf.connections[schedule.name] || { main: [[]] }));
	}
	return wf;
}

/** The credential for `n8n import:credentials`, pointing at the emulator. */
function credentialFor(emu) {
	emulator = emu;
	const { apiKey, partyId, baseUrl } = emu.credentials;
	return { ...CREDENTIAL, data: { apiKey, partyId, environment: 'custom', baseUrl } };
}

// ---- set-up through the emulator's public API (docs/api.md), not its internals -----------------

/** The emulator's public API with its credential (the set-up a user's ERP would do). */
async function api(emu, method, urlPath, body) {
	const res = await fetch(`${emu.url}${urlPath}`, {
		method,
		headers: { apikey: emu.credentials.apiKey, partyID: emu.credentials.partyId, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`emulator ${method} ${urlPath} -> ${res.status} ${text.slice(0, 200)}`);
	return text ? JSON.parse(text) : undefined;
}

function company(name, tax, email) {
	return {
		TaxIdentifier: tax,
		CompanyName: name,
		Email: email,
		ContactFirstName: 'E2E',
		ContactLastName: 'Contact',
		Language: 'EN',
		Addresses: [{ AddressType: 'InvoiceAddress', Street: 'Rue de la Loi', StreetNumber: '16', Zipcode: '1000', City: 'Brussel', CountryCode: 'BE' }],
	};
}

const SETUPS = {
	/** One company with Peppol + SDI (SDI waits for a signature), one without any network. */
	async auditCompanies(emu) {
		const a = await api(emu, 'POST', '/v1/einvoices/registrations', company('Italia Demo SRL', 'BE0812345603', 'fatture@italia-demo.example'));
		const id = a.RegistrationID || a.CompanyID;
		await api(emu, 'POST', `/v1/einvoices/registrations/${id}/integrations`, { ExternalProvider: 'Peppol' });
		await api(emu, 'POST', `/v1/einvoices/registrations/${id}/integrations`, { ExternalProvider: 'SDI' });
		await api(emu, 'POST', '/v1/einvoices/registrations', company('Nog Niet Verbonden BV', 'BE0808080868', 'info@nog-niet-verbonden.example'));
		return 'registered "Italia Demo SRL" (Peppol + SDI) and "Nog Niet Verbonden BV" (no network) through the emulator API';
	},
};

async function runSetup(t, emu) {
	const s = SCENARIOS[t.file];
	return s && s.setup ? await SETUPS[s.setup](emu) : undefined;
}

// ---- judging a run ------------------------------------------------------------------------------

function itemsOf(task) {
	const outs = (task && task.data && task.data.main) || [];
	return outs.reduce((n, items) => n + (items ? items.length : 0), 0);
}

/**
 * Why a finished run (n8n's IRun: { status, data: { resultData } }) does not pass,
 * or undefined. Generic rules for every template: status success, no node error,
 * every AccessPoint node ran (unless it sits on a branch that got no items) ...
 */
function judge(t, run, { allowWaiting = false, added = [], runs = [], testPoll = false } = {}) {
	if (!run) return 'no run data';
	const resultData = (run.data && run.data.resultData) || {};
	if (resultData.error) {
		const e = resultData.error;
		return `execution error: ${e.message}${e.node ? ` (node "${e.node.name}")` : ''}${e.description ? ` - ${e.description}` : ''}`;
	}
	const status = run.status || (run.finished ? 'success' : 'unknown');
	if (!(status === 'success' || (allowWaiting && status === 'waiting'))) return `execution status "${status}"`;
	const runData = resultData.runData || {};
	for (const [name, tasks] of Object.entries(runData)) {
		const failed = tasks.find((x) => x.error);
		if (failed) return `node "${name}" failed: ${failed.error.message}`;
	}
	if (allowWaiting) return undefined;
	const ours = t.workflow.nodes.filter(isOurs).map((n) => n.name);
	if (!ours.some((n) => runData[n])) return `no AccessPoint node ran (nodes that ran: ${Object.keys(runData).join(', ')})`;
	const s = SCENARIOS[t.file] || {};
	// Counted over every execution given (`runs`: a scheduled trigger's earlier polls since the orders were
	// added, as later changes make polls of their own); a poll run once from the editor (`testPoll`) emits
	// one item, the newest: one of the expected nodes must have output it.
	const everyRun = [...runs, run].map((r) => ((r.data && r.data.resultData) || {}).runData || {});
	const counted = (node) => everyRun.reduce((n, data) => n + (data[node] || []).reduce((m, task) => m + itemsOf(task), 0), 0);
	const expected = Object.entries(t.expect || {});
	if (testPoll && expected.length) {
		// A template that books nothing on a test run (issue 39.3) names what such a run reaches and what it must not.
		const { testRun } = SCENARIOS[t.file.replace(/^.*\//, '')] || {}; // editor-import/<file> too
		const reached = testRun ? Object.entries(testRun.reaches) : expected;
		if (!reached.some(([node]) => counted(node) > 0)) return `none of ${reached.map(([node]) => `"${node}"`).join(', ')} output an item`;
		for (const node of (testRun && testRun.never) || []) if (counted(node) > 0) return `"${node}" ran on a test run from the editor`;
	} else {
		for (const [node, least] of expected) {
			if (!everyRun.some((data) => data[node])) return `"${node}" did not run`;
			const got = counted(node);
			if (got < least) return `"${node}" output ${got} item(s), expected at least ${least}`;
		}
	}
	if (s.filesOnDisk) {
		const problem = filesOnDisk(t, everyRun);
		if (problem) return problem;
	}
	if (s.exactFromTrigger !== undefined) {
		// Counted over every trigger execution since the orders were added (`runs`, oldest first):
		// a later poll may carry orders other steps created, and must not repeat an earlier one's.
		const trigger = t.workflow.nodes.find((n) => isOurs(n) && /Trigger$/.test(n.type));
		const items = [...runs, run].flatMap((r) => triggerItems(r, trigger));
		const numbers = items.map((j) => j.OrderNumber);
		const twice = numbers.filter((n, i) => numbers.indexOf(n) !== i);
		if (twice.length) return `trigger "${trigger && trigger.name}" emitted ${twice.join(', ')} more than once`;
		const wrong = items.filter((j) => j.OrderType !== 'Invoice' || j.OrderDirection !== 'Income');
		if (wrong.length) return `trigger "${trigger && trigger.name}" emitted ${wrong.length} item(s) that are not sales invoices`;
		const sales = added.filter((_, i) => {
			const o = (s.newOrders || [])[i] || {};
			return o.OrderType === 'Invoice' && o.OrderDirection === 'Income';
		});
		const missing = sales.filter((n) => !numbers.includes(n));
		if (missing.length || sales.length !== s.exactFromTrigger)
			return `trigger "${trigger && trigger.name}" did not emit ${missing.join(', ') || `the ${s.exactFromTrigger} new sales invoices`} (it emitted ${numbers.join(', ') || 'nothing'} in ${runs.length + 1} execution(s))`;
	}
	if (s.exportedOnce) {
		const problem = exportedOnce(t, [...runs, run], added);
		if (problem) return problem;
	}
	return undefined;
}

/**
 * Why the supplier documents added after activation (`added`: their numbers) were not each handed to
 * the accounting step exactly once, over every execution, and marked exported at the emulator, or undefined.
 */
function exportedOnce(t, runs, added) {
	const trigger = t.workflow.nodes.find((n) => isOurs(n) && /Trigger$/.test(n.type));
	const numbers = runs.flatMap((r) => triggerItems(r, trigger)).map((j) => j.OrderNumber);
	const twice = numbers.filter((n, i) => numbers.indexOf(n) !== i);
	if (twice.length) return `trigger "${trigger.name}" emitted ${twice.join(', ')} more than once`;
	const exported = runs
		.flatMap((r) => triggerItems(r, { name: 'Exported' }))
		.filter((j) => j.Exported === true)
		.map((j) => j.InvoiceNumber);
	const book = emulator ? emulator.store.listOrders(emulator.credentials.partyId) : [];
	for (const number of added) {
		if (!exported.includes(number)) return `${number} did not reach "Exported" (exported: ${exported.join(', ') || 'none'})`;
		const order = book.find((o) => o.OrderNumber === number);
		if (!order || order.IsSent !== true) return `${number} is not marked exported (IsSent ${order ? order.IsSent : 'unknown'}) at the emulator`;
	}
	process.stdout.write(`   ${added.join(', ')}: each handed to the accounting step once and marked exported (IsSent true) at the emulator\n`);
	return undefined;
}

// ---- files written by a template (archive-invoice-files.json) -----------------------------------

/** Where the archive template writes in the e2e: under ~/.n8n-files, the only folder n8n 2.x's file nodes may use by default. */
const ARCHIVE_FOLDER = '/home/node/.n8n-files/invoices/';
const ARCHIVE_DIR = path.join(os.homedir(), '.n8n-files', `ap-e2e-${process.pid}`);
/** The emulator the credential points at (set by credentialFor): it holds the files' true bytes. */
let emulator;

/**
 * Why the files the trigger emitted are not all on disk, byte-identical to what the emulator
 * serves, each invoice under its own name (the template's Name the files: ArchiveName.pdf / .xml),
 * none overwritten, every binary file name at most 200 bytes; or undefined. Removes the folder
 * once it passed.
 */
function filesOnDisk(t, runDatas) {
	const trigger = t.workflow.nodes.find((n) => isOurs(n) && /Trigger$/.test(n.type));
	// The newest poll's item of an order wins (a changed invoice is written again under its name).
	const latest = (list) => [...new Map(list.map((i) => [i.json.OrderID, i])).values()];
	const items = latest(runDatas.flatMap((runData) => ((runData[trigger.name] || [])[0]?.data?.main?.[0] || []).filter(Boolean)));
	const named = runDatas.flatMap((runData) => ((runData['Name the files'] || [])[0]?.data?.main?.[0] || []).filter(Boolean));
	const nameOf = new Map(named.map((i) => [i.json.OrderID, i.json.ArchiveName]));
	const sha = (b) => crypto.createHash('sha256').update(b).digest('hex');
	let checked = 0;
	const written = new Set();
	for (const item of items) {
		const name = nameOf.get(item.json.OrderID);
		if (!name) return `order ${item.json.OrderID} got no archive name`;
		for (const file of item.json.Files || []) {
			const stored = emulator && emulator.files.get(file.FileID);
			if (!stored) return `the emulator has no file ${file.FileID}`;
			if (Buffer.byteLength(file.FileName) > 200) return `the binary file name of ${file.FileID} has ${Buffer.byteLength(file.FileName)} bytes`;
			const onDisk = path.join(ARCHIVE_DIR, `${name}.${file.Property === 'ubl' ? 'xml' : 'pdf'}`);
			if (written.has(onDisk)) return `${onDisk} was written for two invoices`;
			written.add(onDisk);
			if (!fs.existsSync(onDisk)) return `${onDisk} was not written`;
			if (sha(fs.readFileSync(onDisk)) !== sha(stored.content)) return `${onDisk} differs from the emulator's file ${file.FileID}`;
			checked++;
		}
	}
	// Both suppliers' INV-2024-0042: a PDF and a UBL each, four files, none written over another.
	const same = items.filter((i) => i.json.OrderNumber === 'INV-2024-0042');
	const sameFiles = same.flatMap((i) => (i.json.Files || []).map((f) => `${nameOf.get(i.json.OrderID)}.${f.Property === 'ubl' ? 'xml' : 'pdf'}`));
	if (same.length !== 2 || new Set(sameFiles).size !== 4)
		return `expected both suppliers' INV-2024-0042 with 4 files of their own, found ${same.length} order(s): ${sameFiles.join(', ')}`;
	process.stdout.write(
		`   INV-2024-0042 twice: ${sameFiles.join(', ')}; longest binary file name ${Math.max(...items.flatMap((i) => (i.json.Files || []).map((f) => Buffer.byteLength(f.FileName))))} bytes\n`,
	);
	process.stdout.write(`   ${checked} file(s) of ${items.length} order(s) on disk in ${ARCHIVE_DIR}, byte-identical to the emulator's (SHA-256)\n`);
	fs.rmSync(ARCHIVE_DIR, { recursive: true, force: true });
	try {
		fs.rmdirSync(path.dirname(ARCHIVE_DIR)); // ~/.n8n-files, only when the e2e left it empty
	} catch {
		/* not empty, or not ours */
	}
	return undefined;
}

/** One line per node: name and item count (for the log). */
function summarize(run) {
	const runData = (run && run.data && run.data.resultData && run.data.resultData.runData) || {};
	return Object.entries(runData).map(([name, tasks]) => {
		const counts = tasks.map((task) => ((task.data && task.data.main) || []).map((items) => (items ? items.length : 0)).join('/'));
		return `${name}: ${counts.join(', ')} item(s)`;
	});
}

/** The JSON of every item a trigger node emitted in one run. */
function triggerItems(run, trigger) {
	const tasks = (trigger && run && run.data && run.data.resultData && run.data.resultData.runData && run.data.resultData.runData[trigger.name]) || [];
	return tasks.flatMap((task) => ((task.data && task.data.main) || []).flatMap((out) => out || [])).map((i) => i.json || {});
}

/**
 * The string field that looks like the emulator's provider page in any output item of `nodeName`,
 * or in the input the waiting node keeps on the execution stack (the session it waits for: the
 * Identification node outputs nothing while it waits).
 */
function findProviderUrl(run, nodeName) {
	const runData = run.data.resultData.runData;
	const names = nodeName ? [nodeName] : Object.keys(runData);
	const lists = [];
	for (const name of names) for (const task of runData[name] || []) lists.push(...((task.data && task.data.main) || []));
	const stack = (run.data.executionData && run.data.executionData.nodeExecutionStack) || [];
	for (const entry of stack) if (!nodeName || (entry.node && entry.node.name === nodeName)) lists.push(...((entry.data && entry.data.main) || []));
	for (const items of lists) {
		for (const item of items || []) {
			for (const v of Object.values((item && item.json) || {})) {
				if (typeof v === 'string' && /\/provider\/[^/?#]+/.test(v)) return v;
			}
		}
	}
	return undefined;
}

/**
 * The link n8n's editor shows on a waiting node (its waiting tooltip's `$execution.resumeUrl`):
 * the signed resume URL the node put in its waiting run's metadata, or undefined.
 */
function waitingLink(run) {
	const resultData = (run && run.data && run.data.resultData) || {};
	const tasks = (resultData.runData || {})[resultData.lastNodeExecuted] || [];
	const last = tasks[tasks.length - 1];
	return (last && last.metadata && last.metadata.resumeUrl) || undefined;
}

module.exports = {
	PKG,
	CREDENTIAL,
	api,
	SCENARIOS,
	expectationsFor,
	listTemplates,
	startOf,
	prepare,
	credentialFor,
	runSetup,
	judge,
	summarize,
	findProviderUrl,
	waitingLink,
	isOurs,
};
