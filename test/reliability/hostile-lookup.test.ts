/**
 * Issue 37 items 5 and 7, through n8n-core's engine against a hostile server: a lookup answer
 * that cannot be read (an empty 200, `Items` not a list, no `Items`) is an error, never "none
 * found": Party › Create, Product › Create or Update and the sync-customers template create
 * nothing. A found record whose ID is missing or not a number is an error naming what came:
 * never `PATCH /v1/parties/undefined` nor `{"ProductID": null}`.
 */
import type { IDataObject } from 'n8n-workflow';

import { loadTemplate } from '../../scripts/demo';
import { createHarness } from '../harness';
import type { Harness, WorkflowJson } from '../harness';
import { serveHostile } from './hostile-server';
import type { HostileServer } from './hostile-server';

const ORDER = 'accessPointOrder';
const opts = { maxRetries: 0 };
const party = { resource: 'party', operation: 'create', name: 'Acme NV', vatNumber: 'BE0123456749', partyType: 'Customer', options: opts };
const product = { resource: 'product', operation: 'createOrUpdate', reference: 'SKU-1', options: opts };

/** [label, parameters, the lookup's answer (undefined: an empty 200), expected message] */
type Case = [string, IDataObject, unknown, RegExp];
const UNREADABLE: Case[] = [
	[
		'party, an empty 200',
		party,
		undefined,
		/^Find party where .*: the service's answer cannot be read \(an empty answer\), so nothing was created or changed$/,
	],
	['party, Items not a list', party, { Items: 'none' }, /^Find party where .*: the service's answer cannot be read \(\{"Items":"none"\}\)/],
	['party, no Items', party, { Count: 0 }, /^Find party where .*: the service's answer cannot be read \(\{"Count":0\}\)/],
	['product, an empty 200', product, undefined, /^Find product where .*: the service's answer cannot be read \(an empty answer\)/],
	['product, Items not a list', product, { Items: {} }, /^Find product where .*: the service's answer cannot be read/],
	['product, no Items', product, { NextPageLink: null }, /^Find product where .*: the service's answer cannot be read/],
];
const ODD_IDS: Case[] = [
	[
		'party found without a PartyID (If It Exists: Update)',
		{ ...party, ifFound: 'update', partyFields: { city: 'Gent' } },
		{ Items: [{ Name: 'Acme NV', VATNumber: 'BE0123456749', PartyType: 'Customer' }] },
		/^Find party: the service answered a party whose PartyID is missing, so nothing was created or changed$/,
	],
	[
		'product found with ProductID "abc"',
		product,
		{ Items: [{ ProductID: 'abc', Reference: 'SKU-1' }] },
		/^Find product: the service answered a product whose ProductID is "abc"/,
	],
	['product found with a ProductID beyond 2^53', product, { Items: [{ ProductID: 2 ** 53 + 2, Reference: 'SKU-1' }] }, /whose ProductID is 9007199254740994/],
];

describe('hostile server: lookups before a create', () => {
	let h: Harness;
	let server: HostileServer;
	let answer: unknown;

	beforeAll(async () => {
		server = await serveHostile((_req, res, request) => {
			res.setHeader('content-type', 'application/json');
			res.end(request.method !== 'GET' ? '5900001' : answer === undefined ? '' : JSON.stringify(answer));
		});
		h = await createHarness({ emulator: false, credentials: { apiKey: 'k', partyId: '100001', environment: 'custom', baseUrl: server.url }, quiet: true });
	});
	afterAll(async () => {
		await h?.close();
		await server?.close();
	});
	const writes = () => server.requests.filter((r) => r.method !== 'GET');

	it.each([...UNREADABLE, ...ODD_IDS])('%s: an error naming it, and no write', async (...[, parameters, body, message]: Case) => {
		answer = body;
		server.requests.length = 0;
		const result = await h.runNode(ORDER, parameters);
		expect(result.status).toBe('error');
		expect(result.nodeError(result.nodeName)?.message).toMatch(message);
		expect(writes()).toEqual([]);
		expect(server.requests.map((r) => r.url).filter((url) => /undefined|null|NaN/.test(url))).toEqual([]);
	});

	it('the sync-customers template: an unreadable lookup stops the sync and creates no customer', async () => {
		answer = undefined;
		server.requests.length = 0;
		const result = await h.run(loadTemplate('sync-customers.json') as WorkflowJson);
		expect(result.status).toBe('error');
		expect(result.nodeError('Create or update the customer')?.message).toMatch(/the service's answer cannot be read \(an empty answer\)/);
		expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
		expect(writes()).toEqual([]);
	});
});
