/**
 * Hostile server: redirects. Every node, through n8n-core's engine, talks to a server (A)
 * that answers each request with a redirect (301, 302, 303, 307, 308 in turn) to another
 * loopback server (B), or serves a first list page and redirects the next one (Return
 * All's parallel pages and the trigger's paging). Nothing may reach B (the apikey and partyID
 * headers, and any body, would go with it), each node must fail with a NodeApiError that
 * names the status and B's host and not the key, and A must see each request once (a
 * redirect is not retried). Also: a same-host redirect is not followed either, and the
 * credential test's request never follows one in n8n's HTTP client.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import { serveHostile } from './hostile-server';
import { deepText, printFigures } from './report';

/** A recognisable API key (a canary). */
const CANARY = 'HOSTILE-REDIRECT-KEY-4b1d9e';
const CHORUS = 'CHORUS-TECH-KEY-77';
const ORDER = 'accessPointOrder';
const REG = 'accessPointRegistration';
const INT = 'accessPointIntegration';
const PEPPOL = 'accessPointPeppolLookup';
const IDENT = 'accessPointIdentification';
const TRIGGER = 'accessPointOrderTrigger';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const opts = { maxRetries: 3, retryDelayMs: 1 };
const STATUSES = [301, 302, 303, 307, 308];

type Server = Awaited<ReturnType<typeof serveHostile>>;

/** [label, node type, parameters, input items] */
type Scenario = [string, string, IDataObject, IDataObject[]?];
const SCENARIOS: Scenario[] = [
	['order get', ORDER, { resource: 'order', operation: 'get', orderId: '1000001', options: opts }],
	['order get many (limit)', ORDER, { resource: 'order', operation: 'getAll', limit: 5, options: opts }],
	['order get many (return all)', ORDER, { resource: 'order', operation: 'getAll', returnAll: true, options: opts }],
	['party get many', ORDER, { resource: 'party', operation: 'getAll', limit: 5, options: opts }],
	['product get many', ORDER, { resource: 'product', operation: 'getAll', returnAll: true, options: opts }],
	[
		'order create (POST with the order)',
		ORDER,
		{
			resource: 'order',
			operation: 'create',
			orderDate: '2024-03-01',
			customerName: 'Redirect NV',
			skipIfExists: false,
			orderLines: { lines: [{ description: 'x', quantity: 1, unitPriceExcl: 10, vatPercentage: 21 }] },
			options: opts,
		},
	],
	['order send (POST)', ORDER, { resource: 'order', operation: 'send', options: opts }, [{ OrderID: 1000001 }]],
	['registration get', REG, { operation: 'get', registrationId: byId('300001'), options: opts }],
	['registration get many', REG, { operation: 'getAll', returnAll: true, options: opts }],
	[
		'registration create (POST)',
		REG,
		{
			operation: 'create',
			companyName: 'Redirect BV',
			taxIdentifier: 'BE0481516215',
			email: 'redirect@example.com',
			contactFirstName: 'Jan',
			contactLastName: 'Peeters',
			language: 'NL',
			addresses: { invoiceAddress: { street: 'Kerkstraat', streetNumber: '1', zipcode: '9000', city: 'Gent', countryCode: 'BE' } },
			options: opts,
		},
	],
	['registration deactivate (DELETE)', REG, { operation: 'deactivate', registrationId: byId('300001'), options: opts }],
	['integration get many', INT, { operation: 'getAll', registrationId: byId('300001'), returnAll: true, options: opts }],
	[
		'integration create, Chorus Pro key in the body (POST)',
		INT,
		{ operation: 'create', registrationId: byId('300001'), network: 'ChorusPro', technicalUserKey: CHORUS, options: opts },
	],
	['integration delete (DELETE)', INT, { operation: 'delete', registrationId: byId('300001'), integrationId: byId('400001'), options: opts }],
	['peppol lookup', PEPPOL, { identifier: 'BE0123456749', options: opts }],
	['identification start (POST)', IDENT, { operation: 'start', registrationId: byId('300001'), redirectUrl: 'https://app.example.test/done', options: opts }],
];

