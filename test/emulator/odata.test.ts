import { Emu, get, qs, start } from './helpers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { allowContractViolations } = require('../harness/contract');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const odata = require('../../emulator/odata');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const schemas = require('../../emulator/schemas');

const DATA: Array<Record<string, unknown>> = [
	{
		OrderNumber: 'A-1',
		name: "O'Brien & Sons Ltd",
		OrderDate: '2024-01-30',
		LastModified: '2024-01-31T09:59:59Z',
		TotalIncl: 100,
		IsSent: false,
		OrderType: 'Invoice',
		ExternalProviderID: 'ERP-1',
	},
	{
		OrderNumber: 'B-2',
		name: 'Say "Hi" Ltd',
		OrderDate: '2024-01-31',
		LastModified: '2024-01-31T10:00:00Z',
		TotalIncl: 250.5,
		IsSent: true,
		OrderType: 'CreditNote',
		ExternalProviderID: 'ERP-2',
	},
	{
		OrderNumber: 'C-3',
		name: 'A+B Consulting',
		OrderDate: '2024-02-01',
		LastModified: '2024-01-31T10:00:01Z',
		TotalIncl: 99.99,
		IsSent: true,
		OrderType: 'Invoice',
		ExternalProviderID: null,
	},
	{
		OrderNumber: 'D-4',
		name: 'A B Consulting',
		OrderDate: '2024-02-02',
		LastModified: '2024-02-01T00:00:00Z',
		TotalIncl: 1000,
		IsSent: false,
		OrderType: 'Invoice',
		ExternalProviderID: 'ERP-4',
	},
	{
		OrderNumber: 'E-5',
		name: 'C:\\Temp Ltd',
		OrderDate: '2024-02-03',
		LastModified: '2024-02-01T00:00:00Z',
		TotalIncl: 100,
		IsSent: false,
		OrderType: 'Offer',
		ExternalProviderID: 'ERP-5',
	},
];

