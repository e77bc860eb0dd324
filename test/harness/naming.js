// @ts-check
'use strict';
/**
 * Node types and names as the editor gives them: short types expanded
 * (`accessPointOrder` -> `n8n-nodes-access-point.accessPointOrder`, `set` ->
 * `n8n-nodes-base.set`) and a new node named by its description's
 * `defaults.name`.
 */
const { chain, defaultName } = require('./workflow');

/** @typedef {import('./registry').HarnessNodeTypes} HarnessNodeTypes */
/** @typedef {import('n8n-workflow').INodeTypeDescription} INodeTypeDescription */

/**
 * A node's description, or undefined when its type is unknown or not built.
 * @param {HarnessNodeTypes} nodeTypes
 * @param {{ type: string, typeVersion?: number }} node
 * @returns {INodeTypeDescription | undefined}
 */
function descriptionOf(nodeTypes, node) {
	try {
		return nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description;
	} catch {
		return undefined;
	}
}

/**
 * The name the editor gives a new node of this type (description.defaults.name).
 * @param {HarnessNodeTypes} nodeTypes
 * @param {string} type full type name
 */
function editorName(nodeTypes, type) {
	try {
		// A versioned node's description is the base one: no defaults.
		const d = /** @type {{ defaults?: { name?: string }, displayName: string }} */ (nodeTypes.getByName(type).description);
		return (d.defaults && d.defaults.name) || d.displayName || defaultName(type);
	} catch {
		return defaultName(type);
	}
}

/**
 * chain() with short types expanded and editor names.
 * @param {HarnessNodeTypes} nodeTypes
 * @param {import('./workflow').ChainStep[]} steps
 * @param {import('./workflow').ChainOptions} [options]
 */
function chainWorkflow(nodeTypes, steps, options = {}) {
	return chain(
		steps.map((s) => ({ ...s, type: nodeTypes.expandType(s.type) })),
		{ nameFor: (type) => editorName(nodeTypes, type), ...options },
	);
}

module.exports = { descriptionOf, editorName, chainWorkflow };
