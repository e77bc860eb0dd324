/**
 * Issue 36, items 3 and 4, through n8n's engine against the emulator: the filter builders offer only what the
 * service filters (docs/api.md "Queries and paging"), a saved removed field stops the run before any request with what to
 * use instead, Get Many's Search Text is the service's fullTextSearch, and Party Update sends only the party's
 * patchable fields (a saved Party Type, BIC, Internal Info, Peppol Identifier or Website is refused).
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';

const NODE = 'accessPointOrder';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The 28 order properties of the page "OData for Filtering" (since 17 March 2026). */
const FILTERABLE =
	'OrderID CounterParty/PartyID CompanyID OrderDirection OrderType OrderDate OrderNumber ExpiryDate ExportedToConnector AccountantVerificationNeeded TotalExcl TotalVAT TotalIncl FXRateToForeign Paid OrderStatus ExternalProviderID Currency PaymentReference LastModified Created ApprovalStatus PaidDate PaymentMethod Reference RemindersSent ExternalProvider IsSent'.split(
		' ',
	);

describe('issue 36: what the service filters and patches (engine, emulator)', () => {
	let h: Harness;
	const logged = () =>
		(h.emulator.requests as Array<{ method: string; path: string; query: Record<string, string>; body?: Rec }>).filter((r) => r.path.startsWith('/v1/'));

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 60 }, quiet: true });
	});
	afterAll(async () => {
		await h?.close();
	});
	beforeEach(() => h.emulator.clearRequests());

	async function run(parameters: IDataObject) {
		const result = await h.runNode(NODE, parameters);
		const name = result.nodeName as string;
		return { result, name, items: result.output(name) as Rec[] };
	}

	/** The Field choices of a builder (Filters of Get Many, or of the Order Trigger) for one resource. */
	function fieldChoices(type: string, resource?: string): string[] {
		const properties = h.nodeTypes.getByNameAndVersion(h.type(type), 1).description.properties as INodeProperties[];
		const filters = properties.find(
			(p) => p.name === 'filters' && (!resource || (p.displayOptions?.show?.resource as string[] | undefined)?.includes(resource)),
		)!;
		const values = (filters.options![0] as { values: INodeProperties[] }).values;
		return (values.find((v) => v.name === 'field')!.options as INodePropertyOptions[]).map((o) => String(o.value)).filter((v) => v !== '__custom');
	}

	it('item 3: the order builders (Get Many, Order Trigger) offer only filterable properties; the hint says why and how to find a customer', () => {
		for (const [type, resource] of [
			[NODE, 'order'],
			['accessPointOrderTrigger', undefined],
		] as const) {
			const offered = fieldChoices(type, resource);
			expect(offered.filter((f) => !FILTERABLE.includes(f))).toEqual([]);
			expect(offered).toEqual(expect.arrayContaining(['CounterParty/PartyID', 'OrderNumber', 'OrderDate', 'Paid']));
		}
		const properties = h.nodeTypes.getByNameAndVersion(h.type(NODE), 1).description.properties as INodeProperties[];
		const orderFilters = properties.find((p) => p.name === 'filters' && (p.displayOptions?.show?.resource as string[]).includes('order'))!;
		expect(orderFilters.hint).toMatch(/fullTextSearch/);
		expect(fieldChoices(NODE, 'product').sort()).toEqual(['Created', 'Description', 'GroupName', 'LastModified', 'ProductID', 'Reference']);
	});

	it.each([
		['Customer/Name', 'ACME NV'],
		['CounterParty/DisplayName', 'ACME NV'],
		['Customer/VATNumber', 'BE0123456749'],
		['Overdue', 'true'],
		['ToPay', '10'],
	])('item 3: a saved filter on %s stops Get Many before any request, naming the field and what to use', async (field, value) => {
		const { result, name } = await run({ resource: 'order', operation: 'getAll', filters: { conditions: [{ field, operator: 'eq', value }] } });
		const error = result.nodeError(name);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe(
			`Item 0: "Filters" condition 1 (${field}): the service does not filter orders on it (400 since 17 March 2026). To find orders by customer, use Search Text (fullTextSearch) or Counter Party ID`,
		);
		expect(logged()).toEqual([]);
	});

	it('item 3: a saved product filter on Is Active (not a published Product property) stops Get Many before any request', async () => {
		const { result, name } = await run({
			resource: 'product',
			operation: 'getAll',
			filters: { conditions: [{ field: 'IsActive', operator: 'eq', value: 'true' }] },
		});
		expect(result.nodeError(name)).toBeInstanceOf(NodeOperationError);
		expect(result.nodeError(name)?.message).toMatch(/^Item 0: "Filters" condition 1 \(IsActive\): not a property of the service's Product/);
		expect(logged()).toEqual([]);
	});

	it('item 3: Search Text is sent as fullTextSearch with the filter; an empty one sends none', async () => {
		const order = [...h.emulator.store.book(h.emulator.credentials.partyId).values()][0] as Rec;
		const { items } = await run({
			resource: 'order',
			operation: 'getAll',
			searchText: ` ${order.OrderNumber} `,
			filters: { conditions: [{ field: 'OrderType', operator: 'eq', value: order.OrderType }] },
		});
		expect(items.map((o) => o.OrderID)).toContain(order.OrderID);
		expect(logged()[0].query).toMatchObject({ fullTextSearch: order.OrderNumber, $filter: `OrderType eq '${order.OrderType}'` });
		h.emulator.clearRequests();
		await run({ resource: 'order', operation: 'getAll', limit: 5 });
		expect(logged()[0].query).not.toHaveProperty('fullTextSearch');
	});

	describe('item 4: Party Update', () => {
		const partyId = () => String((h.emulator.store.listParties(h.emulator.credentials.partyId) as Rec[])[0].PartyID);

		it('offers only the patchable fields and sends them', async () => {
			const properties = h.nodeTypes.getByNameAndVersion(h.type(NODE), 1).description.properties as INodeProperties[];
			const update = properties.find((p) => p.name === 'updateFields' && (p.displayOptions?.show?.resource as string[]).includes('party'))!;
			// Offered (shown when added): the patchable ones; 1.0's others only where a workflow still holds one.
			const names = (update.options as INodeProperties[]).filter((o) => !o.displayOptions).map((o) => o.name);
			for (const gone of ['partyType', 'bic', 'internalInfo', 'peppolIdentifier', 'website']) expect(names).not.toContain(gone);
			expect(names).toEqual(expect.arrayContaining(['name', 'vatNumber', 'iban', 'email', 'language', 'vatLiable']));
			const id = partyId();
			const { items } = await run({ resource: 'party', operation: 'update', partyId: id, updateFields: { city: 'Gent' } });
			expect(logged().find((r) => r.method === 'PATCH')?.body).toEqual({ City: 'Gent' });
			expect(items[0]).toMatchObject({ PartyID: Number(id), City: 'Gent' });
		});

		it.each([
			['Party Type saved by 1.0', { partyType: 'Supplier', city: 'Gent' }, 'Party Type'],
			['Website and BIC saved by 1.0', { website: 'https://acme.example', bic: 'GEBABEBB' }, 'BIC, Website'],
			['Peppol Identifier in Other Fields', { otherFields: '{"PeppolIdentifier": "0208:0123456749"}' }, 'PeppolIdentifier'],
		])('refuses %s before any request, naming the fields', async (_label, updateFields, named) => {
			const { result, name } = await run({ resource: 'party', operation: 'update', partyId: partyId(), updateFields });
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toBe(`Item 0: "Update Fields" ${named} holds fields the service does not let a party change`);
			expect(logged()).toEqual([]);
		});
	});
});
