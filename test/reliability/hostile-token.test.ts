/**
 * Hostile server: the OAuth2 token endpoint (issue #33 point 3), through n8n-core's engine with the
 * AccessPoint Sign-In OAuth2 API credential against loopback servers in this test's process (so
 * their RSS is the engine's). The API refuses the access token (401), so the node refreshes it.
 * The token endpoint tells the real refresh (client_secret in the form) from a request without
 * secrets, as a hostile or merely misconfigured one may:
 * (a) it answers the real refresh 307 to another host: that host receives nothing (no refresh
 *     token, no client id or secret), and the run fails naming the redirect;
 * (b) it answers an endless body, or 3 MB of gzip inflating to 3 GB: the refresh stops at
 *     64 KB, the connection is closed, the RSS stays bounded, nothing is retried;
 * (c) it trickles its answer: the refresh stops at the Request Timeout.
 * In every case nothing after the refused request is asked and no secret is in the error.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness, OAUTH2_CREDENTIAL_TYPE } from '../harness';
import type { Harness } from '../harness';
import { endless, gzipBomb, pause, rssMb, sampleRss, serveHostile, trickle } from './hostile-server';
import type { HostileServer, RecordedRequest } from './hostile-server';
import { printFigures } from './report';

const CLIENT_CANARY = 'hostile-token-client-secret-8d21';
const REFRESH = 'hostile-token-refresh-token-3c7a';
const ACCESS = 'hostile-token-access-token-19fe';
const MB = 1024 * 1024;
const GB = 1024 * MB;
/** Bound on the RSS growth while the token endpoint's answer is read (the limit is 64 KB). */
const RSS_BOUND_MB = 150;

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
	/** Waits (at most 10 s) for the endpoint to report what it wrote on each closed answer. */
	const closed = async (count: number) => {
		for (let waited = 0; written.length < count && waited < 10_000; waited += 5) await pause(5);
		expect(written.length).toBeGreaterThanOrEqual(count);
	};
	const expectNoSecret = (text: string) => {
		for (const secret of [CLIENT_CANARY, REFRESH, ACCESS]) expect(text).not.toContain(secret);
	};

	it('(a) a 307 to another host on the real refresh only: that host receives nothing, the redirect is named', async () => {
		token = (res, request) => {
			if (!realRefresh(request)) return probeAnswer(res);
			res.statusCode = 307;
			res.setHeader('location', `${elsewhere.url}/steal`);
			res.end();
		};
		const result = await run();
		const error = result.nodeError(result.nodeName as string) as unknown as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			`Get order 1000001 failed: the access token expired and the Token URL answered HTTP 307, a redirect to ${elsewhere.host}; it was not followed`,
		);
		expect(elsewhere.requests).toEqual([]);
		// One refresh, to the Token URL; the order was asked once (no retry of a failed refresh).
		expect(tokenRequests()).toHaveLength(1);
		expect(api.requests.filter((r) => r.url.startsWith('/v1/'))).toHaveLength(1);
		expectNoSecret(`${error.message} ${error.description ?? ''}`);
		figures['(a) 307 on the real refresh'] =
			`redirect target received ${elsewhere.requests.length} request(s); token endpoint asked ${tokenRequests().length} time(s); "${error.message}"`;
	});

	it.each([
		['(b) an endless body', (res: Res) => void endless(res, '{"access_token":"', Buffer.alloc(64 * 1024, 'x'), 600 * MB).then((bytes) => written.push(bytes))],
		[
			'(b) 3 MB of gzip inflating to 3 GB',
			(res: Res) => {
				res.setHeader('content-encoding', 'gzip');
				const socket = res.socket;
				res.on('close', () => written.push(socket?.bytesWritten ?? 0));
				res.end(gzipBomb(3 * GB));
			},
		],
	])('%s on the real refresh: stops at 64 KB, connection closed, RSS bounded, not asked again', async (label, answer) => {
		token = (res, request) => {
			if (!realRefresh(request)) return probeAnswer(res);
			res.statusCode = 200;
			res.setHeader('content-type', 'application/json');
			answer(res);
		};
		const start = rssMb();
		const rss = sampleRss();
		const result = await run();
		const peak = rss.stop();
		const error = result.nodeError(result.nodeName as string) as unknown as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			"Get order 1000001 failed: the access token expired and refreshing it failed: the token endpoint's answer is larger than 64 KB; it was not read further",
		);
		expect(tokenRequests()).toHaveLength(1);
		await closed(1);
		expect(peak - start).toBeLessThan(RSS_BOUND_MB);
		expectNoSecret(`${error.message} ${error.description ?? ''}`);
		figures[label] =
			`token endpoint asked ${tokenRequests().length} time(s); it wrote ${(written[0] / MB).toFixed(1)} MB before the connection closed; RSS +${Math.max(0, peak - start).toFixed(0)} MB (bound ${RSS_BOUND_MB})`;
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
			/^Get order 1000001 failed: the access token expired and refreshing it failed: the token endpoint (did not answer in time|'s answer did not arrive in full within 2 s)$/,
		);
		expect(took).toBeLessThan(8_000);
		expect(tokenRequests()).toHaveLength(1);
		await closed(1);
		figures['(c) trickled answer'] = `failed after ${(took / 1000).toFixed(1)} s; the endpoint wrote ${written[0]} byte(s)`;
	});
});
