// @ts-check
'use strict';
/**
 * Workflow JSON helpers: normalising an n8n export (or a hand-written one) so
 * the engine can run it, supplying credential references the way a user does
 * after importing a template, and a builder for linear test workflows.
 */
const crypto = require('node:crypto');

const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
const HTTP_REQUEST = 'n8n-nodes-base.httpRequest';

/** @typedef {import('n8n-workflow').IDataObject} IDataObject */
/** @typedef {import('n8n-workflow').INode} INode */

/** @typedef {Partial<INode> & { name: string, type: string, parameters?: IDataObject }} NodeJson */

/**
 * @typedef {object} WorkflowJsonFields
 * @property {string} [id]
 * @property {string} [name]
 * @property {NodeJson[]} nodes
 * @property {IDataObject} connections
 * @property {IDataObject} [settings]
 * @property {Record<string, import('n8n-workflow').INodeExecutionData[]>} [pinData]
 */
/**
 * n8n export format (what "Download" / copy in the editor gives).
 * @typedef {WorkflowJsonFields & Record<string, unknown>} WorkflowJson
 */

/**
 * One node of a chain: `type` may be short (`accessPointOrder`, `set`).
 * @typedef {object} ChainStep
 * @property {string} type
 * @property {IDataObject} [parameters]
 * @property {string} [name]
 * @property {number} [typeVersion]
 * @property {'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput'} [onError] Node setting "On Error".
 * @property {INode['credentials']} [credentials]
 * @property {boolean} [disabled]
 * @property {boolean} [alwaysOutputData]
 * @property {boolean} [executeOnce]
 * @property {boolean} [retryOnFail]
 * @property {number} [maxTries]
 * @property {number} [waitBetweenTries]
 * @property {string} [webhookId]
 * @property {number} [output] Output index of the previous step this one is connected to (default 0).
 */

/**
 * @typedef {object} ChainOptions
 * @property {string} [triggerName] the Manual Trigger's name
 * @property {IDataObject} [settings] workflow settings (executionOrder v1 unless given)
 * @property {(type: string) => string} [nameFor] name of a step without one (default: defaultName)
 */

/**
 * Deep copy through JSON (what n8n's persistence keeps).
 * @template T
 * @param {T} value
 * @returns {T}
 */
function clone(value) {
	return value === undefined ? value : JSON.parse(JSON.stringify(value));
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
 * @param {WorkflowJson} workflowJson
 * @param {{ nodeTypes: import('./registry').HarnessNodeTypes, credentialTypesWithData: Set<string> }} context
 * @returns {WorkflowJson}
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
			if (p.authentication === 'predefinedCredentialType' && p.nodeCredentialType) wanted.add(String(p.nodeCredentialType));
			if (p.authentication === 'genericCredentialType' && p.genericAuthType) wanted.add(String(p.genericAuthType));
		}
		for (const type of wanted) {
			if (!credentialTypesWithData.has(type)) continue;
			node.credentials = node.credentials || {};
			if (!node.credentials[type]) node.credentials[type] = { id: `harness-${type}`, name: `${type} (harness)` };
		}
	});
	const connections = /** @type {Record<string, Record<string, Array<Array<{ node: string }> | null>>>} */ (wf.connections);
	for (const [source, byType] of Object.entries(connections)) {
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

/**
 * Default node name from its type: `accessPointRegistration` -> `AccessPoint Registration`.
 * @param {string} type
 */
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
 * @param {ChainStep[]} steps
 * @param {ChainOptions} [options]
 * @returns {WorkflowJson}
 */
function chain(steps, { triggerName = 'When clicking \u2018Execute workflow\u2019', settings, nameFor = defaultName } = {}) {
	/** @type {NodeJson[]} */
	const nodes = [{ id: uuid(), name: triggerName, type: MANUAL_TRIGGER, typeVersion: 1, position: [0, 0], parameters: {} }];
	/** @type {Record<string, { main: Array<Array<{ node: string, type: string, index: number }>> }>} */
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
		/** @type {NodeJson & Record<string, unknown>} */
		const node = {
			id: uuid(),
			name,
			type: step.type,
			position: [(i + 1) * 220, 0],
			parameters: /** @type {NodeJson['parameters']} */ (clone(step.parameters) || {}),
		};
		for (const key of [
			'typeVersion',
			'onError',
			'credentials',
			'disabled',
			'alwaysOutputData',
			'executeOnce',
			'retryOnFail',
			'maxTries',
			'waitBetweenTries',
			'continueOnFail',
			'webhookId',
			'notes',
		]) {
			const value = /** @type {Record<string, unknown>} */ (step)[key];
			if (value !== undefined) node[key] = clone(value);
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
