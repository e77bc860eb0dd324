'use strict';

/**
 * Delivery status of sent orders (`CurrentDocumentDeliveryDetails`) and the Peppol response messages.
 *
 * A send over Peppol starts Pending. After `config.deliveryDelayMs` of emulator clock time the delivery
 * takes the outcome that `config.deliveryOutcome` named at send time (Delivered, Error, Refused, or
 * Pending = stays pending until moved by hand); `emu.delivery.set(orderId, outcome)` moves it at once.
 * Due deliveries are applied at the start of each /v1 request (and by `emu.delivery.tick()`), so the
 * clock can be advanced instead of waited for. E-mail and letter sends are Delivered at once.
 *
 * Delivered and Error are final; Refused and Accepted are later updates of a Delivered document (the buyer's
 * invoice response): the status stays Delivered; a refusal sets the Refused fields and the order becomes Refused.
 * Every step adds a Message with its response file: MLR AP (delivered), MLR RE (error), IMR RE (refused),
 * IMR AP (accepted). Each message carries `Status`, the delivery flow state (the send's own message says
 * Sent), and is a Message I change event, so Message webhooks report it; the order then gets an Order U.
 * This module is the one source of truth for delivery status: `emu.webhooks.setMessageStatus` and
 * `POST /_emulator/orders/{id}/status` are aliases of `emu.delivery.set`.
 *
 * Orders that were sent before this module saw them (seeded, or added through the store) get a view
 * derived from their Messages and OrderStatus, computed on read and never stored.
 * @module emulator/delivery
 */

const { isoSeconds } = require('./util');
const { filesOf } = require('./files');

/** @typedef {import('./server').Internal} Internal @typedef {Record<string, any>} Order */
/**
 * @typedef {object} DeliveryRecord
 * @property {'Peppol'|'Email'|'Letter'} transport
 * @property {'Pending'|'Delivered'|'Error'} status
 * @property {Outcome} planned outcome when due
 * @property {number} dueAt epoch ms (emulator clock)
 * @property {string | null} deliveredAt
 * @property {string | null} info
 * @property {string | null} refusedAt
 * @property {string | null} refusedInfo
 * @property {string | null} refusedReason
 * @property {string | null} [acceptedAt]
 * @typedef {'Delivered'|'Error'|'Refused'|'Accepted'|'Pending'} Outcome
 */

const OUTCOMES = ['Delivered', 'Error', 'Refused', 'Accepted', 'Pending'];
/** What `emu.delivery.set` can move a delivery to. */
const MOVES = ['Delivered', 'Error', 'Refused', 'Accepted'];
const DEFAULT_INFO = {
	Delivered: "Delivered to the receiver's access point (message level response AP)",
	Error: "The receiver's access point rejected the document (message level response RE)",
	Refused: 'Refused by the receiver',
	Accepted: 'Accepted by the receiver',
};
/** OpenPEPPOL status reason code used when a refusal names none ("other"). */
const DEFAULT_REFUSAL_CODE = 'OTH';

class Delivery {
	constructor() {
		/** @type {Map<number, DeliveryRecord>} by OrderID */
		this.records = new Map();
		/** @type {Set<number>} orders waiting for their due time */
		this.pending = new Set();
	}
}

/** @type {WeakMap<import('./store').Store, Delivery>} */
const byStore = new WeakMap();
/** @param {import('./store').Store} store */
function deliveryOf(store) {
	let d = byStore.get(store);
	if (!d) byStore.set(store, (d = new Delivery()));
	return d;
}

/** @param {import('./store').Store} store */
const nextMessageId = (store) => ++store.ids.message;

/** @param {unknown} t */
const isPeppol = (t) => /peppol/i.test(String(t || ''));

/**
 * Record a send: called by the send command after it appended the order's send message.
 * @param {Internal} s @param {string} partyId @param {Order} order the live order
 */
