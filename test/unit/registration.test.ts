import { AccessPointRegistration } from '../../nodes/Registration/AccessPointRegistration.node';
import { readNewRegistrationId } from '../../nodes/Registration/actions/create.operation';
import { buildRegistrationBody } from '../../nodes/Registration/actions/registrationBody';
import type { RegistrationInput } from '../../nodes/Registration/actions/registrationBody';
import { flattenRegistration, readCompanies, unwrapRegistration } from '../../nodes/shared/domain/registrationOutput';
import { searchRegistrations } from '../../nodes/shared/fields/methods';
import { AccessPointIntegration } from '../../nodes/Integration/AccessPointIntegration.node';
import type { ILoadOptionsFunctions } from 'n8n-workflow';

const { searchIntegrations } = new AccessPointIntegration().methods.listSearch;

const minimal = (): RegistrationInput => ({
	taxIdentifier: 'BE 0481.516.215',
	companyName: ' Acme BV ',
	email: 'acme@example.com',
	contactFirstName: 'Jan',
	contactLastName: 'Peeters',
	language: 'nl',
	addresses: { invoiceAddress: { street: 'Kerkstraat', zipcode: '9000', city: 'Gent', countryCode: 'be' } },
});

describe('buildRegistrationBody', () => {
	it('builds the minimal body in the published field order, normalised, with default tax switches', () => {
		const built = buildRegistrationBody(minimal());
		expect(built).toEqual({
			body: {
				TaxIdentifier: 'BE0481516215',
				CompanyName: 'Acme BV',
				TaxDeductable: true,
				TaxLiable: true,
				Email: 'acme@example.com',
				ContactFirstName: 'Jan',
				ContactLastName: 'Peeters',
				Language: 'NL',
				Addresses: [{ AddressType: 'InvoiceAddress', Street: 'Kerkstraat', Zipcode: '9000', City: 'Gent', CountryCode: 'BE' }],
			},
		});
		if ('body' in built) expect(Object.keys(built.body)[0]).toBe('TaxIdentifier');
	});

	it('reports the first problem in form order, with field, value and hint', () => {
		const built = buildRegistrationBody({ ...minimal(), email: 'nope', language: 'Dutch', additionalFields: { iban: 'BE00' } });
		expect(built).toEqual({
			problem: expect.objectContaining({ field: 'IBAN', value: 'BE00', problem: expect.stringMatching(/not a valid IBAN/) }),
		});
	});

	it('checks AddressType when the address carries one', () => {
		const built = buildRegistrationBody({
			...minimal(),
			addresses: { invoiceAddress: { addressType: 'HomeAddress', street: 'a', zipcode: '1', city: 'c', countryCode: 'BE' } },
		});
		expect(built).toEqual({ problem: expect.objectContaining({ field: 'Address Type', value: 'HomeAddress' }) });
		const ok = buildRegistrationBody({
			...minimal(),
			addresses: {
				invoiceAddress: { street: 'a', zipcode: '1', city: 'c', countryCode: 'BE' },
				deliveryAddress: { addressType: 'deliveryaddress', street: 'b', zipcode: '2', city: 'd', countryCode: 'NL' },
			},
		});
		expect('body' in ok && ok.body.Addresses).toEqual([
			expect.objectContaining({ AddressType: 'InvoiceAddress' }),
			expect.objectContaining({ AddressType: 'DeliveryAddress', CountryCode: 'NL' }),
		]);
	});

	it('ignores an empty delivery address and reads switches given as text', () => {
		const built = buildRegistrationBody({
			...minimal(),
			taxLiable: 'false',
			addresses: { ...minimal().addresses, deliveryAddress: { street: '', city: ' ' } },
			additionalFields: { accountSettings: { settings: { processUBLPrepaidAmount: true } } },
		});
		expect('body' in built && built.body.TaxLiable).toBe(false);
		expect('body' in built && built.body.Addresses).toHaveLength(1);
		expect('body' in built && built.body.AccountSettings).toEqual({ ProcessUBLPrePaidAmount: true });
		expect(buildRegistrationBody({ ...minimal(), taxDeductable: 'maybe' })).toEqual({
			problem: expect.objectContaining({ field: 'Tax Deductible', problem: 'is not true or false' }),
		});
	});

	it('numbers identifiers in field names when there are several', () => {
		const built = buildRegistrationBody({
			...minimal(),
			additionalFields: {
				identifiers: {
					identifier: [
						{ identifierType: 'KBO', identifier: '0123.456.749' },
						{ identifierType: 'GLN', identifier: '' },
					],
				},
			},
		});
		expect(built).toEqual({ problem: expect.objectContaining({ field: 'Identifiers #2 → Identifier' }) });
	});
});

