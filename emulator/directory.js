'use strict';

/**
 * Peppol directory of the emulator: participants, identifier normalisation and lookup answers (docs/api.md "Peppol lookup and identifiers").
 * @module emulator/directory
 */

const { badRequest } = require('./util');

const BILLING = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const INV = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice';
const CN = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote';
const AR = 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse';
const BIS3 = '##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const XR = '##urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0::2.1';
const PINT_MY = '##urn:peppol:pint:billing-1@my-1::2.1';

/** Document type label -> document identifier URN and process URN. */
const DOCUMENT_TYPES = {
	BISv3Invoice: { doc: INV + BIS3, process: BILLING },
	BISv3CreditNote: { doc: CN + BIS3, process: BILLING },
	SIInvoice: { doc: INV + XR, process: BILLING },
	SICreditNote: { doc: CN + XR, process: BILLING },
	MYPintInvoice: { doc: INV + PINT_MY, process: 'urn:peppol:bis:billing' },
	MYPintCreditNote: { doc: CN + PINT_MY, process: 'urn:peppol:bis:billing' },
	IMR: { doc: `${AR}##urn:fdc:peppol.eu:poacc:trns:invoice_response:3::2.1`, process: 'urn:fdc:peppol.eu:poacc:bis:invoice_response:3' },
	MLR: { doc: `${AR}##urn:fdc:peppol.eu:poacc:trns:mlr:3::2.1`, process: 'urn:fdc:peppol.eu:poacc:bis:mlr:3' },
};

/** VAT country prefix -> Peppol ICD scheme. */
const VAT_SCHEMES = {
	BE: '9925',
	NL: '9944',
	DE: '9930',
	SE: '9955',
	FR: '9957',
	LU: '9938',
	AT: '9914',
	IT: '9906',
	DK: '9902',
	ES: '9920',
	GB: '9932',
	IE: '9935',
	PL: '9945',
	PT: '9946',
	EL: '9933',
	GR: '9933',
};

/**
 * @typedef {object} Participant
 * @property {string[]} identifiers `<scheme>:<id>` forms under which it is registered
 * @property {string} name
 * @property {string} [countryCode]
 * @property {string[]} documentTypes labels, e.g. BISv3Invoice
 * @property {string} [serviceProviderId]
 */

/**
 * Normalise any accepted identifier form to `<scheme>:<id>`; throws a 400 ApiError when not recognised.
 * @param {string} input
 * @returns {string}
 */
function normalizeIdentifier(input) {
	const raw = String(input || '')
		.trim()
		.replace(/^iso6523-actorid-upis::/i, '');
	if (!raw) throw badRequest('The participant identifier is empty');
	let m = /^(\d{4}):(.+)$/.exec(raw);
	if (m) {
		const value = m[2].trim();
		if (!value || value.length > 130 || !/^[\x21-\x7e]+$/.test(value))
			throw badRequest(`Invalid participant identifier '${raw}': the value after the scheme must be 1-130 printable ASCII characters`);
		return `${m[1]}:${value}`;
	}
	const compact = raw.replace(/[\s.-]/g, '');
	m = /^([A-Za-z]{2})([A-Za-z0-9]{2,})$/.exec(compact);
	if (m && /\d/.test(m[2])) {
		const cc = m[1].toUpperCase();
		const scheme = VAT_SCHEMES[/** @type {keyof typeof VAT_SCHEMES} */ (cc)];
		if (!scheme) throw badRequest(`No Peppol VAT scheme is known for country prefix '${cc}'; use the form <scheme>:<identifier>`);
		return `${scheme}:${compact.toUpperCase()}`;
	}
	if (/^[01]\d{9}$/.test(compact)) return `0208:${compact}`;
	if (/^\d{9}$/.test(compact)) return `0208:0${compact}`;
	throw badRequest(`Unrecognised participant identifier '${raw}': use a VAT number with country prefix, a Belgian company number, or <scheme>:<identifier>`);
}

/**
 * Equivalent keys (upper-cased) for matching: a Belgian VAT number and the bare enterprise number are one company.
 * @param {string} id normalised `<scheme>:<id>`
 */
function keysFor(id) {
	const up = id.toUpperCase();
	const keys = [up];
	let m = /^9925:BE([01]\d{9})$/.exec(up);
	if (m) keys.push(`0208:${m[1]}`);
	m = /^0208:([01]\d{9})$/.exec(up);
	if (m) keys.push(`9925:BE${m[1]}`);
	return keys;
}

/** The emulator's Peppol directory. Tests may add and remove participants. */
class Directory {
	constructor() {
		/** @type {Participant[]} */
		this.entries = [];
	}

	/**
	 * Register a participant (identifiers in any accepted form).
	 * @param {{ identifiers?: string[], identifier?: string, name?: string, countryCode?: string, documentTypes?: string[], serviceProviderId?: string }} p
	 * @returns {Participant}
	 */
	add(p) {
		const ids = (p.identifiers || (p.identifier ? [p.identifier] : [])).map(normalizeIdentifier);
		if (ids.length === 0) throw new TypeError('participants.add: identifier(s) required');
		/** @type {Participant} */
		const entry = {
			identifiers: ids,
			name: p.name || ids[0],
			countryCode: p.countryCode,
			documentTypes: p.documentTypes ? [...p.documentTypes] : ['BISv3Invoice', 'BISv3CreditNote'],
			serviceProviderId: p.serviceProviderId || 'PEM000001',
		};
		this.entries.push(entry);
		return entry;
	}

