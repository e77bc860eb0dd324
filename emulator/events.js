'use strict';

/**
 * Change events of the store, its one change bus: every order insert/update/delete and every new
 * message (the send's, then one per delivery step, see delivery.js). Webhook delivery and
 * `store.onChange` listen here; listeners run synchronously
 * at the point of change and get copies, so they cannot alter the store.
 * @module emulator/events
 */

const { clone, isoSeconds } = require('./util');

/**
 * @typedef {'I'|'U'|'D'} UpdateType I new, U updated, D deleted (the service's EntityUpdateType)
 * @typedef {object} ChangeEvent
 * @property {number} id increasing per emulator; the same event keeps its id across retries and duplicates
 * @property {'Order'|'Message'} entity
 * @property {UpdateType} update
 * @property {string} partyId the party whose order book changed
 * @property {number} orderId
 * @property {string} at ISO time of the change (emulator clock)
 * @property {Record<string, any>} order copy of the order after the change (before it, for a delete)
 * @property {Record<string, any>} [message] copy of the message, for Message events
 * @typedef {(e: ChangeEvent) => void} Listener
 */

class Events {
	/** @param {{ now: () => Date }} clock */
	constructor(clock) {
		this.clock = clock;
		/** @type {Set<Listener>} */
		this.listeners = new Set();
		this.seq = 0;
	}

	/** @param {Listener} fn @returns {() => void} unsubscribe */
	on(fn) {
		this.listeners.add(fn);
		return () => this.listeners.delete(fn);
	}

	/**
	 * @param {Omit<ChangeEvent, 'id' | 'at'>} e
	 * @returns {ChangeEvent}
	 */
	emit(e) {
		/** @type {ChangeEvent} */
		const ev = { id: ++this.seq, at: isoSeconds(this.clock.now()), ...e, order: clone(e.order), message: clone(e.message) };
		if (ev.message === undefined) delete ev.message;
		// A listener that throws must not undo or fail the API call that made the change.
		for (const fn of this.listeners) {
			try {
				fn(ev);
			} catch {
				/* ignored on purpose */
			}
		}
		return ev;
	}

	/** @param {UpdateType} update @param {string} partyId @param {Record<string, any>} order */
	order(update, partyId, order) {
		return this.emit({ entity: 'Order', update, partyId: String(partyId), orderId: Number(order.OrderID), order });
	}

	/** @param {UpdateType} update @param {string} partyId @param {Record<string, any>} order @param {Record<string, any>} message */
	message(update, partyId, order, message) {
		return this.emit({ entity: 'Message', update, partyId: String(partyId), orderId: Number(order.OrderID), order, message });
	}
}

module.exports = { Events };
