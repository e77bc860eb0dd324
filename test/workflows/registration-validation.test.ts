import nock from 'nock';
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';

/**
 * Every bad input is rejected by the node before a request leaves: the credential
 * points at a nock host whose catch-all interceptors record anything that arrives,
 * and real network access is disabled.
 */
const HOST = 'https://api.validation.test';
const REG = 'accessPointRegistration';
const INT = 'accessPointIntegration';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
/**
 * Bad values arrive as data from an earlier node, as in real workflows: a literal empty
 * required field or an ID failing the field's regex is already refused by n8n's own
 * parameter check, so every case feeds its value through an expression.
 */
const bad = '={{ $json.bad }}';

const validCreate = (): IDataObject => ({
	operation: 'create',
	companyName: 'Acme BV',
	taxIdentifier: 'BE0481516215',
	email: 'acme@example.com',
	contactFirstName: 'Jan',
	contactLastName: 'Peeters',
	language: 'NL',
	addresses: {
		invoiceAddress: { street: 'Kerkstraat', streetNumber: '12', zipcode: '9000', city: 'Gent', countryCode: 'BE' },
	},
});

const withAddress = (over: IDataObject, kind = 'invoiceAddress'): IDataObject => ({
	addresses: {
		invoiceAddress: { street: 'Kerkstraat', zipcode: '9000', city: 'Gent', countryCode: 'BE', ...(kind === 'invoiceAddress' ? over : {}) },
		...(kind === 'deliveryAddress' ? { deliveryAddress: { street: 'Quai', zipcode: '4000', city: 'Liège', countryCode: 'BE', ...over } } : {}),
	},
});

/** [label, node type, parameters (bad value at `bad`), the bad value, expected message] */
type Case = [label: string, type: string, parameters: IDataObject, value: unknown, message: RegExp];

const reg = (over: IDataObject): IDataObject => ({ ...validCreate(), ...over });
const extra = (fields: IDataObject): IDataObject => reg({ additionalFields: fields });
const integration = (over: IDataObject): IDataObject => ({ operation: 'create', registrationId: byId('42'), network: 'Peppol', ...over });
const other = (credential: IDataObject[]): IDataObject => integration({ network: 'other', networkName: 'XRechnung', credentials: { credential } });

