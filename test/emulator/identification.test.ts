import { Emu, del, post, register, start } from './helpers';

const ident = (id: number) => `/v1/einvoices/registrations/${id}/identification`;
const body = (redirect = 'http://localhost:5678/webhook-waiting/42?signature=abc') => ({ IdentificationProviderTC: 'itsme', RedirectURL: redirect });

describe('identification', () => {
	let emu: Emu;
	let n = 0;
	beforeAll(async () => {
		emu = await start({ orders: 0 });
	});
	afterAll(() => emu.close());
	const fresh = () => register(emu, `ident-${++n}`);

	it('runs a successful flow end to end and stores the result', async () => {
		const id = await fresh();
		const r = await post(emu, ident(id), body());
		expect(r.status).toBe(200);
		expect(Object.keys(r.json)).toEqual(['RedirectURL']);
		expect(r.json.RedirectURL).toMatch(new RegExp(`^${emu.url}/provider/[0-9a-f]+$`));
		const pageRes = await fetch(r.json.RedirectURL);
		expect(pageRes.status).toBe(200);
		const html = await pageRes.text();
		const succeed = /id="succeed" href="([^"]+)"/.exec(html)?.[1].replace(/&amp;/g, '&');
		expect(/id="fail" href="([^"]+)"/.test(html)).toBe(true);
		const done = await fetch(String(succeed), { redirect: 'manual' });
		expect(done.status).toBe(302);
		expect(done.headers.get('location')).toBe(`http://localhost:5678/webhook-waiting/42?signature=abc&registrationID=${id}&success=true`);
		const reg = emu.store.registrations.get(id);
		expect(reg?.Identified).toBe(true);
		expect(reg?.LastIdentification).toMatchObject({ Result: 'success' });
		const again = await fetch(String(succeed), { redirect: 'manual' });
		expect(again.status).toBe(409);
	});

	it('runs a failed flow via emu.provider.complete, with ? added when the URL has no query', async () => {
		const id = await fresh();
		const r = await post(emu, ident(id), body('http://127.0.0.1:9999/callback'));
		const out = await emu.provider.complete(r.json.RedirectURL, 'failure');
		expect(out.status).toBe(302);
		expect(out.location).toBe(`http://127.0.0.1:9999/callback?registrationID=${id}&success=false`);
		expect(emu.store.registrations.get(id)?.Identified).toBe(false);
		expect(emu.store.registrations.get(id)?.LastIdentification).toMatchObject({ Result: 'failure' });
	});

	it('expires the session after 5 minutes (emulator clock), no redirect', async () => {
		const id = await fresh();
		const r = await post(emu, ident(id), body());
		emu.clock.advance(4 * 60_000 + 59_000);
		expect((await fetch(r.json.RedirectURL)).status).toBe(200);
		emu.clock.advance(1_000);
		const pageRes = await fetch(r.json.RedirectURL);
		expect(pageRes.status).toBe(410);
		expect(await pageRes.text()).toMatch(/expired/);
		const out = await emu.provider.complete(r.json.RedirectURL, 'success');
		expect(out.status).toBe(410);
		expect(out.location).toBeNull();
		expect(emu.store.registrations.get(id)?.Identified).toBe(false);
	});

	it('answers TooManyTrials on the 6th attempt for an entity', async () => {
		const id = await fresh();
		for (let i = 0; i < 5; i++) expect((await post(emu, ident(id), body())).status).toBe(200);
		const sixth = await post(emu, ident(id), body());
		expect(sixth.status).toBe(400);
		expect(sixth.json).toEqual({ errors: [{ Code: 'TooManyTrials', Description: 'Too many attempts' }] });
		expect((await post(emu, ident(await fresh()), body())).status).toBe(200);
	});

	it('rejects a master account that is not whitelisted, telling it to contact support with its PartyID', async () => {
		const other = { apiKey: emu.otherAccount.apiKey, partyId: emu.otherAccount.partyId };
		const r = await post(emu, '/v1/einvoices/registrations', { TaxIdentifier: 'BE0456789133', CompanyName: 'X', Email: 'x-nw@example.com' }, other);
		const res = await post(emu, ident(r.json.RegistrationID), body(), other);
		expect(res.status).toBe(403);
		expect(res.json.errors[0].Description).toMatch(/support/);
		expect(res.json.errors[0].Description).toContain(emu.otherAccount.partyId);
		const id = await fresh();
		const asEntity = await post(emu, ident(id), body(), { partyId: String(id) });
		expect(asEntity.status).toBe(403);
	});

	it('sends the browser to the provider error page for a redirect host that is not allowed', async () => {
		const id = await fresh();
		const r = await post(emu, ident(id), body('https://evil.example.com/cb'));
		expect(r.status).toBe(200);
		const out = await emu.provider.complete(r.json.RedirectURL, 'success');
		expect(out.location).toBe(`${emu.url}/provider/error?error=invalid_redirect`);
		const errPage = await fetch(String(out.location));
		expect(await errPage.text()).toMatch(/invalid_redirect/);
		expect(emu.store.registrations.get(id)?.Identified).toBe(false);
		emu.config.allowedRedirectHosts.push('evil.example.com');
		try {
			const r2 = await post(emu, ident(id), body('https://evil.example.com/cb#frag'));
			const out2 = await emu.provider.complete(r2.json.RedirectURL, 'success');
			expect(out2.location).toBe(`https://evil.example.com/cb?registrationID=${id}&success=true#frag`);
		} finally {
			emu.config.allowedRedirectHosts.pop();
		}
	});

	it('validates the provider code and the RedirectURL', async () => {
		const id = await fresh();
		const wrongCode = await post(emu, ident(id), { IdentificationProviderTC: 'other-idp', RedirectURL: 'http://localhost/x' });
		expect(wrongCode.status).toBe(400);
		expect(wrongCode.json.errors[0].Description).toMatch(/itsme/);
		for (const bad of ['/relative/path', 'ftp://localhost/x', 'not a url', '']) {
			const r = await post(emu, ident(id), { IdentificationProviderTC: 'itsme', RedirectURL: bad });
			expect(r.status).toBe(400);
			expect(r.json.errors[0].Description).toMatch(/RedirectURL/);
		}
		emu.config.identificationProviderCode = 'other-idp';
		try {
			expect((await post(emu, ident(id), { IdentificationProviderTC: 'other-idp', RedirectURL: 'http://localhost/x' })).status).toBe(200);
		} finally {
			emu.config.identificationProviderCode = 'itsme';
		}
		// invalid requests did not consume attempts: 4 more succeed, then the limit
		for (let i = 0; i < 4; i++) expect((await post(emu, ident(id), body())).status).toBe(200);
		expect((await post(emu, ident(id), body())).json.errors[0].Code).toBe('TooManyTrials');
	});

	it("answers 404 for unknown or deactivated entities and 401 for another account's", async () => {
		expect((await post(emu, ident(987654), body())).status).toBe(404);
		const id = await fresh();
		await del(emu, `/v1/einvoices/registrations/${id}`);
		const r = await post(emu, ident(id), body());
		expect(r.status).toBe(404);
		const other = { apiKey: emu.otherAccount.apiKey, partyId: emu.otherAccount.partyId };
		const foreign = await post(emu, '/v1/einvoices/registrations', { TaxIdentifier: 'BE0456789133', CompanyName: 'Y', Email: 'y-f@example.com' }, other);
		expect((await post(emu, ident(foreign.json.RegistrationID), body())).status).toBe(401);
	});

	it('names the URL field URL when switched', async () => {
		emu.config.identificationUrlField = 'URL';
		try {
			const r = await post(emu, ident(await fresh()), body());
			expect(Object.keys(r.json)).toEqual(['URL']);
			expect(r.json.URL).toMatch(/\/provider\//);
		} finally {
			emu.config.identificationUrlField = 'RedirectURL';
		}
	});

	it('serves 404 for unknown sessions and 400 for a bad result value', async () => {
		expect((await fetch(`${emu.url}/provider/unknown-token`)).status).toBe(404);
		const r = await post(emu, ident(await fresh()), body());
		expect((await fetch(`${r.json.RedirectURL}/complete?result=maybe`, { redirect: 'manual' })).status).toBe(400);
	});
});
