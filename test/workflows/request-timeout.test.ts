import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';

/** The "Request Timeout (Seconds)" option bounds each attempt; reads retry after a timeout, writes do not. */
const HOST = 'https://api.timeout.test';

describe('Request Timeout option', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await createHarness({
			emulator: false,
			credentials: { apiKey: 'k-timeout', partyId: '4242', environment: 'custom', baseUrl: HOST },
		});
		nock.disableNetConnect();
	});

	afterAll(async () => {
		nock.cleanAll();
		nock.enableNetConnect();
		await h?.close();
	});

	afterEach(() => nock.cleanAll());

	it('fails a read that takes longer than the timeout, after its retries', async () => {
		const scope = nock(HOST).get('/v1/einvoices/registrations').times(2).delay(2500).reply(200, { Companies: [] });
		const result = await h.runNode('accessPointRegistration', {
			operation: 'getAll',
			returnAll: true,
			options: { timeoutSeconds: 1, maxRetries: 1, retryDelayMs: 0 },
		});
		const error = result.nodeError(result.nodeName as string);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toBe('List registrations failed: the request timed out');
		expect(scope.isDone()).toBe(true);
	});

	it('lets a slow answer through when the timeout allows it', async () => {
		nock(HOST)
			.get('/v1/einvoices/registrations')
			.delay(1200)
			.reply(200, { Companies: [{ CompanyID: 7 }] });
		const result = (
			await h.runNode('accessPointRegistration', {
				operation: 'getAll',
				returnAll: true,
				options: { timeoutSeconds: 5 },
			})
		).assertSuccess();
		expect(result.output(result.nodeName as string)).toEqual([expect.objectContaining({ RegistrationID: 7 })]);
	});
});
