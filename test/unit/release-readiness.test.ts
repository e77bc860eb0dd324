/**
 * What this machine can check of n8n 3.0 readiness and n8n's verification rules
 * (docs/release.md): every node of package.json at version 1, usable as an AI tool when it is
 * an action node and never when it is a trigger, the webhook trigger's full lifecycle, no
 * deprecated n8n API in the sources, no runtime dependency.
 */
import type { INodeType } from 'n8n-workflow';

import { deprecatedUses, packageJson, print } from './helpers/release';
import { loadPackageNodes } from './packageNodes';

/** A trigger starts a workflow: no input (the Identification node has webhook() too, to resume a wait). */
const isTrigger = (nodeType: INodeType) =>
	nodeType.description.group.includes('trigger') || (Array.isArray(nodeType.description.inputs) && nodeType.description.inputs.length === 0);

describe('release readiness of the nodes package.json lists', () => {
	const pkg = packageJson();
	const nodes = loadPackageNodes();

	it('1.0.0 with no runtime dependency, strict n8n package', () => {
		expect(pkg.version).toBe('1.0.0');
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.n8n).toMatchObject({ n8nNodesApiVersion: 1, strict: true });
		expect(nodes.length).toBe(pkg.n8n.nodes.length);
	});

	it('every node is at version 1, and its codex names it', () => {
		const versions = nodes.map(({ description }) => [description.name, description.version, description.defaultVersion]);
		expect(versions).toEqual(nodes.map(({ description }) => [description.name, 1, undefined]));
		for (const { description, codex } of nodes) {
			expect(codex).toMatchObject({ node: `${pkg.name}.${description.name}`, nodeVersion: '1.0' });
		}
	});

	it('usableAsTool on every action node and on no trigger', () => {
		const table = nodes.map(({ nodeType, description }) => ({
			name: description.name,
			trigger: isTrigger(nodeType),
			usableAsTool: description.usableAsTool === true,
		}));
		print(`[release] ${table.map((n) => `${n.name}: ${n.trigger ? 'trigger' : 'action'}, usableAsTool ${n.usableAsTool}`).join('; ')}`);
		expect(table.filter((n) => n.trigger === n.usableAsTool)).toEqual([]);
		expect(table.some((n) => n.trigger)).toBe(true);
	});

	it('a webhook trigger registers, checks and removes its webhooks (checkExists, create, delete)', () => {
		const webhookNodes = nodes.filter(({ nodeType }) => isTrigger(nodeType) && typeof nodeType.webhook === 'function');
		expect(webhookNodes.length).toBeGreaterThan(0);
		for (const { nodeType, description } of webhookNodes) {
			expect(description.webhooks?.length).toBeGreaterThan(0);
			const methods = nodeType.webhookMethods?.default as Record<string, unknown> | undefined;
			expect([description.name, typeof methods?.checkExists, typeof methods?.create, typeof methods?.delete]).toEqual([
				description.name,
				'function',
				'function',
				'function',
			]);
		}
	});

	it('no deprecated API is used in nodes/ or credentials/', () => {
		const uses = deprecatedUses(['nodes', 'credentials']);
		print(`[release] deprecated API uses in nodes/ and credentials/: ${uses.length}`);
		expect(uses).toEqual([]);
	});
});
