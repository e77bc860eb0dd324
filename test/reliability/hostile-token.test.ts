/**
 * Hostile server: the OAuth2 token endpoint (issue #33 point 3, issue #38), through n8n-core's engine
 * with the AccessPoint Sign-In OAuth2 API credential against loopback servers in this test's process.
 * The API refuses the access token (401), so the node has n8n refresh it (helpers.refreshOAuth2Token).
 * The Token URL is on the API's host (checked before any request); what n8n's refresh does there is
 * n8n's, and SECURITY.md "OAuth2 refresh" states the residual these tests pin down:
 * (a) a 307 of the real refresh to another host is followed by n8n (the residual): the run still
 *     fails after one refresh, nothing is asked again, no secret is in the error;
 * (c) an answer that trickles: the run stops at the Request Timeout, the refresh is not asked again.
 * (An endless or inflating token answer is read by n8n without a bound: the residual; not run here.)
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness, OAUTH2_CREDENTIAL_TYPE } from '../harness';
import type { Harness } from '../harness';
import { serveHostile, trickle } from './hostile-server';
import type { HostileServer, RecordedRequest } from './hostile-server';
import { printFigures } from './report';

const CLIENT_CANARY = 'hostile-token-client-secret-8d21';
const REFRESH = 'hostile-token-refresh-token-3c7a';
const ACCESS = 'hostile-token-access-token-19fe';

type Res = import('http').ServerResponse;

describe('hostile server: the OAuth2 token endpoint', () => {
	let h: Harness;
	let api: HostileServer;
	let elsewhere: HostileServer;
	let token: (res: Res, request: RecordedRequest) => void = (res) => res.end('{}');
	const figures: Record<string, string> = {};
	const written: number[] = [];

	beforeAll(async () => {
		elsewhere = await serveHostile((_req, res) => {
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ access_token: 'injected', token_type: 'Bearer', expires_in: 3600, refresh_token: 'injected' }));
		});
		api = await serveHostile((_req, res, request) => {
			if (request.url.startsWith('/OAuth2/token')) return token(res, request);
			// Every API call: the access token expired.
			res.statusCode = 401;
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ errors: [{ Code: 'Unauthorized', Description: 'The access token expired' }] }));
		});
		h = await createHarness({
			emulator: false,
			quiet: true,
			credentialTypes: {
				[OAUTH2_CREDENTIAL_TYPE]: {
					environment: 'custom',
					baseUrl: api.url,
					clientId: 'hostile-client',
					clientSecret: CLIENT_CANARY,
					partyId: '100001',
					oauthTokenData: { access_token: ACCESS, refresh_token: REFRESH, token_type: 'Bearer', expires_in: 3600 },
				},
			},
		});
	});
	afterAll(async () => {
		printFigures('hostile token endpoint', figures);
		await h?.close();
		await api?.close();
		await elsewhere?.close();
	});
	beforeEach(() => {
		api.requests.length = 0;
		elsewhere.requests.length = 0;
		written.length = 0;
	});

	/** The real refresh carries the client secret; a request without it (a probe) gets an OAuth error. */
	const realRefresh = (request: RecordedRequest) => new URLSearchParams(request.body).get('client_secret') === CLIENT_CANARY;
	const probeAnswer = (res: Res) => {
		res.statusCode = 400;
		res.setHeader('content-type', 'application/json');
		res.end(JSON.stringify({ error: 'invalid_request', error_description: 'refresh_token is missing' }));
	};
	const tokenRequests = () => api.requests.filter((r) => r.url.startsWith('/OAuth2/token'));
	const run = (options: IDataObject = {}) =>
		h.runNode('accessPointOrder', {
			authentication: 'oAuth2',
			resource: 'order',
			operation: 'get',
			orderId: '1000001',
			options: { maxRetries: 2, retryDelayMs: 1, ...options },
		});
	const expectNoSecret = (text: string) => {
		for (const secret of [CLIENT_CANARY, REFRESH, ACCESS]) expect(text).not.toContain(secret);
	};

	it('(a) a 307 of the real refresh to another host: n8n follows it (the residual SECURITY.md states); one refresh, the run fails, no secret in the error', async () => {
		token = (res, request) => {
			if (!realRefresh(request)) return probeAnswer(res);
			res.statusCode = 307;
			res.setHeader('location', `${elsewhere.url}/steal`);
			res.end();
		};
		const result = await run();
		const error = result.nodeError(result.nodeName as string) as unknown as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		// n8n followed the redirect and stored what the target answered; the API refused that token too: no second refresh.
		expect(elsewhere.requests).toHaveLength(1);
		expect(error.message).toBe('Get order 1000001 failed with HTTP 401 (Unauthorized): The access token expired');
		expect(tokenRequests()).toHaveLength(1);
		expect(api.requests.filter((r) => r.url.startsWith('/v1/'))).toHaveLength(2);
		expectNoSecret(`${error.message} ${error.description ?? ''}`);
		figures['(a) 307 on the real refresh'] =
			`redirect target received ${elsewhere.requests.length} request(s) (n8n follows: the residual); token endpoint asked ${tokenRequests().length} time(s); "${error.message}"`;
	});

	it('(c) an answer trickling a byte every 200 ms: stops at the Request Timeout (2 s), not asked again', async () => {
		token = (res, request) => {
			if (!realRefresh(request)) return probeAnswer(res);
			res.statusCode = 200;
			res.setHeader('content-type', 'application/json');
			void trickle(
				res,
				Array.from({ length: 200 }, () => ' '),
				200,
			).then((n) => written.push(n));
		};
		const started = Date.now();
		const result = await run({ timeoutSeconds: 2 });
		const took = Date.now() - started;
		const error = result.nodeError(result.nodeName as string) as unknown as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		// The refresh's own deadline and the request's fire together; either words it.
		expect(error.message).toMatch(
			/^Get order 1000001 failed: the access token expired and refreshing it failed: the token endpoint did not answer within 2 s$/,
		);
		expect(took).toBeLessThan(8_000);
		expect(tokenRequests()).toHaveLength(1);
		// n8n's request reads on after the deadline (the residual): the endpoint's answer is not awaited here.
		figures['(c) trickled answer'] = `failed after ${(took / 1000).toFixed(1)} s`;
	});
});
