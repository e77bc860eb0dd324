'use strict';
/**
 * Workflow JSON helpers: normalising an n8n export (or a hand-written one) so
 * the engine can run it, supplying credential references the way a user does
 * after importing a template, and a builder for linear test workflows.
 */
const crypto = require('node:crypto');

const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
const HTTP_REQUEST = 'n8n-nodes-base.httpRequest';

function clone(value) {
	return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function uuid() {
	return crypto.randomUUID();
}

/**
 * Returns a deep copy of `workflowJson` with every node complete (id,
 * position, typeVersion, parameters), short types expanded and, where a node
 * declares a credential type the harness has data for but the node does not
 * reference one (templates reference credentials by type only), a reference
 * `{ id: 'harness-<type>', name: '<type> (harness)' }` added.
 */
function normalizeWorkflow(workflowJson, { nodeTypes, credentialTypesWithData }) {
	if (!workflowJson || !Array.isArray(workflowJson.nodes)) {
		throw new Error('Workflow JSON must have a "nodes" array (n8n export format)');
	}
	const wf = clone(workflowJson);
	wf.connections = wf.connections || {};
	wf.settings = { executionOrder: 'v1', ...(wf.settings || {}) };
	const names = new Set();
	wf.nodes.forEach((node, i) => {
		if (!node.name) throw new Error(`Node #${i} has no name`);
		if (names.has(node.name)) throw new Error(`Duplicate node name "${node.name}"`);
		names.add(node.name);
		if (!node.type) throw new Error(`Node "${node.name}" has no type`);
		node.type = nodeTypes.expandType(node.type);
		node.id = node.id || uuid();
		node.position = node.position || [i * 220, 0];
		node.parameters = node.parameters || {};
		if (node.typeVersion === undefined) node.typeVersion = nodeTypes.latestVersion(node.type);

		const wanted = new Set(nodeTypes.credentialNames(node.type, node.typeVersion));
		if (node.type === HTTP_REQUEST) {
			const p = node.parameters;
			if (p.authentication === 'predefinedCredentialType' && p.nodeCredentialType) wanted.add(p.nodeCredentialType);
			if (p.authentication === 'genericCredentialType' && p.genericAuthType) wanted.add(p.genericAuthType);
		}
		for (const type of wanted) {
			if (!credentialTypesWithData.has(type)) continue;
			node.credentials = node.credentials || {};
			if (!node.credentials[type]) node.credentials[type] = { id: `harness-${type}`, name: `${type} (harness)` };
		}
	});
	for (const [source, byType] of Object.entries(wf.connections)) {
		if (!names.has(source)) throw new Error(`Connection from unknown node "${source}"`);
		for (const outputs of Object.values(byType)) {
			for (const output of outputs || []) {
				for (const c of output || []) {
					if (!names.has(c.node)) throw new Error(`Connection from "${source}" to unknown node "${c.node}"`);
				}
			}
		}
	}
	return wf;
}

/** Default node name from its type: `accessPointRegistration` -> `AccessPoint Registration`. */
function defaultName(type) {
	const short = type.slice(type.lastIndexOf('.') + 1);
	const spaced = short.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^access Point/i, 'AccessPoint');
	return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * Manual Trigger -> step 1 -> step 2 ... Each step: `{ type, parameters?, name?,
 * typeVersion?, onError?, credentials?, disabled?, alwaysOutputData?,
 * executeOnce?, retryOnFail?, output? }` where `output` is the output index of
 * the *previous* step this one hangs off (default 0). `type` may be short.
 */
function chain(steps, { triggerName = 'When clicking \u2018Execute workflow\u2019', settings, nameFor = defaultName } = {}) {
	const nodes = [{ id: uuid(), name: triggerName, type: MANUAL_TRIGGER, typeVersion: 1, position: [0, 0], parameters: {} }];
	const connections = {};
	const used = new Set([triggerName]);
	let previous = triggerName;
	steps.forEach((step, i) => {
		if (!step || !step.type) throw new Error(`chain step #${i} needs a type`);
		let name = step.name || nameFor(step.type);
		if (!step.name) {
			let n = 2;
			const baseName = name;
			while (used.has(name)) name = `${baseName}${n++}`;
		}
		if (used.has(name)) throw new Error(`Duplicate node name "${name}" in chain`);
		used.add(name);
		const node = {
			id: uuid(),
			name,
			type: step.type,
			position: [(i + 1) * 220, 0],
			parameters: clone(step.parameters) || {},
		};
		for (const key of ['typeVersion', 'onError', 'credentials', 'disabled', 'alwaysOutputData', 'executeOnce', 'retryOnFail', 'maxTries', 'waitBetweenTries', 'continueOnFail', 'webhookId', 'notes']) {
			if (step[key] !== undefined) node[key] = clone(step[key]);
		}
		nodes.push(node);
		const outputIndex = step.output || 0;
		connections[previous] = connections[previous] || { main: [] };
		const main = connections[previous].main;
		while (main.length <= outputIndex) main.push([]);
		main[outputIndex].push({ node: name, type: 'main', index: 0 });
		previous = name;
	});
	return { name: 'Harness chain', nodes, connections, settings: { executionOrder: 'v1', ...(settings || {}) } };
}

module.exports = { normalizeWorkflow, chain, clone, uuid, defaultName, MANUAL_TRIGGER, HTTP_REQUEST };
