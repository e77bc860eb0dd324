/**
 * OData fuzz: 10,000 seeded hostile text values (quotes of both kinds, + & # % =, percent
 * escapes, OData keywords and parentheses, whitespace and control characters, unicode
 * with combining marks, bidi and zero-width characters, astral characters and emoji
 * sequences, values up to 10,000 characters) go through the filter builder
 * (nodes/shared/query/odata.ts) and the real wire encoding (the shared client's appendQuery,
 * which writes the query into the URL itself, then the URL parser) to the emulator's $filter parser
 * (emulator/filter.js): each must parse back to exactly the intended literal, and
 * toQueryString must predict the bytes on the wire. A sample also goes through the
 * engine over HTTP: Order Get Many finds exactly the order carrying the value, and
 * Order Create's "Skip If Already Created" finds orders by hostile ExternalProviderIDs.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { andFilters, buildFilter, formatLiteral, normalizeRawFilter } from '../../nodes/shared/query/odata';
import { appendQuery, toQueryString } from '../../nodes/shared/http/url';
import { externalIdFilter } from '../../nodes/Order/actions/order/orderBody';
import { evaluate, parseFilter } from '../../emulator/odata';
// The parser's full grammar over every field the emulator stores (the published filterable list is narrower).
import { ORDER_ALL as ORDER } from '../../emulator/schemas';
import { createHarness } from '../harness';
import type { Harness } from '../harness';
import type { Emu, Logged, Rec } from './helpers';
import { apiRequests, int, pick, prng } from './helpers';
import { printFigures } from './report';

const COUNT = 10_000;

const ATOMS = [
	"'",
	'"',
	"''",
	'""',
	`'"'`,
	'+',
	'&',
	'#',
	'%',
	'%27',
	'%2B',
	'%25',
	'%%',
	'%zz',
	'=',
	'?',
	'/',
	'\\',
	"\\'",
	';',
	',',
	':',
	'@',
	'$',
	'*',
	'~',
	'`',
	'^',
	'|',
	'<',
	'>',
	'[',
	']',
	'{',
	'}',
	' ',
	'  ',
	'\t',
	'\n',
	'\r\n',
	'\v',
	'\f',
	' and ',
	' or ',
	' not ',
	' eq ',
	' ne ',
	'eq',
	'(',
	')',
	'()',
	"DateTime'",
	"datetime'2024-01-01'",
	'null',
	'true',
	'1.5',
	'-0',
	'1e3',
	'$filter=',
	'&$top=1',
	'#frag',
	'?x=1&y=2',
	'a+b',
	'A&B',
	'100%',
	"O'Brien",
	'Zoë',
	'Café',
	'ß',
	'İı',
	'東京',
	'Ωμέγα',
	'עברית',
	'العربية',
	'हिन्दी',
	'\u200d',
	'\u200b',
	'\ufeff',
	'\u202e',
	'\u2066',
	'e\u0301',
	'n\u0303\u0327',
	'\u00a0',
	'\u3000',
	'\u2028',
	'\u2029',
	'\u0085',
	'😀',
	'👩‍👩‍👧',
	'🇧🇪',
	'𝄞',
	'𝕏',
	'\u{10FFFF}',
	'\u{E0001}',
	'\u{1F3FD}',
	'\uFFFD',
	'\uFFFF',
	'\u0000',
	'\u0001',
	'\u0008',
	'\u001b',
	'\u001f',
	'\u007f',
	'INV-2024-0042',
	'abc',
	'ABC',
	'0',
	'42',
];

/** A code point from anywhere in Unicode except the surrogate block (lone surrogates cannot be sent as UTF-8). */
function randomCodePoint(rnd: () => number): string {
	const ranges: Array<[number, number]> = [
		[0x20, 0x7e],
		[0x00, 0x1f],
		[0xa0, 0x24f],
		[0x370, 0x6ff],
		[0x900, 0xdff],
		[0x3000, 0x9fff],
		[0xe000, 0xfffd],
		[0x10000, 0x1faff],
		[0x20000, 0x2fa1f],
		[0xe0000, 0xe007f],
		[0xf0000, 0x10ffff],
	];
	const [lo, hi] = pick(rnd, ranges);
	return String.fromCodePoint(int(rnd, lo, hi));
}

