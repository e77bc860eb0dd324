/**
 * Issue 24 points 8 (the Simplify option), 10 (noise) and 11 (smaller editor text), read
 * from the node descriptions the way the editor reads them: subtitles evaluated by
 * n8n-workflow's expression engine, notices and fields shown by NodeHelpers.displayParameter,
 * the node panel's merge of a node and its trigger as editor-ui 2.41 does it.
 */
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { AccessPointApi } from '../../credentials/AccessPointApi.credentials';
import { participantResult } from '../../nodes/PeppolLookup/actions/capabilities';
import { QUERY_FIELDS } from '../../nodes/shared/query/queryBuilder';
import { flatName, integrationSummary, pickFields } from '../../nodes/shared/query/simplify';
import { PACKAGE_NAME, loadPackageNodes } from './packageNodes';

const nodes = loadPackageNodes();
const byName = (name: string): INodeTypeDescription => {
	const found = nodes.find((n) => n.description.name === name);
	if (!found) throw new Error(`no node ${name}`);
	return found.description;
};
const options = (property: INodeProperties | undefined) => ((property?.options ?? []) as INodePropertyOptions[]).filter((o) => 'value' in o);

function nodeOf(description: INodeTypeDescription, parameters: INodeParameters): INode {
	return { id: '1', name: 'n', type: `${PACKAGE_NAME}.${description.name}`, typeVersion: 1, position: [0, 0], parameters };
}

/** Every action the node panel offers: { resource?, operation } with its action text. */
function actions(description: INodeTypeDescription): Array<{ values: INodeParameters; action: string }> {
	const resources = options(description.properties.find((p) => p.name === 'resource'));
	const lists = description.properties.filter((p) => p.name === 'operation');
	if (!resources.length) return options(lists[0]).map((o) => ({ values: { operation: o.value }, action: String(o.action) }));
	return resources.flatMap((r) => {
		const list = lists.find((p) => (p.displayOptions?.show?.resource ?? []).includes(r.value));
		return options(list).map((o) => ({ values: { resource: r.value, operation: o.value }, action: String(o.action) }));
	});
}

/** The canvas subtitle as the editor computes it (NodeHelpers.getNodeSubtitle → getSimpleParameterValue). */
function subtitle(description: INodeTypeDescription, values: INodeParameters): string {
	const parameters = NodeHelpers.getNodeParameters(description.properties, values, true, false, nodeOf(description, values), description) ?? {};
	const node = nodeOf(description, parameters);
	const nodeTypes = { getByNameAndVersion: () => ({ description }), getByName: () => ({ description }) } as unknown as INodeTypes;
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return String(workflow.expression.getSimpleParameterValue(node, description.subtitle as string, 'internal', {}, undefined, ''));
}