function afterSend(s, partyId, order) {
	const store = s.store;
	const msg = order.Messages[order.Messages.length - 1];
	if (msg.MessageID === undefined) msg.MessageID = nextMessageId(store);
	Object.assign(msg, { CreationDate: msg.Date, FileID: null });
	const now = s.clock.now();
	/** @type {DeliveryRecord} */
	const rec = { transport: msg.TransportType, status: 'Pending', planned: 'Delivered', dueAt: 0, deliveredAt: null, info: null, refusedAt: null, refusedInfo: null, refusedReason: null };
	if (isPeppol(msg.TransportType)) {
		rec.planned = OUTCOMES.includes(s.config.deliveryOutcome) ? s.config.deliveryOutcome : 'Delivered';
		rec.dueAt = now.getTime() + Math.max(0, Number(s.config.deliveryDelayMs) || 0);
		rec.info = `${msg.Description}; waiting for the receiver's access point`;
	} else Object.assign(rec, { status: 'Delivered', deliveredAt: isoSeconds(now), info: msg.Description });
	const d = deliveryOf(store);
	d.records.set(Number(order.OrderID), rec);
	store.events.message('I', partyId, order, msg);
	store.events.order('U', partyId, order);
	if (rec.status === 'Pending') {
		d.pending.add(Number(order.OrderID));
		tick(s);
	}
}

/**
 * Move a Peppol delivery. Appends the response message(s) and updates the order.
 * @param {Internal} s @param {string} partyId @param {Order} order live order @param {DeliveryRecord} rec
 * @param {Exclude<Outcome, 'Pending'>} outcome @param {{ at: string, info?: string, reason?: string }} o
 */
function apply(s, partyId, order, rec, outcome, o) {
	const store = s.store;
	const files = filesOf(store);
	const orderId = Number(order.OrderID);
	/**
	 * @param {import('./files').ResponseSpec['kind']} kind @param {string} code @param {string} Status the flow state
	 * @param {string} description @param {string} info @param {{ reason?: string | null, reasonCode?: string | null }} [why]
	 */
	const respond = (kind, code, Status, description, info, why = {}) => {
		const MessageID = nextMessageId(store);
		const ref = files.response(partyId, order, { kind, code, id: MessageID, at: o.at, ...why });
		/** @type {Record<string, any>} */
		const message = { MessageID, TransportType: 'Peppol', MessageType: kind, ResponseCode: code, Status, StatusDate: o.at, StatusInfo: info, Description: description };
		if (why.reasonCode) message.RefusedReasonTC = why.reasonCode;
		Object.assign(message, { Date: o.at, CreationDate: o.at, FileID: ref.FileID, FileName: ref.FileName });
		order.Messages = [...(order.Messages || []), message];
		store.events.message('I', partyId, order, message);
	};
	if (outcome === 'Delivered' || ((outcome === 'Refused' || outcome === 'Accepted') && rec.status === 'Pending')) {
		rec.status = 'Delivered';
		rec.deliveredAt = o.at;
		rec.info = (outcome === 'Delivered' && o.info) || DEFAULT_INFO.Delivered;
		respond('MLR', 'AP', 'Delivered', rec.info, rec.info);
	}
	if (outcome === 'Error') {
		rec.status = 'Error';
		rec.info = o.info || DEFAULT_INFO.Error;
		respond('MLR', 'RE', 'Error', `Delivery failed: ${rec.info}`, rec.info, { reason: rec.info });
	}
	if (outcome === 'Refused') {
		rec.refusedAt = o.at;
		rec.refusedInfo = o.info || DEFAULT_INFO.Refused;
		rec.refusedReason = o.reason || DEFAULT_REFUSAL_CODE;
		respond('IMR', 'RE', 'Refused', `Refused by the receiver (${rec.refusedReason}): ${rec.refusedInfo}`, rec.refusedInfo, { reason: rec.refusedInfo, reasonCode: rec.refusedReason });
		order.OrderStatus = 'Refused';
	}
	if (outcome === 'Accepted') {
		rec.acceptedAt = o.at;
		const info = o.info || DEFAULT_INFO.Accepted;
		respond('IMR', 'AP', 'Accepted', `Accepted by the receiver: ${info}`, info, o.info ? { reason: info } : {});
	}
	order.LastModified = isoSeconds(s.clock.now());
	store.events.order('U', partyId, order);
}

