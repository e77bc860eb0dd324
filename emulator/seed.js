'use strict';

/**
 * Deterministic seed data: parties, products and orders for the master party (seeded PRNG, dates relative to the clock).
 * @module emulator/seed
 */

const { serviceTime, isoDate, round2 } = require('./util');
const { buildOrder } = require('./model');

const DAY = 86400000;

/** Parties with fixed names/VAT numbers: Peppol-registered receivers, unregistered ones, and names that need escaping. */
const SPECIAL_PARTIES = [
	['Peppol Demo Belgium NV', 'BE0123456749', 'BE', 'Customer'],
	['Café Zoë BV', 'BE0456789133', 'BE', 'Customer'],
	["O'Brien & Sons Ltd", 'IE1234567T', 'IE', 'Customer'],
	['Response Only Services SRL', 'BE0887766566', 'BE', 'Customer'],
	['Nederland Handel BV', 'NL123456789B01', 'NL', 'Customer'],
	['Deutsche Beispiel GmbH', 'DE123456789', 'DE', 'Customer'],
	['A+B Consulting', 'BE1002003070', 'BE', 'Customer'],
	['Hash #1 Traders', 'BE0998877690', 'BE', 'Customer'],
	['100% Natural BV', 'NL999999999B01', 'NL', 'Customer'],
	['Say "Hi" Ltd', 'GB123456789', 'GB', 'Customer'],
	['Smith & Wesson Supplies', 'BE1212121205', 'BE', 'Supplier'],
	['Svenska Exempel AB', 'SE556677889901', 'SE', 'Customer'],
	['Zoë & Zaïd Épicerie', 'FR12345678901', 'FR', 'Customer'],
	['Müller Ä-Ö-Ü KG', 'DE999999999', 'DE', 'Supplier'],
];
const ADJ = ['Blue', 'North', 'Green', 'Prime', 'Alpha', 'Delta', 'Sunny', 'Urban', 'Royal', 'Swift', 'Bright', 'Oak'];
const NOUN = ['Logistics', 'Bakery', 'Consulting', 'Garage', 'Studio', 'Systems', 'Foods', 'Build', 'Media', 'Pharma', 'Textiles'];
const SUFFIX = { BE: ['NV', 'BV', 'SRL'], NL: ['BV', 'NV'], FR: ['SARL', 'SAS'], DE: ['GmbH', 'AG'] };
const CITIES = { BE: ['Brussel', 'Gent', 'Antwerpen', 'Liège'], NL: ['Amsterdam', 'Utrecht'], FR: ['Lille', 'Paris'], DE: ['Köln', 'Berlin'] };
const GROUPS = ['Hardware', 'Software', 'Services', 'Consulting', 'Office Supplies', 'Food & Beverage', 'Shipping'];
const ITEMS = [
	'Laptop stand',
	'Support hour',
	'Licence',
	'Paper A4 box',
	'Coffee beans 1kg',
	'Pallet transport',
	'Workshop day',
	'Cable set',
	'Monitor 27"',
	'Cleaning service',
];

/**
 * @param {() => number} rnd
 * @template T @param {T[]} arr @returns {T}
 */
const pick = (rnd, arr) => arr[Math.floor(rnd() * arr.length)];

/** @param {() => number} rnd a random valid Belgian enterprise number */
function belgianNumber(rnd) {
	const base = Math.floor(rnd() * 19999999) + 200000;
	const check = 97 - (base % 97);
	return String(base).padStart(8, '0') + String(check).padStart(2, '0');
}

/**
 * Timestamps spread over the last `days` days, with runs sharing the same second.
 * @param {() => number} rnd @param {number} now epoch ms @param {number} days
 */
function stampStream(rnd, now, days) {
	let last = now - Math.floor(rnd() * days * DAY);
	return () => {
		if (rnd() >= 0.35) last = now - Math.floor(rnd() * days * DAY);
		return Math.floor(last / 1000) * 1000;
	};
}

/**
 * @param {() => number} rnd @param {number} now epoch ms @param {number} count @returns {Record<string, any>[]}
 */
