import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness, request } from '../harness';
import type { Harness } from '../harness';

const REG = 'accessPointRegistration';
const INT = 'accessPointIntegration';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

interface LoggedRequest {
	method: string;
	path: string;
	body?: IDataObject;
}

describe('Registration and Integration nodes against the emulator', () => {
	let h: Harness;
	let counter = 0;
	const uniqueEmail = (tag: string) => `${tag}-${++counter}@example.com`;

	const createParams = (over: IDataObject = {}): IDataObject => ({
		operation: 'create',
		companyName: 'Acme BV',
		taxIdentifier: 'BE0481516215',
		email: uniqueEmail('acme'),
		contactFirstName: 'Jan',
		contactLastName: 'Peeters',
		language: 'nl',
		addresses: {
			invoiceAddress: { street: 'Kerkstraat', streetNumber: '12', zipcode: '9000', city: 'Gent', countryCode: 'BE' },
		},
		...over,
	});

	const logged = (): LoggedRequest[] => (h.emulator.requests as LoggedRequest[]).filter((r) => r.path.startsWith('/v1/'));

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 5 } });
	});

	afterAll(async () => {
		await h?.close();
	});

	beforeEach(() => {
		h.emulator.clearRequests();
		h.emulator.config.wrapSingleRegistration = false;
		h.emulator.config.peppolIntegrationStatus = 'Active';
	});

	it('create → get → list → Peppol + SDI integrations → list integrations → delete → deactivate, in one workflow', async () => {
		const email = uniqueEmail('flow');
		const wf = h.chain([
			{ type: REG, name: 'Create', parameters: createParams({ email }) },
			{ type: REG, name: 'Get', parameters: { operation: 'get', registrationId: byId('={{ $json.RegistrationID }}') } },
			{ type: REG, name: 'List', parameters: { operation: 'getAll', returnAll: true } },
			{
				type: INT,
				name: 'Peppol',
				executeOnce: true,
				parameters: {
					operation: 'create',
					registrationId: byId("={{ $('Create').first().json.RegistrationID }}"),
					network: 'Peppol',
				},
			},
			{
				type: INT,
				name: 'SDI',
				parameters: { operation: 'create', registrationId: byId('={{ $json.RegistrationID }}'), network: 'SDI' },
			},
			{
				type: INT,
				name: 'Integrations',
				parameters: { operation: 'getAll', registrationId: byId('={{ $json.RegistrationID }}'), returnAll: true },
			},
			{
				type: INT,
				name: 'Delete',
				parameters: {
					operation: 'delete',
					registrationId: byId('={{ $json.RegistrationID }}'),
					integrationId: byId('={{ $json.IntegrationID }}'),
				},
			},
			{
				type: REG,
				name: 'Deactivate',
				executeOnce: true,
				parameters: { operation: 'deactivate', registrationId: byId('={{ $json.RegistrationID }}') },
			},
		]);
		const result = (await h.run(wf)).assertSuccess();

		const [created] = result.output('Create');
		expect(created).toEqual(
			expect.objectContaining({ RegistrationID: expect.any(Number), CompanyName: 'Acme BV', TaxIdentifier: 'BE0481516215', Email: email }),
		);
		const id = created.RegistrationID as number;

		const got = result.output('Get');
		expect(got).toHaveLength(1);
		expect(got[0]).toEqual(expect.objectContaining({ RegistrationID: id, CompanyName: 'Acme BV', Email: email, Language: 'NL', Integrations: [] }));
		expect(got[0].CompanyDetails).toBeUndefined();

		const listed = result.output('List');
		expect(listed.length).toBeGreaterThanOrEqual(2); // the seeded demo entity and ours
		expect(listed.every((c) => typeof c.RegistrationID === 'number')).toBe(true);
		// Simplified (the default): flat, the key fields under the API's names, integrations on one line.
		expect(listed.find((c) => c.RegistrationID === id)).toEqual({
			RegistrationID: id,
			CompanyName: 'Acme BV',
			TaxIdentifier: 'BE0481516215',
			Email: email,
			PartyID: String(id),
			Active: true,
			Status: 'Active',
			Identified: false,
			IntegrationSummary: '',
		});

		const [peppol] = result.output('Peppol');
		expect(peppol).toEqual(expect.objectContaining({ RegistrationID: id, Integration: 'Peppol', IntegrationStatus: 'Active', needsSignature: false }));
		expect(peppol.IntegrationID).toEqual(expect.any(Number));

		const [sdi] = result.output('SDI');
		expect(sdi).toEqual(
			expect.objectContaining({
				RegistrationID: id,
				Integration: 'SDI',
				IntegrationStatus: 'Pending',
				needsSignature: true,
				IntegrationDocumentToSign: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/sign\/\w+$/),
				IntegrationStatusDescription: expect.stringMatching(/signature/i),
			}),
		);
		// The signing URL once, and "sign the document" said once: in the run's hint, not in the item.
		expect(Object.values(sdi).filter((value) => value === sdi.IntegrationDocumentToSign)).toHaveLength(1);
		expect(sdi.nextStep).toBeUndefined();
		const hints = result.task('SDI')?.hints ?? [];
		expect(hints.map((hint) => hint.message)).toEqual([
			expect.stringMatching(/^SDI #\d+ is Pending: open IntegrationDocumentToSign in the output and have the registered company sign the document\./),
		]);
		expect(result.task('Peppol')?.hints ?? []).toEqual([]);

		const integrations = result.output('Integrations');
		expect(integrations.map((i) => [i.Integration, i.IntegrationStatus, i.needsSignature])).toEqual([
			['Peppol', 'Active', false],
			['SDI', 'Pending', true],
		]);
		// Simplified (the default): the key fields, in this order.
		expect(Object.keys(integrations[1])).toEqual([
			'RegistrationID',
			'IntegrationID',
			'Integration',
			'IntegrationStatus',
			'IntegrationStatusDescription',
			'IntegrationDocumentToSign',
			'needsSignature',
		]);

		expect(result.output('Delete')).toEqual([
			{ RegistrationID: id, IntegrationID: peppol.IntegrationID, deleted: true },
			{ RegistrationID: id, IntegrationID: sdi.IntegrationID, deleted: true },
		]);
		expect(result.output('Deactivate')).toEqual([{ RegistrationID: id, deactivated: true }]);

		const stored = h.emulator.store.registrations.get(id);
		expect(stored.Active).toBe(false);
		expect(stored.Integrations).toEqual([]);
		expect(logged().map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /v1/einvoices/registrations',
			`GET /v1/einvoices/registrations/${id}`,
			'GET /v1/einvoices/registrations',
			`POST /v1/einvoices/registrations/${id}/integrations`,
			`POST /v1/einvoices/registrations/${id}/integrations`,
			`GET /v1/einvoices/registrations/${id}`,
			`DELETE /v1/einvoices/registrations/${id}/integrations/${peppol.IntegrationID}`,
			`DELETE /v1/einvoices/registrations/${id}/integrations/${sdi.IntegrationID}`,
			`DELETE /v1/einvoices/registrations/${id}`,
		]);
	});

	it('Create sends every published field, normalised, with both addresses, identifiers and account settings', async () => {
		const email = uniqueEmail('full');
		const result = await h.runNode(REG, {
			...createParams({ email, taxIdentifier: 'be 0314.159.244', language: 'fr', taxLiable: false }),
			addresses: {
				invoiceAddress: {
					name: 'Head Office',
					street: 'Rue Haute',
					streetNumber: '5',
					box: 'B2',
					zipcode: '1000',
					city: 'Bruxelles',
					countryCode: 'be',
					phone: '+32 2 123 45 67',
				},
				deliveryAddress: { street: 'Quai 1', zipcode: '4000', city: 'Liège', countryCode: 'BE' },
			},
			additionalFields: {
				commercialName: 'Acme Shop',
				iban: 'BE68 5390 0754 7034',
				bic: 'gebabebb',
				mobile: '0032 470 12 34 56',
				phone: '+32 9 123 45 67',
				identifiers: { identifier: [{ identifierType: 'KBO', identifier: '0314159244' }] },
				accountSettings: { settings: { processUBLPrepaidAmount: true } },
			},
		});
		result.assertSuccess();
		const posts = logged().filter((r) => r.method === 'POST');
		expect(posts).toHaveLength(1);
		expect(posts[0].body).toEqual({
			TaxIdentifier: 'BE0314159244',
			CompanyName: 'Acme BV',
			CommercialName: 'Acme Shop',
			TaxDeductable: true,
			TaxLiable: false,
			IBAN: 'BE68539007547034',
			BIC: 'GEBABEBB',
			Mobile: '+32470123456',
			Phone: '+3291234567',
			Email: email,
			ContactFirstName: 'Jan',
			ContactLastName: 'Peeters',
			Language: 'FR',
			Identifiers: [{ IdentifierType: 'KBO', Identifier: '0314159244' }],
			AccountSettings: { ProcessUBLPrePaidAmount: true }, // the published EinvoiceAccountSettings, nothing else
			Addresses: [
				{
					AddressType: 'InvoiceAddress',
					Name: 'Head Office',
					Street: 'Rue Haute',
					StreetNumber: '5',
					Box: 'B2',
					Zipcode: '1000',
					City: 'Bruxelles',
					CountryCode: 'BE',
					Phone: '+3221234567',
				},
				{ AddressType: 'DeliveryAddress', Street: 'Quai 1', Zipcode: '4000', City: 'Liège', CountryCode: 'BE' },
			],
		});
		const [out] = result.output(result.nodeName as string);
		expect(out.RegistrationID).toEqual(expect.any(Number));
		expect(h.emulator.store.registrations.get(out.RegistrationID).details.Addresses).toHaveLength(2);
	});

	it('Get gives the same single flat item whether the API wraps it in Companies or not', async () => {
		const created = (await h.runNode(REG, createParams())).assertSuccess();
		const id = created.output(created.nodeName as string)[0].RegistrationID as number;
		const params = { operation: 'get', registrationId: byId(String(id)) };

		const plainRun = (await h.runNode(REG, params)).assertSuccess();
		h.emulator.config.wrapSingleRegistration = true;
		const wrappedRun = (await h.runNode(REG, params)).assertSuccess();

		// The emulator really answers both forms.
		const headers = { apikey: h.credentials.apiKey, partyID: h.credentials.partyId, Accept: 'application/json' };
		const wrappedBody = (await request(`${h.emulator.url}/v1/einvoices/registrations/${id}`, { headers })).body as IDataObject;
		expect(Object.keys(wrappedBody)).toEqual(['Companies']);
		h.emulator.config.wrapSingleRegistration = false;
		const plainBody = (await request(`${h.emulator.url}/v1/einvoices/registrations/${id}`, { headers })).body as IDataObject;
		expect(plainBody.RegistrationID).toBe(id);

		const plain = plainRun.output(plainRun.nodeName as string);
		const wrapped = wrappedRun.output(wrappedRun.nodeName as string);
		expect(plain).toHaveLength(1);
		expect(wrapped).toEqual(plain);
		expect(plain[0]).toEqual(expect.objectContaining({ RegistrationID: id, CompanyName: 'Acme BV', TaxIdentifier: 'BE0481516215' }));
	});

	it('Get Many honours Limit and sets RegistrationID from CompanyID', async () => {
		for (let i = 0; i < 2; i++) (await h.runNode(REG, createParams())).assertSuccess();
		const all = (await h.runNode(REG, { operation: 'getAll', returnAll: true, simplify: false })).assertSuccess();
		const allItems = all.output(all.nodeName as string);
		expect(allItems.length).toBeGreaterThanOrEqual(3);
		for (const item of allItems) expect(item.RegistrationID).toBe(item.CompanyID);
		const limited = (await h.runNode(REG, { operation: 'getAll', returnAll: false, limit: 2, simplify: false })).assertSuccess();
		expect(limited.output(limited.nodeName as string)).toEqual(allItems.slice(0, 2));
	});

	it('a duplicate e-mail address gives a NodeApiError with the API text', async () => {
		const email = uniqueEmail('dup');
		(await h.runNode(REG, createParams({ email }))).assertSuccess();
		const second = await h.runNode(REG, createParams({ email, companyName: 'Other BV' }));
		expect(second.status).toBe('error');
		const error = second.nodeError(second.nodeName as string);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toMatch(/^Create registration failed with HTTP 400 \(\w+\): The e-mail address .* is already used by registration \d+/);
		expect((error as unknown as NodeApiError).httpCode).toBe('400');
		expect(JSON.stringify(error)).not.toContain(h.credentials.apiKey);
	});

	it('a Peppol integration can come back Ready; Chorus Pro sends the technical user key as Credentials', async () => {
		h.emulator.config.peppolIntegrationStatus = 'Ready';
		const created = (await h.runNode(REG, createParams())).assertSuccess();
		const id = String(created.output(created.nodeName as string)[0].RegistrationID);
		const peppol = (await h.runNode(INT, { operation: 'create', registrationId: byId(id), network: 'Peppol' })).assertSuccess();
		expect(peppol.output(peppol.nodeName as string)[0]).toEqual(expect.objectContaining({ IntegrationStatus: 'Ready', needsSignature: false }));
		const chorus = (await h.runNode(INT, { operation: 'create', registrationId: byId(id), network: 'ChorusPro', technicalUserKey: 'tuk-123' })).assertSuccess();
		const [out] = chorus.output(chorus.nodeName as string);
		expect(out).toEqual(expect.objectContaining({ Integration: 'ChorusPro', IntegrationStatus: 'Active' }));
		expect(JSON.stringify(out)).not.toContain('tuk-123');
		const posts = logged().filter((r) => r.method === 'POST' && r.path.endsWith('/integrations'));
		expect(posts.map((p) => p.body)).toEqual([{ ExternalProvider: 'Peppol' }, { ExternalProvider: 'ChorusPro', Credentials: { TechnicalUserKey: 'tuk-123' } }]);
	});

	it('continueOnFail: 5 items with 2 bad ones give 3 registrations and 2 error items, each paired with its item', async () => {
		const good = (n: number) => ({ email: uniqueEmail(`batch${n}`), iban: 'BE68 5390 0754 7034' });
		const input = [good(0), { email: 'not-an-email', iban: 'BE68 5390 0754 7034' }, good(2), { ...good(3), iban: 'BE12 3456' }, good(4)];
		const result = await h.runNode(REG, createParams({ email: '={{ $json.email }}', additionalFields: { iban: '={{ $json.iban }}' } }), input, {
			onError: 'continueRegularOutput',
		});
		expect(result.status).toBe('success');
		const items = result.items(result.nodeName as string);
		expect(items).toHaveLength(5);
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		for (const index of [0, 2, 4]) {
			expect(items[index].json).toEqual(expect.objectContaining({ RegistrationID: expect.any(Number), Email: input[index].email }));
		}
		expect(items[1].json.error).toBe('Item 1: "Email" not-an-email is not a valid e-mail address (it needs exactly one @)');
		expect(items[3].json.error).toBe('Item 3: "IBAN" BE12 3456 is not a valid IBAN (a BE IBAN has 16 characters, this has 8)');
		expect(items[3].json.description).toMatch(/missing or extra digits/);
		expect(logged().filter((r) => r.method === 'POST')).toHaveLength(3);
	});

	it('without continueOnFail the first bad item stops the node with its item index before any item is sent (every item checked first)', async () => {
		const input = [{ email: uniqueEmail('stop') }, { email: 'bad@' }, { email: uniqueEmail('stop') }];
		const result = await h.runNode(REG, createParams({ email: '={{ $json.email }}' }), input);
		expect(result.status).toBe('error');
		const error = result.nodeError(result.nodeName as string) as unknown as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('Item 1: "Email" bad@ is not a valid e-mail address (the domain is not valid)');
		expect(error.context.itemIndex).toBe(1);
		expect(logged().filter((r) => r.method === 'POST')).toHaveLength(0);
	});
});
