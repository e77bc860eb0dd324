#!/usr/bin/env node
'use strict';
/**
 * npm run demo: builds dist/ when it is missing or older than the sources,
 * starts the local access-point emulator, runs every workflow template in
 * examples/ through n8n's engine (n8n-core, via test/harness) and prints what
 * each node did. The onboarding template waits for the identity check: the
 * demo completes the emulator's provider page itself and resumes the run.
 *
 *   node scripts/demo.js [--no-build] [template.json ...]
 *
 * Exits 1 when a template fails (or examples/ holds a template without a
 * scenario here), 0 otherwise.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const EXAMPLES_DIR = path.join(ROOT, 'examples');
const HARNESS_DIR = path.join(ROOT, 'test', 'harness');
const PKG = 'n8n-nodes-access-point';

/** Names of the outputs of nodes with more than one (for the report). */
const OUTPUT_LABELS = {
	'n8n-nodes-base.if': ['true', 'false'],
	[`${PKG}.accessPointPeppolLookup`]: ['Can Receive', 'Cannot Receive'],
	[`${PKG}.accessPointIdentification`]: ['Not Identified', 'Identified'],
	[`${PKG}.accessPointOrder`]: ['Delivered', 'Pending', 'Error / Refused'],
	'n8n-nodes-base.removeDuplicates': ['Kept', 'Discarded'],
};

// ---- templates ------------------------------------------------------------------------------

/**
 * The AI templates: a Chat Trigger with n8n's AI Agent, and an MCP Server Trigger. They need n8n's AI
 * nodes (not in n8n-core) and a chat model or an MCP client: test/workflows/templates-ai.test.ts checks
 * them, e2e/lib/agent.js runs them in real n8n; the demo and the engine template tests leave them out.
 */
const AI_TEMPLATES = ['invoice-assistant.json', 'invoicing-mcp-server.json'];

/** The template files in examples/ the engine runs, sorted (AI_TEMPLATES left out). */
function listExampleFiles(dir = EXAMPLES_DIR) {
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json') && !AI_TEMPLATES.includes(f))
		.sort();
}

/** A fresh copy of one template (n8n export JSON). */
function loadTemplate(file, dir = EXAMPLES_DIR) {
	return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
}

/** The folder examples/archive-invoice-files.json writes to, as shipped (n8n's Docker image: ~/.n8n-files). */
const ARCHIVE_FOLDER = '/home/node/.n8n-files/invoices/';

/** The archive template writing to `folder` instead (as a user edits the two Write nodes). */
function archiveTemplate(workflow, folder) {
	const dir = folder.endsWith(path.sep) ? folder : `${folder}${path.sep}`;
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.readWriteFile') node.parameters.fileName = node.parameters.fileName.replace(ARCHIVE_FOLDER, dir);
	}
	return workflow;
}

/**
 * Lets n8n's file nodes in this process use `folder` (N8N_RESTRICT_FILE_ACCESS_TO; n8n 2.x allows
 * only ~/.n8n-files by default), through the harness's n8n-core.
 */
function allowFileAccess(folder) {
	const { Container, coreRequire } = require(HARNESS_DIR).boot();
	Container.get(coreRequire('@n8n/config').SecurityConfig).restrictFileAccessTo = folder;
}

/** Registers a company through the Registration node (demo set-up for the audit). */
async function registerCompany(h, companyName, taxIdentifier, email) {
	const r = await h.runNode('accessPointRegistration', {
		operation: 'create',
		companyName,
		taxIdentifier,
		email,
		contactFirstName: 'Demo',
		contactLastName: 'Contact',
		language: 'EN',
		addresses: { invoiceAddress: { street: 'Rue de la Loi', streetNumber: '16', zipcode: '1000', city: 'Brussel', countryCode: 'BE' } },
	});
	r.assertSuccess();
	return r.output(r.nodeName)[0].RegistrationID;
}

async function addIntegration(h, registrationId, network) {
	const r = await h.runNode('accessPointIntegration', {
		operation: 'create',
		registrationId: { __rl: true, mode: 'id', value: String(registrationId) },
		network,
	});
	r.assertSuccess();
	return r.output(r.nodeName)[0];
}

