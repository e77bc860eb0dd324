'use strict';

/**
 * Registrations and integrations (docs/api.md "Registrations", "Integrations") plus the SDI signature page.
 * @module emulator/routes/registrations
 */

const crypto = require('node:crypto');
const { ApiError, badRequest, isoSeconds, page, escapeHtml } = require('../util');
const { unauthorized } = require('./auth');

/** @typedef {import('../server').Ctx} Ctx @typedef {import('../store').Registration} Registration */

const FIELDS = [
	'TaxIdentifier',
	'CompanyName',
	'CommercialName',
	'TaxDeductable',
	'TaxLiable',
	'IBAN',
	'BIC',
	'Mobile',
	'Phone',
	'Email',
	'ContactFirstName',
	'ContactLastName',
	'Language',
];
const NETWORKS = {
	peppol: { name: 'Peppol' },
	sdi: { name: 'SDI', signature: true },
	choruspro: { name: 'ChorusPro', credentials: ['TechnicalUserKey'] },
};

/**
 * A registration of the caller's account, or 404 (unknown) / 401 (another account's).
 * @param {Ctx} ctx @param {string} id @returns {Registration}
 */
function ownRegistration(ctx, id) {
	const reg = /^\d+$/.test(id) ? ctx.emu.store.registrations.get(Number(id)) : undefined;
	if (!reg) throw new ApiError(404, 'GenericError', `Registration ${id} not found`);
	if (reg.apiKey !== ctx.account.apiKey) throw unauthorized(`Registration ${id} does not belong to this account`);
	return reg;
}

/** @param {Registration} r */
function companyDetails(r) {
	const d = r.details;
	/** @type {Record<string, any>} */
	const out = {};
	for (const f of FIELDS) out[f] = d[f] === undefined ? null : d[f];
	out.Identifiers = d.Identifiers || [];
	out.AccountSettings = d.AccountSettings || { ProcessUBLPrePaidAmount: false };
	out.Addresses = d.Addresses || [];
	return out;
}

/** @param {Registration} r @param {'RegistrationID'|'CompanyID'} idName */
const view = (r, idName) => ({
	[idName]: r.RegistrationID,
	PartyID: r.PartyID,
	Active: r.Active,
	Status: r.Status,
	Identified: r.Identified,
	CompanyDetails: companyDetails(r),
	Integrations: r.Integrations.map((i) => ({ ...i })),
});

/** @param {Ctx} ctx */
function create(ctx) {
	const b = ctx.json();
	if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The request body must be a registration object');
	const email = typeof b.Email === 'string' ? b.Email.trim() : '';
	if (!email) throw badRequest('Email is required: each registration needs its own real e-mail address');
	if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw badRequest(`Email '${email}' is not a valid e-mail address`);
	const clash = ctx.emu.store.registrationsOf(ctx.account.apiKey).find((r) => String(r.details.Email).toLowerCase() === email.toLowerCase());
	if (clash)
		throw badRequest(`The e-mail address ${email} is already used by registration ${clash.RegistrationID}; each registration needs a different e-mail address`);
	for (const f of ['TaxIdentifier', 'CompanyName']) if (typeof b[f] !== 'string' || !b[f].trim()) throw badRequest(`${f} is required`);
	if (b.Addresses !== undefined && !Array.isArray(b.Addresses)) throw badRequest('Addresses must be an array');
	if (b.Identifiers !== undefined && !Array.isArray(b.Identifiers)) throw badRequest('Identifiers must be an array');
	const addresses = (b.Addresses || []).map((/** @type {any} */ a, /** @type {number} */ i) => {
		const type = a && a.AddressType !== undefined ? a.AddressType : 'InvoiceAddress';
		if (type !== 'InvoiceAddress' && type !== 'DeliveryAddress') throw badRequest(`Addresses[${i}].AddressType must be InvoiceAddress or DeliveryAddress`);
		return { ...a, AddressType: type };
	});
	return {
		status: 200,
		body: { RegistrationID: createRegistration(ctx.emu.store, ctx.account.apiKey, { ...b, Email: email, Addresses: addresses }).RegistrationID },
	};
}

/**
 * Create an (automatically approved) registration in the store.
 * @param {import('../store').Store} store @param {string} apiKey @param {Record<string, any>} details
 * @returns {Registration}
 */
function createRegistration(store, apiKey, details) {
	const id = ++store.ids.registration;
	/** @type {Registration} */
	const reg = {
		RegistrationID: id,
		PartyID: String(id),
		apiKey,
		Active: true,
		Status: 'Active',
		Created: isoSeconds(store.clock.now()),
		Deactivated: null,
		Identified: false,
		IdentificationAttempts: 0,
		LastIdentification: null,
		details: { TaxDeductable: true, TaxLiable: true, ...details },
		Integrations: [],
	};
	store.registrations.set(id, reg);
	return reg;
}

