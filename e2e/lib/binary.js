'use strict';
/**
 * Order › Download Files in the editor (issue 20, "binary data shown in the editor's output
 * pane"): a Manual Trigger → Download Files (Main PDF + UBL of an invoice from the emulator's
 * seed) workflow is created through REST, opened in the editor and run from the canvas's
 * Execute button; then the node's panel is opened and its output pane, in its Binary view, must
 * show one card per file: binary property pdf and ubl, each with the file name, MIME type and
 * size the emulator serves for that order, and a Download button. Screenshot: binary-output.png.
 *
 * The expectation comes from the emulator (the file refs a full order read names, and the bytes
 * GET /v1/files/{FileID} serves), never from the run: the pane is compared with the service.
 *
 * checkBinaryOutput({ page, rest, baseUrl, emulator, artifactsDir, log }) -> { problems, lines, shown }
 * `page`: a logged-in editor page; `rest`: a logged-in e2e/lib/n8n.js Rest; `emulator`: the
 * in-process emulator the e2e's API-key credential (T.CREDENTIAL) points at.
 */
const path = require('node:path');

const T = require('./templates');
const { waitForExecution, executionIds } = require('./oauth');

/** Selectors read from the running n8n 2.41 editor (NDV output pane), not guessed. */
const SEL = {
	canvasNode: '[data-test-id="canvas-node"]',
	execute: '[data-test-id="execute-workflow-button"]',
	ndv: '[data-test-id="ndv"]',
	output: '[data-test-id="output-panel"]',
	binaryView: '[data-test-id="output-panel"] [data-test-id="radio-button-binary"]',
	// One card per binary property; the suffix is the item index (every card of item 0 is "_0").
	card: '[data-test-id="output-panel"] [data-test-id^="ndv-binary-data_"]',
	download: '[data-test-id="ndv-download-binary-data"]',
	itemCount: '[data-test-id="output-panel"] [data-test-id="run-data-item-count"]',
};
const NODE = 'Download Files';
const FILES = ['pdf', 'ubl'];
/** Labels of the card's fields as n8n prints them ("File Name: " ...). */
const FIELDS = { 'File Name': 'fileName', 'File Extension': 'fileExtension', 'Mime Type': 'mimeType', 'File Size': 'fileSize' };

/** The files the emulator serves for the order, by the binary property the node names them. */
function expectedFiles(emulator, orderId) {
	const refs = emulator.files.refs(orderId);
	const byProperty = { pdf: refs.OrderPDF, ubl: refs.Attachments.find((a) => /\.xml$/i.test(a.FileName)) };
	return FILES.map((property) => {
		const ref = byProperty[property];
		const file = ref && emulator.files.get(ref.FileID);
		return file ? { property, fileName: file.FileName, mimeType: file.MimeType, bytes: file.content.length } : { property, missing: true };
	});
}

/** An invoice of the credential's party from the seed: it has a PDF and a UBL. */
function pickInvoice(emulator) {
	return emulator.store.listOrders(emulator.credentials.partyId).find((o) => o.OrderType === 'Invoice');
}

