import { Emu, del, get, post, register, registrationBody, start } from './helpers';

const REG = '/v1/einvoices/registrations';

describe('registrations', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 10 });
	});
	afterAll(() => emu.close());

	it('creates with automatic approval and answers { RegistrationID }', async () => {
		const r = await post(emu, REG, registrationBody('create'));
		expect(r.status).toBe(200);
		expect(Object.keys(r.json)).toEqual(['RegistrationID']);
		expect(r.json.RegistrationID).toEqual(expect.any(Number));
		const one = await get(emu, `${REG}/${r.json.RegistrationID}`);
		expect(one.status).toBe(200);
		expect(one.json.RegistrationID).toBe(r.json.RegistrationID);
		expect(one.json.Active).toBe(true);
		expect(one.json.Integrations).toEqual([]);
		expect(one.json.CompanyDetails).toMatchObject({
			TaxIdentifier: 'BE0123456749',
			CompanyName: 'Entity create BV',
			TaxDeductable: true,
			TaxLiable: true,
			Email: 'entity-create@example.com',
			IBAN: 'BE68539007547034',
			Identifiers: [{ IdentifierType: 'KBO', Identifier: '0123456749' }],
			AccountSettings: { ProcessUBLPrePaidAmount: false },
		});
		expect(one.json.CompanyDetails.Addresses[0]).toMatchObject({ AddressType: 'InvoiceAddress', City: 'Gent' });
	});

	it('lists with CompanyID, CompanyDetails, Integrations', async () => {
		const id = await register(emu, 'list');
		const r = await get(emu, REG);
		expect(r.status).toBe(200);
		const item = r.json.Companies.find((c: { CompanyID: number }) => c.CompanyID === id);
		expect(item).toBeDefined();
		expect(item.CompanyDetails.CompanyName).toBe('Entity list BV');
		expect(item.Integrations).toEqual([]);
		expect(item.RegistrationID).toBeUndefined();
	});

	it('wraps the single read in Companies when switched', async () => {
		const id = await register(emu, 'wrap');
		emu.config.wrapSingleRegistration = true;
		try {
			const r = await get(emu, `${REG}/${id}`);
			expect(r.json.Companies).toHaveLength(1);
			expect(r.json.Companies[0]).toMatchObject({ RegistrationID: id, CompanyDetails: { CompanyName: 'Entity wrap BV' } });
		} finally {
			emu.config.wrapSingleRegistration = false;
		}
	});

	it('validates e-mail presence, format and uniqueness, TaxIdentifier and CompanyName', async () => {
		const cases: Array<[Record<string, unknown>, RegExp]> = [
			[{ Email: undefined }, /Email/],
			[{ Email: 'not-an-address' }, /e-mail/i],
			[{ TaxIdentifier: '' }, /TaxIdentifier/],
			[{ CompanyName: undefined }, /CompanyName/],
			[{ Addresses: [{ AddressType: 'HomeAddress' }] }, /AddressType/],
		];
		for (const [extra, re] of cases) {
			const r = await post(emu, REG, registrationBody('invalid', extra));
			expect(r.status).toBe(400);
			expect(r.json.errors[0].Code).toBe('GenericError');
			expect(r.json.errors[0].Description).toMatch(re);
		}
		await register(emu, 'dup');
		const dup = await post(emu, REG, registrationBody('other', { Email: 'ENTITY-DUP@example.com' }));
		expect(dup.status).toBe(400);
		expect(dup.json.errors[0].Description).toMatch(/ENTITY-DUP@example.com/);
		const otherAccount = await post(emu, REG, registrationBody('dup'), { apiKey: emu.otherAccount.apiKey, partyId: emu.otherAccount.partyId });
		expect(otherAccount.status).toBe(200);
	});

	it('deactivates instead of deleting; the party can no longer be used', async () => {
		const id = await register(emu, 'deact');
		expect((await get(emu, '/v1/orders', { partyId: String(id) })).status).toBe(200);
		const d = await del(emu, `${REG}/${id}`);
		expect(d.status).toBe(200);
		const one = await get(emu, `${REG}/${id}`);
		expect(one.status).toBe(200);
		expect(one.json).toMatchObject({ RegistrationID: id, Active: false, Status: 'Deactivated' });
		const list = await get(emu, REG);
		expect(list.json.Companies.find((c: { CompanyID: number }) => c.CompanyID === id).Active).toBe(false);
		const asParty = await get(emu, '/v1/orders', { partyId: String(id) });
		expect(asParty.status).toBe(401);
		expect(asParty.json.errors[0].Description).toMatch(/deactivated/);
		expect((await del(emu, `${REG}/${id}`)).status).toBe(200);
	});

	it("answers 404 for unknown and 401 for another account's registration", async () => {
		expect((await get(emu, `${REG}/999999`)).status).toBe(404);
		expect((await del(emu, `${REG}/999999`)).status).toBe(404);
		const id = await register(emu, 'mine');
		const other = { apiKey: emu.otherAccount.apiKey, partyId: emu.otherAccount.partyId };
		const r = await get(emu, `${REG}/${id}`, other);
		expect(r.status).toBe(401);
		expect(r.json.errors[0].Code).toBe('Unauthorized');
		expect((await del(emu, `${REG}/${id}`, other)).status).toBe(401);
		expect((await get(emu, '/v1/orders', { ...other, partyId: String(id) })).status).toBe(401);
	});
});