/** A call to the emulator's public API with the harness credential (demo set-up). */
async function emulatorApi(h, method, urlPath, body) {
	const { url, credentials } = h.emulator;
	const res = await fetch(`${url}${urlPath}`, {
		method,
		headers: { apikey: credentials.apiKey, partyID: credentials.partyId, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`emulator ${method} ${urlPath} answered ${res.status}: ${text.slice(0, 200)}`);
	return text ? JSON.parse(text) : undefined;
}

/** An invoice to a customer on Peppol, created and sent over Peppol; its delivery is then pending. */
async function sendInvoice(h, description) {
	const created = await emulatorApi(h, 'POST', '/v1/orders', {
		OrderType: 'Invoice',
		OrderDirection: 'Income',
		OrderDate: '2024-03-01',
		Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
		OrderLines: [{ Quantity: 1, Description: description, UnitPriceExcl: 250, VATPercentage: 21 }],
	});
	const id = Number(created && typeof created === 'object' ? created.OrderID : created);
	await emulatorApi(h, 'POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [id] });
	return id;
}

/**
 * One scenario per template: how n8n would start it, and what must come out.
 * `run(h, note)` returns the HarnessResult of the template's execution.
 * `expect` names final nodes and the least number of items each must output.
 */
const SCENARIOS = [
	{
		file: 'onboard-company.json',
		title: 'Onboard a company',
		summary: 'register -> Peppol integration -> identification (start and wait) -> branch on the result',
		expect: { 'Ready to send invoices': 1 },
		fields: {
			'Company details': ['companyName', 'vatNumber', 'email'],
			'Register the company': ['RegistrationID', 'CompanyName'],
			'Activate Peppol': ['Integration', 'IntegrationStatus'],
			'Identify the signatory': ['identified', 'reason', 'RegistrationID'],
			'Ready to send invoices': ['RegistrationID', 'CompanyName', 'Identified', 'PeppolStatus'],
			'Not identified: follow up': ['RegistrationID', 'Reason'],
		},
		async run(h, note) {
			const waiting = await h.run(loadTemplate(this.file));
			if (waiting.status !== 'waiting') return waiting;
			const node = waiting.waiting.nodeName;
			note(`"${node}" started an identity check and paused the execution (waiting for the browser)`);
			// The link n8n's editor shows on the waiting node: the run's resume URL, which leads to the provider.
			const link = waiting.task(node).metadata.resumeUrl;
			const opened = await h.resume(waiting, { url: link });
			const providerUrl = opened.response.headers.location;
			if (opened.result || !providerUrl) throw new Error(`the waiting node's link answered ${opened.response.status} without leading to the provider`);
			note(`the link on the waiting node (its resume URL) led to the provider page (${providerUrl.replace(/[^/]+$/, '...')})`);
			const provider = await h.emulator.provider.complete(providerUrl, 'success');
			note('the signatory completed the provider page: success');
			if (!provider.location) throw new Error(`the provider page answered ${provider.status} without a redirect`);
			const { response, result } = await h.resume(waiting, { url: provider.location });
			note(`the browser came back to the execution's resume URL (HTTP ${response.status}); the run continued`);
			return result || waiting;
		},
	},
	{
		file: 'send-where-peppol-ready.json',
		title: 'Send invoices only where the receiver is on Peppol',
		summary: 'Peppol Lookup -> create and send (strict Peppol) for customers that can receive; a marked fallback for the others',
		expect: { 'Invoice sent': 1, 'FALLBACK: not on Peppol': 1 },
		fields: {
			'One item per invoice': ['invoiceId', 'customerName', 'customerVat'],
			'Can the customer receive on Peppol?': ['invoiceId', 'customerVat', 'Registered', 'DocumentTypes'],
			'Create the invoice': ['OrderID', 'AlreadyExisted'],
			'Send over Peppol': ['OrderID', 'sent', 'strict', 'deliveredVia'],
			'Invoice sent': ['invoiceId', 'OrderID', 'Customer', 'OrderStatus', 'SentVia', 'DeliveryStatus'],
			'FALLBACK: not on Peppol': ['invoiceId', 'Customer', 'Reason'],
			'Handle outside Peppol': ['invoiceId'],
		},
		async run(h) {
			return await h.run(loadTemplate(this.file));
		},
	},
	{
		file: 'daily-order-export.json',
		title: 'Daily order export',
		summary: 'Schedule -> orders changed since yesterday (filter builder, Return All) -> one flat row per order',
		expect: { 'Export row': 1 },
		fields: {
			'Every morning at 6:00': ['timestamp'],
			'Orders changed since yesterday': ['OrderID', 'OrderNumber', 'LastModified'],
			'Export row': ['OrderID', 'OrderNumber', 'OrderType', 'CounterParty', 'TotalIncl', 'LastModified'],
		},
		async run(h, note) {
			h.emulator.clearRequests();
			const result = await h.run(loadTemplate(this.file));
			const query = h.emulator.requests.find((r) => r.path === '/v1/orders');
			if (query) note(`started like "Execute workflow" in the editor; the node asked GET /v1/orders?$filter=${query.query.$filter}`);
			return result;
		},
	},
	{
		file: 'new-invoices-feed.json',
		title: 'New invoices feed',
		summary: 'Order Trigger (polling) -> one item per new sales invoice',
		expect: { 'Invoice summary': 1 },
		fields: {
			'New sales invoice': ['OrderID', 'OrderNumber', 'OrderType', 'OrderDirection'],
			'Invoice summary': ['OrderID', 'OrderNumber', 'Customer', 'TotalIncl', 'Status'],
		},
		async run(h, note) {
			const poller = h.poller(loadTemplate(this.file));
			const first = await poller.poll();
			note(
				`poll 1 (as when the workflow is activated): ${first.items ? `${first.items.length} orders` : 'nothing emitted'}; the trigger remembers where it is`,
			);
			const party = h.emulator.credentials.partyId;
			const add = (order) => h.emulator.store.addOrder(party, order).OrderNumber;
			const created = [
				add({ OrderType: 'Invoice', OrderDirection: 'Income', Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749' } }),
				add({ OrderType: 'Invoice', OrderDirection: 'Income', Customer: { Name: 'Café Zoë BV', VATNumber: 'BE0456789133' } }),
				add({ OrderType: 'Invoice', OrderDirection: 'Cost', Supplier: { Name: 'Office Supplies NV' } }),
				add({ OrderType: 'CreditNote', OrderDirection: 'Income' }),
			];
			note(`meanwhile 4 orders appear in the emulator: ${created.join(', ')} (2 sales invoices, 1 purchase invoice, 1 credit note)`);
			const second = await poller.poll({ execute: true });
			note(`poll 2: ${second.items ? second.items.length : 0} new sales invoice(s) -> the workflow ran with them`);
			if (!second.execution) throw new Error('poll 2 emitted nothing');
			const third = await poller.poll();
			note(`poll 3: ${third.items ? `${third.items.length} orders (emitted twice!)` : 'nothing new'}`);
			if (third.items) throw new Error('the trigger emitted the same orders twice');
			return second.execution;
		},
	},
	{
		file: 'archive-invoice-files.json',
		title: 'Archive invoice files',
		summary: 'Order Trigger (Include Files: PDF + UBL) -> one name per invoice -> Read/Write Files from Disk writes its PDF, and its UBL once it has one',
		expect: { Archived: 1, 'Archived, UBL to come': 1 },
		fields: {
			'New or changed invoice with its files': ['OrderID', 'OrderNumber', 'OrderDirection'],
			'Name the files': ['OrderNumber', 'ArchiveName'],
			'Save the PDF': ['OrderNumber', 'fileName'],
			'Save the UBL': ['OrderNumber', 'fileName'],
			Archived: ['OrderID', 'OrderNumber', 'PdfFile', 'UblFile'],
			'Archived, UBL to come': ['OrderID', 'OrderNumber', 'PdfFile'],
		},
		async run(h, note) {
			const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-demo-invoices-'));
			allowFileAccess(folder);
			note(`the two Write nodes point at ${folder} (the template says ${ARCHIVE_FOLDER})`);
			const poller = h.poller(archiveTemplate(loadTemplate(this.file), folder));
			const first = await poller.poll();
			note(`poll 1 (activation): ${first.items ? `${first.items.length} orders` : 'nothing emitted'}`);
			const party = h.emulator.credentials.partyId;
			const added = [
				h.emulator.store.addOrder(party, {
					OrderType: 'Invoice',
					OrderDirection: 'Income',
					Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749' },
				}),
				h.emulator.store.addOrder(party, { OrderType: 'Invoice', OrderDirection: 'Cost', Supplier: { Name: 'Office Supplies NV' } }),
			];
			note(`meanwhile 2 invoices appear: ${added.map((o) => o.OrderNumber).join(', ')}`);
			const second = await poller.poll({ execute: true });
			if (!second.execution) throw new Error('poll 2 emitted nothing');
			for (const name of fs.readdirSync(folder).sort()) {
				const file = path.join(folder, name);
				const head = fs.readFileSync(file).subarray(0, 5).toString('latin1');
				note(`wrote ${file} (${fs.statSync(file).size.toLocaleString('en')} bytes, starts with ${JSON.stringify(head)})`);
			}
			return second.execution;
		},
	},
	{
		file: 'account-audit.json',
		title: 'Account audit',
		summary: 'all registrations -> their integrations -> which are Pending and what must be signed',
		expect: { 'Must be signed': 1, 'Active or ready': 1, 'No network yet': 1 },
		fields: {
			'All registrations': ['RegistrationID', 'CompanyName'],
			'Has a network?': ['RegistrationID', 'CompanyName'],
			'Their integrations': ['RegistrationID', 'Integration', 'IntegrationStatus'],
			'Pending?': ['RegistrationID', 'Integration', 'IntegrationStatus'],
			'Must be signed': ['CompanyName', 'Network', 'WhatIsNeeded', 'DocumentToSign'],
			'Active or ready': ['CompanyName', 'Network', 'Status'],
			'No network yet': ['CompanyName', 'Finding'],
		},
		async run(h, note) {
			const italian = await registerCompany(h, 'Italia Demo SRL', 'BE0812345603', 'fatture@italia-demo.example');
			await addIntegration(h, italian, 'Peppol');
			await addIntegration(h, italian, 'SDI');
			note(`set-up: registered "Italia Demo SRL" (${italian}) with Peppol and SDI; SDI waits for a signed document`);
			const bare = await registerCompany(h, 'Nog Niet Verbonden BV', 'BE0808080868', 'info@nog-niet-verbonden.example');
			note(`set-up: registered "Nog Niet Verbonden BV" (${bare}) without any network`);
			return await h.run(loadTemplate(this.file));
		},
	},
	{
		file: 'chase-undelivered-invoices.json',
		title: 'Chase undelivered invoices',
		summary: 'Schedule -> sent, unpaid sales invoices with no news for a day -> delivery status -> the failed and refused ones to a marked follow-up branch',
		expect: { 'FOLLOW UP: not delivered': 2 },
		fields: {
			'Sent invoices to check': ['OrderID', 'OrderNumber', 'OrderStatus', 'LastModified'],
			'Delivery status': ['OrderID', 'Status', 'DeliveryInfo', 'RefusedReason'],
			'Still pending: check again tomorrow': ['OrderID', 'Status'],
			'FOLLOW UP: not delivered': ['OrderNumber', 'Customer', 'Problem', 'Reason'],
			'Chase the customer': ['OrderNumber', 'Problem'],
		},
		async run(h, note) {
			const emu = h.emulator;
			const day = 24 * 60 * 60 * 1000;
			const outcome = emu.config.deliveryOutcome;
			// Three days ago: three invoices sent over Peppol, which then stay pending, fail or are refused.
			emu.config.deliveryOutcome = 'Pending';
			emu.clock.advance(-3 * day);
			const sent = [];
			try {
				for (const description of ['Consulting, May', 'Licences, May', 'Support, May']) {
					const r = await h.runNode('accessPointOrder', {
						resource: 'order',
						operation: 'createAndSend',
						orderDate: new Date(emu.clock.now()).toISOString().slice(0, 10),
						customerName: 'Peppol Demo Belgium NV',
						customerVatNumber: 'BE0123456749',
						orderLines: { lines: [{ description, quantity: 1, unitPriceExcl: 250, vatPercentage: 21 }] },
						transportType: 'Peppol',
					});
					r.assertSuccess();
					sent.push(r.output(r.nodeName)[0].OrderID);
				}
				emu.delivery.set(sent[1], 'Error', { info: "The receiver's access point rejected the document" });
				emu.delivery.set(sent[2], 'Refused', { reason: 'REF', info: 'Unknown purchase order number' });
			} finally {
				emu.clock.advance(3 * day);
				emu.config.deliveryOutcome = outcome;
			}
			note(`set-up: three days ago invoices ${sent.join(', ')} went out over Peppol; one is still pending, one failed, one was refused`);
			return await h.run(loadTemplate(this.file));
		},
	},
	{
		file: 'chase-unpaid-invoices.json',
		title: 'Chase unpaid invoices',
		summary:
			'Schedule -> sent sales invoices past due, not paid -> full invoice -> still owes money? -> reminder (first, second, final notice) -> each reminder once',
		expect: { 'Send the reminder': 3 },
		fields: {
			'Unpaid invoices past due': ['OrderID', 'OrderNumber', 'ExpiryDate', 'ToPay'],
			'Full invoice': ['OrderID', 'OrderNumber', 'ToPay', 'OrderStatus'],
			'Still owes money?': ['OrderID', 'OrderNumber', 'ToPay', 'ExpiryDate'],
			'Reminder to send': ['OrderNumber', 'AmountDue', 'DaysOverdue', 'Stage'],
			'Not reminded yet': ['OrderNumber', 'Stage'],
			'Send the reminder': ['OrderNumber', 'CustomerEmail', 'Subject'],
		},
		async run(h, note) {
			const { installDeduplicationStore } = require(path.join(HARNESS_DIR, 'webhookTrigger'));
			installDeduplicationStore(h.loaded.env.core); // n8n's Remove Duplicates memory (a database table in n8n)
			const day = 24 * 60 * 60 * 1000;
			const date = (ms) => new Date(ms).toISOString().slice(0, 10);
			const invoice = async (dueDaysAgo, description) => {
				const due = Date.now() - dueDaysAgo * day;
				const created = await emulatorApi(h, 'POST', '/v1/orders', {
					OrderType: 'Invoice',
					OrderDirection: 'Income',
					OrderDate: date(due - 30 * day),
					ExpiryDate: date(due),
					Customer: { Name: 'Reminder Demo BV', VATNumber: 'BE0123456749', Email: 'accounts@reminder-demo.example', PartyType: 'Customer' },
					OrderLines: [{ Quantity: 1, Description: description, UnitPriceExcl: 250, VATPercentage: 21 }],
				});
				const id = Number(created && typeof created === 'object' ? created.OrderID : created);
				await emulatorApi(h, 'POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [id] });
				return id;
			};
			const due = { 3: await invoice(3, 'Consulting, June'), 20: await invoice(20, 'Licences, May'), 45: await invoice(45, 'Support, April') };
			const notDue = await invoice(-10, 'Consulting, July');
			const paid = await invoice(20, 'Training, May');
			await emulatorApi(h, 'POST', `/v1/orders/${due[20]}/payments`, { Amount: 100, Date: date(Date.now() - day), Description: 'demo-part' });
			await emulatorApi(h, 'POST', `/v1/orders/${paid}/payments`, { Amount: 302.5, Date: date(Date.now() - day), Description: 'demo-full' });
			note(
				`set-up: sent invoices ${due[3]}, ${due[20]} (partly paid) and ${due[45]} are 3, 20 and 45 days past due; ${notDue} is due in 10 days; ${paid} is paid`,
			);
			// One workflow, run twice: n8n keeps Remove Duplicates' memory per workflow (its id).
			const workflow = () => ({ ...loadTemplate(this.file), id: 'demo-chase-unpaid-invoices' });
			const first = await h.run(workflow());
			if (first.status !== 'success') return first;
			const mine = new Set(Object.values(due));
			const reminded = first
				.items('Send the reminder')
				.map((i) => i.json)
				.filter((r) => mine.has(r.OrderID));
			note(
				`run 1: reminders for ${reminded.map((r) => `${r.OrderID} (${r.Stage}, ${r.Currency} ${r.AmountDue})`).join(', ')}${first.items('Send the reminder').length > reminded.length ? ` and ${first.items('Send the reminder').length - reminded.length} overdue invoice(s) of the seed` : ''}`,
			);
			if (reminded.length !== 3) throw new Error(`run 1 reminded ${reminded.length} of the 3 overdue invoices`);
			if (first.items('Send the reminder').some((i) => i.json.OrderID === notDue || i.json.OrderID === paid))
				throw new Error('run 1 reminded an invoice that is not due or paid');
			const second = await h.run(workflow());
			const again = second.status !== 'success' ? -1 : second.executed('Send the reminder') ? second.items('Send the reminder').length : 0;
			note(
				`run 2 (the same day): ${again} reminder(s) sent; "Not reminded yet" kept ${second.items('Not reminded yet').length} of ${second.items('Reminder to send').length}`,
			);
			if (again !== 0) throw new Error(`run 2 sent ${again} reminder(s) again`);
			return first;
		},
	},
	{
		file: 'delivery-status-alerts.json',
		title: 'Delivery status alerts',
		summary: 'AccessPoint Trigger (signed webhooks) -> Delivered / Refused or error (ALERT) / other steps',
		expect: { 'ALERT: refused or error': 1 },
		fields: {
			'Delivery status changed': ['event', 'OrderID', 'deliveryStatus', 'refusedReason'],
			'Route by delivery status': ['OrderID', 'deliveryStatus'],
			'Delivered: record it': ['OrderID', 'OrderNumber', 'deliveryStatus'],
			'ALERT: refused or error': ['alert'],
		},
		async run(h, note) {
			const { webhookTrigger } = require(path.join(HARNESS_DIR, 'webhookTrigger'));
			const emu = h.emulator;
			const t = await webhookTrigger(h, loadTemplate(this.file));
			try {
				await t.activate();
				const hooks = emu.webhooks.list();
				note(
					`published: the trigger registered ${hooks.length} webhooks at the access point (${hooks.map((w) => `${w.EntityType} ${w.EntityUpdateType}`).join(', ')})`,
				);
				const a = await sendInvoice(h, 'Consulting');
				const b = await sendInvoice(h, 'Licences');
				emu.delivery.set(a, 'Delivered', { info: 'Delivered to the access point of Peppol Demo Belgium NV' });
				emu.delivery.set(b, 'Error', { info: 'The receiving access point rejected the document' });
				emu.delivery.set(a, 'Refused', { reason: 'REF', info: 'Unknown purchase order number' });
				note(`two invoices sent over Peppol (${a}, ${b}); then ${a} Delivered, ${b} Error, ${a} Refused by the buyer`);
				await emu.webhooks.settle();
				// Per invoice the send's message is inserted, then updated (Sent); then a's two responses and b's failed delivery.
				const runs = await t.waitForExecutions(7);
				const reached = (name) => runs.filter((r) => r.executed(name) && r.items(name).length).length;
				note(
					`7 signed calls -> ${runs.length} executions: Delivered ${reached('Delivered: record it')}, ALERT ${reached('ALERT: refused or error')}, no action ${reached('Sent or accepted: no action')}`,
				);
				await t.deactivate();
				note(`unpublished: ${emu.webhooks.list().length} webhooks left at the access point`);
				return runs.find((r) => r.executed('ALERT: refused or error') && r.output('ALERT: refused or error')[0].deliveryStatus === 'Refused');
			} finally {
				await t.close();
			}
		},
	},
	{
		file: 'supplier-invoices-to-accounting.json',
		title: 'Supplier invoices to accounting',
		summary: 'Order Trigger (New Incoming Supplier Invoice, with PDF + UBL) -> your accounting step -> Mark as Exported: each received invoice booked once',
		expect: { Exported: 2 },
		fields: {
			'New supplier invoice': ['OrderID', 'OrderNumber', 'OrderType', 'IsSent'],
			'Your accounting tool (replace me)': ['OrderID', 'OrderNumber', 'TotalIncl'],
			'Mark as exported': ['OrderID', 'IsSent'],
			Exported: ['InvoiceNumber', 'Supplier', 'TotalIncl', 'PdfFile', 'UblFile', 'Exported'],
		},
		async run(h, note) {
			const { receiveInvoice } = require(path.join(ROOT, 'emulator', 'incoming'));
			const poller = h.poller(loadTemplate(this.file));
			const first = await poller.poll();
			note(`poll 1 (activation): ${first.items ? `${first.items.length} orders` : 'nothing emitted'}`);
			const party = h.emulator.credentials.partyId;
			h.emulator.clock.advance(60 * 1000);
			const received = [
				receiveInvoice(h.emulator.store, party, { supplier: { Name: 'Paper Co NV', VATNumber: 'BE0417497106' } }),
				receiveInvoice(h.emulator.store, party, { type: 'CreditNote' }),
			];
			note(`meanwhile 2 documents arrive from suppliers: ${received.map((o) => `${o.OrderType} ${o.OrderNumber}`).join(', ')}`);
			const second = await poller.poll({ execute: true });
			if (!second.execution) throw new Error('poll 2 emitted nothing');
			const marked = received.filter((o) => h.emulator.store.getOrder(party, o.OrderID).IsSent).length;
			note(`poll 2: ${second.items.length} supplier document(s) booked; ${marked} marked exported at the access point`);
			const third = await poller.poll();
			note(`poll 3: ${third.items ? `${third.items.length} orders (exported twice!)` : 'nothing new'}`);
			if (third.items) throw new Error('the trigger emitted the same supplier invoices twice');
			return second.execution;
		},
	},
	{
		file: 'sync-customers.json',
		title: 'Sync customers from a CRM',
		summary: 'CRM items -> Party Create (looked up by VAT number, updated when found) -> run twice: nothing created twice',
		expect: { 'Customer in sync': 3 },
		fields: {
			'One item per customer': ['crmId', 'name', 'vatNumber'],
			'Create or update the customer': ['PartyID', 'Name', 'VATNumber', 'AlreadyExisted'],
			'Customer in sync': ['crmId', 'PartyID', 'Name', 'Result'],
		},
		async run(h, note) {
			const first = await h.run(loadTemplate(this.file));
			if (first.status !== 'success') return first;
			note(
				`run 1: ${first
					.output('Customer in sync')
					.map((r) => `${r.Name} ${r.Result}`)
					.join(', ')}`,
			);
			h.emulator.clearRequests();
			const second = await h.run(loadTemplate(this.file));
			const creates = h.emulator.requests.filter((r) => r.method === 'POST' && r.path === '/v1/parties').length;
			note(`run 2 (the same CRM items again): ${creates} customer(s) created`);
			if (creates) throw new Error('the second run created customers again');
			return second;
		},
	},
];

// ---- report ---------------------------------------------------------------------------------

function shortValue(value, max = 48) {
	let text;
	if (typeof value === 'string') text = value;
	else if (value === undefined) text = 'undefined';
	else text = JSON.stringify(value);
	return text.length > max ? `${text.slice(0, max - 1)}\u2026` : text;
}

function keyFields(json, fields) {
	const names =
		fields ||
		Object.keys(json)
			.filter((k) => json[k] === null || typeof json[k] !== 'object')
			.slice(0, 4);
	return names
		.filter((k) => json[k] !== undefined)
		.map((k) => `${k}=${shortValue(json[k])}`)
		.join('  ');
}

/** Lines describing what each node of the run output. */
function describeRun(result, scenario, { maxItems = 3 } = {}) {
	const lines = [];
	const nodes = new Map(result.workflow.nodes.map((n) => [n.name, n]));
	const order = [];
	for (const name of [...result.executedNodes, ...Object.keys(result.runData)]) if (!order.includes(name)) order.push(name);
	const width = Math.min(40, Math.max(...order.map((n) => n.length)));
	for (const name of order) {
		const task = result.task(name);
		if (!task) continue;
		const label = name.padEnd(width);
		if (task.error) {
			lines.push(`  ${label}  ERROR ${task.error.message}`);
			continue;
		}
		const outputs = (task.data && task.data.main) || [];
		const labels = outputs.length > 1 ? OUTPUT_LABELS[nodes.get(name).type] || [] : [];
		outputs.forEach((items, index) => {
			const list = items || [];
			const out = outputs.length > 1 ? `${labels[index] || `output ${index}`}: ` : '';
			const count = `${out}${list.length} item${list.length === 1 ? '' : 's'}`;
			const head = index === 0 ? label : ' '.repeat(width);
			const fields = scenario.fields && scenario.fields[name];
			if (!list.length) {
				lines.push(`  ${head}  ${count}`);
				return;
			}
			list.slice(0, maxItems).forEach((item, i) => {
				const prefix = i === 0 ? `  ${head}  ${count.padEnd(24)}` : `  ${' '.repeat(width)}  ${''.padEnd(24)}`;
				lines.push(`${prefix}${keyFields(item.json, fields)}`.trimEnd());
			});
			if (list.length > maxItems) lines.push(`  ${' '.repeat(width)}  ${''.padEnd(24)}\u2026 and ${list.length - maxItems} more`);
		});
	}
	return lines;
}

/** Why a finished run does not count as a pass, or undefined. */
function failureOf(result, scenario) {
	if (!result) return 'the template did not run';
	if (result.status !== 'success') {
		const e = result.error;
		return `the execution ended with status "${result.status}"${e ? `: ${e.message}${e.node ? ` (node "${e.node.name}")` : ''}` : ''}`;
	}
	for (const [node, least] of Object.entries(scenario.expect || {})) {
		const got = result.items(node).length;
		if (!result.executed(node)) return `"${node}" did not run`;
		if (got < least) return `"${node}" output ${got} item(s), expected at least ${least}`;
	}
	return undefined;
}

// ---- build ----------------------------------------------------------------------------------

function runTool(name, args) {
	const local = { tsc: ['typescript', 'bin', 'tsc'], gulp: ['gulp', 'bin', 'gulp.js'] }[name];
	const file = local && path.join(ROOT, 'node_modules', ...local);
	const options = { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] };
	if (file && fs.existsSync(file)) return spawnSync(process.execPath, [file, ...args], options);
	const win = process.platform === 'win32';
	return spawnSync(win ? 'npx.cmd' : 'npx', [name, ...args], { ...options, shell: win });
}

/** Builds dist/ when it is missing or older than the sources. Returns false when the build is unusable. */
function buildIfNeeded(log) {
	const { buildReason } = require(path.join(HARNESS_DIR, 'build'));
	const reason = buildReason(ROOT);
	if (!reason) return true;
	log(`Building dist/ (${reason}) ...`);
	const tsc = runTool('tsc', ['-p', 'tsconfig.json']);
	if (tsc.error) {
		log(`  could not run tsc: ${tsc.error.message}`);
		return false;
	}
	if (tsc.status !== 0) {
		const first = `${tsc.stdout || ''}${tsc.stderr || ''}`.split('\n').filter(Boolean).slice(0, 5);
		log('  tsc reported errors (JavaScript was emitted anyway):');
		for (const line of first) log(`    ${line}`);
	}
	const gulp = runTool('gulp', ['build:icons']);
	if (gulp.error || gulp.status !== 0) {
		log(`  gulp build:icons failed: ${gulp.error ? gulp.error.message : `${gulp.stderr || gulp.stdout}`.trim().split('\n')[0]}`);
		return false;
	}
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const missing = [...pkg.n8n.credentials, ...pkg.n8n.nodes].filter((f) => !fs.existsSync(path.join(ROOT, f)));
	if (missing.length) {
		log(`  the build did not produce ${missing.join(', ')}`);
		return false;
	}
	log('  done.');
	return true;
}

// ---- run ------------------------------------------------------------------------------------

/**
 * Runs the scenarios (all, or those whose file is in `only`) against a harness
 * (created here with the emulator unless given) and logs a report per template.
 * Resolves { ok, results: [{ file, ok, ms, failure? }] }.
 * @param {{ log?: (line: string) => void, harness?: any, only?: string[], emulator?: { orders: number } & Record<string, unknown> }} [options]
 * @returns {Promise<{ ok: boolean, results: Array<{ file: string, ok: boolean, ms: number, failure?: string, notes?: string[] }> }>}
 */
async function runDemo({ log = (line) => console.log(line), harness, only, emulator = { orders: 1000 } } = {}) {
	const files = listExampleFiles();
	const results = [];
	const selected = only && only.length ? SCENARIOS.filter((s) => only.includes(s.file)) : SCENARIOS;
	const unknown = only && only.length ? only.filter((f) => !SCENARIOS.some((s) => s.file === f)) : files.filter((f) => !SCENARIOS.some((s) => s.file === f));
	for (const file of unknown) {
		log(`\nexamples/${file}: no demo scenario for this template`);
		results.push({ file, ok: false, ms: 0, failure: 'no demo scenario for this template' });
	}
	const { createHarness } = require(HARNESS_DIR);
	const h = harness || (await createHarness({ emulator, quiet: true }));
	try {
		if (!harness) log(`Emulator running at ${h.emulator.url} (${emulator.orders} seeded orders)`);
		for (const [index, scenario] of selected.entries()) {
			log('');
			log(`[${index + 1}/${selected.length}] ${scenario.title}  (examples/${scenario.file})`);
			log(`  ${scenario.summary}`);
			const started = Date.now();
			let result;
			let failure;
			const notes = [];
			try {
				result = await scenario.run(h, (text) => {
					notes.push(text);
					log(`  - ${text}`);
				});
				failure = failureOf(result, scenario);
			} catch (error) {
				failure = error && error.message ? error.message : String(error);
			}
			if (result) for (const line of describeRun(result, scenario)) log(line);
			const ms = Date.now() - started;
			log(failure ? `  FAILED: ${failure}` : `  OK (${(ms / 1000).toFixed(1)} s)`);
			results.push({ file: scenario.file, ok: !failure, ms, failure, notes });
		}
	} finally {
		if (!harness) await h.close();
	}
	return { ok: results.every((r) => r.ok), results };
}

const HOW_TO = [
	'',
	'Run the templates in your own n8n',
	'  1. Start the emulator in a terminal:   npm run emulator',
	'     It listens on http://127.0.0.1:3999 and prints the credential values.',
	'  2. Install this package in n8n: npm run build && npm pack, then in ~/.n8n/nodes',
	'     npm install <path to>/n8n-nodes-access-point-<version>.tgz and restart n8n',
	'     (once published: Settings > Community Nodes > Install > n8n-nodes-access-point).',
	'  3. In n8n, create an "AccessPoint API" credential: Environment Custom,',
	'     Base URL http://127.0.0.1:3999, API Key emu-api-key, Party ID 100001.',
	'     Create it before importing: n8n then fills it in every AccessPoint node.',
	'  4. In a workflow, ... > Import > From file: pick a file in examples/ and click',
	'     Execute workflow. The sticky notes explain every step.',
	'     For the onboarding template, open the waiting node "Identify the signatory" (or the',
	'     logs) and click "Open the identity check", then "Confirm identity" on the provider page',
	'     (n8n must run on localhost for the emulator to accept it).',
	'     The delivery status alerts template is published instead: the emulator then calls',
	"     n8n's webhook URL (http is accepted on localhost only; the real service needs https).",
];

async function main(argv) {
	const args = argv.filter((a) => a !== '--no-build');
	const started = Date.now();
	console.log("n8n-nodes-access-point demo: the workflow templates in examples/, run by n8n's engine against the local emulator");
	if (!argv.includes('--no-build') && !buildIfNeeded((line) => console.log(line))) {
		console.error('The build failed; run npm run build to see why.');
		return 1;
	}
	const only = args.map((a) => path.basename(a));
	const { ok, results } = await runDemo({ only });
	console.log('');
	console.log(`${results.filter((r) => r.ok).length} of ${results.length} templates passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	for (const r of results.filter((x) => !x.ok)) console.log(`  FAILED examples/${r.file}: ${r.failure}`);
	for (const line of HOW_TO) console.log(line);
	return ok ? 0 : 1;
}

if (require.main === module) {
	main(process.argv.slice(2)).then(
		(code) => {
			process.exitCode = code;
		},
		(error) => {
			console.error(error && error.stack ? error.stack : error);
			process.exitCode = 1;
		},
	);
}

module.exports = {
	SCENARIOS,
	AI_TEMPLATES,
	listExampleFiles,
	loadTemplate,
	runDemo,
	describeRun,
	failureOf,
	buildIfNeeded,
	EXAMPLES_DIR,
	ARCHIVE_FOLDER,
	archiveTemplate,
	allowFileAccess,
};