function workflow(orderId, files) {
	return {
		name: '[e2e] Download Files in the editor (binary output)',
		settings: { executionOrder: 'v1' },
		nodes: [
			{ parameters: {}, id: 'b1a2b3c4-0000-4000-8000-000000000001', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
			{
				parameters: { resource: 'order', operation: 'downloadFiles', orderId: { __rl: true, mode: 'id', value: String(orderId) }, files },
				id: 'b1a2b3c4-0000-4000-8000-000000000002',
				name: NODE,
				type: `${T.PKG}.accessPointOrder`,
				typeVersion: 1,
				position: [240, 0],
				credentials: { [T.CREDENTIAL.type]: { id: T.CREDENTIAL.id, name: T.CREDENTIAL.name } },
			},
		],
		connections: { Start: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
	};
}

/** "3.21 kB" -> bytes (n8n prints sizes with 3 significant digits, 1 kB = 1000 B). */
function parseSize(text) {
	const m = /^([\d.]+)\s*(B|kB|MB|GB)$/.exec(String(text).trim());
	if (!m) return undefined;
	return Number(m[1]) * { B: 1, kB: 1e3, MB: 1e6, GB: 1e9 }[m[2]];
}

/** Each card's text as { property, fileName, mimeType, fileSize, buttons }: header line first, then label/value lines. */
async function readCards(page) {
	return await page.$$eval(
		SEL.card,
		(cards, { fields, download }) =>
			cards.map((card) => {
				const lines = card.innerText
					.split('\n')
					.map((l) => l.trim())
					.filter(Boolean);
				const shown = {
					property: lines[0],
					buttons: [...card.querySelectorAll('button')].map((b) => b.innerText.trim()).filter(Boolean),
					download: card.querySelectorAll(download).length,
				};
				for (let i = 1; i < lines.length; i++) {
					const key = fields[lines[i].replace(/:$/, '')];
					if (key && i + 1 < lines.length) shown[key] = lines[++i];
				}
				return shown;
			}),
		{ fields: FIELDS, download: SEL.download },
	);
}

async function checkBinaryOutput({ page, rest, baseUrl, emulator, artifactsDir, files = FILES, options, log = () => {} }) {
	const problems = [];
	const lines = [];
	const say = (line) => {
		lines.push(line);
		log(line);
	};
	const shot = path.join(artifactsDir, 'binary-output.png');

	const order = pickInvoice(emulator);
	if (!order) return { problems: ["the emulator seed has no invoice for the credential's party"], lines, shown: [] };
	const expected = expectedFiles(emulator, order.OrderID);
	for (const e of expected.filter((x) => x.missing))
		problems.push(`the emulator serves no ${e.property} file for order ${order.OrderID}; nothing to compare the pane with`);

	const wf = workflow(order.OrderID, files);
	if (options) wf.nodes[1].parameters.options = options;
	const created = await rest.post('/rest/workflows', wf);
	const before = await executionIds(rest, created.id);
	await page.goto(`${baseUrl}/workflow/${created.id}`);
	await page.locator(SEL.canvasNode).first().waitFor({ timeout: 60000 });
	await page.waitForFunction((s) => document.querySelectorAll(s).length >= 2, SEL.canvasNode, { timeout: 30000 });
	await page.locator(SEL.execute).first().click();
	const run = await waitForExecution(rest, created.id, { after: before, timeoutMs: 90000 });
	const why = T.judge({ file: 'binary-output', workflow: wf, expect: { [NODE]: 1 } }, run);
	if (why) problems.push(`the run from the editor: ${why}`);
	say(
		`"${created.name}" (order ${order.OrderID} ${order.OrderNumber}, files ${files.join(' + ')}) run from the canvas's Execute button: execution ${run.id} ${run.status}; ${T.summarize(run).join('; ')}`,
	);

	// The panel of the node, its output pane in the Binary view (n8n opens it there when the items carry files).
	await page.locator(`${SEL.canvasNode}[data-node-name="${NODE}"]`).dblclick();
	await page.locator(SEL.ndv).waitFor({ timeout: 30000 });
	await page.locator(SEL.output).waitFor({ timeout: 30000 });
	await page
		.locator(SEL.itemCount)
		.first()
		.waitFor({ timeout: 30000 })
		.catch(() => {});
	const hasBinaryView = (await page.locator(SEL.binaryView).count()) > 0;
	if (hasBinaryView) await page.locator(SEL.binaryView).click();
	const cardsShown = await page
		.locator(SEL.card)
		.first()
		.waitFor({ timeout: 15000 })
		.then(
			() => true,
			() => false,
		);
	// Wide enough for both cards side by side in the shot; the editor's usual size again after.
	const viewport = page.viewportSize();
	await page.setViewportSize({ width: 1920, height: viewport ? viewport.height : 900 });
	await page.waitForTimeout(800);
	await page.screenshot({ path: shot });
	const shown = cardsShown ? await readCards(page) : [];
	const items = (
		await page
			.locator(SEL.itemCount)
			.first()
			.innerText()
			.catch(() => '?')
	).trim();
	const paneText = cardsShown
		? ''
		: (
				await page
					.locator(SEL.output)
					.innerText()
					.catch(() => '')
			)
				.replace(/\s+/g, ' ')
				.slice(0, 200);
	if (viewport) await page.setViewportSize(viewport);
	await page.keyboard.press('Escape');

	say(`"${NODE}" output pane: ${items}, ${hasBinaryView ? 'Binary view' : 'NO Binary view'}, ${shown.length} binary card(s) -> binary-output.png`);
	for (const s of shown) {
		say(
			`  ${s.property}: file name ${s.fileName}, MIME type ${s.mimeType}, extension ${s.fileExtension}, size ${s.fileSize}; buttons ${s.buttons.join(', ') || 'none'}`,
		);
	}
	if (!hasBinaryView) problems.push(`the output pane of "${NODE}" offers no Binary view (pane: ${paneText || '?'})`);
	if (!shown.length) problems.push(`the output pane of "${NODE}" shows no binary data`);
	for (const e of expected.filter((x) => !x.missing)) {
		const s = shown.find((c) => c.property === e.property);
		if (!s) {
			if (shown.length) problems.push(`the output pane shows no binary property "${e.property}" (it shows ${shown.map((c) => c.property).join(', ')})`);
			continue;
		}
		if (s.fileName !== e.fileName) problems.push(`${e.property}: the pane shows file name "${s.fileName}", the emulator serves "${e.fileName}"`);
		if (s.mimeType !== e.mimeType) problems.push(`${e.property}: the pane shows MIME type "${s.mimeType}", the emulator serves "${e.mimeType}"`);
		const size = parseSize(s.fileSize);
		if (size === undefined || Math.abs(size - e.bytes) > e.bytes * 0.01)
			problems.push(`${e.property}: the pane shows size "${s.fileSize}", the file has ${e.bytes} bytes`);
		if (!s.download) problems.push(`${e.property}: the card has no Download button`);
	}
	if (shown.length && !problems.length)
		say(`  the pane matches the emulator's files: ${expected.map((e) => `${e.property} = ${e.fileName} (${e.mimeType}, ${e.bytes} B)`).join(', ')}`);
	return { problems, lines, shown };
}

module.exports = { checkBinaryOutput };
