/**
 * The nodes with the AccessPoint OAuth2 API credential (issue #22), through n8n-core's engine
 * against the emulator's authorization server. Tokens come from a real code flow over HTTP
 * (test/harness/oauth.js); refreshes are n8n's own (helpers.refreshOAuth2Token), one per expiry
 * (refresh tokens are single-use; the emulator revokes the sign-in when one is reused). Counts come from
 * the emulator: its request log and its grant counters.
 */
import nock from 'nock';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import { filesOf } from '../../emulator/files';
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
		emu.config.oauthRevokeOnReuse = true;
	});

	const logged = () => emu.requests as Logged[];
	const api = () => logged().filter((r) => r.path.startsWith('/v1'));
	const tokenRequests = () => logged().filter((r) => r.path === '/OAuth2/token');
	const stats = () => emu.oauth.stats();
	const fail = (result: HarnessResult) => result.nodeError(result.nodeName as string) as NodeApiError | NodeOperationError | undefined;

	/** Calls `onNth` when the n-th request to `path` arrives, before the emulator handles it. */
	function onRequest(path: string | RegExp, onNth: (n: number, entry: Logged) => void): () => void {
		const list = emu.requests as Logged[];
		const push = list.push;
		let n = 0;
		list.push = function (...entries: Logged[]) {
			for (const entry of entries) if (typeof path === 'string' ? entry.path === path : path.test(entry.path)) onNth(++n, entry);
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

	describe('token refresh: one refresh grant per expiry, with reuse detection on (a rotated refresh token used again revokes the sign-in)', () => {
		/** The access token expires now on the emulator's clock. */
		const expire = () => emu.clock.advance(HOUR_MS + 1000);
		/** Exactly one refresh, none refused, no rotated token reused; the next run needs none. */
		const oneRefresh = async () => {
			expect(stats().grants.refresh_token).toBe(1);
			expect(stats().reuse).toBe(0);
			expect(stats().errors).toEqual({});
			expect(tokenRequests()).toHaveLength(1);
			emu.oauth.resetStats();
			const next = await h.runNode('accessPointRegistration', oauth({ operation: 'getAll', returnAll: true }));
			next.assertSuccess();
			expect([stats().grants.refresh_token, stats().bearer.expired]).toEqual([0, 0]);
		};
		const withParty = async (run: () => Promise<void>) => {
			h.setCredentials({ partyId: party }, OAUTH2_CREDENTIAL_TYPE);
			try {
				await run();
			} finally {
				h.setCredentials({ partyId: '' }, OAUTH2_CREDENTIAL_TYPE);
			}
		};

		it('Return All with the token expiring mid-list while pages run in parallel: one refresh, every order once', async () => {
			emu.config.pageSize = 30;
			const restore = onRequest('/v1/orders', (n) => n === 4 && expire());
			try {
				const result = await h.runNode('accessPointOrder', oauth({ resource: 'order', operation: 'getAll', returnAll: true }));
				result.assertSuccess();
				const orderIds = ([...emu.store.book(party).values()] as Rec[]).map((o) => o.OrderID as number).sort((a, b) => a - b);
				const ids = (result.output(result.nodeName as string) as Rec[]).map((o) => o.OrderID as number);
				expect([...ids].sort((a, b) => a - b)).toEqual(orderIds);
				const pages = api().filter((r) => r.path === '/v1/orders');
				const refused = pages.filter((r) => r.status === 401);
				// Several pages were in flight when the token expired; each refused one was asked once more.
				expect(refused.length).toBeGreaterThan(1);
				for (const r of refused) expect(pages.filter((p) => p.query.$skip === r.query.$skip && p.status === 200)).toHaveLength(1);
				printFigures('OAuth2: the token expires mid-list, pages in parallel', {
					orders: `${ids.length} of ${orderIds.length}`,
					'page requests': `${pages.length}, of which ${refused.length} refused (401) and asked again`,
					'refresh_token grants': stats().grants.refresh_token,
				});
				await oneRefresh();
			} finally {
				restore();
			}
		});

		it('5 concurrent Peppol lookups on an expired token: one refresh, the others wait for it', async () => {
			const kbo = (n: number) => `BE${String(4_000_000 + n).padStart(8, '0')}${String(97 - ((4_000_000 + n) % 97)).padStart(2, '0')}`;
			await withParty(async () => {
				expire();
				const input = [1, 2, 3, 4, 5].map((n) => ({ id: kbo(n) }));
				const result = await h.runNode('accessPointPeppolLookup', { authentication: 'oAuth2', identifier: '={{ $json.id }}', singleOutput: true }, input);
				result.assertSuccess();
				const lookups = api().filter((r) => r.path.startsWith('/v1/peppol/participantInformation/'));
				expect(lookups.filter((r) => r.status === 401).length).toBeGreaterThan(1);
				expect(lookups.filter((r) => r.status === 200)).toHaveLength(5);
				printFigures('OAuth2: 5 concurrent lookups on an expired token', {
					'lookup requests': `${lookups.length} (${lookups.filter((r) => r.status === 401).length} refused, then asked again)`,
					'refresh_token grants': stats().grants.refresh_token,
				});
				await oneRefresh();
			});
		});

		it('a create on an expired token: one refresh, the order created once', async () => {
			await withParty(async () => {
				const before = emu.store.book(party).size;
				// The token expires as the order is sent (after the check for an existing order).
				let posts = 0;
				const restore = onRequest('/v1/orders', (_n, entry) => entry.method === 'POST' && ++posts === 1 && expire());
				const node = NODES.find((n) => n.label === 'Order › Create') as (typeof NODES)[number];
				const result = await h.runNode(node.type, oauth(node.parameters), [{ ext: 'OAUTH-REFRESH-CREATE' }]).finally(restore);
				result.assertSuccess();
				expect(emu.store.book(party).size).toBe(before + 1);
				expect(api().map((r) => [r.method, r.status])).toEqual([
					['GET', 200],
					['POST', 401],
					['POST', 200],
					['GET', 200], // the made order read back for its number and totals, on the refreshed token
				]);
				await oneRefresh();
			});
		});

		it('a file read on a token expiring just before it: one refresh, the file read', async () => {
			const { FileID: fileId } = filesOf(emu.store).put(party, Number(firstOrder), { FileName: 'oauth.pdf', content: Buffer.from('%PDF-1.4 oauth') }, 'pdf');
			await withParty(async () => {
				const restore = onRequest(/^\/v1\/files\//, (n) => n === 1 && expire());
				try {
					const result = await h.runNode('accessPointOrder', oauth({ resource: 'file', operation: 'get', fileId }));
					result.assertSuccess();
					expect(api().map((r) => r.status)).toEqual([401, 200]);
					await oneRefresh();
				} finally {
					restore();
				}
			});
		});

		it('the Order Trigger polling on an expired token: one refresh', async () => {
			const poller = h.poller({ type: 'accessPointOrderTrigger', parameters: oauth({ event: 'newOrder', orderType: '', direction: '' }) });
			expect((await poller.poll()).items).toBeNull();
			emu.oauth.resetStats();
			emu.clearRequests();
			expire();
			const added = emu.store.addOrder(party, {}) as Rec;
			expect((await poller.poll()).items?.map((o) => o.OrderID)).toEqual([added.OrderID]);
			await oneRefresh();
		});

		it('Continue On Fail over five items on an expired token: one refresh; an unknown order is its own error item', async () => {
			await withParty(async () => {
				expire();
				const ids = [firstOrder, '999999991', firstOrder, firstOrder, firstOrder];
				const result = await h.runNode(
					'accessPointOrder',
					oauth({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }),
					ids.map((id) => ({ id })),
					{
						onError: 'continueRegularOutput',
					},
				);
				const out = result.output(result.nodeName as string) as Rec[];
				expect(out.map((o) => (o.error ? 'error' : o.OrderID))).toEqual([
					Number(firstOrder),
					'error',
					Number(firstOrder),
					Number(firstOrder),
					Number(firstOrder),
				]);
				await oneRefresh();
			});
		});

		it('a refused refresh over five items (Continue On Fail): one token request, every item says reconnect', async () => {
			emu.oauth.revoke({});
			try {
				await withParty(async () => {
					const result = await h.runNode(
						'accessPointOrder',
						oauth({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }),
						[1, 2, 3, 4, 5].map(() => ({ id: firstOrder })),
						{
							onError: 'continueRegularOutput',
						},
					);
					const out = result.output(result.nodeName as string) as Rec[];
					expect(out).toHaveLength(5);
					for (const item of out)
						expect(String(item.error)).toMatch(/needs to be reconnected: the token endpoint refused the refresh token \(invalid_grant\)$/);
					expect(tokenRequests()).toHaveLength(1);
					expect(stats().grants.refresh_token).toBe(0);
				});
			} finally {
				await h.connectOAuth();
			}
		});

		it('a token still refused after the refresh fails the request: one refresh, one more try, no loop', async () => {
			// Every order request arrives an hour later than the last: each token is expired when used.
			const restore = onRequest('/v1/orders', () => expire());
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
				expect(stats().grants.refresh_token).toBe(1);
				expect(stats().reuse).toBe(0);
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
					// The account lookup was refused, nothing was asked after the refused refresh.
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

	describe('a Token URL on another host than the API (n8n refreshes: SECURITY.md "OAuth2 refresh")', () => {
		it('is refused before any request: neither the client secret nor the refresh token leaves for it', async () => {
			const tokenHost = 'https://token.example.test';
			const seen: string[] = [];
			nock(tokenHost)
				.persist()
				.post('/OAuth2/token')
				.reply(function (_uri, body) {
					seen.push(String(body));
					return [200, { access_token: 'injected', token_type: 'Bearer', expires_in: 3600 }];
				});
			emu.clock.advance(HOUR_MS + 1000);
			try {
				const result = await h.runNode('accessPointOrder', oauth({ resource: 'order', operation: 'getAll', limit: 5 }), [{}], {
					runOptions: {
						credentialTypesOverride: { [OAUTH2_CREDENTIAL_TYPE]: { ...h.credentialsOf(OAUTH2_CREDENTIAL_TYPE), tokenUrl: `${tokenHost}/OAuth2/token` } },
					},
				});
				const error = fail(result);
				expect(error).toBeInstanceOf(NodeOperationError);
				expect(error?.message).toBe(`The credential's Token URL must be on the API's host ${new URL(emu.url).host}, got "${tokenHost}/OAuth2/token"`);
				expect(seen).toEqual([]);
				expect(logged()).toHaveLength(0);
			} finally {
				nock.cleanAll();
				await h.connectOAuth();
			}
		});
	});
});