function hostileValue(rnd: () => number): string {
	const roll = rnd();
	let value = '';
	if (roll < 0.02) {
		// Very long: 1,000 to 10,000 characters of mixed atoms.
		const target = int(rnd, 1000, 10_000);
		while (value.length < target) value += rnd() < 0.7 ? pick(rnd, ATOMS) : randomCodePoint(rnd);
		value = value.slice(0, target);
		if (/[\uD800-\uDBFF]$/.test(value)) value = value.slice(0, -1); // do not cut a surrogate pair in half
	} else {
		const parts = int(rnd, 1, 12);
		for (let i = 0; i < parts; i++) value += rnd() < 0.75 ? pick(rnd, ATOMS) : randomCodePoint(rnd);
	}
	return value;
}

/** The string literals of a parsed filter, left to right. */
function literals(node: Rec): string[] {
	if (!node) return [];
	if (node.type === 'or' || node.type === 'and') return [...literals(node.left), ...literals(node.right)];
	if (node.type === 'not') return literals(node.expr);
	if (node.type === 'cmp') return [node.left, node.right].filter((o: Rec) => o.kind === 'lit' && o.vtype === 'string').map((o: Rec) => o.value as string);
	return [];
}

/** The URL the shared client requests for these options, as the server's URL parser reads it. */
const ON_WIRE = (params: Record<string, string>) => new URL(appendQuery('https://api.example.test/v1/orders', params));