describe('point 8: Simplify on every list and lookup operation', () => {
	const LISTS: Array<[string, INodeParameters]> = [
		['accessPointOrder', { resource: 'order', operation: 'getAll' }],
		['accessPointOrder', { resource: 'party', operation: 'getAll' }],
		['accessPointOrder', { resource: 'product', operation: 'getAll' }],
		['accessPointRegistration', { operation: 'getAll' }],
		['accessPointIntegration', { operation: 'getAll' }],
		['accessPointPeppolLookup', { operation: 'lookup' }],
	];

	it.each(LISTS)("%s %j has n8n's Simplify: a boolean, on by default", (name, values) => {
		const description = byName(name);
		const shown = description.properties.filter(
			(p) => p.name === 'simplify' && NodeHelpers.displayParameter(values, p, nodeOf(description, values), description),
		);
		expect(shown).toEqual([
			expect.objectContaining({
				displayName: 'Simplify',
				type: 'boolean',
				default: true,
				description: 'Whether to return a simplified version of the response instead of the raw data',
			}),
		]);
	});

	it('no other action shows it', () => {
		const others = nodes.flatMap(({ description }) =>
			actions(description)
				.filter((a) => !LISTS.some(([name, values]) => name === description.name && JSON.stringify(values) === JSON.stringify(a.values)))
				.filter((a) =>
					description.properties.some((p) => p.name === 'simplify' && NodeHelpers.displayParameter(a.values, p, nodeOf(description, a.values), description)),
				)
				.map((a) => `${description.name} ${JSON.stringify(a.values)}`),
		);
		expect(others).toEqual([]);
	});

	it('flattens by path, keeps the API names, invents nothing', () => {
		expect(flatName('CounterParty/DisplayName')).toBe('CounterPartyDisplayName');
		const order = { OrderLines: [{}], OrderID: 7, CounterParty: { DisplayName: 'A', VATNumber: null }, Customer: { Name: 'A' } };
		expect(Object.entries(pickFields(order, ['OrderID', 'OrderNumber', 'CounterParty/DisplayName', 'CounterParty/VATNumber']))).toEqual([
			['OrderID', 7],
			['CounterPartyDisplayName', 'A'],
			['CounterPartyVATNumber', null],
		]);
		expect(
			integrationSummary([
				{ Integration: 'Peppol', IntegrationStatus: 'Active' },
				{ Integration: 'SDI', IntegrationStatus: 'Pending' },
			]),
		).toBe('Peppol: Active, SDI: Pending');
		expect(integrationSummary(undefined)).toBe('');
	});

	it("Peppol Lookup: the deciding canReceive… fields first, then the API's answer, then what was asked", () => {
		const result = participantResult(
			{
				Registered: true,
				Identifier: '9925:BE0123456749',
				DocumentTypes: ['BISv3Invoice'],
				ServiceDetails: [],
				ServiceProviderID: 'P1',
				canReceiveInvoice: 'forged',
			},
			'BE0123456749',
			'custom',
		);
		expect(Object.keys(result)).toEqual([
			'canReceiveInvoice',
			'canReceiveCreditNote',
			'canReceiveInvoicesAndCreditNotes',
			'Registered',
			'Identifier',
			'DocumentTypes',
			'ServiceDetails',
			'ServiceProviderID',
			'lookupIdentifier',
			'network',
		]);
		expect(result.canReceiveInvoice).toBe(true);
	});
});

describe('point 10: notices only where they apply', () => {
	const lookup = byName('accessPointPeppolLookup');
	const shownNotices = (values: INodeParameters) => {
		const parameters = NodeHelpers.getNodeParameters(lookup.properties, values, true, false, nodeOf(lookup, values), lookup) ?? {};
		return lookup.properties
			.filter((p) => p.type === 'notice' && NodeHelpers.displayParameter(parameters, p, nodeOf(lookup, parameters), lookup))
			.map((p) => p.displayName);
	};

	it('Peppol Lookup shows no network notice before a run (the run says it, and only for the sandbox)', () => {
		expect(shownNotices({ operation: 'lookup' })).toEqual([]);
		expect(lookup.properties.some((p) => /test network/i.test(`${p.displayName} ${p.hint ?? ''}`))).toBe(false);
	});

	it('the GLN warning shows only when GLN (0088) is the picked scheme', () => {
		const gln = "A GLN cannot be derived from a VAT number: enter the receiver's own 13-digit GLN";
		expect(shownNotices({ operation: 'lookup', identifierType: 'identifier' })).toEqual([]);
		expect(shownNotices({ operation: 'lookup', identifierType: 'scheme', scheme: '9925' })).toEqual([]);
		expect(shownNotices({ operation: 'lookup', identifierType: 'scheme', scheme: '0088' })).toEqual([gln]);
		expect(lookup.properties.filter((p) => p.hint)).toEqual([]);
	});

	it('Integration has no static hint repeating "sign the document" after every run', () => {
		expect(byName('accessPointIntegration').hints ?? []).toEqual([]);
	});
});

