/**
 * The credentials' Test button as n8n 2.41 runs it (issue #31 point 3): a declarative `test`
 * request, no node code, replayed with n8n-core's own classes (credentialTestRun.ts) against the
 * emulator and nock.
 */
import nock from 'nock';
import type { ICredentialDataDecryptedObject, ICredentialTestRequest, INodeType } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import { serveJson } from '../harness/loopback';
import { loadPackageNodes } from '../unit/packageNodes';
import { runCredentialTest } from './credentialTestRun';

const TYPE = 'accessPointApi';
type Answer = { status: number; path: string; apikey?: string; partyid?: string };

describe('the AccessPoint API credential Test (declarative, n8n-core RoutingNode as n8n 2.41 runs it)', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 3 }, quiet: true });
	});
	afterAll(async () => {
		nock.cleanAll();
		nock.enableNetConnect();
		await h?.close();
	});
	afterEach(() => {
		nock.cleanAll();
		nock.enableNetConnect();
	});

	const test = (data: ICredentialDataDecryptedObject, type = TYPE) => runCredentialTest(h, data, type);
	const emulator = () =>
		({
			environment: 'custom',
			baseUrl: h.emulator.url,
			apiKey: h.emulator.credentials.apiKey,
			partyId: h.emulator.credentials.partyId,
		}) as ICredentialDataDecryptedObject;
	const answers = () =>
		(h.emulator.requests as Array<{ path: string; status: number; headers: Record<string, string> }>).map(
			(r): Answer => ({ status: r.status, path: r.path, apikey: r.headers.apikey, partyid: r.headers.partyid }),
		);

	it("no node tests the credential any more: no testedBy, no credentialTest method (n8n uses the credential's own test)", () => {
		for (const { description, methods } of loadPackageNodes() as Array<INodeType>) {
			expect((description.credentials ?? []).map((c) => c.testedBy)).toEqual([undefined, undefined]);
			expect(methods?.credentialTest).toBeUndefined();
		}
		expect(h.credentialTypes.getByName(TYPE).test?.request).toMatchObject({ url: '/v1/orders', qs: { $top: 1 }, disableFollowRedirect: true });
	});

	it('the right key and Party ID: OK, after one read of at most one order, with the key and Party ID', async () => {
		h.emulator.clearRequests();
		expect(await test(emulator())).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(answers()).toEqual([{ status: 200, path: '/v1/orders', apikey: '***', partyid: h.emulator.credentials.partyId }]);
		expect((h.emulator.requests as Array<{ query: Record<string, string> }>)[0].query).toEqual({ $top: '1' });
	});

	it('a wrong key says what to check, and does not echo the key', async () => {
		const wrongKey = `${String(emulator().apiKey)}-revoked`;
		const result = await test({ ...emulator(), apiKey: wrongKey });
		expect(result).toEqual({
			status: 'Error',
			message: 'HTTP 401: check the API Key, the Party ID and the Environment (sandbox and production keys differ).',
		});
		expect(result.message).not.toContain(wrongKey);
	});

	it("a Party ID that is not the account's says the same", async () => {
		expect((await test({ ...emulator(), partyId: '999999' })).message).toMatch(/^HTTP 401: check the API Key, the Party ID and the Environment/);
	});

	it.each([
		['sandbox', { environment: 'sandbox' }, 'https://api.sandbox.billit.be'],
		['production', { environment: 'production' }, 'https://api.billit.be'],
	])('Environment %s: the Test goes to its documented host', async (_label, fields, host) => {
		nock.disableNetConnect();
		const seen: string[] = [];
		nock(host)
			.get('/v1/orders')
			.query({ $top: '1' })
			.reply(function () {
				seen.push(`${String(this.req.headers.apikey)} ${String(this.req.headers.partyid)}`);
				return [200, { Items: [] }];
			});
		expect(await test({ ...emulator(), ...fields, baseUrl: '' })).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(seen).toEqual([`${String(emulator().apiKey)} ${String(emulator().partyId)}`]);
	});

	it('a plain-http Base URL on another host is refused before anything is sent (no connection, no DNS lookup)', async () => {
		nock.disableNetConnect();
		const reached: string[] = [];
		nock('http://api.example.test')
			.persist()
			.get(/.*/)
			.reply(function (uri) {
				reached.push(uri);
				return [200, '{}'];
			});
		// The https rule as the nodes apply it: the request's address is then no URL, and n8n stops at parsing it.
		for (const baseUrl of ['http://api.example.test', 'http://localhost.example.test:80', 'ftp://api.example.test']) {
			expect(await test({ ...emulator(), baseUrl })).toEqual({ status: 'Error', message: expect.stringMatching(/^(Invalid URL|ERR_INVALID_URL)$/) });
		}
		expect(reached).toEqual([]);
		// https on another host, and plain http on a loopback address, are asked.
		nock('https://proxy.example.test').get('/v1/orders').query(true).reply(200, { Items: [] });
		expect(await test({ ...emulator(), baseUrl: ' https://proxy.example.test/ ' })).toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	it('a closed port fails with the code n8n shows', async () => {
		const server = await serveJson(() => '{}');
		await server.close();
		expect(await test({ ...emulator(), baseUrl: server.url })).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});

	it.each([301, 302, 307, 308])('a redirect (HTTP %s) is not followed: the key stays on the configured host, and the message says so', async (status) => {
		nock.disableNetConnect();
		const reached: string[] = [];
		nock('https://moved.example.test').get('/v1/orders').query(true).reply(status, '', { Location: 'https://elsewhere.example.test/v1/orders' });
		nock('https://elsewhere.example.test')
			.persist()
			.get(/.*/)
			.reply(function (uri) {
				reached.push(`${uri} ${String(this.req.headers.apikey)}`);
				return [200, '{}'];
			});
		expect(await test({ ...emulator(), baseUrl: 'https://moved.example.test' })).toEqual({
			status: 'Error',
			message: `HTTP ${status}: a redirect, not followed, so the API key stayed here. If the API has moved, set its new address as the Base URL (Environment: Custom).`,
		});
		expect(reached).toEqual([]);
	});

	it('403 and 404 say what to check', async () => {
		nock.disableNetConnect();
		nock('https://api.example.test').get('/v1/orders').query(true).reply(403, {}).get('/v1/orders').query(true).reply(404, {});
		const base = { ...emulator(), baseUrl: 'https://api.example.test' };
		expect((await test(base)).message).toMatch(/^HTTP 403: this account may not use the API/);
		expect((await test(base)).message).toBe('HTTP 404: check the Environment, or the Base URL for Custom.');
	});

	it("the OAuth2 credential's Test keeps the same https rule, and a refused token says to reconnect", async () => {
		nock.disableNetConnect();
		const reached: string[] = [];
		nock('http://api.example.test')
			.persist()
			.get(/.*/)
			.reply(function (uri) {
				reached.push(uri);
				return [200, '{}'];
			});
		const oauth = {
			environment: 'custom',
			baseUrl: 'http://api.example.test',
			oauthTokenData: { access_token: 'at', token_type: 'Bearer' },
		} as ICredentialDataDecryptedObject;
		const rules = (h.credentialTypes.getByName('accessPointOAuth2Api').test as ICredentialTestRequest).rules ?? [];
		expect(rules.find((r) => r.type === 'responseCode' && r.properties.value === 401)?.properties.message).toBe(
			'HTTP 401: the API refused the access token. Reconnect the credential.',
		);
		expect(await test(oauth, 'accessPointOAuth2Api').catch((e: Error) => ({ status: 'Error', message: e.message }))).toMatchObject({ status: 'Error' });
		expect(reached).toEqual([]);
	});
});
