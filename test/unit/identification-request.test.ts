import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';

/** Exact request shape of Start identification, through n8n's HTTP stack, against a nock host. */
const HOST = 'https://api.identification.test';
const IDENT = 'accessPointIdentification';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

describe('Start identification request (nock)', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await createHarness({
			emulator: false,
			waitTracker: false,
			credentials: { apiKey: 'k-ident-secret', partyId: '100001', environment: 'custom', baseUrl: HOST },
		});
	});

	afterAll(async () => {
		nock.cleanAll();
		nock.enableNetConnect();
		await h?.close();
	});

	beforeEach(() => {
		nock.cleanAll();
		nock.disableNetConnect();
		nock.enableNetConnect('127.0.0.1');
	});

	it('sends one POST with apikey, the master partyID and the JSON body; reads URL from the answer', async () => {
		let seen: { headers: Record<string, string | string[] | undefined>; body: unknown } | undefined;
		const scope = nock(HOST)
			.post('/v1/einvoices/registrations/42/identification')
			.reply(function (_uri, body) {
				seen = { headers: this.req.headers, body };
				return [200, { URL: 'https://idp.example/session/abc' }];
			});
		const r = await h.runNode(IDENT, {
			operation: 'start',
			registrationId: byId('42'),
			redirectUrl: 'https://app.example.test/done',
			options: { masterPartyId: '100009' },
		});
		r.assertSuccess();
		expect(scope.isDone()).toBe(true);
		expect(seen?.body).toEqual({ IdentificationProviderTC: 'itsme', RedirectURL: 'https://app.example.test/done' });
		expect(seen?.headers.apikey).toBe('k-ident-secret');
		expect(seen?.headers.partyid).toBe('100009');
		expect(String(seen?.headers['content-type'])).toMatch(/application\/json/);
		expect(r.output(r.nodeName!)[0]).toMatchObject({ providerUrl: 'https://idp.example/session/abc', masterPartyId: '100009' });
	});

	it('never retries the start (each attempt counts towards the sandbox limit)', async () => {
		let calls = 0;
		nock(HOST)
			.post('/v1/einvoices/registrations/42/identification')
			.times(3)
			.reply(() => {
				calls++;
				return [503, { errors: [{ Code: 'Unavailable', Description: 'try later' }] }];
			});
		const r = await h.runNode(IDENT, { operation: 'start', registrationId: byId('42'), redirectUrl: 'https://app.example.test/done' });
		expect(r.status).toBe('error');
		expect(calls).toBe(1);
		const error: unknown = r.nodeError(r.nodeName!);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('503');
	});

	it('keeps status and API code under the identification hint, and never shows the API key', async () => {
		nock(HOST)
			.post('/v1/einvoices/registrations/42/identification')
			.reply(400, { errors: [{ Code: 'TooManyTrials', Description: 'Too many attempts' }] });
		const r = await h.runNode(IDENT, { operation: 'start', registrationId: byId('42'), redirectUrl: 'https://app.example.test/done' });
		const error = r.nodeError(r.nodeName!) as unknown as NodeApiError;
		expect(error.httpCode).toBe('400');
		expect(error.context.apiCode).toBe('TooManyTrials');
		expect(error.message).toBe('Start identification failed with HTTP 400 (TooManyTrials): Too many attempts');
		expect(error.description).toMatch(/^The sandbox allows 5 identification attempts per entity, and registration 42/);
		expect(JSON.stringify({ ...error, message: error.message, description: error.description } as IDataObject)).not.toContain('k-ident-secret');
	});

	it('an answer without a provider URL is an API error, not an empty output', async () => {
		nock(HOST).post('/v1/einvoices/registrations/42/identification').reply(200, { Something: 'else' });
		const r = await h.runNode(IDENT, { operation: 'start', registrationId: byId('42'), redirectUrl: 'https://app.example.test/done' });
		expect(r.nodeError(r.nodeName!)?.message).toBe('Start identification returned no provider URL (neither RedirectURL nor URL)');
	});
});
