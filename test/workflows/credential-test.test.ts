/**
 * Issue 24 point 6: the credential's Test button as n8n runs it. n8n's CredentialsTester
 * (n8n 2.41, services/credentials-tester.service.ts) uses a credential's own `test` first,
 * then the first node of `getSupportedNodes` whose credential entry has `testedBy`, and
 * calls `methods.credentialTest[testedBy]` with n8n-core's CredentialTestContext. That
 * lookup is replayed here over the loaded package, and the function runs in the real
 * CredentialTestContext (n8n's legacy request helper, axios) against the emulator.
 */
import nock from 'nock';
import type { ICredentialDataDecryptedObject, ICredentialTestFunction, INodeType } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import { boot } from '../harness/env';
import { serveJson } from '../harness/loopback';

const TYPE = 'accessPointApi';

describe('the AccessPoint API credential test (n8n-core CredentialTestContext, emulator)', () => {
	let h: Harness;
	let testFunction: ICredentialTestFunction;
	let testedByNodes: string[];

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 0 }, quiet: true });
		// CredentialsTester.getCredentialTestFunction, for a credential without `test`.
		expect(h.credentialTypes.getByName(TYPE).test).toBeUndefined();
		const found: Array<{ node: string; fn: ICredentialTestFunction }> = [];
		for (const name of h.credentialTypes.getSupportedNodes(TYPE)) {
			const nodeType = h.nodeTypes.getByName(name) as INodeType;
			for (const { name: credential, testedBy } of nodeType.description.credentials ?? []) {
				if (credential === TYPE && typeof testedBy === 'string') {
					found.push({ node: name, fn: nodeType.methods?.credentialTest?.[testedBy] as ICredentialTestFunction });
				}
			}
		}
		testedByNodes = found.map((f) => f.node);
		testFunction = found[0].fn;
	});
	afterAll(async () => {
		nock.cleanAll();
		nock.enableNetConnect();
		await h?.close();
	});

	async function test(data: ICredentialDataDecryptedObject) {
		const { core } = boot();
		const context = new core.CredentialTestContext({} as never);
		return await testFunction.call(context, { id: '1', name: 'AccessPoint account', type: TYPE, data });
	}
	const emulator = () => ({ ...h.emulator.credentials }) as unknown as ICredentialDataDecryptedObject;

	it('every node that uses the credential tests it with the same function', () => {
		expect(testedByNodes.map((n) => n.split('.')[1]).sort()).toEqual([
			'accessPointIdentification',
			'accessPointInbox',
			'accessPointInboxTrigger',
			'accessPointIntegration',
			'accessPointOrder',
			'accessPointOrderTrigger',
			'accessPointPeppolLookup',
			'accessPointRegistration',
			'accessPointTrigger',
		]);
		for (const name of testedByNodes) {
			const nodeType = h.nodeTypes.getByName(name) as INodeType;
			expect(Object.values(nodeType.methods?.credentialTest ?? {})).toEqual([testFunction]);
		}
	});

	it('the right key and Party ID: OK, after one read of the registrations', async () => {
		h.emulator.clearRequests();
		expect(await test(emulator())).toEqual({ status: 'OK', message: 'Connection successful: the API accepted the API key and Party ID' });
		expect((h.emulator.requests as Array<{ method: string; path: string }>).map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /v1/einvoices/registrations',
		]);
	});

	it("a wrong key shows the API's message and what to check, not \"Unauthorized\"", async () => {
		const wrongKey = `${String(emulator().apiKey)}-revoked`;
		const result = await test({ ...emulator(), apiKey: wrongKey });
		expect(result).toEqual({
			status: 'Error',
			message:
				"Credential test failed with HTTP 401 (Unauthorized): The apikey is not valid: no account has this API key. Check the API Key and the Party ID (your master account's), and the Environment: sandbox and production keys differ.",
		});
		expect(result.message).not.toContain(wrongKey);
	});

	it("a Party ID that is not the account's shows the API's message", async () => {
		const result = await test({ ...emulator(), partyId: '999999' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Credential test failed with HTTP 401 \(Unauthorized\): The partyID '999999' is not valid for this apikey/);
	});

	it('a plain-http Base URL on another host shows the https rule, and nothing is sent', async () => {
		nock.disableNetConnect();
		nock.enableNetConnect('127.0.0.1');
		const reached: string[] = [];
		nock('http://api.example.test')
			.persist()
			.get(/.*/)
			.reply(function (uri) {
				reached.push(uri);
				return [200, '{}'];
			});
		const result = await test({ ...emulator(), baseUrl: 'http://api.example.test' });
		expect(result).toEqual({
			status: 'Error',
			message:
				'The credential\'s Base URL must use https (plain http is only allowed for localhost/127.0.0.1), got "http://api.example.test". Nothing was sent.',
		});
		expect(reached).toEqual([]);
		nock.cleanAll();
		nock.enableNetConnect();
	});

	it('a host that does not resolve is named with what to check (not a bare "ENOTFOUND")', async () => {
		// n8n's request helper failing as it does for an unknown host (no DNS query leaves the machine).
		const context = { helpers: { request: async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND api.exmaple.test'), { code: 'ENOTFOUND' })) } };
		const result = await testFunction.call(context as never, { id: '1', name: 'c', type: TYPE, data: { ...emulator(), baseUrl: 'https://api.exmaple.test' } });
		expect(result).toEqual({
			status: 'Error',
			message: "Credential test failed: the host name could not be resolved (api.exmaple.test). Check the credential's environment and Base URL.",
		});
	});

	it('a closed port is named the same way, through n8n\'s real request helper', async () => {
		// A port that was just free'd: nothing listens there.
		const server = await serveJson(() => '{}');
		await server.close();
		const port = new URL(server.url).port;
		const result = await test({ ...emulator(), baseUrl: `http://127.0.0.1:${port}` });
		expect(result).toEqual({
			status: 'Error',
			message: `Credential test failed: the connection was refused (127.0.0.1:${port}). Check the credential's environment and Base URL.`,
		});
	});

	it('a redirect is not followed: the key stays on the configured host', async () => {
		nock.disableNetConnect();
		const reached: string[] = [];
		nock('https://moved.example.test').get('/v1/einvoices/registrations').reply(302, '', { Location: 'https://elsewhere.example.test/v1/x' });
		nock('https://elsewhere.example.test')
			.persist()
			.get(/.*/)
			.reply(function (uri) {
				reached.push(uri);
				return [200, '{}'];
			});
		const result = await test({ ...emulator(), baseUrl: 'https://moved.example.test' });
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			'Credential test failed: the API answered HTTP 302, a redirect to elsewhere.example.test; it was not followed, so the key stays on moved.example.test. If the API has moved, set its new address as the Base URL.',
		);
		expect(reached).toEqual([]);
		nock.cleanAll();
		nock.enableNetConnect();
	});

	it('an empty key or Party ID is named before anything is sent', async () => {
		expect(await test({ ...emulator(), apiKey: '  ' })).toEqual({ status: 'Error', message: 'The API Key is empty. Paste the API key of the master account.' });
		expect(await test({ ...emulator(), partyId: '' })).toEqual({ status: 'Error', message: 'The Party ID is empty. Enter the PartyID of the master account.' });
	});
});
