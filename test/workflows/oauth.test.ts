/**
 * The nodes with the AccessPoint OAuth2 API credential (issue #22), through n8n-core's engine
 * against the emulator's authorization server. Tokens come from a real code flow over HTTP
 * (test/harness/oauth.js); refreshes are n8n's own (helpers.refreshOAuth2Token). Counts come from
 * the emulator: its request log and its grant counters.
 */
import nock from 'nock';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import type { Logged } from '../emulator/helpers';
import { createHarness, OAUTH2_CREDENTIAL_TYPE } from '../harness';
import { webhookTrigger } from '../harness/webhookTrigger';
import { printFigures } from '../reliability/report';
import ACCOUNT_EXAMPLE from '../../emulator/fixtures/account-information.json';
import type { Harness, HarnessResult } from '../harness';

type Emu = Awaited<ReturnType<typeof createEmulator>>;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const oauth = (parameters: IDataObject): IDataObject => ({ authentication: 'oAuth2', ...parameters });
const HOUR_MS = 3_600_000;

/** Every node, one operation each (reads and writes), as a user sets them up. */
const NODES: Array<{ label: string; type: string; parameters: IDataObject; input?: IDataObject[]; read: boolean }> = [
	{ label: 'Registration › Get Many', type: 'accessPointRegistration', parameters: { operation: 'getAll', returnAll: true }, read: true },
	{ label: 'Registration › Get', type: 'accessPointRegistration', parameters: { operation: 'get', registrationId: byId('300001') }, read: true },
	{
		label: 'Integration › Get Many',
		type: 'accessPointIntegration',
		parameters: { operation: 'getAll', registrationId: byId('300001'), returnAll: true },
		read: true,
	},
	{
		label: 'Identification › Start',
		type: 'accessPointIdentification',
		parameters: { operation: 'start', registrationId: byId('300001'), redirectUrl: 'https://app.example.test/done' },
		read: false,
	},
	{
		label: 'Peppol Lookup',
		type: 'accessPointPeppolLookup',
		parameters: { identifier: '={{ $json.id }}' },
		input: [{ id: 'BE0123456749' }, { id: 'BE1002003070' }],
		read: true,
	},
	{ label: 'Order › Get Many (3 pages)', type: 'accessPointOrder', parameters: { resource: 'order', operation: 'getAll', returnAll: true }, read: true },
	{ label: 'Order › Get', type: 'accessPointOrder', parameters: { resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }, read: true },
	{ label: 'Order › Party › Get Many', type: 'accessPointOrder', parameters: { resource: 'party', operation: 'getAll', limit: 5 }, read: true },
	{ label: 'Order › Product › Get Many', type: 'accessPointOrder', parameters: { resource: 'product', operation: 'getAll', limit: 5 }, read: true },
	{
		label: 'Order › Create',
		type: 'accessPointOrder',
		parameters: {
			resource: 'order',
			operation: 'create',
			orderDate: '2024-03-01',
			customerName: 'OAuth Test NV',
			externalProviderId: '={{ $json.ext }}',
			orderLines: { lines: [{ description: 'x', quantity: 1, unitPriceExcl: 10, vatPercentage: 21 }] },
		},
		input: [{ ext: 'OAUTH-CREATE-1' }],
		read: false,
	},
];