describe('OData on orders (HTTP)', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 0 });
		for (const d of DATA) {
			const { name, ...rest } = d;
			emu.store.addOrder(emu.credentials.partyId, { ...rest, TotalIncl: d.TotalIncl, Reference: name, Customer: { Name: name, VATNumber: null } });
		}
	});
	afterAll(() => emu.close());

	/** $filter value percent-encoded, answers the OrderNumbers in order */
	const numbers = async (filter: string, extra: Record<string, string> = {}) => {
		const r = await get(emu, `/v1/orders?${qs({ $filter: filter, ...extra })}`);
		if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
		return r.json.Items.map((o: { OrderNumber: string }) => o.OrderNumber);
	};
	const rawNumbers = async (query: string) => (await get(emu, `/v1/orders?${query}`)).json.Items.map((o: { OrderNumber: string }) => o.OrderNumber);

	it('supports eq ne gt ge lt le on numbers and strings', async () => {
		expect(await numbers("OrderNumber eq 'A-1'")).toEqual(['A-1']);
		expect(await numbers("OrderType ne 'Invoice'")).toEqual(['B-2', 'E-5']);
		expect(await numbers('TotalIncl gt 100')).toEqual(['B-2', 'D-4']);
		expect(await numbers('TotalIncl ge 100')).toEqual(['A-1', 'B-2', 'D-4', 'E-5']);
		expect(await numbers('TotalIncl lt 100')).toEqual(['C-3']);
		expect(await numbers('TotalIncl le 100')).toEqual(['A-1', 'C-3', 'E-5']);
		expect(await numbers('TotalIncl eq 250.5')).toEqual(['B-2']);
		expect(await numbers("OrderNumber gt 'C-3'")).toEqual(['D-4', 'E-5']);
	});

	it('supports booleans, null and not', async () => {
		expect(await numbers('IsSent eq true')).toEqual(['B-2', 'C-3']);
		expect(await numbers('IsSent eq false')).toEqual(['A-1', 'D-4', 'E-5']);
		expect(await numbers('IsSent')).toEqual(['B-2', 'C-3']);
		expect(await numbers('not IsSent')).toEqual(['A-1', 'D-4', 'E-5']);
		expect(await numbers('ExternalProviderID eq null')).toEqual(['C-3']);
		expect(await numbers('ExternalProviderID ne null and TotalIncl lt 200')).toEqual(['A-1', 'E-5']);
	});

	it('reads string literals in single and double quotes with doubled-quote escapes; backslash is literal', async () => {
		expect(await numbers("Reference eq 'O''Brien & Sons Ltd'")).toEqual(['A-1']);
		expect(await numbers('Reference eq "O\'Brien & Sons Ltd"')).toEqual(['A-1']);
		expect(await numbers('Reference eq "Say ""Hi"" Ltd"')).toEqual(['B-2']);
		expect(await numbers('Reference eq \'Say "Hi" Ltd\'')).toEqual(['B-2']);
		expect(await numbers("Reference eq 'C:\\Temp Ltd'")).toEqual(['E-5']);
		expect(await numbers("Reference eq 'A B Consulting'")).toEqual(['D-4']);
	});

	it('compares DateTime literals (both casings) as instants; date-only is midnight UTC', async () => {
		expect(await numbers("LastModified ge DateTime'2024-01-31T10:00:00'")).toEqual(['B-2', 'C-3', 'D-4', 'E-5']);
		expect(await numbers("LastModified lt datetime'2024-01-31T10:00:00'")).toEqual(['A-1']);
		expect(await numbers("LastModified gt datetime'2024-01-31T10:00:00Z'")).toEqual(['C-3', 'D-4', 'E-5']);
		expect(await numbers("LastModified ge DateTime'2024-02-01'")).toEqual(['D-4', 'E-5']);
		expect(await numbers("LastModified lt DateTime'2024-02-01'")).toEqual(['A-1', 'B-2', 'C-3']);
		expect(await numbers("LastModified eq DateTime'2024-01-31T11:00:00+01:00'")).toEqual(['B-2']);
		expect(await numbers("OrderDate eq DateTime'2024-01-31'")).toEqual(['B-2']);
		expect(await numbers("OrderDate ge datetime'2024-01-31T10:00:00'")).toEqual(['C-3', 'D-4', 'E-5']);
		expect(await numbers("OrderDate le DateTime'2024-01-31' and OrderDate ge DateTime'2024-01-30'")).toEqual(['A-1', 'B-2']);
		expect(await numbers("OrderDate ge '2024-02-02'")).toEqual(['D-4', 'E-5']);
	});

	it('reads + as a space and %2B as a plus (form decoding)', async () => {
		expect(await rawNumbers("$filter=Reference+eq+'A%2BB+Consulting'")).toEqual(['C-3']);
		expect(await rawNumbers("$filter=Reference+eq+'A+B+Consulting'")).toEqual(['D-4']);
		expect(await rawNumbers("$filter=CounterParty%2FPartyID%20eq%20null%20and%20Reference%20eq%20'A%2BB%20Consulting'")).toEqual(['C-3']);
		expect(await rawNumbers('$filter=TotalIncl+ge+100&$orderby=TotalIncl+desc')).toEqual(['D-4', 'B-2', 'A-1', 'E-5']);
	});

	it('binds and tighter than or, and honours parentheses', async () => {
		const f = "OrderType eq 'CreditNote' or IsSent eq false and TotalIncl gt 500";
		expect(await numbers(f)).toEqual(['B-2', 'D-4']);
		expect(await numbers("(OrderType eq 'CreditNote' or IsSent eq false) and TotalIncl gt 500")).toEqual(['D-4']);
		expect(await numbers("IsSent eq false and (TotalIncl eq 100 or OrderNumber eq 'D-4')")).toEqual(['A-1', 'D-4', 'E-5']);
		expect(await numbers('not (IsSent eq false or TotalIncl gt 200)')).toEqual(['C-3']);
	});

	it('answers 400 for an unknown property with the production wording', async () => {
		allowContractViolations('filters on properties orders cannot be filtered on, to see the 400');
		const r = await get(emu, `/v1/orders?${qs({ $filter: "Colour eq 'red'" })}`);
		expect(r.status).toBe(400);
		expect(r.json).toEqual({
			errors: [{ Code: 'GenericError', Description: "Could not find a property named 'Colour' on type 'Domain.Order.OrderPartyPerformanceSafeColumns'." }],
		});
		const sub = await get(emu, `/v1/orders?${qs({ $filter: "CounterParty/Colour eq 'red'" })}`);
		expect(sub.json.errors[0].Description).toBe("Could not find a property named 'Colour' on type 'Domain.Order.OrderPartyPerformanceSafeColumns'.");
		const cased = await get(emu, `/v1/orders?${qs({ $filter: "orderNumber eq 'A-1'" })}`);
		expect(cased.json.errors[0].Description).toBe("Could not find a property named 'orderNumber' on type 'Domain.Order.OrderPartyPerformanceSafeColumns'.");
		const sort = await get(emu, `/v1/orders?${qs({ $orderby: 'Colour desc' })}`);
		expect(sort.status).toBe(400);
		expect(sort.json.errors[0].Description).toMatch(/Could not find a property named 'Colour'/);
	});

	it('answers 400 with a readable message for malformed filters', async () => {
		allowContractViolations('sends malformed filters on purpose (their words read as properties)');
		for (const [f, re] of [
			['OrderNumber eq', /expected a property or a value/],
			["OrderNumber eq 'A-1", /unterminated string/],
			["OrderNumber EQ 'A-1'", /lower-case/],
			["(OrderNumber eq 'A-1'", /expected '\)'/],
			["OrderNumber eq 'A-1' AND IsSent", /lower-case/],
			["LastModified ge DateTime'2024-13-45'", /invalid DateTime literal/],
			["startswith(OrderNumber,'A')", /not supported/],
			['', /empty/],
		] as Array<[string, RegExp]>) {
			const r = await get(emu, `/v1/orders?${qs({ $filter: f })}`);
			expect(r.status).toBe(400);
			expect(r.json.errors[0].Code).toBe('GenericError');
			expect(r.json.errors[0].Description).toMatch(re);
		}
		for (const q of ['$top=abc', '$skip=-1', `$orderby=${encodeURIComponent('TotalIncl sideways')}`]) {
			expect((await get(emu, `/v1/orders?${q}`)).status).toBe(400);
		}
	});

	it('sorts by several keys, desc/asc, sub-properties, ties broken by OrderID', async () => {
		const all = (ob: string) => numbers('TotalIncl gt 0', { $orderby: ob });
		expect(await all('TotalIncl desc')).toEqual(['D-4', 'B-2', 'A-1', 'E-5', 'C-3']);
		expect(await all('TotalIncl')).toEqual(['C-3', 'A-1', 'E-5', 'B-2', 'D-4']);
		expect(await all('IsSent desc,TotalIncl asc')).toEqual(['C-3', 'B-2', 'A-1', 'E-5', 'D-4']);
		expect(await all('Reference')).toEqual(['D-4', 'C-3', 'E-5', 'A-1', 'B-2']);
		expect(await all('LastModified desc, OrderNumber desc')).toEqual(['E-5', 'D-4', 'C-3', 'B-2', 'A-1']);
		expect(await all('LastModified desc')).toEqual(['D-4', 'E-5', 'C-3', 'B-2', 'A-1']);
	});
});