function seedParties(rnd, now, count) {
	const next = stampStream(rnd, now, 60);
	const out = [];
	for (let i = 0; i < count; i++) {
		let name;
		let vat;
		let cc;
		let type;
		if (i < SPECIAL_PARTIES.length) [name, vat, cc, type] = SPECIAL_PARTIES[i];
		else {
			cc = pick(rnd, ['BE', 'BE', 'BE', 'NL', 'FR', 'DE']);
			name = `${pick(rnd, ADJ)} ${pick(rnd, NOUN)} ${i} ${pick(rnd, SUFFIX[/** @type {'BE'} */ (cc)])}`;
			vat = cc === 'BE' ? `BE${belgianNumber(rnd)}` : cc === 'NL' ? `NL${100000000 + i}B01` : cc === 'FR' ? `FR${10000000000 + i}` : `DE${200000000 + i}`;
			type = rnd() < 0.75 ? 'Customer' : 'Supplier';
		}
		const lm = next();
		const slug = name
			.toLowerCase()
			.normalize('NFKD')
			.replace(/[^a-z0-9]+/g, '.')
			.replace(/^\.|\.$/g, '');
		out.push({
			PartyID: 5000001 + i,
			DisplayName: name,
			Name: name,
			PartyType: type,
			VATNumber: rnd() < 0.05 && i >= SPECIAL_PARTIES.length ? null : vat,
			Email: `billing@${slug}.example`,
			Phone: `+32 2 ${String(1000000 + i).slice(1)}`,
			Language: cc === 'BE' ? pick(rnd, ['NL', 'FR']) : cc === 'DE' ? 'DE' : cc === 'FR' ? 'FR' : 'EN',
			IBAN: cc === 'BE' ? `BE${String(10 + (i % 89))}${String(1e11 + i * 7919).slice(1)}` : null,
			Street: `${pick(rnd, ['Main', 'Station', 'Church', 'Market'])} Street`,
			StreetNumber: String(1 + Math.floor(rnd() * 200)),
			Zipcode: String(1000 + Math.floor(rnd() * 8999)),
			City: pick(rnd, CITIES[/** @type {'BE'} */ (cc)] || ['Capital City']),
			CountryCode: cc,
			Created: serviceTime(lm - Math.floor(rnd() * 30) * DAY),
			LastModified: serviceTime(lm),
		});
	}
	return out;
}

/**
 * @param {() => number} rnd @param {number} now epoch ms @param {number} count @returns {Record<string, any>[]}
 */
function seedProducts(rnd, now, count) {
	const next = stampStream(rnd, now, 60);
	const out = [];
	for (let i = 0; i < count; i++) {
		const lm = next();
		const special = ['Fish & Chips', 'C++ training', 'Item #42', '50% discount voucher', "Chef's special", 'Crème brûlée'];
		out.push({
			ProductID: 8000001 + i,
			Reference: `P-${String(i + 1).padStart(4, '0')}`,
			Description: i < special.length ? special[i] : `${pick(rnd, ITEMS)} ${pick(rnd, ADJ)} ${i}`,
			GroupName: pick(rnd, GROUPS),
			Unit: pick(rnd, ['piece', 'hour', 'day', 'kg', 'box']),
			UnitPriceExcl: round2(5 + rnd() * 1500),
			VATPercentage: pick(rnd, [21, 21, 21, 12, 6, 0]),
			IsActive: rnd() > 0.1,
			Created: serviceTime(lm - Math.floor(rnd() * 30) * DAY),
			LastModified: serviceTime(lm),
		});
		// The published Product's price and rate (openapi.json), beside the names the emulator once assumed.
		Object.assign(out[i], { AmountExcl: out[i].UnitPriceExcl, VAT: out[i].VATPercentage });
	}
	return out;
}

const TYPE_WEIGHTS = [
	['Invoice', 0.6],
	['CreditNote', 0.12],
	['Offer', 0.1],
	['DeliveryNote', 0.08],
	['OrderForm', 0.1],
];
const STATUS_BY_TYPE = {
	Invoice: ['Draft', 'ToSend', 'ToPay', 'ToPay', 'Sent', 'Paid', 'Paid', 'Paid', 'Credited', 'Refused', 'ApprovalNeeded'],
	CreditNote: ['Draft', 'ToSend', 'Sent', 'Paid', 'Paid'],
	Offer: ['Draft', 'Sent', 'Canceled'],
	DeliveryNote: ['Draft', 'Sent'],
	OrderForm: ['Draft', 'Sent', 'Canceled'],
};

