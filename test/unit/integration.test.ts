import { AccessPointIntegration } from '../../nodes/Integration/AccessPointIntegration.node';
import { buildIntegrationBody, integrationOutput, signatureHint } from '../../nodes/Integration/actions/integration';

describe('buildIntegrationBody', () => {
	it('sends the offered networks by their API names', () => {
		expect(buildIntegrationBody({ network: 'Peppol' })).toEqual({ body: { ExternalProvider: 'Peppol' } });
		expect(buildIntegrationBody({ network: 'SDI' })).toEqual({ body: { ExternalProvider: 'SDI' } });
		expect(buildIntegrationBody({ network: 'ChorusPro', technicalUserKey: ' key ' })).toEqual({
			body: { ExternalProvider: 'ChorusPro', Credentials: { TechnicalUserKey: 'key' } },
		});
	});

	it('sends another network with its credentials; known names get their API spelling', () => {
		expect(
			buildIntegrationBody({
				network: 'other',
				networkName: ' XRechnung ',
				credentials: {
					credential: [
						{ key: 'Token', value: ' abc ' },
						{ key: 'User_2', value: 'u' },
					],
				},
			}),
		).toEqual({ body: { ExternalProvider: 'XRechnung', Credentials: { Token: 'abc', User_2: 'u' } } });
		expect(buildIntegrationBody({ network: 'other', networkName: 'peppol' })).toEqual({ body: { ExternalProvider: 'Peppol' } });
		expect(
			buildIntegrationBody({ network: 'other', networkName: 'choruspro', credentials: { credential: [{ key: 'TechnicalUserKey', value: 'k' }] } }),
		).toEqual({ body: { ExternalProvider: 'ChorusPro', Credentials: { TechnicalUserKey: 'k' } } });
	});

	it('never echoes a secret in a problem', () => {
		const result = buildIntegrationBody({ network: 'ChorusPro', technicalUserKey: '' });
		expect(result).toEqual({ problem: expect.objectContaining({ field: 'Technical User Key', value: undefined }) });
		const empty = buildIntegrationBody({ network: 'other', networkName: 'X', credentials: { credential: [{ key: 'Token', value: '  ' }] } });
		expect(empty).toEqual({ problem: expect.objectContaining({ field: 'Credentials #1 → Value', value: undefined }) });
	});

	it('rejects a network value that is not offered', () => {
		expect(buildIntegrationBody({ network: 'Fax' })).toEqual({ problem: expect.objectContaining({ field: 'Network', value: 'Fax' }) });
	});
});

describe('integrationOutput', () => {
	it('makes a pending signature obvious, with the signing URL once, under the API name', () => {
		const out = integrationOutput('12', {
			IntegrationID: 3,
			Integration: 'SDI',
			IntegrationStatus: 'Pending',
			IntegrationStatusDescription: 'Awaiting signature',
			IntegrationDocumentToSign: 'https://sign.example/abc',
		});
		expect(out).toEqual({
			RegistrationID: 12,
			IntegrationID: 3,
			Integration: 'SDI',
			IntegrationStatus: 'Pending',
			IntegrationStatusDescription: 'Awaiting signature',
			IntegrationDocumentToSign: 'https://sign.example/abc',
			needsSignature: true,
		});
		expect(Object.values(out).filter((value) => value === 'https://sign.example/abc')).toHaveLength(1);
	});

	it('reports ready and active integrations without a signature step, filling absent fields', () => {
		expect(integrationOutput(12, { IntegrationID: 4, Integration: 'Peppol', IntegrationStatus: 'Ready' })).toEqual({
			RegistrationID: 12,
			IntegrationID: 4,
			Integration: 'Peppol',
			IntegrationStatus: 'Ready',
			IntegrationStatusDescription: '',
			IntegrationDocumentToSign: '',
			needsSignature: false,
		});
		const signed = integrationOutput(12, { IntegrationStatus: 'Active', IntegrationDocumentToSign: 'https://sign.example/abc' });
		expect(signed.needsSignature).toBe(false);
	});

	it('explains a Pending status without a document', () => {
		const out = integrationOutput(1, { IntegrationStatus: 'pending', IntegrationStatusDescription: 'Connection fee' });
		expect(out.needsSignature).toBe(false);
		expect(out.nextStep).toMatch(/IntegrationStatusDescription/);
	});
});

describe('AccessPoint Integration node description', () => {
	const description = new AccessPointIntegration().description;
	const prop = (name: string) => description.properties.find((p) => p.name === name);

	it('has the fixed internal name and the three operations', () => {
		expect(description.name).toBe('accessPointIntegration');
		const operation = prop('operation');
		expect(operation?.options?.map((o) => (o as { value: string }).value)).toEqual(['create', 'delete', 'getAll']);
	});

	it('offers Peppol, SDI, Chorus Pro and a free network name', () => {
		expect(prop('network')?.options?.map((o) => (o as { value: string }).value)).toEqual(['Peppol', 'SDI', 'ChorusPro', 'other']);
		expect(prop('networkName')?.displayOptions?.show).toEqual({ operation: ['create'], network: ['other'] });
	});

	it('shows credentials only for networks that need them, as hidden values', () => {
		expect(prop('technicalUserKey')?.displayOptions?.show).toEqual({ operation: ['create'], network: ['ChorusPro'] });
		expect(prop('technicalUserKey')?.typeOptions?.password).toBe(true);
		expect(prop('credentials')?.displayOptions?.show).toEqual({ operation: ['create'], network: ['other'] });
	});

	it('says "sign the document" once, in the run\'s hint when an integration is pending, not in a static hint', () => {
		expect(description.hints ?? []).toEqual([]);
		expect(signatureHint(['SDI #7'])).toBe(
			'SDI #7 is Pending: open IntegrationDocumentToSign in the output and have the registered company sign the document.',
		);
	});
});