describe('registration read bodies', () => {
	const company = {
		RegistrationID: 5,
		PartyID: '5',
		CompanyDetails: { CompanyName: 'Acme', TaxIdentifier: 'BE0481516215' },
		Integrations: [{ IntegrationID: 1 }],
	};

	it('unwraps the plain and the Companies form to the same entity', () => {
		expect(unwrapRegistration(company)).toBe(company);
		expect(unwrapRegistration({ Companies: [company] })).toBe(company);
		expect(unwrapRegistration([company])).toBe(company);
		const other = { ...company, RegistrationID: 6 };
		expect(unwrapRegistration({ Companies: [other, company] }, '5')).toBe(company);
		expect(unwrapRegistration({ Companies: [] })).toBeUndefined();
		expect(unwrapRegistration('')).toBeUndefined();
	});

	it('flattens CompanyDetails and always sets RegistrationID', () => {
		expect(flattenRegistration(company)).toEqual({
			RegistrationID: 5,
			CompanyName: 'Acme',
			TaxIdentifier: 'BE0481516215',
			PartyID: '5',
			Integrations: [{ IntegrationID: 1 }],
		});
		expect(flattenRegistration({ CompanyID: '12', CompanyDetails: { CompanyName: 'B' } })).toEqual({
			RegistrationID: 12,
			CompanyID: '12',
			CompanyName: 'B',
			Integrations: [],
		});
		expect(flattenRegistration({ CompanyDetails: {} }, '9').RegistrationID).toBe(9);
	});

	it('reads company lists in every wrapper', () => {
		expect(readCompanies({ Companies: [company] })).toEqual([company]);
		expect(readCompanies({ Items: [company] })).toEqual([company]);
		expect(readCompanies([company, 'junk'])).toEqual([company]);
		expect(readCompanies(null)).toEqual([]);
	});

	it('reads the new ID from every create answer seen', () => {
		expect(readNewRegistrationId({ RegistrationID: 5 })).toBe(5);
		expect(readNewRegistrationId({ RegistrationID: '5' })).toBe(5);
		expect(readNewRegistrationId(17)).toBe(17);
		expect(readNewRegistrationId(' 17 ')).toBe(17);
		expect(readNewRegistrationId({ CompanyID: 8 })).toBe(8);
		expect(readNewRegistrationId({})).toBeUndefined();
		expect(readNewRegistrationId('OK')).toBeUndefined();
	});
});

describe('list searches', () => {
	function loadOptionsContext(bodies: Record<string, unknown>, registrationId?: string) {
		const calls: string[] = [];
		const ctx = {
			getNode: () => ({ name: 'Test', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} }),
			getCredentials: async () => ({ apiKey: 'k', partyId: '1', environment: 'custom', baseUrl: 'https://api.example.test' }),
			getCurrentNodeParameter: () => registrationId,
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: { url: string }) => {
					calls.push(options.url);
					return { statusCode: 200, headers: {}, body: bodies[options.url] };
				},
			},
		};
		return { ctx: ctx as unknown as ILoadOptionsFunctions, calls };
	}

	it('lists registrations by name, VAT and id, filtered', async () => {
		const { ctx } = loadOptionsContext({
			'https://api.example.test/v1/einvoices/registrations': {
				Companies: [
					{ CompanyID: 1, CompanyDetails: { CompanyName: 'Acme', TaxIdentifier: 'BE0481516215' } },
					{ CompanyID: 2, CompanyDetails: { CompanyName: 'Other' } },
				],
			},
		});
		expect(await searchRegistrations.call(ctx)).toEqual({
			results: [
				{ name: 'Acme · BE0481516215 · #1', value: '1' },
				{ name: 'Other · #2', value: '2' },
			],
		});
		expect((await searchRegistrations.call(ctx, 'acm')).results).toHaveLength(1);
	});

	it("lists the chosen registration's integrations, and nothing before one is chosen", async () => {
		const url = 'https://api.example.test/v1/einvoices/registrations/5';
		const { ctx, calls } = loadOptionsContext(
			{ [url]: { Companies: [{ RegistrationID: 5, Integrations: [{ IntegrationID: 7, Integration: 'SDI', IntegrationStatus: 'Pending' }] }] } },
			'5',
		);
		expect(await searchIntegrations.call(ctx)).toEqual({ results: [{ name: 'SDI · Pending · #7', value: '7' }] });
		expect(calls).toEqual([url]);
		const none = loadOptionsContext({}, '');
		expect(await searchIntegrations.call(none.ctx)).toEqual({ results: [] });
		expect(none.calls).toEqual([]);
	});
});

describe('AccessPoint Registration node description', () => {
	const description = new AccessPointRegistration().description;

	it('has the four operations and says that Deactivate is not a delete', () => {
		expect(description.name).toBe('accessPointRegistration');
		const operation = description.properties.find((p) => p.name === 'operation');
		expect(operation?.options?.map((o) => (o as { value: string }).value)).toEqual(['create', 'deactivate', 'get', 'getAll']);
		const notice = description.properties.find((p) => p.name === 'deactivateNotice');
		expect(notice?.type).toBe('notice');
		expect(notice?.displayName).toMatch(/not deleting/);
	});

	it('uses the shared registration picker for Get and Deactivate', () => {
		const pickers = description.properties.filter((p) => p.name === 'registrationId');
		expect(pickers.map((p) => p.displayOptions?.show?.operation)).toEqual([['deactivate'], ['get']]);
		expect(pickers[0].modes?.[0].typeOptions?.searchListMethod).toBe('searchRegistrations');
	});
});
