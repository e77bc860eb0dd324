/**
 * What n8n's editor computes when a node is added from the node panel and when its
 * resource or operation is switched, replayed offline over every node of the package.
 *
 * Adding (editor-ui useCanvasOperations.resolveNodeParameters): the picked action's values
 * ({ resource?, operation }) go through
 *   NodeHelpers.getNodeParameters(properties, values, true, false, node, description).
 * Switching a parameter (editor-ui useNodeSettingsParameters.updateNodeParameter):
 *   getNodeParameters(…, node.parameters, false, false, …) (only non-defaults), set the new
 *   value, then getNodeParameters(…, changed, true, false, …).
 * Both then show NodeHelpers.getNodeParametersIssues(properties, node, description).
 * A throw in either call is what the user saw as "Cannot read properties of undefined"
 * with nothing added, or the operation silently staying the old one.
 */
import type { INode, INodeIssues, INodeParameters, INodeProperties, INodePropertyOptions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers, deepCopy } from 'n8n-workflow';

import { PACKAGE_NAME, loadPackageNodes, printFigures } from './packageNodes';

interface Action {
	label: string;
	values: INodeParameters;
}

function options(property: INodeProperties | undefined): INodePropertyOptions[] {
	return ((property?.options ?? []) as INodePropertyOptions[]).filter((o) => 'value' in o);
}

/**
 * The actions the node panel lists, as editor-ui's useActionsGenerator makes them: a trigger's
 * "Event" options, an "operation" list, or per resource its operation list (the action then
 * also carries the resource, from the operation's displayOptions).
 */