describe('integrations', () => {
	let emu: Emu;
	let id: number;
	beforeAll(async () => {
		emu = await start({ orders: 0 });
		id = await register(emu, 'integ');
	});
	afterAll(() => emu.close());
	const path = () => `${REG}/${id}/integrations`;

	it('creates a Peppol integration (Active by default, Ready when switched)', async () => {
		const r = await post(emu, path(), { ExternalProvider: 'Peppol' });
		expect(r.status).toBe(200);
		expect(r.json).toEqual({
			IntegrationID: expect.any(Number),
			Integration: 'Peppol',
			IntegrationStatus: 'Active',
			IntegrationStatusDescription: '',
			IntegrationDocumentToSign: '',
		});
		const dup = await post(emu, path(), { ExternalProvider: 'peppol' });
		expect(dup.status).toBe(400);
		const other = await register(emu, 'ready');
		emu.config.peppolIntegrationStatus = 'Ready';
		try {
			const ready = await post(emu, `${REG}/${other}/integrations`, { ExternalProvider: 'Peppol' });
			expect(ready.json.IntegrationStatus).toBe('Ready');
		} finally {
			emu.config.peppolIntegrationStatus = 'Active';
		}
		const one = await get(emu, `${REG}/${id}`);
		expect(one.json.Integrations).toEqual([expect.objectContaining({ IntegrationID: r.json.IntegrationID, Integration: 'Peppol' })]);
	});

	it('creates SDI as Pending with a document to sign, and the sign page activates it', async () => {
		const r = await post(emu, path(), { ExternalProvider: 'SDI' });
		expect(r.status).toBe(200);
		expect(r.json).toMatchObject({
			Integration: 'SDI',
			IntegrationStatus: 'Pending',
			IntegrationStatusDescription: 'Awaiting signature of the legal archiving document',
		});
		expect(r.json.IntegrationDocumentToSign).toMatch(new RegExp(`^${emu.url}/sign/[0-9a-f]+$`));
		const pageRes = await fetch(r.json.IntegrationDocumentToSign);
		expect(pageRes.status).toBe(200);
		expect(pageRes.headers.get('content-type')).toMatch(/text\/html/);
		const html = await pageRes.text();
		const href = /id="sign" href="([^"]+)"/.exec(html)?.[1];
		expect(href).toBeDefined();
		expect((await fetch(String(href))).status).toBe(200);
		const one = await get(emu, `${REG}/${id}`);
		expect(one.json.Integrations.find((i: { Integration: string }) => i.Integration === 'SDI').IntegrationStatus).toBe('Active');
		expect((await fetch(`${emu.url}/sign/nope`)).status).toBe(404);
	});

	it('requires credentials for ChorusPro and rejects unknown networks', async () => {
		const missing = await post(emu, path(), { ExternalProvider: 'ChorusPro' });
		expect(missing.status).toBe(400);
		expect(missing.json.errors[0].Description).toMatch(/TechnicalUserKey/);
		const ok = await post(emu, path(), { ExternalProvider: 'ChorusPro', Credentials: { TechnicalUserKey: 'tuk-1' } });
		expect(ok.status).toBe(200);
		expect(ok.json.IntegrationStatus).toBe('Active');
		const unknown = await post(emu, path(), { ExternalProvider: 'CarrierPigeon' });
		expect(unknown.status).toBe(400);
		expect(unknown.json.errors[0].Description).toMatch(/CarrierPigeon/);
		expect((await post(emu, path(), {})).status).toBe(400);
	});

	it('deletes integrations (404 when unknown) and refuses on deactivated or foreign entities', async () => {
		const r = await post(emu, `${REG}/${await register(emu, 'del')}/integrations`, { ExternalProvider: 'Peppol' });
		const regs = await get(emu, REG);
		const owner = regs.json.Companies.find((c: { Integrations: Array<{ IntegrationID: number }> }) =>
			c.Integrations.some((i) => i.IntegrationID === r.json.IntegrationID),
		).CompanyID;
		const d = await del(emu, `${REG}/${owner}/integrations/${r.json.IntegrationID}`);
		expect(d.status).toBe(200);
		expect((await get(emu, `${REG}/${owner}`)).json.Integrations).toEqual([]);
		expect((await del(emu, `${REG}/${owner}/integrations/${r.json.IntegrationID}`)).status).toBe(404);
		const foreign = await post(
			emu,
			`${REG}/${owner}/integrations`,
			{ ExternalProvider: 'Peppol' },
			{ apiKey: emu.otherAccount.apiKey, partyId: emu.otherAccount.partyId },
		);
		expect(foreign.status).toBe(401);
		await del(emu, `${REG}/${owner}`);
		const deact = await post(emu, `${REG}/${owner}/integrations`, { ExternalProvider: 'Peppol' });
		expect(deact.status).toBe(400);
		expect(deact.json.errors[0].Description).toMatch(/deactivated/);
	});
});