describe('AccessPoint OAuth2 API credential (engine, emulator)', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;
	let firstOrder: string;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 300 }, quiet: true });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
		await h.connectOAuth();
		firstOrder = String(Math.min(...([...emu.store.book(party).values()] as Rec[]).map((o) => o.OrderID as number)));
	});

	afterAll(async () => {
		nock.cleanAll();
		await h?.close();
	});

	beforeEach(() => {
		emu.clearRequests();
		emu.oauth.resetStats();
		emu.config.pageSize = 120;
		emu.config.oauthAccessTokenSeconds = 3600;
	});

	const logged = () => emu.requests as Logged[];
	const api = () => logged().filter((r) => r.path.startsWith('/v1'));
	const tokenRequests = () => logged().filter((r) => r.path === '/OAuth2/token');
	const stats = () => emu.oauth.stats();
	const fail = (result: HarnessResult) => result.nodeError(result.nodeName as string) as NodeApiError | NodeOperationError | undefined;

	/** Calls `onNth` when the n-th request to `path` arrives, before the emulator handles it. */
	function onRequest(path: string, onNth: (n: number) => void): () => void {
		const list = emu.requests as Logged[];
		const push = list.push;
		let n = 0;
		list.push = function (...entries: Logged[]) {
			for (const entry of entries) if (entry.path === path) onNth(++n);
			return push.apply(this, entries);
		};
		return () => {
			list.push = push;
		};
	}

	describe('every node', () => {
		it.each(NODES.map((n) => [n.label, n] as const))('%s: Bearer token, partyID from the account, same result as with the API key', async (_label, node) => {
			const input = node.label === 'Order › Get' ? [{ id: firstOrder }] : (node.input ?? [{}]);
			const result = await h.runNode(node.type, oauth(node.parameters), input);
			expect(fail(result)).toBeUndefined();
			result.assertSuccess();
			const requests = api();
			const info = requests.filter((r) => r.path === '/v1/account/accountInformation');
			const calls = requests.filter((r) => r.path !== '/v1/account/accountInformation');
			// Once per execution, before the first call that needs the party.
			expect(info).toHaveLength(1);
			expect(requests[0].path).toBe('/v1/account/accountInformation');
			expect(calls.length).toBeGreaterThan(0);
			for (const r of requests) {
				expect(r.headers.authorization).toBe('Bearer ***');
				expect(r.headers.apikey).toBeUndefined();
				expect(r.status).toBeLessThan(300);
			}
			for (const r of calls) expect(r.headers.partyid).toBe(party);
			expect(stats().bearer.ok).toBe(requests.length);
			const outputs = result.outputs(result.nodeName as string);
			expect(outputs.flat().length).toBeGreaterThan(0);
			if (node.read) {
				emu.clearRequests();
				const withKey = await h.runNode(node.type, node.parameters, input);
				withKey.assertSuccess();
				expect(withKey.outputs(withKey.nodeName as string)).toEqual(outputs);
				expect(api().every((r) => r.headers.authorization === undefined && r.headers.apikey !== undefined)).toBe(true);
			}
			printFigures(`OAuth2: ${node.label}`, {
				'requests with the Bearer token': requests.length,
				'of which account information': info.length,
				items: outputs.flat().length,
			});
		});

		it('Order Trigger: baseline and a new order, polled with the OAuth2 credential', async () => {
			const poller = h.poller({ type: 'accessPointOrderTrigger', parameters: oauth({ event: 'newOrder', orderType: '', direction: '' }) });
			expect((await poller.poll()).items).toBeNull();
			const added = emu.store.addOrder(party, {}) as Rec;
			const second = await poller.poll();
			expect(second.items?.map((o) => o.OrderID)).toEqual([added.OrderID]);
			const requests = api();
			expect(requests.filter((r) => r.path === '/v1/account/accountInformation')).toHaveLength(2);
			for (const r of requests) expect(r.headers.authorization).toBe('Bearer ***');
			for (const r of requests.filter((q) => q.path === '/v1/orders')) expect(r.headers.partyid).toBe(party);
		});
	});

	it('AccessPoint Trigger: publishing creates its webhook and unpublishing removes it, with the OAuth2 credential', async () => {
		const t = await webhookTrigger(h, { type: 'accessPointTrigger', parameters: oauth({ events: ['orderCreated'], options: { maxRetries: 0 } }) });
		try {
			await t.activate();
			const hooks = emu.webhooks.list();
			expect(hooks.map((w) => `${w.EntityType} ${w.EntityUpdateType} ${w.PartyID}`)).toEqual([`Order I ${party}`]);
			await t.deactivate();
			expect(emu.webhooks.list()).toHaveLength(0);
			const requests = api();
			expect(requests.filter((r) => r.path === '/v1/webhooks' && r.method === 'POST')).toHaveLength(1);
			for (const r of requests) {
				expect(r.headers.authorization).toBe('Bearer ***');
				expect(r.headers.apikey).toBeUndefined();
			}
		} finally {
			await t.close();
		}
	});

	describe('Party ID', () => {
		/** The seeded registration the master account may act for. */
		const REGISTRATION_PARTY = '300001';

		it("the credential's Party ID is sent as is, with no account lookup", async () => {
			h.setCredentials({ partyId: ` ${REGISTRATION_PARTY} ` }, OAUTH2_CREDENTIAL_TYPE);
			try {
				const result = await h.runNode('accessPointOrder', oauth({ resource: 'order', operation: 'getAll', limit: 3 }));
				result.assertSuccess();
				expect(api().map((r) => [r.path, r.headers.partyid])).toEqual([['/v1/orders', REGISTRATION_PARTY]]);
			} finally {
				h.setCredentials({ partyId: '' }, OAUTH2_CREDENTIAL_TYPE);
			}
		});

		it('Act for Party wins over the account, with no account lookup', async () => {
			const result = await h.runNode(
				'accessPointOrder',
				oauth({ resource: 'order', operation: 'getAll', limit: 3, options: { actForParty: REGISTRATION_PARTY } }),
			);
			result.assertSuccess();
			expect(api().map((r) => [r.path, r.headers.partyid])).toEqual([['/v1/orders', REGISTRATION_PARTY]]);
		});

		it("the service's published account information (fixture, no top-level PartyID): the node acts for its one company", async () => {
			const host = 'https://api-published.example.test';
			const seen: Array<[string, string]> = [];
			nock(host)
				.get('/v1/account/accountInformation')
				.reply(function () {
					seen.push([this.req.path, String(this.req.headers.partyid ?? '')]);
					return [200, ACCOUNT_EXAMPLE];
				})
				.get(/^\/v1\/orders\b/)
				.reply(function () {
					seen.push([this.req.path.split('?')[0], String(this.req.headers.partyid ?? '')]);
					return [200, { Items: [{ OrderID: 1, OrderNumber: 'INV-1' }] }];
				});
			try {
				const result = await h.runNode('accessPointOrder', oauth({ resource: 'order', operation: 'getAll', limit: 1 }), [{}], {
					runOptions: { credentialTypesOverride: { [OAUTH2_CREDENTIAL_TYPE]: { ...h.credentialsOf(OAUTH2_CREDENTIAL_TYPE), baseUrl: host, partyId: '' } } },
				});
				expect(fail(result)).toBeUndefined();
				expect(seen).toEqual([
					['/v1/account/accountInformation', ''],
					['/v1/orders', String(ACCOUNT_EXAMPLE.Companies[0].PartyID)],
				]);
				expect((result.output(result.nodeName as string) as Rec[]).map((o) => o.OrderID)).toEqual([1]);
			} finally {
				nock.cleanAll();
			}
		});

		it('an account with several companies and no Party ID: an error naming each company and what to set, nothing else asked', async () => {
			emu.config.accountListsRegistrations = true;
			try {
				const result = await h.runNode('accessPointOrder', oauth({ resource: 'order', operation: 'getAll', limit: 3 }));
				const error = fail(result);
				expect(error).toBeInstanceOf(NodeOperationError);
				expect(error?.message).toBe(
					`The signed-in account may act for 2 companies and the credential names no Party ID: Emulator Master BV (BE0314159244, PartyID ${party}); Demo Entity BV (BE0204060878, PartyID ${REGISTRATION_PARTY})`,
				);
				expect(error?.description).toMatch(/^Set the company's PartyID as the OAuth2 credential's Party ID, or per node in Options › Act for Party\./);
				expect(api().map((r) => r.path)).toEqual(['/v1/account/accountInformation']);
			} finally {
				emu.config.accountListsRegistrations = false;
			}
		});
	});

	describe('token refresh', () => {
		it('a token that expires between two pages of Return All is refreshed once: every order once, no gap', async () => {
			// The second page arrives after the access token's lifetime on the API's clock.
			const restore = onRequest('/v1/orders', (n) => n === 2 && emu.clock.advance(HOUR_MS + 1000));
			try {
				const result = await h.runNode('accessPointOrder', oauth({ resource: 'order', operation: 'getAll', returnAll: true }));
				result.assertSuccess();
				const orderIds = ([...emu.store.book(party).values()] as Rec[]).map((o) => o.OrderID as number).sort((a, b) => a - b);
				const ids = (result.output(result.nodeName as string) as Rec[]).map((o) => o.OrderID as number);
				expect(ids).toHaveLength(orderIds.length);
				expect(new Set(ids).size).toBe(ids.length);
				expect([...ids].sort((a, b) => a - b)).toEqual(orderIds);
				const pages = api().filter((r) => r.path === '/v1/orders');
				expect(pages.map((r) => [r.query.$skip ?? '0', r.status])).toEqual([
					['0', 200],
					['120', 401],
					['120', 200],
					['240', 200],
				]);
				// The node's bounded refresh, then n8n's, which stores the tokens (README "OAuth2").
				expect(stats().grants.refresh_token).toBe(2);
				expect(stats().bearer.expired).toBe(1);
				// First the node's (n8n's request helper), then n8n's OAuth client's (axios).
				expect(tokenRequests().map((r) => [r.body?.grant_type, r.headers['user-agent'], r.status])).toEqual([
					['refresh_token', 'n8n', 200],
					['refresh_token', expect.stringMatching(/^axios\//), 200],
				]);
				printFigures('OAuth2: the token expires between two pages of Return All', {
					orders: `${ids.length} of ${orderIds.length}, ${new Set(ids).size} distinct`,
					'page requests': `${pages.length} (the expired page asked twice)`,
					'refresh_token grants': `${stats().grants.refresh_token} (the node's bounded one, then n8n's, which stores the tokens)`,
				});
			} finally {
				restore();
			}
		});

		it('the refreshed token is used by the next execution, with no new refresh', async () => {
			const result = await h.runNode('accessPointRegistration', oauth({ operation: 'getAll', returnAll: true }));
			result.assertSuccess();
			expect(stats().grants.refresh_token).toBe(0);
			expect(stats().bearer.expired).toBe(0);
		});

		it('a token still refused after the refresh fails the request: one refresh, one more try, no loop', async () => {
			// Every order request arrives an hour later than the last: each token is expired when used.
			const restore = onRequest('/v1/orders', () => emu.clock.advance(HOUR_MS + 1000));
			try {
				const result = await h.runNode('accessPointOrder', oauth({ resource: 'order', operation: 'getAll', limit: 5 }));
				const error = fail(result) as NodeApiError;
				expect(error).toBeInstanceOf(NodeApiError);
				expect(error.httpCode).toBe('401');
				expect(error.description).toMatch(/Reconnect the credential; check its Party ID/);
				expect(
					api()
						.filter((r) => r.path === '/v1/orders')
						.map((r) => r.status),
				).toEqual([401, 401]);
				expect(stats().grants.refresh_token).toBe(2);
			} finally {
				restore();
			}
			// Reconnect for the tests that follow (the stored token is expired on the emulator's clock).
			await h.connectOAuth();
			emu.clearRequests();
			emu.oauth.resetStats();
		});

		it('a revoked refresh token: a clear error to reconnect, after one refresh attempt and nothing more', async () => {
			emu.oauth.revoke({});
			try {
				for (const onError of ['stopWorkflow', 'continueRegularOutput'] as const) {
					emu.clearRequests();
					emu.oauth.resetStats();
					const result = await h.runNode('accessPointOrder', oauth({ resource: 'order', operation: 'getAll', returnAll: true }), [{}], { onError });
					const message = onError === 'stopWorkflow' ? fail(result)?.message : String((result.output(result.nodeName as string)[0] as Rec).error);
					expect(message).toMatch(
						/^The AccessPoint OAuth2 credential ".+" needs to be reconnected: the token endpoint refused the refresh token \(invalid_grant\)$/,
					);
					if (onError === 'stopWorkflow') expect(fail(result)?.description).toMatch(/Reconnect the credential, then rerun/);
					expect(stats().errors.invalid_grant).toBe(1);
					expect(stats().grants.refresh_token).toBe(0);
					// The account lookup was refused, nothing was asked after the refused refresh (n8n's OAuth client not at all).
					expect(api().map((r) => r.status)).toEqual([401]);
					expect(tokenRequests()).toHaveLength(1);
				}
			} finally {
				await h.connectOAuth();
			}
		});
	});

	describe('before any request', () => {
		it('a credential not connected yet', async () => {
			h.setCredentials({ oauthTokenData: undefined }, OAUTH2_CREDENTIAL_TYPE);
			try {
				const result = await h.runNode('accessPointRegistration', oauth({ operation: 'getAll', returnAll: true }));
				const error = fail(result);
				expect(error).toBeInstanceOf(NodeOperationError);
				expect(error?.message).toBe('The AccessPoint Sign-In OAuth2 API credential is not connected');
				expect(error?.description).toMatch(/Connect my account/);
				expect(logged()).toHaveLength(0);
			} finally {
				await h.connectOAuth();
				emu.clearRequests();
			}
		});

		it.each([
			['plain http on a public host', 'http://login.example.test/OAuth2/token'],
			['not a URL', 'token endpoint'],
		])('a Token URL that may not receive the secret (%s)', async (_label, accessTokenUrl) => {
			const result = await h.runNode('accessPointRegistration', oauth({ operation: 'getAll', returnAll: true }), [{}], {
				runOptions: { credentialTypesOverride: { [OAUTH2_CREDENTIAL_TYPE]: { ...h.credentialsOf(OAUTH2_CREDENTIAL_TYPE), tokenUrl: accessTokenUrl } } },
			});
			const error = fail(result);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toMatch(/Token URL must use https/);
			expect(logged()).toHaveLength(0);
		});
	});

	describe("n8n's OAuth2 request path keeps the transport's bounds", () => {
		it('an API redirect is not followed: the Bearer token stays on the configured host', async () => {
			const api = 'https://api-moved.example.test';
			const elsewhere = 'https://elsewhere.example.test';
			const reached: string[] = [];
			nock(api)
				.get(/^\/v1\/orders?\/1$/)
				.reply(302, '', { Location: `${elsewhere}/v1/orders/1` });
			nock(elsewhere)
				.persist()
				.get(/.*/)
				.reply(function (uri) {
					reached.push(`${uri} ${String(this.req.headers.authorization ?? '')}`);
					return [200, { OrderID: 1 }];
				});
			try {
				const result = await h.runNode('accessPointOrder', oauth({ resource: 'order', operation: 'get', orderId: '1', options: { maxRetries: 0 } }), [{}], {
					runOptions: { credentialTypesOverride: { [OAUTH2_CREDENTIAL_TYPE]: { ...h.credentialsOf(OAUTH2_CREDENTIAL_TYPE), baseUrl: api, partyId: party } } },
				});
				expect(fail(result)?.message).toMatch(/answered HTTP 302, a redirect to elsewhere\.example\.test; it was not followed$/);
				expect(reached).toEqual([]);
			} finally {
				nock.cleanAll();
			}
		});
	});

	describe('a token URL that redirects', () => {
		it('the redirect is not followed: neither the client secret nor the refresh token reaches the redirect target', async () => {
			const tokenHost = 'https://token.example.test';
			const elsewhere = 'https://elsewhere.example.test';
			const seen: string[] = [];
			nock(tokenHost)
				.persist()
				.post('/OAuth2/token')
				.reply(function (_uri, body) {
					seen.push(`token: ${String(typeof body === 'string' ? body : JSON.stringify(body))}`);
					return [307, '', { Location: `${elsewhere}/steal` }];
				});
			nock(elsewhere)
				.persist()
				.post('/steal')
				.reply(function (_uri, body) {
					seen.push(`elsewhere: ${String(body)}`);
					return [200, { access_token: 'injected', token_type: 'Bearer', expires_in: 3600 }];
				});
			const restore = onRequest('/v1/orders', (n) => n === 1 && emu.clock.advance(HOUR_MS + 1000));
			try {
				const result = await h.runNode('accessPointOrder', oauth({ resource: 'order', operation: 'getAll', limit: 5 }), [{}], {
					runOptions: {
						credentialTypesOverride: { [OAUTH2_CREDENTIAL_TYPE]: { ...h.credentialsOf(OAUTH2_CREDENTIAL_TYPE), tokenUrl: `${tokenHost}/OAuth2/token` } },
					},
				});
				const error = fail(result);
				expect(error?.message).toMatch(/the Token URL answered HTTP 307, a redirect to elsewhere\.example\.test; it was not followed$/);
				expect(error?.description).toMatch(/Token URL/);
				// The refresh went to the Token URL only; the redirect target got nothing.
				expect(seen).toHaveLength(1);
				expect(seen[0]).toMatch(/^token: grant_type=refresh_token&refresh_token=\S+&client_id=emu-oauth-client&client_secret=\S+$/);
				expect(stats().grants.refresh_token).toBe(0);
			} finally {
				restore();
				nock.cleanAll();
				await h.connectOAuth();
			}
		});
	});
});
