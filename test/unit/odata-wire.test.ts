/**
 * Encoding on the wire. The shared client writes `qs` into the URL itself (odata.ts
 * toQueryString) and hands n8n no `qs`: n8n 2.41's serializer (the `qs` package, set as
 * axios' paramsSerializer by @n8n/backend-network) encodes long values in 1,024-character
 * slices and corrupts an astral character whose UTF-16 halves straddle index 1023, 2047
 * or 4095 of a value. These tests send built filters through the shared client and
 * n8n-core's own HTTP client to a loopback server and check what the server reads.
 */
import { buildFilter } from '../../nodes/shared/query/odata';
import { toQueryString } from '../../nodes/shared/http/url';
import { getApiClient } from '../../nodes/shared/node/client';
import { serveHostile } from '../reliability/hostile-server';
import { n8nContext as context } from '../reliability/n8n-context';
import { n8nHttpRequest, printFigures } from '../reliability/report';

const n8nContext = (baseUrl: string) => context({ apiKey: 'wire-test-key', partyId: '100001', environment: 'custom', baseUrl });
const TRICKY = "A+B & C #1 100% 'quoted' Ünïcødé 東京 ✓ = ? / (x) !*~ 😀";
const ASTRAL = ['😀', '𝄞', '🇧🇪', '\u{10FFFF}', '👩‍👩‍👧'];

/** A filter whose $filter value has an astral character starting at `at` (its two halves at at, at + 1). */
function straddling(at: number, char: string): string {
	const head = "OrderNumber eq '";
	return `${head}${'x'.repeat(at - head.length)}${char}tail'`;
}

describe('filters on the wire', () => {
	let server: Awaited<ReturnType<typeof serveHostile>>;

	beforeAll(async () => {
		server = await serveHostile((_req, res) => {
			res.setHeader('content-type', 'application/json');
			res.end('{"Items":[]}');
		});
	});
	afterAll(async () => {
		await server.close();
	});

	const received = (): URLSearchParams => new URL(server.requests[server.requests.length - 1].url, server.url).searchParams;

	it('the server reads back exactly the filter and sort order that were built', async () => {
		const client = await getApiClient.call(n8nContext(server.url), { retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 } });
		const $filter = buildFilter([{ field: 'OrderNumber', operator: 'eq', value: TRICKY, type: 'string' }], 'and');
		await client.request({ method: 'GET', path: '/v1/orders', qs: { $filter, $orderby: 'OrderDate desc,OrderNumber', $top: 5 } });
		const query = received();
		expect(query.get('$filter')).toBe($filter);
		expect(query.get('$orderby')).toBe('OrderDate desc,OrderNumber');
		expect(query.get('$top')).toBe('5');
		const path = server.requests[server.requests.length - 1].url;
		expect(path).toBe(`/v1/orders?${toQueryString({ $filter, $orderby: 'OrderDate desc,OrderNumber', $top: 5 })}`);
		// `$` stays in the option names, as docs/api.md "Queries and paging" writes them; `+` is %2B, a space %20.
		expect(path).toContain('$filter=OrderNumber%20eq%20%27A%2BB%20%26%20C%20%231%20100%25');
	});

	it("astral characters straddling index 1023, 2047 and 4095 arrive intact (n8n's own qs encoding splits them)", async () => {
		const client = await getApiClient.call(n8nContext(server.url), { retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 } });
		const http = n8nHttpRequest();
		let sent = 0;
		let changed = 0;
		let changedByN8nQs = 0;
		for (const boundary of [1023, 2047, 4095]) {
			for (let offset = -3; offset <= 2; offset++) {
				for (const char of ASTRAL) {
					const $filter = straddling(boundary + offset, char);
					await client.request({ method: 'GET', path: '/v1/orders', qs: { $filter } });
					sent++;
					if (received().get('$filter') !== $filter) changed++;
					// For comparison: the same value handed to n8n as `qs`.
					await http({ method: 'GET', url: `${server.url}/v1/orders`, qs: { $filter }, json: true });
					if (received().get('$filter') !== $filter) changedByN8nQs++;
				}
			}
		}
		printFigures('OData wire: astral characters at the 1,024-character slice boundaries', {
			'values sent through the shared client': sent,
			'changed on the way (shared client)': changed,
			'changed on the way (n8n qs, for comparison)': changedByN8nQs,
		});
		expect(changed).toBe(0);
	});
});
