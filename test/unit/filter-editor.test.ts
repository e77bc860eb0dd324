/**
 * Issue 24 points 3 and 4, as the editor computes them (n8n-workflow's NodeHelpers, the
 * code the editor runs): enumerated filter fields offer the API's exact values, a value
 * typed another way is sent the API's way or flagged, and the filter mode shows either the
 * builder or the raw filter, never both.
 */
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ORDER_DIRECTIONS, ORDER_STATUSES, ORDER_TYPES, PARTY_TYPES } from '../../nodes/shared/domain/orderTypes';
import { conditionsFromParameter, enumeratedValueNotes } from '../../nodes/shared/query/queryBuilder';
import { PACKAGE_NAME, loadPackageNodes } from './packageNodes';

const nodes = loadPackageNodes();
const describe_ = (name: string): INodeTypeDescription => {
	const found = nodes.find((n) => n.description.name === name);
	if (!found) throw new Error(`no node ${name}`);
	return found.description;
};
const ORDER = describe_('accessPointOrder');
const TRIGGER = describe_('accessPointOrderTrigger');

function nodeOf(description: INodeTypeDescription, parameters: INodeParameters): INode {
	return {
		id: '00000000-0000-4000-8000-000000000002',
		name: 'n',
		type: `${PACKAGE_NAME}.${description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
}

/** What the node keeps after the editor (or the engine) resolves its parameters. */
function resolve(description: INodeTypeDescription, parameters: INodeParameters): INodeParameters {
	const resolved = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, nodeOf(description, parameters), description);
	if (!resolved) throw new Error('getNodeParameters returned null');
	return resolved;
}

function filtersProperty(description: INodeTypeDescription, resource?: string): INodeProperties {
	const found = description.properties.find((p) => p.name === 'filters' && (!resource || (p.displayOptions?.show?.resource ?? []).includes(resource)));
	if (!found) throw new Error('no Filters');
	return found;
}

/** The Value field the editor shows for one condition (exactly one must be shown). */
function shownValueField(description: INodeTypeDescription, condition: INodeParameters, resource?: string): INodeProperties {
	const values = (filtersProperty(description, resource).options?.[0] as { values: INodeProperties[] }).values;
	const shown = values.filter((p) => p.name === 'value' && NodeHelpers.displayParameter(condition, p, nodeOf(description, {}), description));
	expect(shown).toHaveLength(1);
	return shown[0];
}

const optionValues = (property: INodeProperties) => ((property.options ?? []) as INodePropertyOptions[]).map((o) => o.value).sort();

describe('point 3: enumerated filter fields offer the API values', () => {
	const ENUMERATED: Array<[string, string, readonly string[]]> = [
		['order', 'OrderType', ORDER_TYPES],
		['order', 'OrderDirection', ORDER_DIRECTIONS],
		['order', 'OrderStatus', ORDER_STATUSES],
		['party', 'PartyType', PARTY_TYPES],
	];

	it.each(ENUMERATED)('Order › %s Get Many › %s: the Value is a picker of exactly the API values', (resource, field, values) => {
		const picker = shownValueField(ORDER, { field, operator: 'eq', value: values[0] }, resource);
		expect(picker.type).toBe('options');
		expect(optionValues(picker)).toEqual([...values].sort());
		// An expression stays possible: the picker does not forbid one.
		expect(picker.noDataExpression).toBeFalsy();
	});

	it('the labels read as words, the values are sent as the API spells them', () => {
		const picker = shownValueField(ORDER, { field: 'OrderType', operator: 'eq' }, 'order');
		expect(picker.options).toContainEqual({ name: 'Credit Note', value: 'CreditNote', description: "Sent as 'CreditNote'" });
	});

	it('the Order Trigger extra conditions get the same pickers', () => {
		expect(optionValues(shownValueField(TRIGGER, { field: 'OrderStatus', operator: 'ne' }))).toEqual([...ORDER_STATUSES].sort());
	});

	it('other fields keep a text Value; Is Empty shows none', () => {
		expect(shownValueField(ORDER, { field: 'OrderNumber', operator: 'eq' }, 'order').type).toBe('string');
		expect(shownValueField(ORDER, { field: '__custom', customField: 'OrderType', operator: 'eq' }, 'order').type).toBe('string');
		const values = (filtersProperty(ORDER, 'order').options?.[0] as { values: INodeProperties[] }).values;
		const condition = { field: 'OrderType', operator: 'isEmpty' };
		expect(values.filter((p) => p.name === 'value' && NodeHelpers.displayParameter(condition, p, nodeOf(ORDER, {}), ORDER))).toEqual([]);
	});

	it('a stored value, a picked value and an expression survive the editor and the engine unchanged', () => {
		for (const value of ['CreditNote', 'Invoice', '={{ $json.type }}', 'credit note']) {
			const parameters = resolve(ORDER, {
				resource: 'order',
				operation: 'getAll',
				filters: { conditions: [{ field: 'OrderType', operator: 'eq', value }] },
			});
			expect((parameters.filters as { conditions: INodeParameters[] }).conditions[0].value).toBe(value);
		}
	});

	it('a value typed another way is sent as the API spells it; one that is none of the values is sent as given', () => {
		const conditions = conditionsFromParameter(
			{
				conditions: [
					{ field: 'OrderType', operator: 'eq', value: 'Credit Note' },
					{ field: 'OrderType', operator: 'eq', value: 'invoice' },
					{ field: 'OrderStatus', operator: 'ne', value: 'approval_needed' },
					{ field: 'OrderType', operator: 'eq', value: 'Bill' },
					{ field: 'OrderNumber', operator: 'eq', value: 'invoice' },
				],
			},
			'order',
		);
		expect(conditions.map((c) => c.value)).toEqual(['CreditNote', 'Invoice', 'ApprovalNeeded', 'Bill', 'invoice']);
		expect(conditionsFromParameter({ conditions: [{ field: 'PartyType', value: 'supplier' }] }, 'party')[0].value).toBe('Supplier');
	});

	it('says which values were respelled and which are none of the API values', () => {
		const notes = enumeratedValueNotes(
			{
				conditions: [
					{ field: 'OrderType', operator: 'eq', value: 'credit note' },
					{ field: 'OrderType', operator: 'eq', value: 'Invoice' },
					{ field: 'OrderDirection', operator: 'eq', value: 'Sales' },
					{ field: 'OrderStatus', operator: 'isEmpty', value: 'whatever' },
				],
			},
			'order',
		);
		expect(notes).toEqual({
			respelled: ["Order Type \"credit note\" was sent as 'CreditNote', the API's spelling"],
			unknown: ['Order Direction "Sales" is not one of the API\'s values (Income, Cost); it was sent as given and may match nothing'],
		});
	});
});

describe('issue 28 (minor): true/false filter fields are a choice, not free text', () => {
	it.each([
		['order', 'IsSent'],
		['order', 'Paid'],
	])('Order › %s Get Many › %s: the Value is True or False, sent bare', (resource, field) => {
		const picker = shownValueField(ORDER, { field, operator: 'eq' }, resource);
		expect(picker.type).toBe('options');
		expect(optionValues(picker)).toEqual(['false', 'true']);
		const [condition] = conditionsFromParameter({ conditions: [{ field, operator: 'eq', value: 'true' }] }, resource as 'order');
		expect(condition).toEqual({ field, operator: 'eq', value: 'true', type: 'boolean' });
	});

	it('the Order Trigger extra conditions get it too; a value stored as text "false" before stays valid', () => {
		const picker = shownValueField(TRIGGER, { field: 'Paid', operator: 'eq' });
		expect(optionValues(picker)).toEqual(['false', 'true']);
		const parameters = resolve(ORDER, { resource: 'order', operation: 'getAll', filters: { conditions: [{ field: 'Paid', operator: 'eq', value: 'false' }] } });
		expect((parameters.filters as { conditions: INodeParameters[] }).conditions[0].value).toBe('false');
	});
});

describe('point 4: the filter mode shows the builder or the raw filter, never both', () => {
	const shown = (description: INodeTypeDescription, parameters: INodeParameters) => {
		const resolved = resolve(description, parameters);
		return description.properties
			.filter((p) => ['filterMode', 'filters', 'filterCombine', 'rawFilter'].includes(p.name))
			.filter((p) => NodeHelpers.displayParameter(resolved, p, nodeOf(description, resolved), description))
			.map((p) => p.name);
	};

	it.each(['order', 'party', 'product'])('Order › %s › Get Many: Builder by default, Raw hides the conditions', (resource) => {
		const base = { resource, operation: 'getAll' };
		expect(shown(ORDER, base)).toEqual(['filterMode', 'filters', 'filterCombine']);
		expect(shown(ORDER, { ...base, filterMode: 'raw' })).toEqual(['filterMode', 'rawFilter']);
	});

	it('Order Trigger: the same choice for its extra conditions', () => {
		expect(shown(TRIGGER, {})).toEqual(['filterMode', 'filters', 'filterCombine']);
		expect(shown(TRIGGER, { filterMode: 'raw' })).toEqual(['filterMode', 'rawFilter']);
	});

	it('conditions left on a node switched to Raw are not kept (and the raw filter is not kept in Builder)', () => {
		const conditions = { conditions: [{ field: 'OrderType', operator: 'eq', value: 'Invoice' }] };
		const raw = resolve(ORDER, { resource: 'order', operation: 'getAll', filterMode: 'raw', rawFilter: "OrderNumber eq 'A'", filters: conditions });
		expect(raw.filters).toBeUndefined();
		expect(raw.rawFilter).toBe("OrderNumber eq 'A'");
		const builder = resolve(ORDER, { resource: 'order', operation: 'getAll', rawFilter: "OrderNumber eq 'A'", filters: conditions });
		expect(builder.rawFilter).toBeUndefined();
		expect(builder.filters).toEqual(conditions);
	});

	it('Raw mode with no filter is flagged by the editor, as a required field', () => {
		const parameters = resolve(ORDER, { resource: 'order', operation: 'getAll', filterMode: 'raw' });
		const issues = NodeHelpers.getNodeParametersIssues(ORDER.properties, nodeOf(ORDER, parameters), ORDER);
		expect(Object.keys(issues?.parameters ?? {})).toEqual(['rawFilter']);
	});
});

describe('issue 39 point 2: a new condition starts empty', () => {
	/** What n8n's editor stores for "Add Condition" (FixedCollectionParameter): each value's default in turn, so a later "value" overwrites an earlier one. */
	const added = (description: INodeTypeDescription, resource?: string): INodeParameters => {
		const entry: INodeParameters = {};
		for (const p of (filtersProperty(description, resource).options?.[0] as { values: INodeProperties[] }).values) entry[p.name] = p.default;
		return entry;
	};

	it.each([
		['Order Get Many (order)', ORDER, 'order'],
		['Order Get Many (party)', ORDER, 'party'],
		['Order Get Many (product)', ORDER, 'product'],
		['Order Trigger', TRIGGER, undefined],
	])('%s: every Value field defaults to empty, so an added condition holds no value', (_label, description, resource) => {
		const values = (filtersProperty(description, resource).options?.[0] as { values: INodeProperties[] }).values;
		expect(values.filter((p) => p.name === 'value').map((p) => p.default)).toEqual(values.filter((p) => p.name === 'value').map(() => ''));
		expect(added(description, resource).value).toBe('');
	});

	it("a condition left as added is refused (not sent as eq ''), whatever the field type", () => {
		for (const field of ['OrderNumber', 'OrderType', 'IsSent', 'OrderDate', 'TotalIncl']) {
			expect(() => conditionsFromParameter({ conditions: [{ ...added(ORDER, 'order'), field }] }, 'order')).toThrow(
				`${field}: the value is empty (enter one, or use Is Empty to match missing values)`,
			);
		}
		expect(conditionsFromParameter({ conditions: [{ ...added(ORDER, 'order'), operator: 'isEmpty' }] }, 'order')).toHaveLength(1);
	});
});
