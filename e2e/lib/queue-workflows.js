'use strict';
/**
 * Workflows the queue-mode leg builds besides the templates: a Create and Send batch
 * (worker killed mid-run), a webhook-started Create and Send (throughput), and the
 * Order Trigger template polling every few seconds.
 */
const ORDER = 'n8n-nodes-access-point.accessPointOrder';

function credentialRef(credential) {
	return { accessPointApi: { id: credential.id, name: credential.name } };
}

/** Create and Send's parameters: one sales invoice per item, sent with the default Peppol, Else E-Mail (no transport type). */
function createAndSendParams(json) {
	return {
		resource: 'order',
		operation: 'createAndSend',
		orderType: 'Invoice',
		orderDirection: 'Income',
		orderDate: "={{ $today.toFormat('yyyy-MM-dd') }}",
		customerName: `={{ ${json}.customerName }}`,
		customerVatNumber: `={{ ${json}.customerVat }}`,
		orderLines: { lines: [{ description: `={{ ${json}.description }}`, quantity: 1, unitPriceExcl: `={{ ${json}.amount }}`, vatPercentage: 21 }] },
		externalProviderId: `={{ ${json}.invoiceId }}`,
		skipIfExists: true,
		strictTransportType: false,
		additionalFields: {},
		options: {},
	};
}

const CUSTOMERS = [
	{ customerName: 'Peppol Demo Belgium NV', customerVat: 'BE0123456749' },
	{ customerName: 'Café Zoë BV', customerVat: 'BE0456789133' },
	// Every customer is on Peppol: since February 2026 the service e-mails only a customer with an address (issue 36).
	{ customerName: 'Nederland Handel BV', customerVat: 'NL123456789B01' },
];

function invoice(prefix, i) {
	const id = `${prefix}-${String(i).padStart(3, '0')}`;
	return { invoiceId: id, ...CUSTOMERS[i % CUSTOMERS.length], description: `Queue-mode e2e ${id}`, amount: 100 + i };
}

/** Manual Trigger -> `count` invoices (a Set node) -> Split Out -> Create and Send. */
function createAndSendBatch({ name, prefix, count, credential }) {
	const invoices = Array.from({ length: count }, (_, i) => invoice(prefix, i + 1));
	return {
		name,
		nodes: [
			{ parameters: {}, id: 'b0000000-0000-4000-8000-000000000001', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
			{
				parameters: { mode: 'raw', jsonOutput: JSON.stringify({ invoices }, null, 1), options: {} },
				id: 'b0000000-0000-4000-8000-000000000002',
				name: 'Invoices',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
			},
			{
				parameters: { fieldToSplitOut: 'invoices', options: {} },
				id: 'b0000000-0000-4000-8000-000000000003',
				name: 'One item per invoice',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [440, 0],
			},
			{
				parameters: createAndSendParams('$json'),
				id: 'b0000000-0000-4000-8000-000000000004',
				name: 'Create and Send',
				type: ORDER,
				typeVersion: 1,
				position: [660, 0],
				credentials: credentialRef(credential),
			},
		],
		connections: {
			Start: { main: [[{ node: 'Invoices', type: 'main', index: 0 }]] },
			Invoices: { main: [[{ node: 'One item per invoice', type: 'main', index: 0 }]] },
			'One item per invoice': { main: [[{ node: 'Create and Send', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Webhook (POST, answers at once) -> Create and Send of the invoice in the request body. */
function webhookCreateAndSend({ name, path, credential }) {
	return {
		name,
		nodes: [
			{
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
				id: 'c0000000-0000-4000-8000-000000000001',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: 'c0000000-0000-4000-8000-0000000000aa',
			},
			{
				parameters: createAndSendParams('$json.body'),
				id: 'c0000000-0000-4000-8000-000000000002',
				name: 'Create and Send',
				type: ORDER,
				typeVersion: 1,
				position: [220, 0],
				credentials: credentialRef(credential),
			},
		],
		connections: { Webhook: { main: [[{ node: 'Create and Send', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** Webhook (POST, answers at once) -> No Operation: n8n's own cost of a queued execution. */
function webhookNoop({ name, path }) {
	return {
		name,
		nodes: [
			{
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
				id: 'd0000000-0000-4000-8000-000000000001',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: 'd0000000-0000-4000-8000-0000000000aa',
			},
			{ parameters: {}, id: 'd0000000-0000-4000-8000-000000000002', name: 'No Operation', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0] },
		],
		connections: { Webhook: { main: [[{ node: 'No Operation', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/**
 * The Order Trigger template polling every `everySeconds`: n8n refuses a poll time under a
 * minute, so there is one Custom poll time per second mark ("0 * * * * *", "3 * * * * *" ...),
 * each once a minute, as a user can set them in the node's Poll Times.
 */
function fastPolling(workflow, everySeconds) {
	const wf = JSON.parse(JSON.stringify(workflow));
	const item = [];
	for (let s = 0; s < 60; s += everySeconds) item.push({ mode: 'custom', cronExpression: `${s} * * * * *` });
	for (const node of wf.nodes) if (node.type === 'n8n-nodes-access-point.accessPointOrderTrigger') node.parameters.pollTimes = { item };
	return wf;
}

module.exports = { createAndSendBatch, webhookCreateAndSend, webhookNoop, fastPolling, invoice, CUSTOMERS };