describe('hostile server: redirects are never followed', () => {
	let h: Harness;
	let a: Server;
	let b: Server;
	/** 'all': every request is redirected; 'second-page': lists answer page 1 and redirect page 2. */
	let mode: 'all' | 'second-page' = 'all';
	let turn = 0;
	const figures: Record<string, string> = {};
	const methods = new Set<string>();
	let failures = 0;

	const redirect = (res: import('http').ServerResponse, url: string, location?: string) => {
		res.statusCode = STATUSES[turn++ % STATUSES.length];
		res.setHeader('location', location ?? `${b.url}/stolen${url}`);
		res.setHeader('content-type', 'application/json');
		res.end('{"moved":true}');
	};

	beforeAll(async () => {
		b = await serveHostile((_req, res) => {
			res.setHeader('content-type', 'application/json');
			res.end('{"Items":[{"OrderID":666,"stolen":true}],"OrderID":666}');
		});
		a = await serveHostile((_req, res, request) => {
			const { url } = request;
			if (mode === 'second-page' && /^\/v1\/(orders|parties|products)(\?|$)/.test(url) && !url.includes('skip')) {
				res.setHeader('content-type', 'application/json');
				const items = Array.from({ length: 120 }, (_, i) => ({ OrderID: 1000 + i, LastModified: '2024-05-01T10:00:00Z', Created: '2024-05-01T10:00:00Z' }));
				res.end(JSON.stringify({ Items: items, NextpageLink: `${url.split('?')[0]}?$skip=120` }));
				return;
			}
			redirect(res, url);
		});
		h = await createHarness({ emulator: false, credentials: { apiKey: CANARY, partyId: '100001', environment: 'custom', baseUrl: a.url }, quiet: true });
	});
	afterAll(async () => {
		printFigures('hostile redirects', {
			...figures,
			'methods redirected': [...methods].sort().join(' '),
			'node failures (NodeApiError naming the redirect)': failures,
			'requests that reached the other host': b.requests.length,
		});
		await h?.close();
		await a?.close();
		await b?.close();
	});

	const expectRedirectError = (error: unknown) => {
		expect(error).toBeInstanceOf(NodeApiError);
		const message = (error as Error).message;
		expect(message).toMatch(new RegExp(`failed: the API answered HTTP 30[12378], a redirect to ${b.host.replace('.', '\\.')}; it was not followed`));
		expect(deepText(error)).not.toContain(CANARY);
		failures++;
	};

	it.each(SCENARIOS)('%s: fails naming the redirect, 0 requests reach the other host', async (...[label, type, parameters, input]: Scenario) => {
		// Rest parameters: jest would take a declared fourth parameter for a done callback on 3-element rows.
		mode = 'all';
		const before = a.requests.length;
		const result = await h.runNode(type, parameters, input ?? [{}]);
		expect(result.status).toBe('error');
		expectRedirectError(result.nodeError(result.nodeName as string));
		const seen = a.requests.slice(before);
		for (const r of seen) methods.add(r.method as string);
		// One request, redirected, not retried (Read Retries 3).
		expect(seen).toHaveLength(1);
		expect(seen[0].headers.apikey).toBe(CANARY);
		expect(b.requests).toHaveLength(0);
		figures[label] = `${seen[0].method} → ${result.nodeError(result.nodeName as string)?.httpCode}, requests to A ${seen.length}, to B ${b.requests.length}`;
	});

	it.each([
		['order get many, return all', ORDER, { resource: 'order', operation: 'getAll', returnAll: true, options: opts }],
		['order get many, limit 200 (plain paging)', ORDER, { resource: 'order', operation: 'getAll', limit: 200, options: opts }],
		['product get many, return all', ORDER, { resource: 'product', operation: 'getAll', returnAll: true, options: opts }],
	] as Array<[string, string, IDataObject]>)('%s: page 2 redirects, the list fails, 0 requests reach the other host', async (label, type, parameters) => {
		mode = 'second-page';
		const before = a.requests.length;
		const result = await h.runNode(type, parameters);
		expect(result.status).toBe('error');
		expectRedirectError(result.nodeError(result.nodeName as string));
		expect(result.output(result.nodeName as string)).toEqual([]);
		const seen = a.requests.slice(before);
		expect(seen.map((r) => /skip/.test(r.url as string))).toEqual([false, true]);
		expect(b.requests).toHaveLength(0);
		figures[label] = `pages requested ${seen.length} (page 2 redirected), output 0 items, to B ${b.requests.length}`;
	});

	it('order trigger: a redirected page fails the poll, 0 requests reach the other host', async () => {
		for (const which of ['all', 'second-page'] as const) {
			mode = which;
			const before = a.requests.length;
			const poller = h.poller({ type: TRIGGER, parameters: { event: 'newOrUpdatedOrder', orderType: '', direction: '', options: opts } });
			const error = await poller.poll().then(
				() => undefined,
				(e: unknown) => e,
			);
			expectRedirectError(error);
			expect(b.requests).toHaveLength(0);
			figures[`order trigger (${which})`] = `requests to A ${a.requests.length - before}, to B ${b.requests.length}`;
		}
	});

	it('a redirect to the same host is not followed either', async () => {
		mode = 'all';
		const same = await serveHostile((_req, res, request) => redirect(res, request.url, `/v1/elsewhere${request.url}`));
		const before = b.requests.length;
		const result = await h.runNode(ORDER, { resource: 'order', operation: 'get', orderId: '1000001', options: opts }, [{}], {
			runOptions: { credentialsOverride: { baseUrl: same.url } },
		});
		expect(result.status).toBe('error');
		expect(result.nodeError(result.nodeName as string)?.message).toMatch(/HTTP 30\d, a redirect to 127\.0\.0\.1:\d+; it was not followed/);
		expect(same.requests).toHaveLength(1);
		expect(b.requests.length).toBe(before);
		figures['same-host redirect'] = `requests ${same.requests.length} (not followed)`;
		await same.close();
	});

	// The credentials' declarative Test is proven not to follow a redirect in test/workflows/credential-test.test.ts.
});
