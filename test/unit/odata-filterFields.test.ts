import type { IExecuteFunctions, INode, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { choices, filterCollection, filterConditionsField, queryFields } from '../../nodes/shared/query/filterFields';
import {
	buildQuery,
	conditionsFromParameter,
	CUSTOM_FIELD,
	describeQuery,
	FILTERABLE_ORDER_PROPERTIES,
	QUERY_FIELDS,
	QueryInputError,
	sortKeysFromParameter,
} from '../../nodes/shared/query/queryBuilder';
import type { QueryResource } from '../../nodes/shared/query/queryBuilder';
import { readQuery } from '../../nodes/shared/node/queryInput';
import { parseFilter } from '../../emulator/odata';
import { ORDER, PARTY, PRODUCT } from '../../emulator/schemas';

const node = { name: 'Order', type: 'n8n-nodes-access-point.accessPointOrder' } as INode;

/** getNodeParameter over a parameter object, with dotted paths like n8n's. */
function fakeExecute(parameters: Record<string, unknown>): IExecuteFunctions {
	const get = (name: string, fallback: unknown) => {
		let value: unknown = parameters;
		for (const key of name.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
		return value === undefined ? fallback : value;
	};
	return {
		getNode: () => node,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) => get(name, fallback),
	} as unknown as IExecuteFunctions;
}

function fakePoll(parameters: Record<string, unknown>): IPollFunctions {
	return {
		getNode: () => node,
		getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
	} as unknown as IPollFunctions;
}

describe('conditionsFromParameter', () => {
	it('types values by field, and by Value Type for a custom path', () => {
		const conditions = conditionsFromParameter(
			{
				conditions: [
					{ field: 'OrderDate', operator: 'ge', value: ' 2024-01-01 ' },
					{ field: 'TotalIncl', operator: 'gt', value: '100.5' },
					{ field: 'Paid', operator: 'eq', value: 'true' },
					{ field: 'OrderNumber', operator: 'eq', value: ' keeps spaces ' },
					{ field: CUSTOM_FIELD, customField: ' PaymentMethod ', valueType: 'string', operator: 'ne', value: 'x' },
					{ field: CUSTOM_FIELD, customField: 'RemindersSent', valueType: 'number', operator: 'le', value: '5' },
					{ field: 'PaidDate', operator: 'isEmpty' },
					{ field: 'OrderStatus', operator: 'isNotEmpty', value: 'ignored' },
				],
			},
			'order',
		);
		expect(conditions).toEqual([
			{ field: 'OrderDate', operator: 'ge', value: '2024-01-01', type: 'date' },
			{ field: 'TotalIncl', operator: 'gt', value: '100.5', type: 'number' },
			{ field: 'Paid', operator: 'eq', value: 'true', type: 'boolean' },
			{ field: 'OrderNumber', operator: 'eq', value: ' keeps spaces ', type: 'string' },
			{ field: 'PaymentMethod', operator: 'ne', value: 'x', type: 'string' },
			{ field: 'RemindersSent', operator: 'le', value: '5', type: 'number' },
			{ field: 'PaidDate', operator: 'eq', value: null, type: 'null' },
			{ field: 'OrderStatus', operator: 'ne', value: null, type: 'null' },
		]);
	});

	it('reads a missing operator as equals and a field not in the list as text', () => {
		expect(conditionsFromParameter({ conditions: [{ field: 'Unlisted', value: 'v' }] }, 'party')).toEqual([
			{ field: 'Unlisted', operator: 'eq', value: 'v', type: 'string' },
		]);
		expect(conditionsFromParameter({}, 'order')).toEqual([]);
		expect(conditionsFromParameter(undefined, 'order')).toEqual([]);
	});

	it('issue 36.3: an order property the service does not filter (picked, saved or typed as a path) is refused, saying what to use', () => {
		for (const field of ['Customer/Name', 'CounterParty/DisplayName', 'Overdue', 'ToPay', 'DaysOverdue']) {
			const entry = field === 'DaysOverdue' ? { field: CUSTOM_FIELD, customField: field, valueType: 'number', value: '1' } : { field, value: 'x' };
			expect(() => conditionsFromParameter({ conditions: [entry] }, 'order')).toThrow(
				`${field}: the service does not filter orders on it (400 since 17 March 2026). To find orders by customer, use Search Text (fullTextSearch) or Counter Party ID`,
			);
		}
		expect(conditionsFromParameter({ conditions: [{ field: 'counterparty/partyid', value: '7' }] }, 'order')).toEqual([
			{ field: 'counterparty/partyid', operator: 'eq', value: '7', type: 'string' },
		]);
	});

	it('rejects an empty typed value and an empty custom path with the condition index', () => {
		expect(() => conditionsFromParameter({ conditions: [{ field: 'OrderDate', operator: 'ge', value: '' }] }, 'order')).toThrow(
			/OrderDate: the value is empty/,
		);
		try {
			conditionsFromParameter(
				{
					conditions: [
						{ field: 'OrderType', value: 'x' },
						{ field: CUSTOM_FIELD, customField: '' },
					],
				},
				'order',
			);
			throw new Error('should have thrown');
		} catch (error) {
			expect((error as QueryInputError).index).toBe(1);
		}
	});
});

describe('sortKeysFromParameter', () => {
	it('reads keys with custom paths, ascending by default', () => {
		expect(
			sortKeysFromParameter({
				keys: [
					{ field: 'OrderDate', direction: 'desc' },
					{ field: CUSTOM_FIELD, customField: 'Supplier/Name' },
				],
			}),
		).toEqual([
			{ field: 'OrderDate', direction: 'desc' },
			{ field: 'Supplier/Name', direction: 'asc' },
		]);
	});
});

describe('buildQuery', () => {
	it('builds $filter and $orderby from the builder', () => {
		expect(
			buildQuery('order', {
				filters: {
					conditions: [
						{ field: 'OrderType', operator: 'eq', value: 'Invoice' },
						{ field: 'Reference', operator: 'eq', value: "O'Brien" },
					],
				},
				combine: 'or',
				sort: {
					keys: [
						{ field: 'OrderDate', direction: 'desc' },
						{ field: 'OrderNumber', direction: 'asc' },
					],
				},
			}),
		).toEqual({
			$filter: "OrderType eq 'Invoice' or Reference eq 'O''Brien'",
			$orderby: 'OrderDate desc,OrderNumber',
		});
	});

	it('lets a raw filter replace the conditions and ANDs an extra filter with parentheses', () => {
		expect(
			buildQuery('order', {
				filters: { conditions: [{ field: 'OrderType', operator: 'eq', value: 'Offer' }] },
				rawFilter: "OrderType+eq+'Invoice'+or+OrderType+eq+'CreditNote'",
				extraFilter: "ExternalProviderID eq 'e-1'",
			}),
		).toEqual({ $filter: "(OrderType eq 'Invoice' or OrderType eq 'CreditNote') and ExternalProviderID eq 'e-1'" });
		expect(buildQuery('order', {})).toEqual({});
	});

	it('says which part is wrong', () => {
		const attempt = (input: Parameters<typeof buildQuery>[1]) => {
			try {
				buildQuery('order', input);
			} catch (error) {
				return error as QueryInputError;
			}
			throw new Error('should have thrown');
		};
		expect(attempt({ rawFilter: "OrderType eq 'x" }).part).toBe('rawFilter');
		const filterError = attempt({ filters: { conditions: [{ field: 'TotalIncl', operator: 'gt', value: 'lots' }] } });
		expect([filterError.part, filterError.field, filterError.index]).toEqual(['filter', 'TotalIncl', 0]);
		const sortError = attempt({ sort: { keys: [{ field: 'A' }, { field: CUSTOM_FIELD, customField: 'B C' }] } });
		expect([sortError.part, sortError.index]).toEqual(['sort', 1]);
	});

	it('labels each property in words (the dropdown users search), the path when not named otherwise', () => {
		const labels = Object.fromEntries(Object.entries(QUERY_FIELDS).map(([resource, fields]) => [resource, fields.map((f) => `${f.name}=${f.value}`)]));
		expect(labels.party).toEqual([
			'City=City',
			'Country Code=CountryCode',
			'Created=Created',
			'Display Name=DisplayName',
			'Email=Email',
			'Last Modified=LastModified',
			'Name=Name',
			'Party ID=PartyID',
			'Party Type=PartyType',
			'VAT Number=VATNumber',
		]);
		expect(labels.order).toEqual(
			expect.arrayContaining([
				'Counter Party ID=CounterParty/PartyID',
				'External Provider ID=ExternalProviderID',
				'Total Excl. VAT=TotalExcl',
				'Total VAT=TotalVAT',
			]),
		);
		// Issue 36.3: only the service's filterable order properties; only published Product properties.
		expect(QUERY_FIELDS.order.filter((f) => !FILTERABLE_ORDER_PROPERTIES.includes(f.value))).toEqual([]);
		expect(labels.product).toEqual([
			'Created=Created',
			'Description=Description',
			'Group Name=GroupName',
			'Last Modified=LastModified',
			'Product ID=ProductID',
			'Reference=Reference',
		]);
	});

	it.each<[QueryResource, typeof ORDER]>([
		['order', ORDER],
		['party', PARTY],
		['product', PRODUCT],
	])('every listed %s field with every operator parses on the emulator', (resource, schema) => {
		const samples: Record<string, string> = { string: "it's", number: '12.5', boolean: 'true', date: '2024-01-31', datetime: '2024-01-31T10:00:00' };
		for (const field of QUERY_FIELDS[resource]) {
			for (const operator of ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'isEmpty', 'isNotEmpty']) {
				const query = buildQuery(resource, {
					filters: { conditions: [{ field: field.value, operator, value: samples[field.type] }] },
					sort: { keys: [{ field: field.value, direction: 'desc' }] },
				});
				expect(() => parseFilter(query.$filter as string, schema)).not.toThrow();
			}
		}
	});
});