const CASES: Case[] = [
	['empty VAT number', REG, reg({ taxIdentifier: bad }), '', /^Item 0: "VAT Number" is empty$/],
	['VAT without prefix', REG, reg({ taxIdentifier: bad }), '0481516215', /"VAT Number" 0481516215 has no country prefix/],
	['Belgian VAT failing mod 97', REG, reg({ taxIdentifier: bad }), 'BE0481516216', /"VAT Number" BE0481516216 is not a valid Belgian VAT number \(mod-97/],
	['unknown VAT prefix', REG, reg({ taxIdentifier: bad }), 'ZZ123456789', /"VAT Number" .* known country prefix/],
	[
		'Dutch VAT of the wrong shape',
		REG,
		reg({ taxIdentifier: bad }),
		'NL123456789',
		/"VAT Number" NL123456789 is not a Dutch VAT number \(expected NL \+ 9 digits \+ B \+ 2 digits\)/,
	],
	['empty company name', REG, reg({ companyName: bad }), '  ', /^Item 0: "Company Name" is empty$/],
	['empty e-mail', REG, reg({ email: bad }), '', /"Email" is empty/],
	['e-mail without @', REG, reg({ email: bad }), 'finance.example.com', /"Email" finance\.example\.com is not a valid e-mail address/],
	['e-mail without TLD', REG, reg({ email: bad }), 'a@b', /"Email" a@b is not a valid e-mail address \(the domain/],
	['e-mail with a space', REG, reg({ email: bad }), 'jan peeters@example.com', /"Email" .* part before @/],
	['language as a word', REG, reg({ language: bad }), 'Dutch', /"Language" Dutch is not an ISO 639-1 language code/],
	['unknown language code', REG, reg({ language: bad }), 'xx', /"Language" xx is not an ISO 639-1 language code/],
	['language with region', REG, reg({ language: bad }), 'nl-BE', /"Language" nl-BE is not an ISO 639-1 language code/],
	['empty contact first name', REG, reg({ contactFirstName: bad }), '', /"Contact First Name" is empty/],
	['empty contact last name', REG, reg({ contactLastName: bad }), null, /"Contact Last Name" is empty/],
	['IBAN checksum', REG, extra({ iban: bad }), 'BE68 5390 0754 7035', /"IBAN" BE68 5390 0754 7035 is not a valid IBAN \(checksum failed\)/],
	['IBAN too short', REG, extra({ iban: bad }), 'BE12 3456', /"IBAN" BE12 3456 is not a valid IBAN \(a BE IBAN has 16/],
	['local account number as IBAN', REG, extra({ iban: bad }), '539-0075470-34', /"IBAN" .* is not a valid IBAN/],
	['BIC too short', REG, extra({ bic: bad }), 'GEBABEB', /"BIC" GEBABEB is not a valid BIC/],
	['BIC with a bad country', REG, extra({ bic: bad }), 'GEBAZZBB', /"BIC" GEBAZZBB is not a valid BIC \(characters 5-6/],
	['national mobile number', REG, extra({ mobile: bad }), '0470 12 34 56', /"Mobile" .* is not in international format/],
	['phone too short', REG, extra({ phone: bad }), '+32 47', /"Phone" \+32 47 is not a valid international phone number/],
	['phone with letters', REG, extra({ phone: bad }), '+32 CALL ME', /"Phone" .*\(only digits/],
	[
		'identifier without value',
		REG,
		extra({ identifiers: { identifier: [{ identifierType: 'KBO', identifier: bad }] } }),
		'',
		/"Identifiers → Identifier" is empty/,
	],
	[
		'identifier without type',
		REG,
		extra({ identifiers: { identifier: [{ identifierType: bad, identifier: '0481516215' }] } }),
		' ',
		/"Identifiers → Identifier Type" is empty/,
	],
	// As the editor saves a fresh Create node when the user adds no address (the Addresses parameter absent).
	[
		'no addresses at all',
		REG,
		Object.fromEntries(Object.entries(validCreate()).filter(([k]) => k !== 'addresses')),
		'',
		/"Addresses → Invoice Address" is required/,
	],
	['no invoice address', REG, reg({ addresses: { invoiceAddress: { street: bad, countryCode: bad } } }), '', /"Addresses → Invoice Address" is required/],
	['invoice address without street', REG, reg(withAddress({ street: bad })), '', /"Invoice Address → Street" is empty/],
	['invoice address without city', REG, reg(withAddress({ city: bad })), '', /"Invoice Address → City" is empty/],
	['three-letter country code', REG, reg(withAddress({ countryCode: bad })), 'BEL', /"Invoice Address → Country Code" BEL is not an ISO 3166-1 country code/],
	['UK instead of GB', REG, reg(withAddress({ countryCode: bad })), 'UK', /"Invoice Address → Country Code" UK is not an ISO 3166-1 country code/],
	['bad delivery country', REG, reg(withAddress({ countryCode: bad }, 'deliveryAddress')), 'XX', /"Delivery Address → Country Code" XX/],
	['bad address phone', REG, reg(withAddress({ phone: bad })), '09 123 45 67', /"Invoice Address → Phone" .* international format/],
	['Get with a non-numeric ID', REG, { operation: 'get', registrationId: byId(bad) }, 'abc', /^Item 0: "Registration" abc is not a valid RegistrationID/],
	['Get with an empty ID', REG, { operation: 'get', registrationId: byId(bad) }, '', /"Registration" is empty/],
	['Deactivate with ID 0', REG, { operation: 'deactivate', registrationId: byId(bad) }, '0', /"Registration" 0 is not a valid RegistrationID/],
	['integration for a bad registration ID', INT, integration({ registrationId: byId(bad) }), '12x', /"Registration" 12x is not a valid RegistrationID/],
	[
		'Chorus Pro without technical user key',
		INT,
		integration({ network: 'ChorusPro', technicalUserKey: bad }),
		'',
		/"Technical User Key" is required for Chorus Pro/,
	],
	['other network without a name', INT, integration({ network: 'other', networkName: bad }), '', /"Network Name" is empty/],
	['other network with a bad name', INT, integration({ network: 'other', networkName: bad }), '!!', /"Network Name" !! is not a network name/],
	['credential name starting with a digit', INT, other([{ key: bad, value: 'v' }]), '1key', /"Credentials #1 → Name" 1key is not a credential name/],
	[
		'credential given twice',
		INT,
		other([
			{ key: 'Token', value: 'a' },
			{ key: bad, value: 'b' },
		]),
		'Token',
		/"Credentials #2 → Name" Token is given twice/,
	],
	['credential without value', INT, other([{ key: 'Token', value: bad }]), '', /"Credentials #1 → Value" is empty \(credential Token\)/],
	[
		'Chorus Pro typed as other without TechnicalUserKey',
		INT,
		integration({ network: 'other', networkName: bad, credentials: { credential: [{ key: 'Token', value: 'a' }] } }),
		'choruspro',
		/"Credentials" must contain TechnicalUserKey/,
	],
	[
		'delete with a non-numeric integration ID',
		INT,
		{ operation: 'delete', registrationId: byId('42'), integrationId: byId(bad) },
		'abc',
		/"Integration" abc is not a valid IntegrationID/,
	],
	[
		'integrations of registration 0',
		INT,
		{ operation: 'getAll', registrationId: byId(bad), returnAll: true },
		'0',
		/"Registration" 0 is not a valid RegistrationID/,
	],
];

describe('bad inputs are rejected before any request', () => {
	let h: Harness;
	const received: string[] = [];

	beforeAll(async () => {
		h = await createHarness({ emulator: false, credentials: { apiKey: 'k-validation', partyId: '100001', environment: 'custom', baseUrl: HOST } });
	});

	afterAll(async () => {
		nock.cleanAll();
		nock.enableNetConnect();
		await h?.close();
	});

	beforeEach(() => {
		received.length = 0;
		nock.cleanAll();
		nock.disableNetConnect();
		for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
			nock(HOST)
				.persist()
				.intercept(/.*/, method)
				.reply(function (uri) {
					received.push(`${this.req.method} ${uri}`);
					return method === 'POST' ? [200, { RegistrationID: 9, IntegrationID: 7, Integration: 'Peppol', IntegrationStatus: 'Active' }] : [200, {}];
				});
		}
	});

	it('has at least 25 cases', () => {
		expect(CASES.length).toBeGreaterThanOrEqual(25);
	});

	it('the recorder sees requests of valid input (control)', async () => {
		const create = await h.runNode(REG, validCreate());
		create.assertSuccess();
		const integrationRun = await h.runNode(
			INT,
			integration({ network: 'other', networkName: 'XRechnung', credentials: { credential: [{ key: 'Token', value: 'x' }] } }),
		);
		integrationRun.assertSuccess();
		expect(received).toEqual(['POST /v1/einvoices/registrations', 'POST /v1/einvoices/registrations/42/integrations']);
	});

	it.each(CASES)('%s', async (_label, type, parameters, value, message) => {
		const result = await h.runNode(type, parameters, [{ json: { bad: value as string } }]);
		expect(result.status).toBe('error');
		const error = result.nodeError(result.nodeName as string) as unknown as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/^Item 0: "/);
		expect(error.message).toMatch(message);
		expect(error.context.itemIndex).toBe(0);
		expect(error.description).toEqual(expect.any(String));
		expect(received).toEqual([]);
	});
});
