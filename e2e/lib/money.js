'use strict';
/**
 * Money in the editor (issue 28.1, 28.2), typed and clicked as a user does, checked against
 * what the emulator recorded:
 *  - decimal comma: Record Payment › Amount typed "12,50" and Payment Date typed 2026-02-28
 *    (keyboard, then Tab) on an invoice of 2,420.00, the workflow saved (Ctrl+S) and run from
 *    the canvas: the emulator must record a payment of 12.50 (ToPay 2,407.50), never 1,250.
 *    The same forms typed into n8n's own number field (Get Many › Limit, a node left
 *    unconnected) are logged as it shows them, "12,50" also as saved: what that field makes of
 *    a decimal comma (the reason these fields are text, docs/nodes.md "Amounts and quantities").
 *    Screenshot: money-decimal-comma.png (the Record Payment output pane).
 *  - credit note re-run: Create Credit Note by invoice number, no External Provider ID, run
 *    with the panel's Execute step button, then again with the canvas's Execute workflow: the
 *    emulator must hold one credit note about the invoice; the second run outputs it with
 *    Outcome "found", in the same shape. Screenshot: money-credit-note-rerun.png.
 *  - amounts typed the Belgian way (issue 39.1): Product price "2,35" and an order line "1.250,00"
 *    stored as 2.35 and 1250; a Record Payment added as it comes holds {{ $json.OrderID }} (issue 39.9).
 *    Screenshots: money-typed-price-panel.png, money-typed-line-panel.png, money-typed-amounts.png,
 *    editor-id-default-panel.png.
 *
 * checkMoney({ page, rest, baseUrl, emulator, artifactsDir, only, log }) -> { problems, lines }; `only`: names of checks.
 */
const path = require('node:path');

const T = require('./templates');
const { waitForExecution, executionIds } = require('./oauth');

/** Selectors of the n8n 2.41 editor (canvas, node panel), read from the running editor. */
const SEL = {
	canvasNode: '[data-test-id="canvas-node"]',
	execute: '[data-test-id="execute-workflow-button"]',
	ndv: '[data-test-id="ndv"]',
	executeStep: '[data-test-id="ndv"] [data-test-id="node-execute-button"]',
	output: '[data-test-id="output-panel"]',
	itemCount: '[data-test-id="output-panel"] [data-test-id="run-data-item-count"]',
	jsonView: '[data-test-id="output-panel"] [data-test-id="radio-button-json"]',
	field: (name) => `[data-test-id="ndv"] [data-test-id="parameter-input-${name}"] input`,
};

const node = (name, parameters, position, credentials = true) => ({
	parameters,
	id: `ab0c0000-0000-4000-8000-${String(position[0] + position[1] * 7 + 1).padStart(12, '0')}`,
	name,
	type: name === 'Start' ? 'n8n-nodes-base.manualTrigger' : `${T.PKG}.accessPointOrder`,
	typeVersion: 1,
	position,
	...(credentials && name !== 'Start' ? { credentials: { [T.CREDENTIAL.type]: { id: T.CREDENTIAL.id, name: T.CREDENTIAL.name } } } : {}),
});

const workflow = (name, nodes) => ({
	name,
	settings: { executionOrder: 'v1' },
	nodes: [node('Start', {}, [0, 0]), ...nodes],
	connections: { Start: { main: [[{ node: nodes[0].name, type: 'main', index: 0 }]] } },
});

