import { Emu, get, qs, start } from './helpers';

type Page = { Items: Array<{ OrderID: number }>; Count: number; NextpageLink?: string };

describe('paging and list variants', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 1000 });
	});
	afterAll(() => emu.close());

	it('pages 120 by default with a relative NextpageLink and the total Count', async () => {
		const r = await get(emu, '/v1/orders');
		expect(r.json.Items).toHaveLength(120);
		expect(r.json.Count).toBe(1000);
		expect(r.json.NextpageLink).toBe('/v1/orders?$skip=120');
		expect(Object.keys(r.json)).toEqual(['Items', 'Count', 'NextpageLink']);
	});

	it('caps $top at 120 and honours smaller $top and $skip', async () => {
		const big = await get(emu, '/v1/orders?$top=500');
		expect(big.json.Items).toHaveLength(120);
		expect(big.json.NextpageLink).toBe('/v1/orders?$top=120&$skip=120');
		const small = await get(emu, '/v1/orders?$top=7&$skip=3');
		expect(small.json.Items).toHaveLength(7);
		const first = await get(emu, '/v1/orders?$top=10');
		expect(small.json.Items.map((o: { OrderID: number }) => o.OrderID)).toEqual(first.json.Items.slice(3, 10).map((o: { OrderID: number }) => o.OrderID));
		expect(small.json.NextpageLink).toBe('/v1/orders?$top=7&$skip=10');
		const zero = await get(emu, '/v1/orders?$top=0');
		expect(zero.json.Items).toEqual([]);
		expect(zero.json.NextpageLink).toBeUndefined();
	});

	it('following the links collects every matching record once, and the last page has no link', async () => {
		const filter = "LastModified ge DateTime'2000-01-01' and OrderNumber ne 'O''Brien & Sons Ltd'";
		const expected = (await get(emu, `/v1/orders?${qs({ $filter: filter, $top: 1 })}`)).json.Count;
		let url: string | undefined = `/v1/orders?${qs({ $filter: filter, $orderby: 'LastModified desc,CounterParty/PartyID', $top: 50 })}`;
		const seen: number[] = [];
		let pages = 0;
		let last: Page | undefined;
		while (url) {
			const r = await get(emu, url);
			expect(r.status).toBe(200);
			last = r.json as Page;
			seen.push(...last.Items.map((o) => o.OrderID));
			url = last.NextpageLink;
			if (url) {
				expect(url).toContain(`$filter=${encodeURIComponent(filter)}`);
				expect(url).toContain('$orderby=LastModified%20desc%2CCounterParty%2FPartyID');
				expect(url).toContain('$top=50');
			}
			pages++;
		}
		expect(seen).toHaveLength(expected);
		expect(new Set(seen).size).toBe(expected);
		expect(pages).toBe(Math.ceil(expected / 50));
		expect(last?.NextpageLink).toBeUndefined();
	});

	it('collects all 1000 orders by following default-size links', async () => {
		let url: string | undefined = '/v1/orders';
		const seen = new Set<number>();
		let pages = 0;
		while (url) {
			const r = await get(emu, url);
			for (const o of r.json.Items) seen.add(o.OrderID);
			url = r.json.NextpageLink;
			pages++;
		}
		expect(seen.size).toBe(1000);
		expect(pages).toBe(9);
	});

	it('pages parties and products too', async () => {
		for (const path of ['/v1/parties', '/v1/products']) {
			const r = await get(emu, path);
			expect(r.json.Items).toHaveLength(120);
			expect(r.json.Count).toBeGreaterThanOrEqual(150);
			expect(r.json.NextpageLink).toBe(`${path}?$skip=120`);
			const next = await get(emu, r.json.NextpageLink);
			expect(next.json.Items).toHaveLength(r.json.Count - 120);
			expect(next.json.NextpageLink).toBeUndefined();
		}
	});

	describe('switches', () => {
		afterEach(() => {
			Object.assign(emu.config, { linkSpelling: 'NextpageLink', linkForm: 'relative', listWrapper: 'Items', includeCount: true, pageSize: 120 });
		});
		it('linkSpelling NextPageLink', async () => {
			emu.config.linkSpelling = 'NextPageLink';
			const r = await get(emu, '/v1/orders');
			expect(r.json.NextPageLink).toBe('/v1/orders?$skip=120');
			expect(r.json.NextpageLink).toBeUndefined();
		});
		it('linkForm absolute and foreign', async () => {
			emu.config.linkForm = 'absolute';
			expect((await get(emu, '/v1/orders')).json.NextpageLink).toBe(`${emu.url}/v1/orders?$skip=120`);
			emu.config.linkForm = 'foreign';
			const foreign = (await get(emu, '/v1/orders')).json.NextpageLink;
			expect(foreign).toMatch(/^https?:\/\//);
			expect(new URL(foreign).host).not.toBe(new URL(emu.url).host);
			expect(foreign).toMatch(/\/v1\/orders\?\$skip=120$/);
		});
		it('listWrapper value and bare; includeCount false', async () => {
			emu.config.listWrapper = 'value';
			const v = await get(emu, '/v1/orders?$top=2');
			expect(v.json.value).toHaveLength(2);
			expect(v.json.Items).toBeUndefined();
			expect(v.json.Count).toBe(1000);
			expect(v.json.NextpageLink).toBe('/v1/orders?$top=2&$skip=2');
			emu.config.listWrapper = 'bare';
			const b = await get(emu, '/v1/orders?$top=2');
			expect(Array.isArray(b.json)).toBe(true);
			expect(b.json).toHaveLength(2);
			emu.config.listWrapper = 'Items';
			emu.config.includeCount = false;
			const n = await get(emu, '/v1/orders?$top=2');
			expect(n.json.Count).toBeUndefined();
			expect(n.json.Items).toHaveLength(2);
		});
		it('pageSize', async () => {
			emu.config.pageSize = 25;
			const r = await get(emu, '/v1/orders?$top=100');
			expect(r.json.Items).toHaveLength(25);
			expect(r.json.NextpageLink).toBe('/v1/orders?$top=25&$skip=25');
		});
	});
});
