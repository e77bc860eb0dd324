/**
 * Timeouts. Gap: no node exposes a request timeout; the shared transport waits a fixed
 * 60 s (RetryPolicy.timeoutMs exists, DEFAULT_TIMEOUT_MS = 60_000), so the engine-level
 * soak injects latency instead of 'timeout' faults. This file drives the shared transport
 * directly, through n8n-core's own HTTP client and n8n's error wrapping (as
 * httpRequestWithAuthentication does), against the emulator's 'timeout' fault (the server
 * never answers) with a short timeoutMs: a read times out into a NodeApiError that says
 * so, is retried per the read policy, and a write is never retried.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';

import { getApiClient } from '../../nodes/shared/node/client';
import type { ApiContext } from '../../nodes/shared/http/transport';
import { createHarness } from '../harness';
import type { Harness } from '../harness';
import type { Emu } from './helpers';
import { apiRequests } from './helpers';
import { n8nHttpRequest, printFigures } from './report';

const node: INode = { id: 't', name: 'Timeout Probe', type: 'n8n-nodes-access-point.accessPointOrder', typeVersion: 1, position: [0, 0], parameters: {} };

describe('request timeouts (transport level; no node option, see the gap)', () => {
	let h: Harness;
	let emu: Emu;
	const figures: Record<string, string> = {};

	/** The parts of an execution context the transport uses, with n8n-core doing the HTTP. */
	function context(): ApiContext {
		const http = n8nHttpRequest();
		const credentials = { ...emu.credentials } as IDataObject;
		return {
			getNode: () => node,
			getCredentials: async () => credentials,
			helpers: {
				async httpRequestWithAuthentication(_type: string, options: IHttpRequestOptions) {
					options.headers = { ...(options.headers ?? {}), apikey: String(credentials.apiKey), partyID: String(credentials.partyId) };
					try {
						return await http(options);
					} catch (error) {
						throw new NodeApiError(node, error as never); // what n8n-core's authentication helper throws
					}
				},
			},
		} as unknown as ApiContext;
	}

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 5 }, quiet: true });
		emu = h.emulator as Emu;
	});
	afterAll(async () => {
		printFigures('timeouts (transport, timeoutMs 300)', figures);
		await h?.close();
	});
	beforeEach(() => emu.clearRequests());

	it('a read that never gets an answer times out into a NodeApiError after the retries', async () => {
		emu.failNext(2, 'timeout', { method: 'GET' });
		const client = await getApiClient.call(context(), { retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 300 } });
		const error = await client.request({ method: 'GET', path: '/v1/orders', itemIndex: 4, operation: 'List orders' }).then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).message).toBe('List orders failed: the request timed out');
		expect((error as NodeApiError).context.itemIndex).toBe(4);
		expect(apiRequests(emu).map((r) => r.fault ?? r.status)).toEqual(['timeout', 'timeout']);
		figures['read, 2 timeouts, 1 retry'] = `NodeApiError "${(error as Error).message}", requests ${apiRequests(emu).length}`;
	});

	it('a read that times out once succeeds on the retry', async () => {
		emu.failNext(1, 'timeout', { method: 'GET' });
		const client = await getApiClient.call(context(), { retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 300 } });
		const body = await client.request<{ Items: unknown[] }>({ method: 'GET', path: '/v1/orders' });
		expect(body.Items.length).toBeGreaterThan(0);
		expect(apiRequests(emu).map((r) => r.fault ?? r.status)).toEqual(['timeout', 200]);
		figures['read, 1 timeout, 1 retry'] = `answered, requests ${apiRequests(emu)
			.map((r) => r.fault ?? r.status)
			.join(' ')}`;
	});

	it('a write that times out is sent once and fails (never retried blindly)', async () => {
		emu.failNext(1, 'timeout', { method: 'POST' });
		const client = await getApiClient.call(context(), { retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 300 } });
		const error = await client.request({ method: 'POST', path: '/v1/orders', body: { OrderType: 'Invoice' }, operation: 'Create order' }).then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as Error).message).toBe('Create order failed: the request timed out');
		expect(apiRequests(emu).filter((r) => r.method === 'POST')).toHaveLength(1);
		figures['write, 1 timeout'] = `NodeApiError "${(error as Error).message}", POSTs sent 1`;
	});
});