/** An invoice of 2,420.00 incl. VAT, created through the emulator's API (as the web app would). */
async function createInvoice(emulator, number, customer = { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' }) {
	const id = await T.api(emulator, 'POST', '/v1/orders', {
		OrderType: 'Invoice',
		OrderDirection: 'Income',
		OrderDate: '2026-02-01',
		OrderNumber: number,
		Customer: customer,
		OrderLines: [{ Quantity: 1, Description: 'Machine', UnitPriceExcl: 2000, VATPercentage: 21 }],
	});
	return Number(id);
}

/** Whether a node panel is shown (n8n 2.41 renders more than one element with its test id: count the visible ones). */
const ndvShown = (page) => page.evaluate((s) => [...document.querySelectorAll(s)].some((el) => el.getClientRects().length > 0), SEL.ndv).catch(() => false);

/**
 * Closes the node's panel for sure: Escape (again while a dropdown or field kept the first one, e.g. a collection's
 * Add Field), then the panel's close button, then waits until no panel is shown, so the next double-click reaches
 * the canvas (issue 39's e2e: a panel left open covered the second node).
 */
async function closeNode(page) {
	for (let i = 0; i < 4 && (await ndvShown(page)); i++) {
		await page.keyboard.press('Escape');
		await page.waitForTimeout(500);
	}
	if (await ndvShown(page)) {
		await page
			.locator('[data-test-id="ndv-close-button"]')
			.first()
			.click({ timeout: 5000 })
			.catch(() => {});
	}
	await page.waitForFunction((s) => ![...document.querySelectorAll(s)].some((el) => el.getClientRects().length > 0), SEL.ndv, { timeout: 15000 });
}

async function openNode(page, name) {
	await page.locator(`${SEL.canvasNode}[data-node-name="${name}"]`).dblclick();
	await page.locator(SEL.ndv).waitFor({ timeout: 30000 });
}

/** Clicks into a parameter's input, selects what is there and types `text` key by key, then Tab. */
async function typeInto(page, name, text) {
	const input = page.locator(SEL.field(name)).first();
	await input.click();
	await page.keyboard.press('Control+a');
	await page.keyboard.type(text, { delay: 60 });
	await page.keyboard.press('Tab');
	await page.waitForTimeout(400);
	return (await input.inputValue().catch(() => '?')).trim();
}

const outputOf = (run, name) => {
	const tasks = (run && run.data && run.data.resultData && run.data.resultData.runData && run.data.resultData.runData[name]) || [];
	return tasks.flatMap((task) => ((task.data && task.data.main) || []).flatMap((out) => out || [])).map((item) => item.json || {});
};

/** The node's output pane in its JSON view, wide, as a screenshot; the editor's size again after. */
async function shootOutput(page, name, file) {
	await openNode(page, name);
	await page.locator(SEL.output).waitFor({ timeout: 30000 });
	await page
		.locator(SEL.jsonView)
		.click()
		.catch(() => {});
	const viewport = page.viewportSize();
	await page.setViewportSize({ width: 1920, height: viewport ? viewport.height : 900 });
	await page.waitForTimeout(800);
	await page.screenshot({ path: file });
	if (viewport) await page.setViewportSize(viewport);
	await page.keyboard.press('Escape');
}

async function decimalComma({ page, rest, baseUrl, emulator, artifactsDir, say, problems }) {
	const number = `E2E-PAY-${Date.now().toString(36)}`;
	const orderId = await createInvoice(emulator, number);
	const wf = workflow('[e2e] Record Payment typed with a decimal comma', [
		node(
			'Record Payment',
			{
				resource: 'order',
				operation: 'recordPayment',
				orderId: { __rl: true, mode: 'id', value: String(orderId) },
				amount: '',
				paymentDate: '',
				paymentType: 'Bank transfer',
				reference: `TX-${number}`,
			},
			[240, 0],
		),
		node('Number field probe', { resource: 'order', operation: 'getAll', returnAll: false, limit: 50 }, [240, 200]),
	]);
	const created = await rest.post('/rest/workflows', wf);
	await page.goto(`${baseUrl}/workflow/${created.id}`);
	await page.waitForFunction((s) => document.querySelectorAll(s).length >= 3, SEL.canvasNode, { timeout: 60000 });

	await openNode(page, 'Record Payment');
	const amountShown = await typeInto(page, 'amount', '12,50');
	const dateShown = await typeInto(page, 'paymentDate', '2026-02-28');
	await page.keyboard.press('Escape');
	// n8n's own number field, typed the same ways: what it makes of each form (the last one is saved).
	await openNode(page, 'Number field probe');
	const numberField = [];
	for (const typed of ['1.250,00', '1,250.00', '12.50', '12,50']) numberField.push(`"${typed}" -> ${await typeInto(page, 'limit', typed)}`);
	await page.keyboard.press('Escape');
	await page.keyboard.press('Control+s');
	await page.waitForTimeout(1500);
	const saved = await rest.get(`/rest/workflows/${created.id}`);
	const params = (name) => ((saved.nodes || []).find((n) => n.name === name) || {}).parameters || {};
	say(
		`typed "12,50" into Record Payment › Amount (shows "${amountShown}", saved ${JSON.stringify(params('Record Payment').amount)}), 2026-02-28 into Payment Date (shows "${dateShown}", saved ${JSON.stringify(params('Record Payment').paymentDate)})`,
	);
	say(
		`n8n's own number field (Get Many › Limit) typed the same ways shows ${numberField.join(', ')}; saved ${JSON.stringify(params('Number field probe').limit)} for "12,50"`,
	);
	if (params('Record Payment').amount !== '12,50')
		problems.push(`Amount was saved as ${JSON.stringify(params('Record Payment').amount)}, not as typed ("12,50")`);
	if (!String(params('Record Payment').paymentDate).startsWith('2026-02-28'))
		problems.push(`the typed Payment Date did not stick: saved ${JSON.stringify(params('Record Payment').paymentDate)}`);

	const before = await executionIds(rest, created.id);
	await page.locator(SEL.execute).first().click();
	const run = await waitForExecution(rest, created.id, { after: before, timeoutMs: 90000 });
	const why = T.judge({ file: 'money', workflow: wf, expect: { 'Record Payment': 1 } }, run);
	if (why) problems.push(`the run from the editor: ${why}`);
	const order = emulator.store.findOrder(orderId);
	const payments = (order && order.order.Payments) || [];
	const out = outputOf(run, 'Record Payment')[0] || {};
	say(
		`run ${run.id} ${run.status}: the emulator recorded ${payments.map((p) => p.Amount).join(', ') || 'no payment'} on ${number} (2420.00 incl. VAT), ToPay now ${order && order.order.ToPay}; output Amount ${out.Amount}, ToPay ${out.ToPay}`,
	);
	if (payments.length !== 1 || payments[0].Amount !== 12.5)
		problems.push(`expected one payment of 12.50, the emulator holds ${JSON.stringify(payments.map((p) => p.Amount))}`);
	if (!order || order.order.ToPay !== 2407.5) problems.push(`expected ToPay 2407.50 after paying 12.50, the emulator says ${order && order.order.ToPay}`);
	// Issue 36.1: the service keeps {Amount, Description, Date}: the typed date and the type and reference must be there.
	const kept = payments[0] || {};
	if (kept.Date !== '2026-02-28' || kept.Description !== `Bank transfer, ref. TX-${number}`)
		problems.push(
			`expected the payment stored with Date 2026-02-28 and Description "Bank transfer, ref. TX-${number}", the emulator holds ${JSON.stringify(kept)}`,
		);

	await shootOutput(page, 'Record Payment', path.join(artifactsDir, 'money-decimal-comma.png'));
	say('  -> money-decimal-comma.png');
}

async function creditNoteRerun({ page, rest, baseUrl, emulator, artifactsDir, say, problems }) {
	const number = `E2E-CN-${Date.now().toString(36)}`;
	const invoiceId = await createInvoice(emulator, number);
	const wf = workflow('[e2e] Create Credit Note run twice', [
		node('Create Credit Note', { resource: 'order', operation: 'createCreditNote', invoiceBy: 'invoiceNumber', invoiceNumber: number }, [240, 0]),
	]);
	const created = await rest.post('/rest/workflows', wf);
	await page.goto(`${baseUrl}/workflow/${created.id}`);
	await page.waitForFunction((s) => document.querySelectorAll(s).length >= 2, SEL.canvasNode, { timeout: 60000 });
	const runs = [];
	// Run 1: the panel's Execute step. Run 2: the canvas's Execute workflow (n8n 2.41 fails a
	// second Execute step on any node in this set-up, inside n8n-core before the node runs:
	// "Cannot read properties of null (reading 'Start')"; e2e/README.md).
	for (const how of ['Execute step', 'Execute workflow']) {
		const before = await executionIds(rest, created.id);
		if (how === 'Execute step') {
			await openNode(page, 'Create Credit Note');
			await page.locator(SEL.executeStep).first().click();
		} else {
			await page.locator(SEL.execute).first().click();
		}
		const run = await waitForExecution(rest, created.id, { after: before, timeoutMs: 90000 });
		const why = T.judge({ file: 'money', workflow: wf, expect: { 'Create Credit Note': 1 } }, run);
		if (why) problems.push(`${how}: ${why}`);
		runs.push(outputOf(run, 'Create Credit Note')[0] || {});
		await page
			.locator(SEL.itemCount)
			.first()
			.waitFor({ timeout: 30000 })
			.catch(() => {});
		await page.waitForTimeout(1000);
		await page.keyboard.press('Escape');
		await page.waitForTimeout(500);
	}
	await shootOutput(page, 'Create Credit Note', path.join(artifactsDir, 'money-credit-note-rerun.png'));
	const notes = emulator.store.listOrders(emulator.credentials.partyId).filter((o) => o.OrderType === 'CreditNote' && o.AboutInvoiceNumber === number);
	say(
		`Execute step, then Execute workflow, on Create Credit Note of ${number} (order ${invoiceId}), no External Provider ID: outputs ${runs.map((o) => `${o.Outcome} #${o.OrderID}`).join(', ')}; the emulator holds ${notes.length} credit note(s) about it -> money-credit-note-rerun.png`,
	);
	if (notes.length !== 1) problems.push(`expected one credit note about ${number}, the emulator holds ${notes.length}`);
	if (runs[0].Outcome !== 'created' || runs[1].Outcome !== 'found' || runs[0].OrderID !== runs[1].OrderID) {
		problems.push(`expected "created" then "found" for the same credit note, got ${JSON.stringify(runs.map((o) => [o.Outcome, o.OrderID]))}`);
	}
	const keys = (o) => Object.keys(o).sort().join(',');
	if (keys(runs[0]) !== keys(runs[1])) problems.push(`the two outputs differ in shape: ${keys(runs[0])} / ${keys(runs[1])}`);
}

/**
 * Issue 36.2: an E-Mail send (TransportType SMTP) and a "Peppol, Else E-Mail" send (no TransportType) to a
 * customer not on Peppol, run by the canvas's Execute workflow: both must reach the customer by e-mail (SMTP).
 */
async function sendTransports({ page, rest, baseUrl, emulator, say, problems }) {
	const notOnPeppol = { Name: 'A+B Consulting', VATNumber: 'BE1002003070', Email: 'billing@ab.example', PartyType: 'Customer' };
	const stamp = Date.now().toString(36);
	const [byMail, fallback] = [await createInvoice(emulator, `E2E-SMTP-${stamp}`, notOnPeppol), await createInvoice(emulator, `E2E-AUTO-${stamp}`, notOnPeppol)];
	const send = (name, id, extra, position) => node(name, { resource: 'order', operation: 'send', orderIds: String(id), ...extra }, position);
	const wf = workflow('[e2e] Send by E-Mail and Peppol, Else E-Mail', [
		send('Send by E-Mail', byMail, { transportType: 'Email' }, [240, 0]),
		send('Send Peppol Else E-Mail', fallback, {}, [240, 200]),
	]);
	wf.connections.Start.main[0].push({ node: 'Send Peppol Else E-Mail', type: 'main', index: 0 });
	const created = await rest.post('/rest/workflows', wf);
	await page.goto(`${baseUrl}/workflow/${created.id}`);
	await page.waitForFunction((s) => document.querySelectorAll(s).length >= 3, SEL.canvasNode, { timeout: 60000 });
	const before = await executionIds(rest, created.id);
	await page.locator(SEL.execute).first().click();
	const run = await waitForExecution(rest, created.id, { after: before, timeoutMs: 90000 });
	const why = T.judge({ file: 'money', workflow: wf, expect: { 'Send by E-Mail': 1, 'Send Peppol Else E-Mail': 1 } }, run);
	if (why) problems.push(`send: ${why}`);
	const via = (id) => ((emulator.store.findOrder(id) || { order: {} }).order.Messages || []).map((m) => m.TransportType).join(',');
	const outs = ['Send by E-Mail', 'Send Peppol Else E-Mail'].map((name) => outputOf(run, name)[0] || {});
	say(
		`Execute workflow: E-Mail sent order ${byMail} by ${via(byMail) || 'nothing'}, Peppol Else E-Mail sent order ${fallback} by ${via(fallback) || 'nothing'} (outputs ${JSON.stringify(outs.map((o) => [o.transportType, o.sentVia, o.fallback]))})`,
	);
	if (via(byMail) !== 'SMTP') problems.push(`E-Mail: expected one SMTP message on order ${byMail}, the emulator holds "${via(byMail)}"`);
	if (via(fallback) !== 'SMTP' || outs[1].transportType !== null || outs[1].fallback !== true)
		problems.push(
			`Peppol, Else E-Mail: expected an e-mail fallback (no transport type sent), got messages "${via(fallback)}", output ${JSON.stringify(outs[1])}`,
		);
}

/**
 * Issue 39.1: Product › Create or Update › Amount Excl. VAT typed "2,35" and an order line's Unit Price
 * Excl. VAT typed "1.250,00" (keyboard, in the node's panel), the workflow saved and run from the canvas:
 * the emulator must store the product at 2.35 and the order line at 1250, and Create must output the
 * order's totals as the service holds them. Screenshot: money-typed-amounts.png (Create's output pane).
 */
async function typedAmounts({ page, rest, baseUrl, emulator, artifactsDir, say, problems }) {
	const tag = Date.now().toString(36);
	const reference = `E2E-PRICE-${tag}`;
	const externalId = `E2E-LINE-${tag}`;
	const wf = workflow('[e2e] Amounts typed the Belgian way', [
		node('Product', { resource: 'product', operation: 'createOrUpdate', reference, productFields: { amountExcl: '' } }, [240, 0]),
		node(
			'Create',
			{
				resource: 'order',
				operation: 'create',
				orderType: 'Invoice',
				orderDirection: 'Income',
				orderDate: '2026-02-01',
				customerName: 'Peppol Demo Belgium NV',
				customerVatNumber: 'BE0123456749',
				externalProviderId: externalId,
				orderLines: { lines: [{ description: 'Typed price', quantity: '1', unitPriceExcl: '', vatPercentage: '21' }] },
			},
			[480, 0],
		),
		// Not connected (it does not run): Record Payment as a new node comes, its Order the input item's OrderID (issue 39.9).
		node('Record Payment as it comes', { resource: 'order', operation: 'recordPayment' }, [480, 200]),
	]);
	wf.connections.Product = { main: [[{ node: 'Create', type: 'main', index: 0 }]] };
	const created = await rest.post('/rest/workflows', wf);
	await page.goto(`${baseUrl}/workflow/${created.id}`);
	await page.waitForFunction((s) => document.querySelectorAll(s).length >= 3, SEL.canvasNode, { timeout: 60000 });
	await openNode(page, 'Product');
	const priceShown = await typeInto(page, 'amountExcl', '2,35');
	await page.screenshot({ path: path.join(artifactsDir, 'money-typed-price-panel.png') });
	await closeNode(page);
	await openNode(page, 'Create');
	const lineShown = await typeInto(page, 'unitPriceExcl', '1.250,00');
	await page.screenshot({ path: path.join(artifactsDir, 'money-typed-line-panel.png') });
	await closeNode(page);
	await openNode(page, 'Record Payment as it comes');
	const panel = (await page.locator(SEL.ndv).first().innerText()).replace(/\s+/g, ' ');
	await page.screenshot({ path: path.join(artifactsDir, 'editor-id-default-panel.png') });
	await closeNode(page);
	const mapped = /\{\{ \$json\.OrderID \}\}/.test(panel);
	say(
		`Record Payment added as it comes: its Order field ${mapped ? 'holds {{ $json.OrderID }}' : 'does not show {{ $json.OrderID }}'} -> editor-id-default-panel.png`,
	);
	if (!mapped) problems.push(`Record Payment's Order does not start as the input item's OrderID: the panel reads "${panel.slice(0, 300)}"`);
	await page.keyboard.press('Control+s');
	await page.waitForTimeout(1500);
	const saved = await rest.get(`/rest/workflows/${created.id}`);
	const params = (name) => ((saved.nodes || []).find((n) => n.name === name) || {}).parameters || {};
	const savedPrice = (params('Product').productFields || {}).amountExcl;
	const savedLine = (((params('Create').orderLines || {}).lines || [])[0] || {}).unitPriceExcl;
	say(
		`typed "2,35" into Product › Amount Excl. VAT (shows "${priceShown}", saved ${JSON.stringify(savedPrice)}), "1.250,00" into the order line's Unit Price (shows "${lineShown}", saved ${JSON.stringify(savedLine)})`,
	);
	if (savedPrice !== '2,35') problems.push(`Amount Excl. VAT was saved as ${JSON.stringify(savedPrice)}, not as typed ("2,35")`);
	if (savedLine !== '1.250,00') problems.push(`the line's Unit Price was saved as ${JSON.stringify(savedLine)}, not as typed ("1.250,00")`);

	const before = await executionIds(rest, created.id);
	await page.locator(SEL.execute).first().click();
	const run = await waitForExecution(rest, created.id, { after: before, timeoutMs: 90000 });
	const why = T.judge({ file: 'money', workflow: wf, expect: { Product: 1, Create: 1 } }, run);
	if (why) problems.push(`the run from the editor: ${why}`);
	const party = emulator.credentials.partyId;
	const product = emulator.store.listProducts(party).find((p) => p.Reference === reference);
	const order = emulator.store.listOrders(party).find((o) => o.ExternalProviderID === externalId);
	const out = outputOf(run, 'Create')[0] || {};
	say(
		`run ${run.id} ${run.status}: the emulator stores the product at ${product && product.AmountExcl}, the order line at ${order && order.OrderLines && order.OrderLines[0].UnitPriceExcl} (TotalExcl ${order && order.TotalExcl}); Create outputs ${out.OrderNumber} TotalExcl ${out.TotalExcl} TotalIncl ${out.TotalIncl}`,
	);
	if (!product || product.AmountExcl !== 2.35)
		problems.push(`expected the product at 2.35, the emulator holds ${JSON.stringify(product && product.AmountExcl)}`);
	if (!order || order.OrderLines[0].UnitPriceExcl !== 1250)
		problems.push(`expected the line at 1250, the emulator holds ${JSON.stringify(order && order.OrderLines)}`);
	if (out.TotalExcl !== 1250 || !out.OrderNumber) problems.push(`expected Create to output the number and TotalExcl 1250, it output ${JSON.stringify(out)}`);
	await shootOutput(page, 'Create', path.join(artifactsDir, 'money-typed-amounts.png'));
	say('  -> money-typed-amounts.png');
}

async function checkMoney({ page, rest, baseUrl, emulator, artifactsDir, only = [], log = () => {} }) {
	const problems = [];
	const lines = [];
	const say = (line) => {
		lines.push(line);
		log(line);
	};
	for (const check of [decimalComma, creditNoteRerun, sendTransports, typedAmounts].filter((c) => !only.length || only.includes(c.name))) {
		try {
			await check({ page, rest, baseUrl, emulator, artifactsDir, say, problems });
		} catch (error) {
			problems.push(`${check.name}: ${error.message}`);
			await page.screenshot({ path: path.join(artifactsDir, `money-${check.name}-failed.png`) }).catch(() => {});
		}
	}
	return { problems, lines };
}

module.exports = { checkMoney, typedAmounts };
