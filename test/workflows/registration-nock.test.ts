import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';

/** Exact request shapes and the answer forms the emulator does not produce. */
const HOST = 'https://api.shapes.test';
const REG = 'accessPointRegistration';
const INT = 'accessPointIntegration';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

const createParams = (): IDataObject => ({
	operation: 'create',
	companyName: 'Acme BV',
	taxIdentifier: 'BE0481516215',
	email: 'acme@example.com',
	contactFirstName: 'Jan',
	contactLastName: 'Peeters',
	language: 'NL',
	addresses: { invoiceAddress: { street: 'Kerkstraat', zipcode: '9000', city: 'Gent', countryCode: 'BE' } },
});

describe('Registration and Integration request shapes (nock)', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await createHarness({
			emulator: false,
			credentials: { apiKey: 'k-shapes', partyId: '4242', environment: 'custom', baseUrl: HOST },
		});
		nock.disableNetConnect();
	});

	afterAll(async () => {
		nock.cleanAll();
		nock.enableNetConnect();
		await h?.close();
	});

	afterEach(() => {
		nock.cleanAll();
	});

	it('Create posts JSON with the credential headers and reads a bare-number answer', async () => {
		const scope = nock(HOST)
			.post('/v1/einvoices/registrations', (body: IDataObject) => body.TaxIdentifier === 'BE0481516215' && body.Language === 'NL')
			.matchHeader('apikey', 'k-shapes')
			.matchHeader('partyID', '4242')
			.matchHeader('content-type', /application\/json/)
			.reply(200, '17', { 'content-type': 'application/json' });
		const result = (await h.runNode(REG, createParams())).assertSuccess();
		expect(result.output(result.nodeName as string)).toEqual([
			{ RegistrationID: 17, CompanyName: 'Acme BV', TaxIdentifier: 'BE0481516215', Email: 'acme@example.com' },
		]);
		expect(scope.isDone()).toBe(true);
	});

	it('Create fails clearly, without retrying, when the answer has no RegistrationID', async () => {
		const scope = nock(HOST).post('/v1/einvoices/registrations').once().reply(200, {});
		const result = await h.runNode(REG, createParams());
		expect(result.status).toBe('error');
		const error = result.nodeError(result.nodeName as string);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toMatch(/without a RegistrationID/);
		expect(String(error?.description)).toMatch(/Check with "Get Many" before retrying/);
		expect(scope.isDone()).toBe(true);
	});

	it('a 500 on Create is not retried (no duplicate registration) and names the operation', async () => {
		const scope = nock(HOST)
			.post('/v1/einvoices/registrations')
			.reply(500, { errors: [{ Code: 'GenericError', Description: 'boom' }] });
		const result = await h.runNode(REG, createParams());
		const error = result.nodeError(result.nodeName as string);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toBe('Create registration failed with HTTP 500 (GenericError): boom');
		expect(scope.isDone()).toBe(true);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('Get picks the requested entity from a Companies wrapper and flattens it', async () => {
		nock(HOST)
			.get('/v1/einvoices/registrations/5')
			.reply(200, {
				Companies: [
					{ RegistrationID: 4, CompanyDetails: { CompanyName: 'Wrong' } },
					{ RegistrationID: 5, CompanyDetails: { CompanyName: 'Right', Addresses: [{ AddressType: 'InvoiceAddress' }] } },
				],
			});
		const result = (await h.runNode(REG, { operation: 'get', registrationId: byId(' 5 ') })).assertSuccess();
		expect(result.output(result.nodeName as string)).toEqual([
			{ RegistrationID: 5, CompanyName: 'Right', Addresses: [{ AddressType: 'InvoiceAddress' }], Integrations: [] },
		]);
	});

	it('Get of an ID of another account gives the API 401 as NodeApiError', async () => {
		nock(HOST)
			.get('/v1/einvoices/registrations/9')
			.reply(401, { errors: [{ Code: 'Unauthorized', Description: 'Registration 9 does not belong to this account' }] });
		const result = await h.runNode(REG, { operation: 'get', registrationId: byId('9'), options: { maxRetries: 0 } });
		const error = result.nodeError(result.nodeName as string) as unknown as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('401');
		expect(error.message).toMatch(/does not belong to this account/);
	});

	it('Deactivate accepts an empty or plain-text answer', async () => {
		nock(HOST).delete('/v1/einvoices/registrations/5').reply(200, '');
		nock(HOST).delete('/v1/einvoices/registrations/6').reply(200, 'OK', { 'content-type': 'text/plain' });
		const result = (await h.runNode(REG, { operation: 'deactivate', registrationId: byId('={{ $json.id }}') }, [{ id: 5 }, { id: '6' }])).assertSuccess();
		expect(result.output(result.nodeName as string)).toEqual([
			{ RegistrationID: 5, deactivated: true },
			{ RegistrationID: 6, deactivated: true },
		]);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('Integration Create for another network sends its name and credentials; Delete hits the right path', async () => {
		const create = nock(HOST)
			.post('/v1/einvoices/registrations/5/integrations', { ExternalProvider: 'XRechnung', Credentials: { Token: 't-1' } })
			.reply(200, { IntegrationID: 70, IntegrationStatus: 'Pending', IntegrationStatusDescription: 'Connection fee due', IntegrationDocumentToSign: '' });
		const del = nock(HOST).delete('/v1/einvoices/registrations/5/integrations/70').reply(200, {});
		const created = (
			await h.runNode(INT, {
				operation: 'create',
				registrationId: byId('5'),
				network: 'other',
				networkName: 'XRechnung',
				credentials: { credential: [{ key: 'Token', value: 't-1' }] },
			})
		).assertSuccess();
		const [out] = created.output(created.nodeName as string);
		expect(out).toEqual(
			expect.objectContaining({ RegistrationID: 5, IntegrationID: 70, Integration: 'XRechnung', IntegrationStatus: 'Pending', needsSignature: false }),
		);
		expect(JSON.stringify(out)).not.toContain('t-1');
		const deleted = (await h.runNode(INT, { operation: 'delete', registrationId: byId('5'), integrationId: byId('70') })).assertSuccess();
		expect(deleted.output(deleted.nodeName as string)).toEqual([{ RegistrationID: 5, IntegrationID: 70, deleted: true }]);
		expect(create.isDone() && del.isDone()).toBe(true);
	});

	it('Integration Get Many honours Limit', async () => {
		nock(HOST)
			.get('/v1/einvoices/registrations/5')
			.reply(200, {
				RegistrationID: 5,
				Integrations: [
					{ IntegrationID: 1, Integration: 'Peppol', IntegrationStatus: 'Active' },
					{ IntegrationID: 2, Integration: 'SDI', IntegrationStatus: 'Pending', IntegrationDocumentToSign: 'https://sign.example/x' },
				],
			});
		const result = (await h.runNode(INT, { operation: 'getAll', registrationId: byId('5'), returnAll: false, limit: 1 })).assertSuccess();
		expect(result.output(result.nodeName as string).map((i) => i.IntegrationID)).toEqual([1]);
	});
});