describe('point 11: readable editor text', () => {
	it.each(nodes.filter((n) => n.description.properties.some((p) => p.name === 'operation')).map((n) => [n.description.displayName, n.description]))(
		'%s: the subtitle is the action in words for every action',
		(_name, description) => {
			const list = actions(description as INodeTypeDescription);
			expect(list.length).toBeGreaterThan(0);
			for (const { values, action } of list) {
				const text = subtitle(description as INodeTypeDescription, values);
				if ((description as INodeTypeDescription).name === 'accessPointPeppolLookup') continue; // shows the identifier
				expect(text.startsWith(action)).toBe(true);
				expect(text).not.toContain(String(values.operation));
			}
		},
	);

	it('Integration › Create names the network by its label', () => {
		const integration = byName('accessPointIntegration');
		expect(subtitle(integration, { operation: 'create', network: 'ChorusPro' })).toBe('Create an integration: Chorus Pro');
		expect(subtitle(integration, { operation: 'create', network: 'SDI' })).toBe('Create an integration: SDI');
		expect(subtitle(byName('accessPointOrder'), { resource: 'party', operation: 'getAll' })).toBe('Get many parties');
	});

	it('filter field labels are words, every description starts with the API path', () => {
		for (const fields of Object.values(QUERY_FIELDS)) {
			for (const field of fields) expect(field.name).not.toMatch(/[/()]/);
		}
		const order = byName('accessPointOrder');
		const filters = order.properties.find((p) => p.name === 'filters' && (p.displayOptions?.show?.resource ?? []).includes('order'));
		const picker = (filters?.options?.[0] as { values: INodeProperties[] }).values.find((p) => p.name === 'field');
		for (const option of options(picker)) {
			if (option.value === '__custom') continue;
			expect(String(option.description).startsWith(`${option.value} (`)).toBe(true);
		}
	});

	it('First Retry Delay says its unit in words', () => {
		const names = nodes.flatMap(({ description }) =>
			description.properties
				.flatMap((p) => [p, ...((p.options ?? []) as INodeProperties[])])
				.filter((p) => p.name === 'retryDelayMs')
				.map((p) => p.displayName),
		);
		expect(names.length).toBeGreaterThanOrEqual(5);
		expect(new Set(names)).toEqual(new Set(['First Retry Delay (Milliseconds)']));
	});

	it('the JSON example is dated 2026, a valid order date before its expiry date', () => {
		const order = byName('accessPointOrder');
		const json = JSON.parse(String(order.properties.find((p) => p.name === 'orderJson')?.default)) as { OrderDate: string; ExpiryDate: string };
		expect(json.OrderDate.slice(0, 4)).toBe('2026');
		expect(Date.parse(json.ExpiryDate)).toBeGreaterThan(Date.parse(json.OrderDate));
		expect(new Date(`${json.ExpiryDate}T00:00:00Z`).toISOString().slice(0, 10)).toBe(json.ExpiryDate);
	});

	it('itsme is spelled as the brand writes it', () => {
		const provider = byName('accessPointIdentification').properties.find((p) => p.name === 'identificationProvider');
		expect(options(provider).map((o) => o.name)).toContain('itsme');
	});

	it('order line quantities and prices are not padded to four decimals', () => {
		const order = byName('accessPointOrder');
		const lines = order.properties.find((p) => p.name === 'orderLines');
		const values = (lines?.options?.[0] as { values: INodeProperties[] }).values;
		for (const name of ['quantity', 'unitPriceExcl']) expect(values.find((p) => p.name === name)?.typeOptions?.numberPrecision).toBeUndefined();
	});

	it("the credential's tooltips say where to find the values, not which HTTP header carries them", () => {
		for (const property of new AccessPointApi().properties) expect(String(property.description ?? '')).not.toMatch(/header/i);
		const [apiKey, partyId] = new AccessPointApi().properties;
		expect(apiKey.description).toMatch(/web app/);
		expect(partyId.description).toMatch(/web app/);
	});

	it("the node panel's merged Order entry (n8n shows the trigger's description for it) describes the node too", () => {
		// editor-ui 2.41 useActionsGenerator: a trigger whose name without "Trigger" is a node merges into it, description and all.
		for (const { description } of nodes.filter((n) => n.description.group.includes('trigger'))) {
			const merged = nodes.find((n) => n.description.name === description.name.replace('Trigger', ''));
			if (!merged) continue;
			if (merged.description.name === 'accessPointInbox') {
				expect(description.description).toMatch(/^Work the Peppol inbox .*and start a workflow for each new document$/);
				continue;
			}
			// Issue 39: it leads with invoices (the entry is "AccessPoint Invoices and Orders").
			expect(description.description).toMatch(/^Create, send and read invoices and orders/);
			expect(description.description).toMatch(/start a workflow on new or changed ones or on received supplier invoices/);
		}
	});
});
