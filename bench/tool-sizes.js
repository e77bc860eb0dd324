'use strict';
/**
 * node bench/tool-sizes.js: the size of each AccessPoint tool as a model gets it (issue 40, docs/ai.md).
 *
 * - Definition: what n8n sends the model per tool, built with n8n's own code: the name
 *   (nodeNameToToolName), the description (NodeHelpers.getToolDescriptionForNode: the template's Tool
 *   Description) and the parameters' JSON schema (n8n-core's getSchema over the node's `$fromAI` calls),
 *   in OpenAI's function-tool form; bytes of its JSON.
 * - Output: a typical answer, run by n8n-core's WorkflowExecute (test/harness) as the AI Agent runs the
 *   tool (the model's arguments on the input item, the node's `…Tool` type) against the emulator with
 *   1,000 orders; bytes of the JSON n8n hands the model (the first output's items' json).
 *
 * Counts, not times: the same on any machine. Needs `npm run build` first.
 */
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const { NodeHelpers, nodeNameToToolName } = require('n8n-workflow');
const { getSchema } = require('n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool');
const { zodToJsonSchema } = require('zod-to-json-schema');
const { createHarness } = require(path.join(ROOT, 'test', 'harness'));
const { loadTemplate } = require(path.join(ROOT, 'scripts', 'demo'));

/** Typical arguments per tool (writes: a payment, an invoice sent; run on a fresh emulator). */
function typicalArguments(orders) {
	const unpaid = orders.find((o) => o.OrderType === 'Invoice' && o.OrderDirection === 'Income' && !o.Paid && Number(o.ToPay) > 20);
	const refused = orders.find((o) => o.OrderStatus === 'Refused');
	return {
		'Find orders': { filter: "OrderType eq 'Invoice' and OrderDirection eq 'Income' and Paid eq false", skip: 0 },
		'Get order': { order_id: unpaid.OrderID },
		'Get delivery status': { order_id: refused.OrderID },
		'Check Peppol': { identifier: '0403.170.701' },
		'Find customer by VAT': { vat_number: unpaid.Customer && unpaid.Customer.VATNumber ? unpaid.Customer.VATNumber : 'BE0123456749' },
		'List Peppol inbox': { documents: 'all' },
		'List registrations': {},
		'Create and send invoice': {
			order: {
				OrderType: 'Invoice',
				OrderDirection: 'Income',
				OrderDate: '2026-03-02',
				ExpiryDate: '2026-04-01',
				ExternalProviderID: 'CHAT-2026-0001',
				Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749' },
				OrderLines: [{ Quantity: 2, Description: 'Consulting, March', VATPercentage: 21, UnitPriceExcl: 450 }],
			},
		},
		'Record payment': { order_id: unpaid.OrderID, amount: '10.00', payment_date: '2026-03-02', reference: 'BANK-2026-0001' },
		'Create credit note': { order_id: unpaid.OrderID },
		'Confirm inbox item': undefined,
		'Refuse inbox item': undefined,
		'Mark as exported': { order_id: (orders.find((o) => o.OrderDirection === 'Cost') || unpaid).OrderID },
	};
}

async function main() {
	const wf = loadTemplate('invoice-assistant.json');
	const tools = wf.nodes.filter((n) => n.type.startsWith('n8n-nodes-access-point.'));
	const h = await createHarness({ emulator: { orders: 1000 }, quiet: true });
	try {
		const orders = [...h.emulator.store.book(h.emulator.credentials.partyId).values()];
		const args = typicalArguments(orders);
		const rows = [];
		for (const node of tools) {
			const nodeType = h.nodeTypes.getByNameAndVersion(node.type.replace(/Tool$/, ''), node.typeVersion);
			const description = NodeHelpers.getToolDescriptionForNode(node, nodeType);
			const definition = { type: 'function', function: { name: nodeNameToToolName(node), description, parameters: zodToJsonSchema(getSchema(node)) } };
			const row = { tool: node.name, definition: Buffer.byteLength(JSON.stringify(definition)), items: '', output: '' };
			if (args[node.name]) {
				const result = await h.runNode(node.type, JSON.parse(JSON.stringify(node.parameters)), [args[node.name]], { name: node.name });
				const error = result.nodeError(node.name);
				const json = error ? { error: error.message } : result.output(node.name);
				row.items = error ? 'error' : json.length;
				row.output = Buffer.byteLength(JSON.stringify(json));
			}
			rows.push(row);
		}
		const total = rows.reduce((sum, r) => sum + r.definition, 0);
		const pad = (value, width) => String(value).padStart(width);
		console.log('AccessPoint tools as a model gets them (examples/invoice-assistant.json; bytes of JSON)\n');
		console.log(`${'tool'.padEnd(26)}${pad('definition', 11)}${pad('items', 7)}${pad('output', 9)}`);
		for (const r of rows) console.log(`${r.tool.padEnd(26)}${pad(r.definition, 11)}${pad(r.items, 7)}${pad(r.output, 9)}`);
		console.log(`${'all 13 definitions'.padEnd(26)}${pad(total, 11)}`);
		console.log(
			'\noutput: a typical call (Find orders: 25 of the unpaid sales invoices, then the "more exist" line); inbox confirm/refuse need an inbox item, not measured.',
		);
	} finally {
		await h.close();
	}
}

main().catch((error) => {
	console.error(error && error.stack ? error.stack : error);
	process.exitCode = 1;
});