describe('OData on parties and products (HTTP)', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 0 });
	});
	afterAll(() => emu.close());

	it('filters parties with doubled double quotes and sorts them', async () => {
		const r = await get(emu, `/v1/parties?${qs({ $filter: 'DisplayName eq "Say ""Hi"" Ltd"' })}`);
		expect(r.json.Items.map((p: { DisplayName: string }) => p.DisplayName)).toEqual(['Say "Hi" Ltd']);
		const c = await get(
			emu,
			`/v1/parties?${qs({ $filter: "PartyType eq 'Customer' and LastModified ge DateTime'2000-01-01'", $orderby: 'DisplayName desc', $top: 5 })}`,
		);
		expect(c.json.Items).toHaveLength(5);
		const names = c.json.Items.map((p: { DisplayName: string }) => p.DisplayName);
		expect([...names].sort().reverse()).toEqual(names);
		for (const p of c.json.Items) expect(p).toMatchObject({ PartyType: 'Customer', PartyID: expect.any(Number), LastModified: expect.any(String) });
		expect((await get(emu, `/v1/parties/${c.json.Items[0].PartyID}`)).json.DisplayName).toBe(names[0]);
		expect((await get(emu, '/v1/parties/1')).status).toBe(404);
	});

	it('filters products by GroupName with an encoded &', async () => {
		const r = await get(emu, `/v1/products?${qs({ $filter: "GroupName eq 'Food & Beverage'", $orderby: 'ProductID desc' })}`);
		expect(r.status).toBe(200);
		expect(r.json.Items.length).toBeGreaterThan(0);
		for (const p of r.json.Items)
			expect(p).toMatchObject({
				GroupName: 'Food & Beverage',
				ProductID: expect.any(Number),
				Description: expect.any(String),
				VATPercentage: expect.any(Number),
			});
		const ids = r.json.Items.map((p: { ProductID: number }) => p.ProductID);
		expect([...ids].sort((a, b) => b - a)).toEqual(ids);
		allowContractViolations('filters products on a property the published Product does not have, to see the 400');
		const bad = await get(emu, `/v1/products?${qs({ $filter: "DisplayName eq 'x'" })}`);
		expect(bad.json.errors[0].Description).toBe("Could not find a property named 'DisplayName' on type 'Product'.");
		expect((await get(emu, '/v1/products/8000001')).json.ProductID).toBe(8000001);
	});
});

describe('OData engine (pure)', () => {
	it('parses with and binding tighter than or', () => {
		const ast = odata.parseFilter("OrderNumber eq 'a' or OrderNumber eq 'b' and IsSent eq true", schemas.ORDER);
		expect(ast.type).toBe('or');
		expect(ast.right.type).toBe('and');
	});
	it('tokenizes literal forms', () => {
		const toks = odata.tokenize(
			`X eq 'it''s' and Y eq "say ""hi""" and Z ge DateTime'2024-01-31' and W le datetime'2024-01-31T10:00:00' and V eq -1.5 and U eq null`,
		);
		const lits = toks.filter((t: { t: string }) => t.t === 'lit').map((t: { v: { value: unknown } }) => t.v.value);
		expect(lits).toEqual(["it's", 'say "hi"', Date.UTC(2024, 0, 31), Date.UTC(2024, 0, 31, 10), -1.5, null]);
	});
	it('pages with runQuery: cap, skip, nextSkip', () => {
		const items = Array.from({ length: 300 }, (_, i) => ({ OrderID: 300 - i }));
		const r = odata.runQuery(items, { top: '500', skip: '10' }, schemas.ORDER, 120);
		expect(r.page).toHaveLength(120);
		expect(r.page[0].OrderID).toBe(11);
		expect(r.nextSkip).toBe(130);
		expect(r.total).toBe(300);
		const last = odata.runQuery(items, { skip: '240' }, schemas.ORDER, 120);
		expect(last.page).toHaveLength(60);
		expect(last.nextSkip).toBeNull();
	});
});
