/**
 * AccessPoint Order › Get Many (orders, parties, products) against the emulator with
 * 1,000 seeded orders: the filter builder, sort builder, raw filter, paging and
 * request counts. Expected results are computed here from the emulator's store with
 * plain JavaScript, not with the emulator's OData engine.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';

const NODE = 'accessPointOrder';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Logged {
	method: string;
	path: string;
	query: Record<string, string>;
}

describe('AccessPoint Order › Get Many against the emulator', () => {
	let h: Harness;
	let orders: Rec[];
	let parties: Rec[];
	let products: Rec[];

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 1000 } });
		const party = h.emulator.credentials.partyId;
		orders = [...h.emulator.store.book(party).values()];
		parties = h.emulator.store.listParties(party);
		products = h.emulator.store.listProducts(party);
	});

	afterAll(async () => {
		await h?.close();
	});

	beforeEach(() => h.emulator.clearRequests());

	const listRequests = (path: string): Logged[] => (h.emulator.requests as Logged[]).filter((r) => r.path === path);

	async function getMany(resource: string, parameters: IDataObject) {
		const result = await h.runNode(NODE, { resource, operation: 'getAll', ...parameters });
		return { result, items: result.output(result.nodeName as string) as Rec[] };
	}

	const cond = (field: string, operator: string, value?: unknown, extra: IDataObject = {}) => ({ field, operator, value, ...extra });
	const ids = (list: Rec[], key = 'OrderID') => list.map((r) => r[key] as number).sort((a, b) => a - b);

	describe('paging', () => {
		it('Return All returns every order once, in ceil(N/120) requests', async () => {
			expect(orders.length).toBeGreaterThanOrEqual(1000);
			const { items } = await getMany('order', { returnAll: true });
			expect(items).toHaveLength(orders.length);
			expect(new Set(items.map((o) => o.OrderID)).size).toBe(orders.length);
			expect(ids(items)).toEqual(ids(orders));
			expect(listRequests('/v1/orders')).toHaveLength(Math.ceil(orders.length / 120));
		});

		it('Limit 130 makes exactly 2 requests (no $top on the first), Limit 50 makes 1 with $top=50', async () => {
			const { items } = await getMany('order', { returnAll: false, limit: 130 });
			expect(items).toHaveLength(130);
			const two = listRequests('/v1/orders');
			expect(two).toHaveLength(2);
			expect(two[0].query.$top).toBeUndefined();

			h.emulator.clearRequests();
			const fifty = await getMany('order', { returnAll: false, limit: 50 });
			expect(fifty.items).toHaveLength(50);
			const one = listRequests('/v1/orders');
			expect(one).toHaveLength(1);
			expect(one[0].query.$top).toBe('50');
		});

		it('Limit defaults to 50', async () => {
			const { items } = await getMany('order', {});
			expect(items).toHaveLength(50);
			expect(listRequests('/v1/orders')).toHaveLength(1);
		});

		it('Skip is sent as $skip and the records follow on from there', async () => {
			const all = ids(orders);
			const { items } = await getMany('order', { limit: 5, options: { skip: 240 } });
			expect(items.map((o) => o.OrderID)).toEqual(all.slice(240, 245));
			expect(listRequests('/v1/orders')[0].query).toMatchObject({ $skip: '240', $top: '5' });
		});

		it('Return All with a filter pages through the filtered set only', async () => {
			const expected = orders.filter((o) => o.OrderType === 'Invoice');
			const { items } = await getMany('order', { returnAll: true, filters: { conditions: [cond('OrderType', 'eq', 'Invoice')] } });
			expect(ids(items)).toEqual(ids(expected));
			expect(listRequests('/v1/orders')).toHaveLength(Math.ceil(expected.length / 120));
		});
	});

	describe('filter builder on orders', () => {
		const pivot = () => [...orders].sort((a, b) => (a.OrderDate < b.OrderDate ? -1 : 1))[Math.floor(orders.length / 2)].OrderDate as string;

		it.each([
			['eq', (a: string, b: string) => a === b],
			['ne', (a: string, b: string) => a !== b],
			['gt', (a: string, b: string) => a > b],
			['ge', (a: string, b: string) => a >= b],
			['lt', (a: string, b: string) => a < b],
			['le', (a: string, b: string) => a <= b],
		])('date operator %s on OrderDate', async (operator, test) => {
			const date = pivot();
			const { items } = await getMany('order', { returnAll: true, filters: { conditions: [cond('OrderDate', operator, date)] } });
			const expected = orders.filter((o) => test(o.OrderDate, date));
			expect(expected.length).toBeGreaterThan(0);
			expect(ids(items)).toEqual(ids(expected));
			expect(listRequests('/v1/orders')[0].query.$filter).toBe(`OrderDate ${operator} DateTime'${date}'`);
		});

		it('date and time on LastModified (On or After), and a zone converted to UTC', async () => {
			const sorted = orders.map((o) => Date.parse(o.LastModified)).sort((a, b) => a - b);
			const from = sorted[Math.floor(sorted.length * 0.8)];
			const local = new Date(from + 2 * 3600_000).toISOString().slice(0, 19) + '+02:00';
			const { items } = await getMany('order', { returnAll: true, filters: { conditions: [cond('LastModified', 'ge', local)] } });
			expect(ids(items)).toEqual(ids(orders.filter((o) => Date.parse(o.LastModified) >= from)));
			expect(listRequests('/v1/orders')[0].query.$filter).toBe(`LastModified ge DateTime'${new Date(from).toISOString().slice(0, 19)}'`);
		});

		it('numbers and booleans are sent bare', async () => {
			const { items } = await getMany('order', {
				returnAll: true,
				filters: { conditions: [cond('TotalIncl', 'gt', '1000.5'), cond('Paid', 'eq', 'true')] },
			});
			expect(ids(items)).toEqual(ids(orders.filter((o) => o.TotalIncl > 1000.5 && o.Paid === true)));
			expect(listRequests('/v1/orders')[0].query.$filter).toBe('TotalIncl gt 1000.5 and Paid eq true');
		});

		it('Is Empty / Is Not Empty compare with null', async () => {
			const empty = await getMany('order', { returnAll: true, filters: { conditions: [cond('ExternalProviderID', 'isEmpty')] } });
			expect(ids(empty.items)).toEqual(ids(orders.filter((o) => o.ExternalProviderID === null)));
			const notEmpty = await getMany('order', { returnAll: true, filters: { conditions: [cond('PaidDate', 'isNotEmpty')] } });
			expect(ids(notEmpty.items)).toEqual(ids(orders.filter((o) => o.PaidDate !== null)));
		});

		it('AND and OR', async () => {
			const conditions = [cond('OrderType', 'eq', 'CreditNote'), cond('OrderDirection', 'eq', 'Cost')];
			const and = await getMany('order', { returnAll: true, filters: { conditions }, filterCombine: 'and' });
			expect(ids(and.items)).toEqual(ids(orders.filter((o) => o.OrderType === 'CreditNote' && o.OrderDirection === 'Cost')));
			const or = await getMany('order', { returnAll: true, filters: { conditions }, filterCombine: 'or' });
			const expectedOr = orders.filter((o) => o.OrderType === 'CreditNote' || o.OrderDirection === 'Cost');
			expect(expectedOr.length).toBeGreaterThan(0);
			expect(ids(or.items)).toEqual(ids(expectedOr));
		});

		it.each([["O'Brien & Sons Ltd"], ['A+B Consulting'], ['Hash #1 Traders'], ['100% Natural BV'], ['Say "Hi" Ltd'], ['Zoë & Zaïd Épicerie']])(
			'text with quotes and URL characters (Reference, a filterable property): %s',
			async (name) => {
				const withName = orders.filter((o) => o.CounterParty?.DisplayName === name);
				expect(withName.length).toBeGreaterThan(0);
				for (const o of withName) h.emulator.store.book(h.emulator.credentials.partyId).get(o.OrderID).Reference = name;
				const expected = orders.filter((o) => o.Reference === name);
				const { items } = await getMany('order', {
					returnAll: true,
					filters: { conditions: [cond('Reference', 'eq', name)] },
				});
				expect(ids(items)).toEqual(ids(expected));
				expect(listRequests('/v1/orders')[0].query.$filter).toBe(`Reference eq '${name.replace(/'/g, "''")}'`);
			},
		);

		it('a custom property path with its value type', async () => {
			const { items } = await getMany('order', {
				returnAll: true,
				filters: { conditions: [cond('__custom', 'ge', '5', { customField: 'TotalVAT', valueType: 'number' })] },
			});
			const expected = orders.filter((o) => typeof o.TotalVAT === 'number' && o.TotalVAT >= 5);
			expect(expected.length).toBeGreaterThan(0);
			expect(ids(items)).toEqual(ids(expected));
		});

		// Sort keys are the filterable properties (emulator/README.md: $orderby on orders assumed held to the same 28), a sub-property among them.
		it('sorts on several keys, sub-property included', async () => {
			const { items } = await getMany('order', {
				returnAll: true,
				sort: {
					keys: [
						{ field: 'OrderType', direction: 'asc' },
						{ field: 'OrderDate', direction: 'desc' },
						{ field: 'CounterParty/PartyID', direction: 'asc' },
					],
				},
			});
			expect(items).toHaveLength(orders.length);
			expect(listRequests('/v1/orders')[0].query.$orderby).toBe('OrderType,OrderDate desc,CounterParty/PartyID,OrderID'); // OrderID breaks ties across pages
			const key = (o: Rec): [string, string, number] => [o.OrderType, o.OrderDate, o.CounterParty?.PartyID ?? 0];
			for (let i = 1; i < items.length; i++) {
				const [t0, d0, n0] = key(items[i - 1]);
				const [t1, d1, n1] = key(items[i]);
				const ordered = t0 < t1 || (t0 === t1 && (d0 > d1 || (d0 === d1 && n0 <= n1)));
				if (!ordered) throw new Error(`records ${i - 1} and ${i} are out of order: ${JSON.stringify([key(items[i - 1]), key(items[i])])}`);
			}
		});

		it('Raw mode sends the raw filter, not the conditions; + between words reads as a space; the query is shown as a hint', async () => {
			const { result, items } = await getMany('order', {
				returnAll: true,
				filters: { conditions: [cond('OrderType', 'eq', 'Offer')] },
				filterMode: 'raw',
				rawFilter: "OrderType+eq+'DeliveryNote'+or+PaymentReference+eq+'A+B Consulting'",
			});
			const expected = orders.filter((o) => o.OrderType === 'DeliveryNote' || o.PaymentReference === 'A+B Consulting');
			expect(ids(items)).toEqual(ids(expected));
			const hints = (result.task(result.nodeName as string)?.hints ?? []).map((hint) => hint.message);
			expect(hints.join('\n')).toContain("$filter=OrderType eq 'DeliveryNote' or PaymentReference eq 'A+B Consulting'");
		});

		it('a bad value fails before any request, naming the item and the field', async () => {
			const result = await h.runNode(NODE, {
				resource: 'order',
				operation: 'getAll',
				filters: { conditions: [cond('OrderType', 'eq', 'Invoice'), cond('OrderDate', 'ge', '31/01/2024')] },
			});
			const error = result.nodeError(result.nodeName as string);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toBe('Item 0: "Filters" condition 2 (OrderDate): "31/01/2024" is not a valid date (use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss)');
			expect(listRequests('/v1/orders')).toHaveLength(0);
		});

		it('a property the API does not know comes back as the API error', async () => {
			const result = await h.runNode(NODE, {
				resource: 'order',
				operation: 'getAll',
				filters: { conditions: [cond('__custom', 'eq', 'x', { customField: 'NoSuchField' })] },
			});
			expect(result.nodeError(result.nodeName as string)?.message).toMatch(/NoSuchField/);
		});
	});

	describe('the same builder on parties and products', () => {
		it('parties: Return All, text with quotes, PartyType AND/OR, LastModified, sorting', async () => {
			const all = await getMany('party', { returnAll: true });
			expect(ids(all.items, 'PartyID')).toEqual(ids(parties, 'PartyID'));
			expect(listRequests('/v1/parties')).toHaveLength(Math.ceil(parties.length / 120));

			const quoted = await getMany('party', { returnAll: true, filters: { conditions: [cond('DisplayName', 'eq', "O'Brien & Sons Ltd")] } });
			expect(quoted.items.map((p) => p.DisplayName)).toEqual(["O'Brien & Sons Ltd"]);

			const times = parties.map((p) => p.LastModified as string).sort();
			const from = times[Math.floor(times.length / 2)];
			const mixed = await getMany('party', {
				returnAll: true,
				filters: { conditions: [cond('PartyType', 'eq', 'Supplier'), cond('LastModified', 'lt', from)] },
				filterCombine: 'or',
				sort: {
					keys: [
						{ field: 'PartyType', direction: 'desc' },
						{ field: 'DisplayName', direction: 'asc' },
					],
				},
			});
			const expected = parties.filter((p) => p.PartyType === 'Supplier' || Date.parse(p.LastModified) < Date.parse(from));
			expect(ids(mixed.items, 'PartyID')).toEqual(ids(expected, 'PartyID'));
			const keys = mixed.items.map((p) => [p.PartyType, p.DisplayName] as [string, string]);
			for (let i = 1; i < keys.length; i++) {
				const ok = keys[i - 1][0] > keys[i][0] || (keys[i - 1][0] === keys[i][0] && keys[i - 1][1] <= keys[i][1]);
				if (!ok) throw new Error(`parties ${i - 1} and ${i} out of order`);
			}
			expect(listRequests('/v1/parties').pop()?.query.$orderby).toBe('PartyType desc,DisplayName,PartyID'); // PartyID breaks ties across pages
		});

		it('parties: Limit 130 makes 2 requests, Limit 50 makes 1', async () => {
			expect(parties.length).toBeGreaterThan(130);
			await getMany('party', { limit: 130 });
			expect(listRequests('/v1/parties')).toHaveLength(2);
			h.emulator.clearRequests();
			await getMany('party', { limit: 50 });
			expect(listRequests('/v1/parties')).toHaveLength(1);
		});

		it('products: Return All, GroupName with &, every comparison on a number, sorting', async () => {
			const all = await getMany('product', { returnAll: true });
			expect(ids(all.items, 'ProductID')).toEqual(ids(products, 'ProductID'));

			const food = await getMany('product', { returnAll: true, filters: { conditions: [cond('GroupName', 'eq', 'Food & Beverage')] } });
			const expectedFood = products.filter((p) => p.GroupName === 'Food & Beverage');
			expect(expectedFood.length).toBeGreaterThan(0);
			expect(ids(food.items, 'ProductID')).toEqual(ids(expectedFood, 'ProductID'));

			const tests: Record<string, (a: number) => boolean> = {
				eq: (a) => a === 21,
				ne: (a) => a !== 21,
				gt: (a) => a > 6,
				ge: (a) => a >= 6,
				lt: (a) => a < 12,
				le: (a) => a <= 12,
			};
			const values: Record<string, string> = { eq: '21', ne: '21', gt: '6', ge: '6', lt: '12', le: '12' };
			for (const operator of Object.keys(tests)) {
				const { items } = await getMany('product', {
					returnAll: true,
					// The published Product's rate (VAT), not offered by the builder: a custom path, typed.
					filters: { conditions: [cond('__custom', operator, values[operator], { customField: 'VAT', valueType: 'number' })] },
				});
				const expected = products.filter((p) => tests[operator](p.VAT));
				expect(expected.length > 0 && expected.length < products.length).toBe(true); // each comparison tells products apart
				expect(ids(items, 'ProductID')).toEqual(ids(expected, 'ProductID'));
			}

			const special = await getMany('product', {
				returnAll: true,
				filters: { conditions: [cond('Description', 'eq', 'C++ training'), cond('Description', 'eq', "Chef's special")] },
				filterCombine: 'or',
				sort: { keys: [{ field: 'Description', direction: 'desc' }] },
			});
			expect(special.items.map((p) => p.Description)).toEqual(["Chef's special", 'C++ training']);
		});
	});
});