describe('OData fuzz: hostile values round-trip through builder, wire and the emulator parser', () => {
	const rnd = prng(0x0da7a);
	const values = Array.from({ length: COUNT }, () => hostileValue(rnd));

	it(`${COUNT} generated values each parse back to exactly the intended literal`, () => {
		const failures: string[] = [];
		let wireBytes = 0;
		let longest = 0;
		let astral = 0;
		let control = 0;
		let combined = 0;
		values.forEach((value, i) => {
			longest = Math.max(longest, value.length);
			if (/[\u{10000}-\u{10FFFF}]/u.test(value)) astral++;
			if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f')) control++;
			const filter = buildFilter([{ field: 'OrderNumber', operator: i % 2 ? 'eq' : 'ne', value, type: 'string' }], 'and');
			if (filter !== `OrderNumber ${i % 2 ? 'eq' : 'ne'} ${formatLiteral(value, 'string')}`) failures.push(`#${i} builder shape`);

			// Wire: what the shared client puts in the URL, as the server's URL parser reads it.
			const url = ON_WIRE({ $filter: filter });
			wireBytes += url.search.length;
			if (url.search !== `?${toQueryString({ $filter: filter })}`) failures.push(`#${i} toQueryString differs from the wire`);
			const received = url.searchParams.get('$filter');
			if (received !== filter) {
				failures.push(`#${i} wire changed the filter`);
				return;
			}
			// The emulator's parser reads back exactly the value, and the filter matches exactly that value.
			let ast: Rec;
			try {
				ast = parseFilter(received, ORDER) as Rec;
			} catch (error) {
				failures.push(`#${i} parse error: ${(error as Error).message.slice(0, 120)}`);
				return;
			}
			const got = literals(ast);
			if (got.length !== 1 || got[0] !== value) failures.push(`#${i} literal ${JSON.stringify(got[0]).slice(0, 80)} != ${JSON.stringify(value).slice(0, 80)}`);
			const matches = evaluate(ast as never, { OrderNumber: value });
			const matchesOther = evaluate(ast as never, { OrderNumber: `${value}x` });
			if (matches !== (i % 2 === 1) || matchesOther !== (i % 2 === 0)) failures.push(`#${i} evaluation`);

			// Every 10th: three hostile values in one filter (or + and, the Create lookup's filter ANDed on).
			if (i % 10 === 0) {
				combined++;
				const [other, ext] = [values[(i + 1) % COUNT], values[(i + 2) % COUNT]];
				const userFilter = buildFilter(
					[
						{ field: 'OrderNumber', operator: 'eq', value, type: 'string' },
						{ field: 'Customer/Name', operator: 'ne', value: other, type: 'string' },
					],
					'or',
				);
				const full = andFilters(userFilter, externalIdFilter(ext)) as string;
				const back = ON_WIRE({ $filter: full }).searchParams.get('$filter') as string;
				try {
					const all = literals(parseFilter(back, ORDER) as Rec);
					if (JSON.stringify(all) !== JSON.stringify([value, other, ext])) failures.push(`#${i} combined literals differ`);
				} catch (error) {
					failures.push(`#${i} combined parse error: ${(error as Error).message.slice(0, 120)}`);
				}
			}
		});
		printFigures('OData fuzz (builder → client wire encoding → emulator parser)', {
			values: values.length,
			distinct: new Set(values).size,
			'with both quote kinds': values.filter((v) => v.includes("'") && v.includes('"')).length,
			'with + & # %': values.filter((v) => /[+&#%]/.test(v)).length,
			'with astral characters': astral,
			'with control characters': control,
			'longest (chars)': longest,
			'three-value filters (or, and, ExternalProviderID lookup)': combined,
			'query bytes on the wire': wireBytes,
			'round-trip failures': failures.length,
		});
		expect(failures.slice(0, 20)).toEqual([]);
	});

	it('a lone surrogate (not representable in a URL) is rejected by the builder and by the wire encoder, not silently changed', () => {
		expect(() => buildFilter([{ field: 'OrderNumber', operator: 'eq', value: 'broken \uD83D pair', type: 'string' }], 'and')).toThrow(
			'OrderNumber: The text value contains an invalid (unpaired surrogate) character at position 8',
		);
		expect(() => toQueryString({ $filter: "OrderNumber eq 'broken \uD83D pair'" })).toThrow(URIError);
	});

	// Was a known defect (whitespace collapsed inside quoted literals); fixed in normalizeRawFilter.
	it('OData Filter (Raw): quoted literals keep their exact whitespace', () => {
		const changed = values.filter((value) => {
			const raw = `OrderNumber eq ${formatLiteral(value, 'string')}`;
			return literals(parseFilter(normalizeRawFilter(raw), ORDER) as Rec)[0] !== value;
		});
		expect(changed).toEqual([]);
	});

	describe('over HTTP through the engine (sample)', () => {
		let h: Harness;
		let emu: Emu;
		let party: string;
		/** Values short enough for a URL (a 10,000-character astral value would exceed the server's header limit). */
		const sample = [...new Set(values.filter((v) => v.length <= 300))].slice(0, 300);
		/** Create trims the External Provider ID by design, so those get no outer whitespace. */
		// One line: an External Provider ID with a control character or line break is refused before any request (bad-input.test.ts).
		const extIds = [...new Set(sample.filter((v) => v.trim() === v && v !== '' && !/\p{Cc}|[\u2028\u2029]/u.test(v)).map((v) => `X${v}`))].slice(0, 100);

		beforeAll(async () => {
			h = await createHarness({ emulator: { orders: 400, seed: 3 }, quiet: true });
			emu = h.emulator as Emu;
			party = emu.credentials.partyId;
		});
		afterAll(async () => {
			await h?.close();
		});

		it(`Order Get Many: ${sample.length} hostile Order Numbers, each finds exactly its order`, async () => {
			const orders = [...emu.store.book(party).values()] as Rec[];
			const unique = sample;
			unique.forEach((value, i) => {
				orders[i].OrderNumber = value;
			});
			emu.clearRequests();
			const result = await h.runNode(
				'accessPointOrder',
				{
					resource: 'order',
					operation: 'getAll',
					returnAll: true,
					filters: { conditions: [{ field: 'OrderNumber', operator: 'eq', value: '={{ $json.v }}' }] },
				},
				unique.map((v) => ({ v })),
			);
			result.assertSuccess();
			const items = result.items(result.nodeName as string);
			const wrong = unique.filter((value, i) => {
				const mine = items.filter((item) => (item.pairedItem as { item: number }).item === i);
				return mine.length !== 1 || mine[0].json.OrderID !== orders[i].OrderID;
			});
			const requests = apiRequests(emu) as Logged[];
			const sentAsBuilt = unique.filter(
				(value, i) => requests[i]?.query.$filter === buildFilter([{ field: 'OrderNumber', operator: 'eq', value, type: 'string' }]),
			).length;
			printFigures('OData over HTTP: Order Get Many', {
				values: unique.length,
				requests: requests.length,
				'filters received exactly as built': sentAsBuilt,
				'items not finding exactly their order': wrong.length,
			});
			expect(wrong).toEqual([]);
			expect(sentAsBuilt).toBe(unique.length);
		});

		it(`Order Create: ${extIds.length} hostile ExternalProviderIDs, run twice, one order each (the lookup finds them)`, async () => {
			const ids = extIds;
			const params = {
				resource: 'order',
				operation: 'create',
				orderDate: '2024-05-01',
				customerName: 'Fuzz NV',
				orderLines: { lines: [{ description: 'x', quantity: 1, unitPriceExcl: 1, vatPercentage: 21 }] },
				externalProviderId: '={{ $json.ext }}',
				skipIfExists: true,
			};
			const first = await h.runNode(
				'accessPointOrder',
				params,
				ids.map((ext) => ({ ext })),
			);
			first.assertSuccess();
			const second = await h.runNode(
				'accessPointOrder',
				params,
				ids.map((ext) => ({ ext })),
			);
			second.assertSuccess();
			const book = [...emu.store.book(party).values()] as Rec[];
			const counts = ids.map((ext) => book.filter((o) => o.ExternalProviderID === ext).length);
			const again = second.output(second.nodeName as string).filter((o) => o.AlreadyExisted === true).length;
			printFigures('OData over HTTP: Create with hostile ExternalProviderIDs', {
				ids: ids.length,
				'found on the second run': again,
				'IDs with exactly one order': counts.filter((c) => c === 1).length,
			});
			expect(first.output(first.nodeName as string).every((o) => o.AlreadyExisted === false)).toBe(true);
			expect(again).toBe(ids.length);
			expect(counts.every((c) => c === 1)).toBe(true);
		});

		// The builder rejects the value, so the error names the field, the condition and the item.
		it('a value with a lone surrogate fails only its own item, before any request for it', async () => {
			emu.clearRequests();
			const result = await h.runNode(
				'accessPointOrder',
				{
					resource: 'order',
					operation: 'getAll',
					returnAll: true,
					filters: { conditions: [{ field: 'OrderNumber', operator: 'eq', value: '={{ $json.v }}' }] },
				},
				[{ v: 'fine' }, { v: 'broken \uD83D pair' }],
				{ onError: 'continueErrorOutput' },
			);
			result.assertSuccess();
			const [failed] = result.items(result.nodeName as string, 1);
			expect(apiRequests(emu)).toHaveLength(1); // only the good item's request
			printFigures('OData: lone surrogate', { error: String(failed?.json.error), class: (failed?.error as Error | undefined)?.constructor?.name ?? '' });
			expect(failed.pairedItem).toEqual({ item: 1 });
			expect(failed.error instanceof NodeApiError || failed.error instanceof NodeOperationError).toBe(true);
			expect(failed.json.error).toBe(
				'Item 1: "Filters" condition 1 (OrderNumber): The text value contains an invalid (unpaired surrogate) character at position 8',
			);
		});
	});
});
