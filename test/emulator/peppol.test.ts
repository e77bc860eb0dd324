import { Emu, get, start } from './helpers';

const INVOICE =
	'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const CREDIT =
	'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const lookup = (emu: Emu, id: string) => get(emu, `/v1/peppol/participantInformation/${encodeURIComponent(id)}`);

describe('Peppol participant lookup', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 0 });
	});
	afterAll(() => emu.close());

	it('answers a registered Belgian receiver with BIS v3 service details', async () => {
		const r = await lookup(emu, 'BE0123456749');
		expect(r.status).toBe(200);
		expect(r.json).toMatchObject({ Registered: true, Identifier: '9925:BE0123456749', DocumentTypes: ['BISv3Invoice', 'BISv3CreditNote'] });
		expect(r.json.ServiceProviderID).toEqual(expect.any(String));
		expect(r.json.ServiceDetails).toHaveLength(2);
		expect(r.json.ServiceDetails.map((d: { DocumentIdentifier: string }) => d.DocumentIdentifier)).toEqual([INVOICE, CREDIT]);
		const d = r.json.ServiceDetails[0];
		expect(d.DocumentIdentifierScheme).toBe('busdox-docid-qns');
		expect(d.Processes[0]).toMatchObject({ ProcessIdentifier: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', ProcessIdentifierScheme: 'cenbii-procid-ubl' });
		expect(d.Processes[0].Endpoints[0]).toMatchObject({ TransportProfile: 'peppol-transport-as4-v2_0' });
	});

	it('resolves the VAT number, the bare enterprise number and scheme forms of the same company', async () => {
		for (const [q, ident] of [
			['0123456749', '0208:0123456749'],
			['123456749', '0208:0123456749'],
			['0208:0123456749', '0208:0123456749'],
			['9925:BE0123456749', '9925:BE0123456749'],
			['9925:be0123456749', '9925:be0123456749'],
			['be 0123.456.749', '9925:BE0123456749'],
		]) {
			const r = await lookup(emu, q);
			expect(r.status).toBe(200);
			expect(r.json.Registered).toBe(true);
			expect(r.json.Identifier).toBe(ident);
		}
	});

	it.each([
		['NL123456789B01', '9944:NL123456789B01', ['BISv3Invoice']],
		['DE123456789', '9930:DE123456789', ['SIInvoice', 'SICreditNote']],
		['0088:5400000000010', '0088:5400000000010', ['BISv3Invoice', 'BISv3CreditNote']],
		['0106:12345678', '0106:12345678', ['BISv3Invoice', 'BISv3CreditNote']],
		['0190:00000001234567890000', '0190:00000001234567890000', ['BISv3Invoice', 'BISv3CreditNote']],
		['0230:C2584563200', '0230:C2584563200', ['MYPintInvoice', 'MYPintCreditNote']],
		['BE0887766566', '9925:BE0887766566', ['IMR', 'MLR']],
		['SE556677889901', '9955:SE556677889901', ['BISv3Invoice', 'BISv3CreditNote']],
	])('knows %s', async (q, ident, types) => {
		const r = await lookup(emu, q);
		expect(r.json).toMatchObject({ Registered: true, Identifier: ident, DocumentTypes: types });
		expect(r.json.ServiceDetails).toHaveLength(types.length);
	});

	it('answers unregistered receivers with 200 and empty lists', async () => {
		for (const [q, ident] of [
			['BE1002003070', '9925:BE1002003070'],
			['NL999999999B01', '9944:NL999999999B01'],
			['0088:8712345000004', '0088:8712345000004'],
		]) {
			const r = await lookup(emu, q);
			expect(r.status).toBe(200);
			expect(r.json).toEqual({ Registered: false, Identifier: ident, DocumentTypes: [], ServiceDetails: [] });
		}
	});

	it('rejects unrecognised identifier forms with 400', async () => {
		for (const q of ['hello', 'XX123456789', '9925:']) {
			const r = await lookup(emu, q);
			expect(r.status).toBe(400);
			expect(r.json.errors[0].Code).toBe('GenericError');
		}
	});

	it('lets tests add and remove participants', async () => {
		expect((await lookup(emu, 'BE1002003070')).json.Registered).toBe(false);
		emu.store.participants.add({ identifier: '0208:1002003070', name: 'Added', documentTypes: ['BISv3Invoice'] });
		const r = await lookup(emu, 'BE1002003070');
		expect(r.json).toMatchObject({ Registered: true, DocumentTypes: ['BISv3Invoice'] });
		expect(emu.store.participants.remove('BE1002003070')).toBe(true);
		expect((await lookup(emu, '1002003070')).json.Registered).toBe(false);
		expect(emu.store.participants.list().length).toBeGreaterThanOrEqual(8);
	});

	it('requires auth', async () => {
		expect((await get(emu, '/v1/peppol/participantInformation/BE0123456749', { auth: false })).status).toBe(401);
	});
});