/** @param {Ctx} ctx */
function list(ctx) {
	return { status: 200, body: { Companies: ctx.emu.store.registrationsOf(ctx.account.apiKey).map((r) => view(r, 'CompanyID')) } };
}

/** @param {Ctx} ctx */
function getOne(ctx) {
	const one = view(ownRegistration(ctx, ctx.params.id), 'RegistrationID');
	return { status: 200, body: ctx.emu.config.wrapSingleRegistration ? { Companies: [one] } : one };
}

/** @param {Ctx} ctx */
function deactivate(ctx) {
	const reg = ownRegistration(ctx, ctx.params.id);
	if (reg.Active) {
		reg.Active = false;
		reg.Status = 'Deactivated';
		reg.Deactivated = isoSeconds(ctx.emu.clock.now());
	}
	return { status: 200, body: {} };
}

/** @param {Ctx} ctx */
function addIntegration(ctx) {
	const reg = ownRegistration(ctx, ctx.params.id);
	if (!reg.Active) throw badRequest(`Registration ${reg.RegistrationID} is deactivated; integrations cannot be added`);
	const b = ctx.json() || {};
	const provider = typeof b.ExternalProvider === 'string' ? b.ExternalProvider.trim() : '';
	if (!provider) throw badRequest('ExternalProvider is required (e.g. Peppol)');
	const net = NETWORKS[/** @type {keyof typeof NETWORKS} */ (provider.toLowerCase())];
	if (!net)
		throw badRequest(
			`Unknown ExternalProvider '${provider}'; supported: ${Object.values(NETWORKS)
				.map((n) => n.name)
				.join(', ')}`,
		);
	const existing = reg.Integrations.find((i) => i.Integration === net.name);
	if (existing) throw badRequest(`Registration ${reg.RegistrationID} already has a ${net.name} integration (IntegrationID ${existing.IntegrationID})`);
	for (const c of /** @type {any} */ (net).credentials || []) {
		const v = b.Credentials && b.Credentials[c];
		if (typeof v !== 'string' || !v.trim()) throw badRequest(`${net.name} needs credentials: Credentials.${c} is required`);
	}
	const integration = {
		IntegrationID: ++ctx.emu.store.ids.integration,
		Integration: net.name,
		IntegrationStatus: net.name === 'Peppol' ? ctx.emu.config.peppolIntegrationStatus : 'Active',
		IntegrationStatusDescription: '',
		IntegrationDocumentToSign: '',
		Created: isoSeconds(ctx.emu.clock.now()),
	};
	if (/** @type {any} */ (net).signature) {
		const token = crypto.randomBytes(12).toString('hex');
		ctx.emu.store.signTokens.set(token, { registrationId: reg.RegistrationID, integrationId: integration.IntegrationID });
		integration.IntegrationStatus = 'Pending';
		integration.IntegrationStatusDescription = 'Awaiting signature of the legal archiving document';
		integration.IntegrationDocumentToSign = `${ctx.emu.url}/sign/${token}`;
	}
	reg.Integrations.push(integration);
	const { Created, ...out } = integration;
	return { status: 200, body: out };
}

/** @param {Ctx} ctx */
function removeIntegration(ctx) {
	const reg = ownRegistration(ctx, ctx.params.id);
	const i = reg.Integrations.findIndex((x) => String(x.IntegrationID) === ctx.params.iid);
	if (i < 0) throw new ApiError(404, 'GenericError', `Integration ${ctx.params.iid} not found on registration ${reg.RegistrationID}`);
	reg.Integrations.splice(i, 1);
	return { status: 200, body: {} };
}

/** Signature page for a Pending (SDI) integration; `/complete` signs it and activates the integration. @param {Ctx} ctx */
function signPage(ctx) {
	const t = ctx.emu.store.signTokens.get(ctx.params.token);
	const reg = t && ctx.emu.store.registrations.get(t.registrationId);
	const integ = reg && reg.Integrations.find((i) => i.IntegrationID === t.integrationId);
	if (!integ) return { status: 404, html: page('Document not found', '<p>This signature link is not valid.</p>') };
	if (ctx.params.action === 'complete' && integ.IntegrationStatus === 'Pending') {
		integ.IntegrationStatus = 'Active';
		integ.IntegrationStatusDescription = 'Legal archiving document signed';
	}
	if (integ.IntegrationStatus !== 'Pending') return { status: 200, html: page('Document signed', '<p id="result">The document has been signed.</p>') };
	const href = `${ctx.emu.url}/sign/${encodeURIComponent(ctx.params.token)}/complete`;
	return {
		status: 200,
		html: page(
			'Legal archiving document',
			`<p>Registration ${escapeHtml(reg.RegistrationID)}: please sign the legal archiving document.</p><p><a id="sign" href="${escapeHtml(href)}">Sign the document</a></p>`,
		),
	};
}

module.exports = { create, list, getOne, deactivate, addIntegration, removeIntegration, signPage, ownRegistration, createRegistration, NETWORKS };