/**
 * The Outgoing message of a seeded sale: over Peppol to a Belgian VAT number, else by e-mail (the
 * emulator's delivery.js derives the rest of its delivery on read).
 * @param {Record<string, any>} party @param {number} at epoch ms
 */
function sendMessage(party, at) {
	const peppol = !!party.VATNumber && party.VATNumber.startsWith('BE0');
	const message = {
		CreationDate: serviceTime(at),
		TransportType: peppol ? 'Peppol' : 'Email',
		Success: true,
		Trials: 0,
		Destination: peppol ? `9925:${party.VATNumber}` : party.Email || null,
		MessageDirection: 'Outgoing',
	};
	return peppol ? message : { ...message, Description: `Sent by Email to ${party.Email || 'the customer'}` };
}

/**
 * Seed `count` orders into an order book.
 * @param {() => number} rnd
 * @param {object} o
 * @param {number} o.now epoch ms
 * @param {number} o.count
 * @param {string} o.partyId
 * @param {Record<string, any>} o.self own company
 * @param {Record<string, any>[]} o.parties
 * @param {Record<string, any>[]} o.products
 * @param {() => number} o.nextOrderId
 * @param {(type: string) => number} o.nextSeq
 * @returns {Record<string, any>[]}
 */
function seedOrders(rnd, o) {
	const next = stampStream(rnd, o.now, 60);
	const out = [];
	for (let i = 0; i < o.count; i++) {
		let r = rnd();
		let type = 'Invoice';
		for (const [t, w] of TYPE_WEIGHTS) {
			if ((r -= /** @type {number} */ (w)) < 0) {
				type = /** @type {string} */ (t);
				break;
			}
		}
		const direction = type === 'Invoice' && rnd() < 0.3 ? 'Cost' : 'Income';
		const party = o.parties[Math.floor(rnd() ** 1.5 * o.parties.length)];
		const lm = next();
		const created = lm - Math.floor(rnd() * 4) * DAY - Math.floor(rnd() * 3600) * 1000;
		const lines = [];
		for (let n = 1 + Math.floor(rnd() * 4); n > 0; n--) {
			const p = pick(rnd, o.products);
			lines.push({
				Quantity: 1 + Math.floor(rnd() * 10),
				Description: p.Description,
				UnitPriceExcl: p.UnitPriceExcl,
				VATPercentage: p.VATPercentage,
				ProductID: p.ProductID,
			});
		}
		const status = pick(rnd, STATUS_BY_TYPE[/** @type {'Invoice'} */ (type)]);
		const orderDate = isoDate(created);
		const expiry = isoDate(created + 30 * DAY);
		const sent = ['ToPay', 'Sent', 'Paid', 'Credited', 'Refused'].includes(status);
		const order = buildOrder(
			{ orderId: o.nextOrderId(), partyId: o.partyId, self: o.self, seq: o.nextSeq(type), now: new Date(created) },
			{
				OrderType: type,
				OrderDirection: direction,
				OrderDate: orderDate,
				ExpiryDate: expiry,
				OrderLines: lines,
				Customer: direction === 'Income' ? party : undefined,
				Supplier: direction === 'Cost' ? party : undefined,
				OrderStatus: status,
				IsSent: sent,
				Paid: status === 'Paid',
				PaidDate: status === 'Paid' ? isoDate(Math.min(lm, created + 20 * DAY)) : null,
				ExternalProviderID: rnd() < 0.6 ? `ERP-${String(i + 1).padStart(6, '0')}` : null,
				Reference: rnd() < 0.3 ? `PO ${Math.floor(rnd() * 90000) + 10000}` : null,
				Created: serviceTime(Math.min(created, lm)),
				LastModified: serviceTime(lm),
				// A sale that went out has its send message (the service's OrderMessage); a purchase was received, not sent.
				Messages: sent && direction === 'Income' ? [sendMessage(party, Math.min(created + 3600000, lm))] : [],
			},
		);
		if (status === 'Paid') order.ToPay = 0;
		if (status === 'ToPay' && Date.parse(`${expiry}T00:00:00Z`) < o.now) {
			order.Overdue = true;
			order.DaysOverdue = Math.floor((o.now - Date.parse(`${expiry}T00:00:00Z`)) / DAY);
		}
		out.push(order);
	}
	return out;
}

module.exports = { seedParties, seedProducts, seedOrders, belgianNumber, SPECIAL_PARTIES };
