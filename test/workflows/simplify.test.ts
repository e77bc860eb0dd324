/**
 * Issue 24 point 8 in a run (n8n-core's WorkflowExecute, the emulator): Order › Get Many of
 * orders, parties and products is simplified by default (one flat row, key fields first,
 * the API's names) and whole with Simplify off. Expected rows are built here from the
 * emulator's store, not by the node's code.
 */
import { printFigures } from '../unit/packageNodes';
import { createHarness } from '../harness';
import type { Harness } from '../harness';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Simplify on Order › Get Many (engine, emulator)', () => {
	let h: Harness;
	let party: string;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 40 }, quiet: true });
		party = h.emulator.credentials.partyId;
	});
	afterAll(async () => {
		await h?.close();
	});

	const list = async (resource: string, extra: Rec = {}) => {
		const result = (await h.runNode('accessPointOrder', { resource, operation: 'getAll', returnAll: true, ...extra })).assertSuccess();
		return result.output(result.nodeName as string) as Rec[];
	};
	const flat = (row: Rec) => Object.values(row).every((value) => value === null || typeof value !== 'object');

	it('orders: one flat row each, key fields first, nested fields named by their path', async () => {
		const rows = await list('order');
		const stored = new Map<number, Rec>([...h.emulator.store.book(party).values()].map((o: Rec) => [o.OrderID, o]));
		expect(rows).toHaveLength(stored.size);
		for (const row of rows) {
			const order = stored.get(row.OrderID) as Rec;
			expect(row).toEqual({
				OrderID: order.OrderID,
				OrderNumber: order.OrderNumber,
				OrderType: order.OrderType,
				OrderDirection: order.OrderDirection,
				OrderStatus: order.OrderStatus,
				OrderDate: order.OrderDate,
				ExpiryDate: order.ExpiryDate,
				CounterPartyDisplayName: order.CounterParty.DisplayName,
				CounterPartyVATNumber: order.CounterParty.VATNumber,
				Currency: order.Currency,
				TotalExcl: order.TotalExcl,
				TotalVAT: order.TotalVAT,
				TotalIncl: order.TotalIncl,
				ToPay: order.ToPay,
				Paid: order.Paid,
				IsSent: order.IsSent,
				ExternalProviderID: order.ExternalProviderID,
				Reference: order.Reference,
				LastModified: order.LastModified,
			});
			expect(Object.keys(row)[0]).toBe('OrderID');
			expect(flat(row)).toBe(true);
		}
		const sizes = { simple: JSON.stringify(rows).length, raw: JSON.stringify(await list('order', { simplify: false })).length };
		printFigures(`Simplify, ${rows.length} orders as JSON`, [
			`simplified ${sizes.simple} characters`,
			`raw ${sizes.raw} characters (${(sizes.raw / sizes.simple).toFixed(1)}x)`,
		]);
	});

	it('orders with Simplify off: the records as the API sent them', async () => {
		const rows = await list('order', { simplify: false });
		const order = [...h.emulator.store.book(party).values()].find((o: Rec) => o.OrderID === rows[0].OrderID) as Rec;
		expect(rows[0]).toEqual(JSON.parse(JSON.stringify(order)));
		expect(rows[0].OrderLines.length).toBeGreaterThan(0);
	});

	it('parties and products: their key fields, flat, under the API names', async () => {
		const parties = await list('party');
		const storedParties = h.emulator.store.listParties(party) as Rec[];
		expect(parties).toHaveLength(storedParties.length);
		const p = storedParties.find((s) => s.PartyID === parties[0].PartyID) as Rec;
		expect(parties[0]).toEqual({
			PartyID: p.PartyID,
			DisplayName: p.DisplayName,
			PartyType: p.PartyType,
			VATNumber: p.VATNumber,
			Email: p.Email,
			City: p.City,
			CountryCode: p.CountryCode,
			LastModified: p.LastModified,
		});
		const products = await list('product');
		const storedProducts = h.emulator.store.listProducts(party) as Rec[];
		const q = storedProducts.find((s) => s.ProductID === products[0].ProductID) as Rec;
		expect(Object.keys(products[0])).toEqual([
			'ProductID',
			'Reference',
			'Description',
			'AmountExcl',
			'VAT', // then AmountIncl where the product has one (the emulator's seed has none)
			'Unit',
			'GroupName',
			'LastModified',
		]);
		// The published Product's price and rate (openapi.json), never the names once assumed (issue 39).
		expect(products[0]).toMatchObject({ Description: q.Description, AmountExcl: q.AmountExcl, VAT: q.VAT });
		expect(typeof products[0].AmountExcl).toBe('number');
		expect(parties.every(flat) && products.every(flat)).toBe(true);
	});
});
