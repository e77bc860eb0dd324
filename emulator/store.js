'use strict';

/**
 * In-memory state of the emulator: accounts, registrations, per-party order books, parties, products,
 * Peppol directory, identification sessions and idempotency keys.
 * @module emulator/store
 */

const { clone, serviceTime } = require('./util');
const { buildOrder } = require('./model');
const { seedDirectory } = require('./directory');
const seed = require('./seed');
const { Events } = require('./events');

/**
 * @typedef {{ apiKey: string, partyId: string, name: string, whitelisted: boolean, self: Record<string, any> }} Account
 * @typedef {{ IntegrationID: number, Integration: string, IntegrationStatus: string, IntegrationStatusDescription: string,
 *   IntegrationDocumentToSign: string, Created: string }} Integration
 * @typedef {{ RegistrationID: number, PartyID: string, apiKey: string, Active: boolean, Status: string, Created: string,
 *   Deactivated: string | null, Identified: boolean, IdentificationAttempts: number, LastIdentification: Record<string, any> | null,
 *   details: Record<string, any>, Integrations: Integration[] }} Registration
 * @typedef {{ token: string, registrationId: number, apiKey: string, redirectUrl: string, created: number, expires: number,
 *   status: 'open'|'success'|'failure'|'invalid_redirect' }} Session
 * @typedef {Record<string, any>} Order
 * @typedef {{ EntityType: 'Order'|'Message', EntityUpdateType: 'I'|'U'|'D', PartyID: string, OrderID: number, MessageID?: number,
 *   at: string }} ChangeNotice what changed (webhook vocabulary: I insert, U update, D delete); read the entity from the store
 */

class Store {
	/**
	 * @param {{ clock: import('./util').Clock, rnd: () => number, accounts: Account[] }} o
	 */
	constructor(o) {
		this.clock = o.clock;
		this.rnd = o.rnd;
		/** @type {Map<string, Account>} accounts by API key */
		this.accounts = new Map(o.accounts.map((a) => [a.apiKey, a]));
		/** @type {Map<number, Registration>} */
		this.registrations = new Map();
		/** @type {import('./directory').Directory} */
		this.participants = seedDirectory();
		/** @type {Map<string, Session>} identification sessions by token */
		this.sessions = new Map();
		/** @type {Map<string, { registrationId: number, integrationId: number }>} SDI signature tokens */
		this.signTokens = new Map();
		/** @type {Map<string, Map<number, Order>>} order books by party */
		this.books = new Map();
		/** @type {Map<number, string>} order id -> party id */
		this.orderIndex = new Map();
		/** @type {Map<string, Record<string, any>[]>} */
		this.parties = new Map();
		/** @type {Map<string, Record<string, any>[]>} */
		this.products = new Map();
		/** @type {Map<string, Map<string, string>>} party -> idempotency key -> what it was used for */
		this.idempotency = new Map();
		this.ids = { registration: 300000, integration: 700000, order: 1000000, message: 5000000 };
		/** change events (order insert/update/delete, messages); seeding emits none */
		this.events = new Events(this.clock);
		/** @type {Map<string, Record<string, number>>} */
		this.sequences = new Map();
	}

	/**
	 * Subscribe to order and message changes made through the API (seeding is not a change). A summary
	 * view of `events` (the one change bus, which webhooks also listen to): ids only, no entity copies.
	 * @param {(e: ChangeNotice) => void} listener called synchronously; its errors are swallowed
	 * @returns {() => void} unsubscribe
	 */
	onChange(listener) {
		return this.events.on((ev) => {
			/** @type {ChangeNotice} */
			const e = { EntityType: ev.entity, EntityUpdateType: ev.update, PartyID: ev.partyId, OrderID: ev.orderId, at: ev.at };
			if (ev.message) e.MessageID = ev.message.MessageID;
			listener(e);
		});
	}

	/**
	 * Seed parties, products and orders for a party.
	 * @param {string} partyId @param {{ orders: number, parties?: number, products?: number }} counts
	 */
	seedParty(partyId, counts) {
		const now = this.clock.now().getTime();
		const parties = seed.seedParties(this.rnd, now, counts.parties === undefined ? 180 : counts.parties);
		const products = seed.seedProducts(this.rnd, now, counts.products === undefined ? 160 : counts.products);
		this.parties.set(partyId, parties);
		this.products.set(partyId, products);
		const orders = seed.seedOrders(this.rnd, {
			now,
			count: counts.orders,
			partyId,
			self: this.selfOf(partyId),
			parties,
			products,
			nextOrderId: () => ++this.ids.order,
			nextSeq: (type) => this.nextSeq(partyId, type),
		});
		const book = this.book(partyId);
		for (const ord of orders) {
			book.set(ord.OrderID, ord);
			this.orderIndex.set(ord.OrderID, partyId);
		}
	}