describe('describeQuery', () => {
	it('shows the filter as written, decoded, so the output pane wraps it instead of cutting it off', () => {
		expect(describeQuery({ $filter: "A eq 'x+y'", $orderby: 'B desc' })).toBe("$filter=A eq 'x+y' · $orderby=B desc");
		expect(describeQuery({})).toBe('No $filter or $orderby sent');
	});
});

describe('readQuery', () => {
	it('reads the default parameter names: the builder in Builder mode, only OData Filter (Raw) in Raw mode', () => {
		const ctx = fakeExecute({
			filters: { conditions: [{ field: 'DisplayName', operator: 'eq', value: 'ACME' }] },
			filterCombine: 'and',
			sort: { keys: [{ field: 'LastModified', direction: 'desc' }] },
		});
		expect(readQuery(ctx, 0, 'party')).toEqual({ $filter: "DisplayName eq 'ACME'", $orderby: 'LastModified desc' });
		const both = { rawFilter: "GroupName eq 'Food'", filters: { conditions: [{ field: 'GroupName', value: 'x' }] } };
		expect(readQuery(fakeExecute({ filterMode: 'raw', ...both }), 0, 'product')).toEqual({ $filter: "GroupName eq 'Food'" });
		// A raw filter left over from Raw mode is not sent once the mode is Builder: what is on screen is what is sent.
		expect(readQuery(fakeExecute({ filterMode: 'builder', ...both }), 0, 'product')).toEqual({ $filter: "GroupName eq 'x'" });
		expect(readQuery(fakeExecute(both), 0, 'product')).toEqual({ $filter: "GroupName eq 'x'" });
	});

	it('throws a NodeOperationError naming the item, the condition and the field', () => {
		const ctx = fakeExecute({
			filters: {
				conditions: [
					{ field: 'OrderType', value: 'Invoice' },
					{ field: 'OrderDate', operator: 'ge', value: '31/01/2024' },
				],
			},
		});
		let error: NodeOperationError | undefined;
		try {
			readQuery(ctx, 2, 'order');
		} catch (e) {
			error = e as NodeOperationError;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe('Item 2: "Filters" condition 2 (OrderDate): "31/01/2024" is not a valid date (use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss)');
		expect(error?.context.itemIndex).toBe(2);
		expect(error?.description).toMatch(/YYYY-MM-DD/);
	});

	it('names the raw filter and the sort key', () => {
		expect(() => readQuery(fakeExecute({ filterMode: 'raw', rawFilter: '(A eq 1' }), 0, 'order')).toThrow(
			/^Item 0: "OData Filter \(Raw\)": The filter opens a parenthesis/,
		);
		expect(() => readQuery(fakeExecute({ sort: { keys: [{ field: CUSTOM_FIELD, customField: "x' or 1" }] } }), 0, 'order')).toThrow(
			/^Item 0: "Sort" key 1 \(x' or 1\): /,
		);
	});

	it('works in a poll context (no item), ANDing the conditions the node adds', () => {
		const ctx = fakePoll({ filters: { conditions: [{ field: 'OrderDirection', value: 'Income' }] }, rawFilter: '' });
		expect(readQuery(ctx, undefined, 'order')).toEqual({ $filter: "OrderDirection eq 'Income'" });
		expect(readQuery(ctx, undefined, 'order', "LastModified ge DateTime'2024-01-01'")).toEqual({
			$filter: "OrderDirection eq 'Income' and LastModified ge DateTime'2024-01-01'",
		});
		expect(() => readQuery(fakePoll({ filters: { conditions: [{ field: 'Paid', value: 'maybe' }] } }), undefined, 'order')).toThrow(
			/^"Filters" condition 1 \(Paid\): "maybe" is not a boolean/,
		);
	});
});

describe('descriptions', () => {
	it('offer every listed field plus a custom path, scoped by display options', () => {
		const field = filterConditionsField('product', { show: { resource: ['product'] } });
		expect(field.displayOptions).toEqual({ show: { resource: ['product'] } });
		const values = (field.options?.[0] as { values: Array<{ name: string; options?: Array<{ value: string }> }> }).values;
		const choices = values.find((v) => v.name === 'field')?.options?.map((o) => o.value);
		expect(choices).toEqual([...QUERY_FIELDS.product.map((f) => f.value), CUSTOM_FIELD]);
		expect(queryFields('party').map((f) => f.name)).toEqual(['filterMode', 'filters', 'filterCombine', 'rawFilter', 'sort']);
	});

	it('builds Filters and Sort with one collection builder: repeatable, sortable, the display options kept', () => {
		const [, filters, , , sort] = queryFields('order', { show: { resource: ['order'] } });
		for (const [field, entry] of [
			[filters, 'conditions'],
			[sort, 'keys'],
		] as const) {
			expect(field).toMatchObject({ type: 'fixedCollection', typeOptions: { multipleValues: true, sortable: true }, default: {} });
			expect(field.options?.map((o) => o.name)).toEqual([entry]);
		}
		expect(sort.displayOptions).toEqual({ show: { resource: ['order'] } });
		expect(filterCollection({ displayName: 'X', name: 'x' }, { displayName: 'Y', name: 'y' }, [], undefined, { required: true })).toEqual({
			displayName: 'X',
			name: 'x',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			default: {},
			required: true,
			options: [{ displayName: 'Y', name: 'y', values: [] }],
		});
		expect(choices(['Any', ''], ['Income (Sales)', 'Income', 'Sales'])).toEqual([
			{ name: 'Any', value: '' },
			{ name: 'Income (Sales)', value: 'Income', description: 'Sales' },
		]);
	});
});
