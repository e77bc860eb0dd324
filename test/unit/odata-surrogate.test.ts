/**
 * Lone surrogates (half of an astral character) cannot be URL-encoded: the literal
 * builder and the raw filter reject them with a message that the node turns into an
 * error naming the field, the condition and the item; describeQuery never throws.
 */
import nock from 'nock';
import { NodeOperationError } from 'n8n-workflow';

import { buildQuery, describeQuery, QueryInputError } from '../../nodes/shared/query/queryBuilder';
import { buildFilter, formatLiteral, normalizeRawFilter, ODataError, tryFormatLiteral, unpairedSurrogateAt } from '../../nodes/shared/query/odata';
import { createHarness } from '../harness';
import type { Harness } from '../harness';

const LONE_HIGH = 'broken \uD83D pair';
const LONE_LOW = 'x\uDE00';
const REVERSED = '\uDE00\uD83D';

describe('unpaired surrogates in OData literals', () => {
	it('finds the first unpaired surrogate; paired astral characters are fine', () => {
		expect(unpairedSurrogateAt('😀 𝄞 👩‍👩‍👧 🇧🇪 \u{10FFFF}')).toBe(-1);
		expect(unpairedSurrogateAt(LONE_HIGH)).toBe(7);
		expect(unpairedSurrogateAt(LONE_LOW)).toBe(1);
		expect(unpairedSurrogateAt(REVERSED)).toBe(0);
		expect(unpairedSurrogateAt('ok\uD83D')).toBe(2);
	});

	it('tryFormatLiteral reports it as a problem; formatLiteral throws ODataError', () => {
		expect(tryFormatLiteral(LONE_HIGH, 'string')).toEqual({ problem: 'The text value contains an invalid (unpaired surrogate) character at position 8' });
		expect(tryFormatLiteral(LONE_LOW, 'string')).toEqual({ problem: expect.stringContaining('invalid (unpaired surrogate) character') });
		expect(() => formatLiteral(REVERSED, 'string')).toThrow(ODataError);
		expect(formatLiteral("😀 O'Brien", 'string')).toBe("'😀 O''Brien'");
	});

	it('buildFilter names the field and the condition index', () => {
		let caught: unknown;
		try {
			buildFilter([
				{ field: 'OrderType', operator: 'eq', value: 'Invoice', type: 'string' },
				{ field: 'OrderNumber', operator: 'eq', value: LONE_HIGH, type: 'string' },
			]);
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(ODataError);
		expect(caught).toMatchObject({ field: 'OrderNumber', index: 1, message: expect.stringContaining('unpaired surrogate') });
	});

	it('the raw filter rejects it too', () => {
		expect(() => normalizeRawFilter(`OrderNumber eq '${LONE_HIGH}'`)).toThrow('The filter contains an invalid (unpaired surrogate) character at position 24');
		expect(() => buildQuery('order', { rawFilter: `OrderNumber eq '${LONE_LOW}'` })).toThrow(QueryInputError);
	});

	it('describeQuery never throws, even for a query that cannot be URL-encoded', () => {
		const query = { $filter: `OrderNumber eq '${LONE_HIGH}'`, $orderby: 'OrderDate desc' };
		expect(() => describeQuery(query)).not.toThrow();
		expect(describeQuery(query)).toBe(
			`$filter=OrderNumber eq '${LONE_HIGH}' · $orderby=OrderDate desc (cannot be URL-encoded: it contains an invalid character)`,
		);
		expect(describeQuery({ $filter: "A eq '😀'" })).toBe("$filter=A eq '😀'");
	});
});

describe('Order Get Many with a lone surrogate (engine, nock)', () => {
	const BASE = 'https://api.example.test';
	let h: Harness;

	beforeAll(async () => {
		h = await createHarness({ emulator: false, credentials: { apiKey: 'secret-key-1', partyId: '100001', environment: 'custom', baseUrl: BASE } });
		nock.disableNetConnect();
	});
	afterEach(() => nock.cleanAll());
	afterAll(async () => {
		nock.enableNetConnect();
		await h?.close();
	});

	it('Filters: the bad item fails naming item, condition and field; the good item is fetched', async () => {
		const scope = nock(BASE)
			.get('/v1/orders')
			.query({ $filter: "OrderNumber eq 'fine'" })
			.reply(200, { Items: [{ OrderID: 1 }] });
		const result = await h.runNode(
			'accessPointOrder',
			{ resource: 'order', operation: 'getAll', returnAll: true, filters: { conditions: [{ field: 'OrderNumber', operator: 'eq', value: '={{ $json.v }}' }] } },
			[{ v: 'fine' }, { v: LONE_HIGH }],
			{ onError: 'continueErrorOutput' },
		);
		const name = result.nodeName as string;
		expect(scope.isDone()).toBe(true);
		expect(result.items(name, 0).map((i) => i.json)).toEqual([{ OrderID: 1 }]);
		const [failed] = result.items(name, 1);
		expect(failed.pairedItem).toEqual({ item: 1 });
		expect(failed.error).toBeInstanceOf(NodeOperationError);
		expect(failed.json.error).toBe(
			'Item 1: "Filters" condition 1 (OrderNumber): The text value contains an invalid (unpaired surrogate) character at position 8',
		);
	});

	it('OData Filter (Raw): the item fails naming the raw filter and the item, before any request', async () => {
		const result = await h.runNode(
			'accessPointOrder',
			{ resource: 'order', operation: 'getAll', returnAll: true, filterMode: 'raw', rawFilter: `OrderNumber eq '${LONE_LOW}'` },
			undefined,
			{ onError: 'continueErrorOutput' },
		);
		const [failed] = result.items(result.nodeName as string, 1);
		expect(failed.error).toBeInstanceOf(NodeOperationError);
		expect(failed.json.error).toBe('Item 0: "OData Filter (Raw)": The filter contains an invalid (unpaired surrogate) character at position 18');
	});
});