	/** @param {string} identifier any accepted form @returns {Participant | undefined} */
	find(identifier) {
		const keys = keysFor(normalizeIdentifier(identifier));
		return this.entries.find((e) => e.identifiers.some((i) => keysFor(i).some((k) => keys.includes(k))));
	}

	/** @param {string} identifier @returns {boolean} whether a participant was removed */
	remove(identifier) {
		const hit = this.find(identifier);
		if (hit) this.entries.splice(this.entries.indexOf(hit), 1);
		return Boolean(hit);
	}

	/** @returns {Participant[]} */
	list() {
		return this.entries;
	}

	clear() {
		this.entries.length = 0;
	}

	/**
	 * Build the participantInformation answer for an identifier (throws 400 on unrecognised forms).
	 * @param {string} identifier @param {string} endpointUri
	 */
	lookup(identifier, endpointUri) {
		const id = normalizeIdentifier(identifier);
		const p = this.find(id);
		if (!p) return { Registered: false, Identifier: id, DocumentTypes: [], ServiceDetails: [] };
		return {
			Registered: true,
			Identifier: id,
			DocumentTypes: [...p.documentTypes],
			ServiceDetails: p.documentTypes.map((label) => {
				const dt = DOCUMENT_TYPES[/** @type {keyof typeof DOCUMENT_TYPES} */ (label)] || { doc: `urn:emulator:document:${label}`, process: BILLING };
				return {
					DocumentIdentifier: dt.doc,
					DocumentIdentifierScheme: 'busdox-docid-qns',
					Processes: [
						{
							ProcessIdentifier: dt.process,
							ProcessIdentifierScheme: 'cenbii-procid-ubl',
							Endpoints: [
								{
									TransportProfile: 'peppol-transport-as4-v2_0',
									EndpointURI: endpointUri,
									ServiceActivationDate: '2023-01-01T00:00:00Z',
									ServiceExpirationDate: null,
									TechnicalContactUrl: 'mailto:peppol-support@example.test',
								},
							],
						},
					],
				};
			}),
			ServiceProviderID: p.serviceProviderId,
		};
	}
}

/** Seeded participants (valid checksums: BE mod 97, GLN GS1 check digit). */
const SEED_PARTICIPANTS = [
	{
		identifiers: ['0208:0123456749', '9925:BE0123456749'],
		name: 'Peppol Demo Belgium NV',
		countryCode: 'BE',
		documentTypes: ['BISv3Invoice', 'BISv3CreditNote'],
	},
	{ identifiers: ['0208:0456789133', '9925:BE0456789133'], name: 'Café Zoë BV', countryCode: 'BE', documentTypes: ['BISv3Invoice', 'BISv3CreditNote', 'MLR'] },
	{ identifiers: ['0208:0887766566', '9925:BE0887766566'], name: 'Response Only Services SRL', countryCode: 'BE', documentTypes: ['IMR', 'MLR'] },
	{ identifiers: ['9944:NL123456789B01'], name: 'Nederland Handel BV', countryCode: 'NL', documentTypes: ['BISv3Invoice'] },
	{ identifiers: ['0106:12345678'], name: 'KvK Voorbeeld BV', countryCode: 'NL', documentTypes: ['BISv3Invoice', 'BISv3CreditNote'] },
	{ identifiers: ['0190:00000001234567890000'], name: 'Gemeente Voorbeeld', countryCode: 'NL', documentTypes: ['BISv3Invoice', 'BISv3CreditNote'] },
	{ identifiers: ['0088:5400000000010'], name: 'GLN Retail Group', countryCode: 'BE', documentTypes: ['BISv3Invoice', 'BISv3CreditNote'] },
	{ identifiers: ['9930:DE123456789'], name: 'Deutsche Beispiel GmbH', countryCode: 'DE', documentTypes: ['SIInvoice', 'SICreditNote'] },
	{ identifiers: ['0230:C2584563200'], name: 'Contoh Malaysia Sdn Bhd', countryCode: 'MY', documentTypes: ['MYPintInvoice', 'MYPintCreditNote'] },
	{ identifiers: ['9955:SE556677889901'], name: 'Svenska Exempel AB', countryCode: 'SE', documentTypes: ['BISv3Invoice', 'BISv3CreditNote'] },
];

/** @returns {Directory} a directory holding the seeded participants */
function seedDirectory() {
	const d = new Directory();
	for (const p of SEED_PARTICIPANTS) d.add({ ...p, serviceProviderId: 'PEM000001' });
	return d;
}

module.exports = { Directory, seedDirectory, normalizeIdentifier, DOCUMENT_TYPES, VAT_SCHEMES, SEED_PARTICIPANTS };
