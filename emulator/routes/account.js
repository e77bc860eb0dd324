'use strict';

/**
 * GET /v1/account/accountInformation: the signed-in user behind an apikey or a Bearer token, no
 * partyID header needed. The shape is the service's OpenAPI `AccountInformation` (fixtures/
 * account-information.json, an example of it): the user's Email and names, `Companies` (PartyID,
 * Name, VATNumber, …) and `UserCompanyRoles` (PartyID, UserRoleTypes), and no top-level PartyID.
 * Which companies are listed is assumed (the service does not say): the account's own company, and
 * with the switch `accountListsRegistrations` its active registrations after it.
 * @module emulator/routes/account
 */

const EXAMPLE = require('../fixtures/account-information.json');
const { authenticateAccount } = require('./auth');

/** @typedef {import('../server').Ctx} Ctx */

/** @param {Ctx} ctx */
function accountInformation(ctx) {
	const account = authenticateAccount(ctx);
	const self = account.self || {};
	const [template] = EXAMPLE.Companies;
	/** @param {{ PartyID: number, Name: string, VATNumber: string | null, Email: string | null }} c */
	const company = (c) => ({ ...template, ...c, CommercialName: c.Name, DisplayName: c.Name, PeppolIdentifier: null, Identifiers: [], IBAN: null, BIC: null });
	const companies = [company({ PartyID: Number(account.partyId), Name: account.name, VATNumber: self.VATNumber || null, Email: self.Email || null })];
	if (ctx.emu.config.accountListsRegistrations) {
		for (const r of ctx.emu.store.registrationsOf(account.apiKey).filter((x) => x.Active)) {
			companies.push(
				company({ PartyID: Number(r.PartyID), Name: r.details.CompanyName, VATNumber: r.details.TaxIdentifier || null, Email: r.details.Email || null }),
			);
		}
	}
	const [first, last] = String(self.Name || account.name).split(' ');
	return {
		status: 200,
		body: {
			...EXAMPLE,
			Email: self.Email || null,
			FirstName: first,
			LastName: last || null,
			Companies: companies,
			UserCompanyRoles: companies.map((c) => ({ PartyID: c.PartyID, UserRoleTypes: ['Admin'] })),
		},
	};
}

/** @type {Array<[string, RegExp, (ctx: Ctx) => any, boolean]>} */
const ROUTES = [['GET', /^\/v1\/account\/accountInformation\/?$/i, accountInformation, false]];

module.exports = { ROUTES };