/**
 * Apply every delivery that is due by the emulator clock. Cheap: walks only the pending set.
 * @param {Internal} s
 */
function tick(s) {
	const d = byStore.get(s.store);
	if (!d || d.pending.size === 0) return;
	const now = s.clock.now().getTime();
	for (const id of [...d.pending]) {
		const rec = d.records.get(id);
		const hit = s.store.findOrder(id);
		if (!rec || !hit || rec.status !== 'Pending') {
			d.pending.delete(id);
			continue;
		}
		if (rec.dueAt > now) continue;
		d.pending.delete(id);
		if (rec.planned !== 'Pending') apply(s, hit.partyId, hit.order, rec, rec.planned, { at: isoSeconds(rec.dueAt) });
	}
}

/**
 * The record of an order: kept (sent through the API) or derived from its Messages (seeded).
 * @param {Internal} s @param {Order} order @returns {{ rec: DeliveryRecord | null, derived: boolean }}
 */
function recordOf(s, order) {
	const kept = byStore.get(s.store)?.records.get(Number(order.OrderID));
	if (kept) return { rec: kept, derived: false };
	const msgs = Array.isArray(order.Messages) ? order.Messages : [];
	const last = [...msgs].reverse().find((m) => m && m.TransportType);
	if (!order.IsSent || !last) return { rec: null, derived: true };
	const at = last.CreationDate || last.Date || order.LastModified || null;
	const peppol = isPeppol(last.TransportType);
	/** @type {DeliveryRecord} */
	const rec = { transport: last.TransportType, status: 'Delivered', planned: 'Delivered', dueAt: 0, deliveredAt: at, info: peppol ? DEFAULT_INFO.Delivered : last.Description || null, refusedAt: null, refusedInfo: null, refusedReason: null };
	if (peppol && order.OrderStatus === 'Refused') Object.assign(rec, { refusedAt: order.LastModified || at, refusedInfo: DEFAULT_INFO.Refused, refusedReason: DEFAULT_REFUSAL_CODE });
	return { rec, derived: true };
}

/** @param {DeliveryRecord | null} rec */
function details(rec) {
	return {
		IsDocumentDelivered: !!rec && rec.status === 'Delivered',
		DocumentDeliveryStatus: rec ? rec.status : null,
		DocumentDeliveryDate: rec ? rec.deliveredAt : null,
		DocumentDeliveryInfo: rec ? rec.info : null,
		DocumentRefusedDate: rec ? rec.refusedAt : null,
		DocumentRefusedInfo: rec ? rec.refusedInfo : null,
		DocumentRefusedReasonTC: rec ? rec.refusedReason : null,
	};
}

/**
 * What a full order read shows: CurrentDocumentDeliveryDetails and Messages with MessageID, CreationDate
 * and FileID (null when a message has no file). A seeded Peppol message is read as the delivery's MLR AP,
 * and a seeded Refused order gets its IMR, with ids derived from the OrderID.
 * @param {Internal} s @param {string} partyId @param {Order} order @returns {{ details: ReturnType<typeof details>, messages: Record<string, any>[] }}
 */