function actionsOf(description: INodeTypeDescription): Action[] {
	const named = (label: string) => `${description.displayName} › ${label}`;
	const actions: Action[] = [];
	if (description.displayName.toLowerCase().includes('trigger')) {
		const event = description.properties.find((p) => ['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()));
		if (!event) actions.push({ label: named('(placeholder)'), values: {} });
		else actions.push(...options(event).map((o) => ({ label: named(o.name), values: { [event.name]: o.value } })));
	}
	const resource = description.properties.find((p) => p.name === 'resource');
	const operations = description.properties.filter((p) => p.name === 'operation');
	if (!resource && operations[0]) {
		actions.push(...options(operations[0]).map((op) => ({ label: named(op.name), values: { operation: op.value } })));
	}
	for (const res of options(resource)) {
		const forResource = operations.find((p) => (p.displayOptions?.show?.resource ?? []).includes(res.value));
		actions.push(
			...options(forResource).map((op) => ({
				label: named(`${res.name} › ${op.name}`),
				values: { resource: res.value, operation: op.value },
			})),
		);
	}
	return actions;
}

function nodeOf(description: INodeTypeDescription, parameters: INodeParameters): INode {
	const version = Array.isArray(description.version) ? Math.max(...description.version) : description.version;
	return {
		id: '00000000-0000-4000-8000-000000000001',
		name: String(description.defaults.name ?? description.displayName),
		type: `${PACKAGE_NAME}.${description.name}`,
		typeVersion: version,
		position: [0, 0],
		parameters,
	};
}

/** Node panel → pick an action: the parameters the new node gets. */
function addNode(description: INodeTypeDescription, values: INodeParameters): INodeParameters {
	const node = nodeOf(description, deepCopy(values));
	const parameters = NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node, description);
	if (!parameters) throw new Error('getNodeParameters returned null');
	return parameters;
}

/** A parameter changed in the node's panel: the parameters the node gets. */
function changeParameter(description: INodeTypeDescription, current: INodeParameters, name: string, value: string): INodeParameters {
	const node = nodeOf(description, current);
	const own = deepCopy(NodeHelpers.getNodeParameters(description.properties, node.parameters, false, false, node, description) ?? {});
	own[name] = value;
	const parameters = NodeHelpers.getNodeParameters(description.properties, own, true, false, node, description);
	if (!parameters) throw new Error('getNodeParameters returned null');
	return parameters;
}

/** Every issue the editor would show on the node, other than an empty required field. */
function issuesBesidesRequired(description: INodeTypeDescription, parameters: INodeParameters): string[] {
	const issues: INodeIssues | null = NodeHelpers.getNodeParametersIssues(description.properties, nodeOf(description, parameters), description);
	return Object.entries(issues?.parameters ?? {}).flatMap(([name, messages]) =>
		messages.filter((m) => !/^Parameter ".+" is required\.$/.test(m)).map((m) => `${name}: ${m}`),
	);
}

function requiredIssues(description: INodeTypeDescription, parameters: INodeParameters): string[] {
	const issues = NodeHelpers.getNodeParametersIssues(description.properties, nodeOf(description, parameters), description);
	return Object.keys(issues?.parameters ?? {});
}

const packageNodes = loadPackageNodes();
const nodeTypes: INodeType[] = packageNodes.map((n) => n.nodeType);
const cases = nodeTypes.flatMap((type) => actionsOf(type.description).map((action) => ({ type, action })));

describe('the editor adds every action of every node', () => {
	it('covers every node of package.json and each of its actions', () => {
		expect(nodeTypes.length).toBeGreaterThanOrEqual(6);
		for (const n of packageNodes) {
			const fileName = n.file.replace(/^.*\//, '').replace(/\.node\.js$/, '');
			expect(n.description.name.toLowerCase()).toBe(fileName.toLowerCase());
		}
		printFigures(
			`${cases.length} actions over ${nodeTypes.length} nodes`,
			nodeTypes.map((t) => `${t.description.displayName}: ${actionsOf(t.description).length}`),
		);
		expect(cases.length).toBeGreaterThan(nodeTypes.length);
	});

	it.each(cases.map((c) => [c.action.label, c]))('%s: added with its defaults, no issue but required fields', (_label, c) => {
		const { description } = c.type;
		let parameters: INodeParameters = {};
		expect(() => {
			parameters = addNode(description, c.action.values);
		}).not.toThrow();
		for (const [name, value] of Object.entries(c.action.values)) expect(parameters[name]).toBe(value);
		expect(issuesBesidesRequired(description, parameters)).toEqual([]);
	});
});

describe('the editor switches every operation to every other', () => {
	const switches = nodeTypes.flatMap((type) => {
		const actions = actionsOf(type.description);
		const key = (a: Action) => Object.keys(a.values).find((k) => k !== 'resource');
		return actions.flatMap((from) =>
			actions
				.filter((to) => to !== from && key(to) && key(to) === key(from) && to.values.resource === from.values.resource)
				.map((to) => ({ type, from, to, key: key(to) as string })),
		);
	});

	it('has operation switches to check', () => {
		printFigures(`${switches.length} operation/event switches`, []);
		expect(switches.length).toBeGreaterThan(0);
	});

	it.each(switches.map((s) => [s.from.label, s.to.values[s.key], s]))(
		'%s → %s: the node takes the new value, no issue but required fields',
		(_from, _to, s) => {
			const { description } = s.type;
			const before = addNode(description, s.from.values);
			let after: INodeParameters = {};
			expect(() => {
				after = changeParameter(description, before, s.key, String(s.to.values[s.key]));
			}).not.toThrow();
			expect(after[s.key]).toBe(s.to.values[s.key]);
			expect(issuesBesidesRequired(description, after)).toEqual([]);
			// Same fields flagged as on a node added straight on that operation: nothing stale carried over.
			expect(requiredIssues(description, after).sort()).toEqual(requiredIssues(description, addNode(description, s.to.values)).sort());
		},
	);

	const resourceSwitches = nodeTypes.flatMap((type) => {
		const resources = options(type.description.properties.find((p) => p.name === 'resource'));
		return resources.flatMap((from) => resources.filter((to) => to !== from).map((to) => ({ type, from, to })));
	});

	it.each(resourceSwitches.map((s) => [s.type.description.displayName, s.from.value, s.to.value, s]))(
		'%s: resource %s → %s does not throw',
		(_node, _from, _to, s) => {
			const { description } = s.type;
			const before = addNode(description, { resource: s.from.value });
			expect(() => changeParameter(description, before, 'resource', String(s.to.value))).not.toThrow();
		},
	);
});
