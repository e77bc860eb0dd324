import { sleep } from 'n8n-workflow';

import { PRODUCTION_BASE_URL, resolveBaseUrl, SANDBOX_BASE_URL } from '../../nodes/shared/domain/environments';
import { stripSecrets } from '../../nodes/shared/http/secrets';
import { readApiError } from '../../nodes/shared/http/transport';
import { getApiClient } from '../../nodes/shared/node/client';
import type { ApiContext } from '../../nodes/shared/http/transport';
import { parseRetryAfterMs, retryDelayMs, shouldRetry } from '../../nodes/shared/http/retry';

describe('resolveBaseUrl', () => {
	it('maps environments to base URLs', () => {
		expect(resolveBaseUrl({ environment: 'sandbox' })).toEqual({ url: SANDBOX_BASE_URL });
		expect(resolveBaseUrl({})).toEqual({ url: SANDBOX_BASE_URL });
		expect(resolveBaseUrl({ environment: 'production' })).toEqual({ url: PRODUCTION_BASE_URL });
		expect(resolveBaseUrl({ environment: 'custom', baseUrl: ' https://proxy.test/ap/ ' })).toEqual({ url: 'https://proxy.test/ap' });
	});
	it('allows plain http only on loopback', () => {
		expect(resolveBaseUrl({ environment: 'custom', baseUrl: 'http://127.0.0.1:3999' })).toEqual({ url: 'http://127.0.0.1:3999' });
		expect(resolveBaseUrl({ environment: 'custom', baseUrl: 'http://localhost:3999' })).toEqual({ url: 'http://localhost:3999' });
		expect(resolveBaseUrl({ environment: 'custom', baseUrl: 'http://api.example.test' })).toHaveProperty('problem');
		expect(resolveBaseUrl({ environment: 'custom', baseUrl: 'ftp://x.test' })).toHaveProperty('problem');
		expect(resolveBaseUrl({ environment: 'custom', baseUrl: '' })).toHaveProperty('problem');
		expect(resolveBaseUrl({ environment: 'custom', baseUrl: 'not a url' })).toHaveProperty('problem');
	});
});

describe('API error bodies', () => {
	it('reads errors[] with Code and Description', () => {
		const entry = { code: 'TooManyTrials', description: 'Too many attempts' };
		expect(readApiError({ errors: [{ Code: 'TooManyTrials', Description: 'Too many attempts' }] })).toEqual({ ...entry, entries: [entry] });
	});
	it('falls back to Message, ErrorMessage and DefaultText', () => {
		expect(readApiError({ Message: 'a' }).description).toBe('a');
		expect(readApiError({ ErrorMessage: 'b' }).description).toBe('b');
		expect(readApiError({ DefaultText: 'c' }).description).toBe('c');
		expect(readApiError('{"errors":[{"Code":"X","Description":"from text"}]}')).toMatchObject({ code: 'X', description: 'from text' });
	});
	it('reads Message, ErrorMessage and DefaultText inside an errors entry like Description', () => {
		const body = {
			errors: [{ Code: 'A', Message: 'from Message' }, { Code: 'B', ErrorMessage: 'from ErrorMessage' }, { DefaultText: 'from DefaultText' }, null, 'x'],
		};
		expect(readApiError(body)).toMatchObject({ code: 'A', description: 'from Message; from ErrorMessage; from DefaultText' });
		expect(readApiError(body).entries).toEqual([
			{ code: 'A', description: 'from Message' },
			{ code: 'B', description: 'from ErrorMessage' },
			{ description: 'from DefaultText' },
		]);
	});
	it('turns HTML and empty bodies into readable texts', () => {
		expect(readApiError('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>')).toEqual({
			description: 'HTML page: 502 Bad Gateway',
			entries: [],
		});
		expect(readApiError('<p>a <b>b</b></p>').description).toBe('HTML page: a b');
		expect(readApiError('')).toEqual({ entries: [] });
	});
	it('strips apikey values and known secrets', () => {
		expect(stripSecrets('headers: {"apikey":"s3cr3t-key"}')).not.toContain('s3cr3t-key');
		expect(stripSecrets('token abcd-1234 leaked', ['abcd-1234'])).toBe('token *** leaked');
	});
});

describe('retry policy', () => {
	it('retries 429 and 5xx answers only', () => {
		expect(shouldRetry(429)).toBe(true);
		expect(shouldRetry(503)).toBe(true);
		expect(shouldRetry(400)).toBe(false);
		expect(shouldRetry(409)).toBe(false);
	});
	it('honours Retry-After in seconds or as a date, capped', () => {
		expect(parseRetryAfterMs('2')).toBe(2000);
		expect(parseRetryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
		expect(parseRetryAfterMs('soon')).toBeUndefined();
		const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 };
		expect(retryDelayMs(policy, 0, undefined)).toBe(100);
		expect(retryDelayMs(policy, 2, undefined)).toBe(400);
		// Retry-After is honoured as asked (the back-off cap does not shorten it), up to MAX_RETRY_AFTER_MS.
		expect(retryDelayMs(policy, 0, '5')).toBe(5000);
		expect(retryDelayMs(policy, 0, '120')).toBe(120_000);
		expect(retryDelayMs(policy, 0, '86400')).toBe(120_000);
		expect(retryDelayMs(policy, 40, undefined)).toBe(1000);
	});
});

describe('cancelling a request', () => {
	/** A context whose HTTP helper waits until the cancel signal n8n would hand to its client aborts. */
	function cancellable() {
		const execution = new AbortController();
		const seen: Array<AbortSignal | undefined> = [];
		const ctx = {
			getNode: () => ({ id: 'n', name: 'Node', type: 't', typeVersion: 1, position: [0, 0], parameters: {} }),
			getCredentials: async () => ({ apiKey: 'test-key-1234', partyId: '1', environment: 'custom', baseUrl: 'http://127.0.0.1:9' }),
			getExecutionCancelSignal: () => execution.signal,
			helpers: {
				async httpRequestWithAuthentication(this: { getExecutionCancelSignal?: () => AbortSignal | undefined }) {
					// What n8n 2.x does: the context's cancel signal becomes the request's abortSignal.
					const signal = this.getExecutionCancelSignal?.();
					seen.push(signal);
					return await new Promise((_resolve, reject) =>
						signal?.addEventListener('abort', () => reject(Object.assign(new Error('canceled'), { code: 'ERR_CANCELED' }))),
					);
				},
			},
		} as unknown as ApiContext;
		return { ctx, execution, seen };
	}

	it("a page no longer needed (the request's signal) aborts n8n's request, not only our wait for it", async () => {
		const { ctx, seen } = cancellable();
		const client = await getApiClient.call(ctx);
		const page = new AbortController();
		const pending = client.request({ method: 'GET', path: '/v1/orders', operation: 'List orders', signal: page.signal }).catch((error: Error) => error);
		await sleep(0);
		page.abort();
		expect(((await pending) as Error).message).toBe('List orders was cancelled');
		expect(seen).toHaveLength(1);
		expect(seen[0]?.aborted).toBe(true);
	});

	it("the execution's own cancel signal still reaches n8n's request when a page signal is given", async () => {
		const { ctx, execution, seen } = cancellable();
		const client = await getApiClient.call(ctx);
		const pending = client
			.request({
				method: 'GET',
				path: '/v1/orders',
				operation: 'List orders',
				signal: new AbortController().signal,
				retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 },
			})
			.catch((error: Error) => error);
		await sleep(0);
		execution.abort();
		expect(((await pending) as Error).message).toMatch(/^List orders failed: the execution was cancelled$/);
		expect(seen[0]?.aborted).toBe(true);
	});
});