function view(s, partyId, order) {
	const { rec, derived } = recordOf(s, order);
	const files = filesOf(s.store);
	const msgs = Array.isArray(order.Messages) ? order.Messages : [];
	const messages = msgs.map((m, i) => {
		if (!m || typeof m !== 'object' || m.MessageID !== undefined) return m;
		const MessageID = Number(order.OrderID) * 100 + i;
		const at = m.CreationDate || m.Date || null;
		if (isPeppol(m.TransportType) && at) {
			const ref = files.response(partyId, order, { kind: 'MLR', code: 'AP', id: MessageID, at });
			return { MessageID, ...m, MessageType: 'MLR', ResponseCode: 'AP', CreationDate: at, FileID: ref.FileID, FileName: ref.FileName };
		}
		return { MessageID, ...m, CreationDate: at, FileID: null };
	});
	if (derived && rec && rec.refusedAt) {
		const MessageID = Number(order.OrderID) * 100 + 99;
		const ref = files.response(partyId, order, { kind: 'IMR', code: 'RE', id: MessageID, at: rec.refusedAt, reason: rec.refusedInfo, reasonCode: rec.refusedReason });
		messages.push({
			MessageID,
			TransportType: 'Peppol',
			MessageType: 'IMR',
			ResponseCode: 'RE',
			Description: `Refused by the receiver (${rec.refusedReason}): ${rec.refusedInfo}`,
			Date: rec.refusedAt,
			CreationDate: rec.refusedAt,
			FileID: ref.FileID,
			FileName: ref.FileName,
		});
	}
	return { details: details(rec), messages };
}

/** @param {Order} order was it sent (or received) over a network, i.e. Peppol? */
const wentOverNetwork = (order) => (Array.isArray(order.Messages) ? order.Messages : []).some((m) => m && isPeppol(m.TransportType));

/**
 * Test controls (`emu.delivery`).
 * @param {Internal} s
 */
function controls(s) {
	return {
		/**
		 * Move an order's Peppol delivery now. Delivered/Error from Pending; Refused or Accepted from Pending or
		 * Delivered (from Pending the MLR AP comes first).
		 * @param {number | string} orderId @param {'Delivered'|'Error'|'Refused'|'Accepted'} outcome
		 * @param {{ info?: string, reason?: string, at?: Date | string | number }} [opts] reason: refusal code (default OTH)
		 * @returns {ReturnType<typeof details>}
		 */
		set(orderId, outcome, opts = {}) {
			if (!MOVES.includes(outcome)) throw new TypeError(`delivery.set: outcome must be ${MOVES.join(', ')}, not ${JSON.stringify(outcome)}`);
			const hit = s.store.findOrder(orderId);
			if (!hit) throw new RangeError(`delivery.set: order ${orderId} does not exist`);
			const d = deliveryOf(s.store);
			let { rec, derived } = recordOf(s, hit.order);
			if (!rec) throw new TypeError(`delivery.set: order ${orderId} has not been sent`);
			if (!isPeppol(rec.transport)) throw new TypeError(`delivery.set: order ${orderId} went by ${rec.transport}; only Peppol deliveries move`);
			if (derived) d.records.set(Number(orderId), (rec = { ...rec }));
			const from = rec.refusedAt ? 'Refused' : rec.acceptedAt ? 'Accepted' : rec.status;
			const allowed = outcome === 'Refused' || outcome === 'Accepted' ? from === 'Pending' || from === 'Delivered' : from === 'Pending';
			if (!allowed)
				throw new TypeError(`delivery.set: order ${orderId} is ${from}; it cannot become ${outcome} (Delivered and Error are final, a document is refused or accepted once)`);
			d.pending.delete(Number(orderId));
			const at = isoSeconds(opts.at === undefined ? s.clock.now() : new Date(opts.at));
			apply(s, hit.partyId, hit.order, rec, outcome, { at, info: opts.info, reason: opts.reason });
			return details(rec);
		},
		/** Apply deliveries that are due now (the server does this at each /v1 request). */
		tick: () => tick(s),
		/** @param {number | string} orderId @returns {ReturnType<typeof details> | undefined} */
		get(orderId) {
			const hit = s.store.findOrder(orderId);
			return hit ? details(recordOf(s, hit.order).rec) : undefined;
		},
	};
}

module.exports = { afterSend, tick, view, controls, deliveryOf, wentOverNetwork, OUTCOMES, MOVES };