	/** @param {string} partyId @param {string} type */
	nextSeq(partyId, type) {
		let s = this.sequences.get(partyId);
		if (!s) this.sequences.set(partyId, (s = {}));
		s[type] = (s[type] || 0) + 1;
		return s[type];
	}

	/** @param {string} partyId own company data used as Supplier on sales orders */
	selfOf(partyId) {
		for (const a of this.accounts.values()) if (a.partyId === partyId) return a.self;
		const reg = this.registrations.get(Number(partyId));
		if (reg) return { Name: reg.details.CompanyName, VATNumber: reg.details.TaxIdentifier, Email: reg.details.Email, PartyID: Number(partyId) };
		return { Name: `Party ${partyId}`, VATNumber: null };
	}

	/** @param {string} partyId @returns {Map<number, Order>} the live order book (created on demand) */
	book(partyId) {
		const key = String(partyId);
		let b = this.books.get(key);
		if (!b) this.books.set(key, (b = new Map()));
		return b;
	}

	/** @param {string} partyId @returns {Order[]} copies of the party's orders, by OrderID */
	listOrders(partyId) {
		return clone([...this.book(partyId).values()]);
	}

	/** @param {string} partyId @param {number | string} id @returns {Order | undefined} a copy */
	getOrder(partyId, id) {
		return clone(this.book(partyId).get(Number(id)));
	}

	/** @param {number | string} id @returns {{ partyId: string, order: Order } | undefined} live record, any party */
	findOrder(id) {
		const partyId = this.orderIndex.get(Number(id));
		if (partyId === undefined) return undefined;
		return { partyId, order: /** @type {Order} */ (this.book(partyId).get(Number(id))) };
	}

	/**
	 * Add an order to a party's book; missing fields get defaults, totals computed from OrderLines.
	 * Created/LastModified default to clock.now().
	 * @param {string} partyId @param {Order} [partial] @returns {Order} a copy of the stored order
	 */
	addOrder(partyId, partial = {}) {
		const orderId = ++this.ids.order;
		const type = partial.OrderType || 'Invoice';
		const order = buildOrder(
			{ orderId, partyId: String(partyId), self: this.selfOf(String(partyId)), seq: this.nextSeq(String(partyId), type), now: this.clock.now() },
			partial,
		);
		this.book(String(partyId)).set(orderId, order);
		this.orderIndex.set(orderId, String(partyId));
		this.events.order('I', String(partyId), order);
		return clone(order);
	}

	/**
	 * Patch an order; LastModified becomes clock.now() unless the patch sets it.
	 * @param {string} partyId @param {number | string} id @param {Order} patch @returns {Order} a copy
	 */
	updateOrder(partyId, id, patch) {
		const order = this.book(String(partyId)).get(Number(id));
		if (!order) throw new Error(`updateOrder: order ${id} is not in the book of party ${partyId}`);
		Object.assign(order, { LastModified: serviceTime(this.clock.now()) }, patch);
		this.events.order('U', String(partyId), order);
		return clone(order);
	}

	/**
	 * Remove an order from a party's book.
	 * @param {string} partyId @param {number | string} id @returns {Order | undefined} the removed order (a copy)
	 */
	deleteOrder(partyId, id) {
		const book = this.book(String(partyId));
		const order = book.get(Number(id));
		if (!order) return undefined;
		book.delete(Number(id));
		this.orderIndex.delete(Number(id));
		this.events.order('D', String(partyId), order);
		return clone(order);
	}

	/** @param {string} partyId */
	listParties(partyId) {
		return this.parties.get(String(partyId)) || [];
	}

	/** @param {string} partyId */
	listProducts(partyId) {
		return this.products.get(String(partyId)) || [];
	}

	/** @param {string} apiKey @returns {Registration[]} registrations of an account, by id */
	registrationsOf(apiKey) {
		return [...this.registrations.values()].filter((r) => r.apiKey === apiKey);
	}

	/**
	 * Which party does a partyID header name for this key?
	 * @param {Account} account @param {string} partyId
	 * @returns {{ kind: 'master' } | { kind: 'entity', registration: Registration } | null}
	 */
	resolveParty(account, partyId) {
		if (partyId === account.partyId) return { kind: 'master' };
		const reg = /^\d+$/.test(partyId) ? this.registrations.get(Number(partyId)) : undefined;
		if (reg && reg.apiKey === account.apiKey && reg.Active) return { kind: 'entity', registration: reg };
		return null;
	}

	/** @param {string} partyId @param {string} key @returns {string | undefined} */
	idempotencyUse(partyId, key) {
		const m = this.idempotency.get(String(partyId));
		return m ? m.get(key) : undefined;
	}

	/** @param {string} partyId @param {string} key @param {string} what */
	idempotencyRecord(partyId, key, what) {
		let m = this.idempotency.get(String(partyId));
		if (!m) this.idempotency.set(String(partyId), (m = new Map()));
		m.set(key, what);
	}
}

module.exports = { Store };
