'use strict';

/**
 * Sending and delivery status: the order's `Messages` (the service's `OrderMessage`) and
 * `CurrentDocumentDeliveryDetails`, as the service's pages "Get status info of a sales invoice",
 * "Webhooks" and "Polling" publish them (README "Delivery status" says what is published and what
 * is assumed).
 *
 * A send adds one Outgoing message: over Peppol `{OrderID, CreationDate, TransportType, Trials,
 * Destination, MessageDirection}` (Message I), then its `FileID` (the UBL sent) and `Success` with the
 * flow state Sent (Message U), as the page "Webhooks" shows; by e-mail or post one message, delivered
 * at once. A Peppol send is Pending; after `config.deliveryDelayMs` of emulator clock time it takes the
 * outcome `config.deliveryOutcome` named at send time (Delivered, Error, Refused, Accepted, or Pending =
 * stays pending until moved by hand); `emu.delivery.set(orderId, outcome)` moves it at once. Due
 * deliveries are applied at the start of each /v1 request (and by `emu.delivery.tick()`).
 *
 * Each step adds an Incoming message with its response file (MLR or IMR) and a `Description` starting
 * with the response code: Delivered `AB:`, Accepted `AP:`, Refused and Error `RE:`. The details follow
 * the page's three examples: Delivered (IsDocumentDelivered, DocumentDeliveryDate, DocumentDeliveryInfo
 * "Received" / "Approved"), Pending, and the negative one (Error; a refusal also sets DocumentRefusedDate,
 * DocumentRefusedInfo and DocumentRefusedReasonTC, and the order becomes Refused).
 *
 * Stored messages hold the published fields only (so list items and order reads show nothing else).
 * What only the change bus shows is kept beside them and merged into the bus's copy (`busMessage`):
 * `MessageID` (the webhook's UpdatedEntityID), `EInvoiceFlowState` and `AdditionalFlowStateInformation`
 * (the webhook's AdditionalMessageInformation), and for the webhook payload of emulator/webhooks.js
 * `Status`, `Date`, `StatusInfo`, `RefusedReasonTC`; for the Peppol inbox (emulator/inbox.js) `MessageType` (IMR|MLR) and `ResponseCode`.
 *
 * Orders sent before this module saw them (seeded, or added through the store) get a view derived from
 * their Messages and OrderStatus, computed on read and never stored.
 * @module emulator/delivery
 */

const { serviceTime } = require('./util');
const { filesOf } = require('./files');

/** @typedef {import('./server').Internal} Internal @typedef {Record<string, any>} Order */
/**
 * @typedef {object} DeliveryRecord
 * @property {string} transport
 * @property {'Pending'|'Delivered'|'Error'} status
 * @property {Outcome} planned outcome when due
 * @property {number} dueAt epoch ms (emulator clock)
 * @property {string | null} deliveredAt
 * @property {string | null} info
 * @property {string | null} refusedAt
 * @property {string | null} refusedInfo
 * @property {string | null} refusedReason
 * @property {string | null} [acceptedAt]
 * @property {string} [destination]
 * @typedef {'Delivered'|'Error'|'Refused'|'Accepted'|'Pending'} Outcome
 */

const OUTCOMES = ['Delivered', 'Error', 'Refused', 'Accepted', 'Pending'];
/** What `emu.delivery.set` can move a delivery to. */
const MOVES = ['Delivered', 'Error', 'Refused', 'Accepted'];
/** The published OrderMessage fields (OpenAPI `OrderMessage`): what an order read shows of a message. */
const PUBLIC = ['OrderID', 'Description', 'FileID', 'CreationDate', 'TransportType', 'Success', 'Trials', 'Destination', 'MessageDirection'];
const TEXT = {
	Delivered: 'The document has been successfully received.',
	Accepted: 'The invoice has been accepted.',
	Error: "The receiver's access point rejected the document.",
	Refused: 'Refused by the receiver',
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

/** @type {WeakMap<Record<string, any>, Record<string, any>>} what the bus shows of a stored message beyond its published fields */
const busOnly = new WeakMap();
/** The stored message with its bus-only fields, as change events carry it. @param {Record<string, any>} m */
const busMessage = (m) => ({ ...m, ...busOnly.get(m) });

/** @param {unknown} t */
const isPeppol = (t) => /peppol/i.test(String(t || ''));

/** A message as an order read shows it: the published fields only. @param {Record<string, any>} m */
function publicMessage(m) {
	/** @type {Record<string, any>} */
	const out = {};
	for (const k of PUBLIC) if (m[k] !== undefined) out[k] = m[k];
	return out;
}

/**
 * Send one order: appends its Outgoing message and starts its delivery. Called by the send command.
 * @param {Internal} s @param {string} partyId @param {Order} order the live order
 * @param {{ transport: string, destination: string, description?: string }} how
 */
function send(s, partyId, order, how) {
	const store = s.store;
	const at = serviceTime(s.clock.now());
	/** @type {Record<string, any>} */
	const msg = {
		OrderID: Number(order.OrderID),
		CreationDate: at,
		TransportType: how.transport,
		Trials: 0,
		Destination: how.destination,
		MessageDirection: 'Outgoing',
	};
	if (how.description) msg.Description = how.description;
	/** @type {Record<string, any>} */
	const extra = { MessageID: ++store.ids.message, Date: at };
	busOnly.set(msg, extra);
	order.Messages = [...(order.Messages || []), msg];
	order.IsSent = true;
	order.OrderStatus = 'Sent';
	order.LastModified = at;
	/** @type {DeliveryRecord} */
	const rec = {
		transport: how.transport,
		status: 'Pending',
		planned: 'Delivered',
		dueAt: 0,
		deliveredAt: null,
		info: null,
		refusedAt: null,
		refusedInfo: null,
		refusedReason: null,
		destination: how.destination,
	};
	const d = deliveryOf(store);
	d.records.set(Number(order.OrderID), rec);
	if (isPeppol(how.transport)) {
		// The page "Webhooks": Message I without file, then Message U with the UBL sent and the flow state Sent.
		store.events.message('I', partyId, order, busMessage(msg));
		const ubl = filesOf(store).ubl(partyId, order);
		if (ubl) msg.FileID = ubl.FileID;
		msg.Success = true;
		Object.assign(extra, { EInvoiceFlowState: 'Sent', Status: 'Sent' });
		store.events.message('U', partyId, order, busMessage(msg));
		rec.planned = OUTCOMES.includes(s.config.deliveryOutcome) ? s.config.deliveryOutcome : 'Delivered';
		rec.dueAt = s.clock.now().getTime() + Math.max(0, Number(s.config.deliveryDelayMs) || 0);
		store.events.order('U', partyId, order);
		d.pending.add(Number(order.OrderID));
		tick(s);
		return;
	}
	msg.Success = true;
	extra.Status = 'Sent';
	Object.assign(rec, { status: 'Delivered', deliveredAt: at, info: how.description || null });
	store.events.message('I', partyId, order, busMessage(msg));
	store.events.order('U', partyId, order);
}

/**
 * The Incoming response message of a delivery step, with its response file.
 * @param {Internal} s @param {string} partyId @param {Order} order @param {DeliveryRecord} rec
 * @param {{ kind: 'MLR'|'IMR', code: string, flow: string | undefined, failed?: boolean, text: string, at: string, info?: string | null, reasonCode?: string | null, legacy: string }} r
 * @param {number} [MessageID] fixed id (derived views), else the next one
 */
function response(s, partyId, order, rec, r, MessageID = ++s.store.ids.message) {
	const ref = filesOf(s.store).response(partyId, order, { kind: r.kind, code: r.code, id: MessageID, at: r.at, reason: r.info, reasonCode: r.reasonCode });
	/** @type {Record<string, any>} */
	const m = {
		OrderID: Number(order.OrderID),
		Description: `${r.code}: ${r.text}`,
		FileID: ref.FileID,
		CreationDate: r.at,
		TransportType: 'Peppol',
		Success: !r.failed,
		Trials: 0,
		Destination: rec.destination || null,
		MessageDirection: 'Incoming',
	};
	/** @type {Record<string, any>} */
	const extra = { MessageID, EInvoiceFlowState: r.flow, Status: r.legacy, Date: r.at, StatusInfo: r.info || r.text, MessageType: r.kind, ResponseCode: r.code };
	if (r.info && r.flow) extra.AdditionalFlowStateInformation = r.info;
	if (r.reasonCode) extra.RefusedReasonTC = r.reasonCode;
	busOnly.set(m, extra);
	return m;
}

/**
 * Move a Peppol delivery. Appends the response message(s) and updates the order.
 * @param {Internal} s @param {string} partyId @param {Order} order live order @param {DeliveryRecord} rec
 * @param {Exclude<Outcome, 'Pending'>} outcome @param {{ at: string, info?: string, reason?: string }} o
 */
function apply(s, partyId, order, rec, outcome, o) {
	const store = s.store;
	/** @param {Parameters<typeof response>[4]} r */
	const add = (r) => {
		const message = response(s, partyId, order, rec, r);
		order.Messages = [...(order.Messages || []), message];
		store.events.message('I', partyId, order, busMessage(message));
	};
	if (outcome === 'Delivered' || ((outcome === 'Refused' || outcome === 'Accepted') && rec.status === 'Pending')) {
		rec.status = 'Delivered';
		rec.deliveredAt = o.at;
		rec.info = 'Received';
		const text = (outcome === 'Delivered' && o.info) || TEXT.Delivered;
		add({ kind: 'MLR', code: 'AB', flow: 'Delivered', text, at: o.at, legacy: 'Delivered' });
	}
	if (outcome === 'Error') {
		rec.status = 'Error';
		rec.info = o.info || TEXT.Error;
		// A failed delivery: the page says only "Success: when false, failed" (assumed: no flow state).
		add({ kind: 'MLR', code: 'RE', flow: undefined, failed: true, text: rec.info, info: rec.info, at: o.at, legacy: 'Error' });
	}
	if (outcome === 'Refused') {
		Object.assign(rec, { status: 'Error', refusedAt: o.at, refusedInfo: o.info || TEXT.Refused, refusedReason: o.reason || DEFAULT_REFUSAL_CODE });
		add({ kind: 'IMR', code: 'RE', flow: 'Refused', text: rec.refusedInfo, info: rec.refusedInfo, reasonCode: rec.refusedReason, at: o.at, legacy: 'Refused' });
		order.OrderStatus = 'Refused';
	}
	if (outcome === 'Accepted') {
		rec.acceptedAt = o.at;
		rec.info = 'Approved';
		add({ kind: 'IMR', code: 'AP', flow: 'Accepted', text: o.info || TEXT.Accepted, info: o.info || null, at: o.at, legacy: 'Accepted' });
	}
	order.LastModified = serviceTime(s.clock.now());
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
		if (rec.planned !== 'Pending') apply(s, hit.partyId, hit.order, rec, rec.planned, { at: serviceTime(rec.dueAt) });
	}
}

/** The last Outgoing message of an order (its send), if any. @param {Order} order */
function lastSend(order) {
	const msgs = Array.isArray(order.Messages) ? order.Messages : [];
	return [...msgs].reverse().find((m) => m && m.TransportType && m.MessageDirection !== 'Incoming');
}

/**
 * The record of an order: kept (sent through the API) or derived from its Messages (seeded): a Peppol
 * send reads as Delivered, refused when the order is Refused.
 * @param {Internal} s @param {Order} order @returns {{ rec: DeliveryRecord | null, derived: boolean }}
 */
function recordOf(s, order) {
	const kept = byStore.get(s.store)?.records.get(Number(order.OrderID));
	if (kept) return { rec: kept, derived: false };
	const last = lastSend(order);
	if (!order.IsSent || !last) return { rec: null, derived: true };
	const at = last.CreationDate || order.LastModified || null;
	/** @type {DeliveryRecord} */
	const rec = {
		transport: last.TransportType,
		status: 'Delivered',
		planned: 'Delivered',
		dueAt: 0,
		deliveredAt: at,
		info: isPeppol(last.TransportType) ? 'Received' : last.Description || null,
		refusedAt: null,
		refusedInfo: null,
		refusedReason: null,
		destination: last.Destination,
	};
	if (isPeppol(last.TransportType) && order.OrderStatus === 'Refused')
		Object.assign(rec, { status: 'Error', refusedAt: order.LastModified || at, refusedInfo: TEXT.Refused, refusedReason: DEFAULT_REFUSAL_CODE });
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
 * The messages a seeded Peppol send implies beyond its stored Outgoing message: its MLR AB, and for a
 * Refused order its IMR RE (ids derived from the OrderID, so every read names the same files).
 * @param {Internal} s @param {string} partyId @param {Order} order @param {DeliveryRecord} rec
 */
function derivedMessages(s, partyId, order, rec) {
	const base = Number(order.OrderID) * 100;
	const out = [
		response(
			s,
			partyId,
			order,
			rec,
			{ kind: 'MLR', code: 'AB', flow: 'Delivered', text: TEXT.Delivered, at: /** @type {string} */ (rec.deliveredAt), legacy: 'Delivered' },
			base + 98,
		),
	];
	if (rec.refusedAt) {
		const r = {
			kind: /** @type {'IMR'} */ ('IMR'),
			code: 'RE',
			flow: 'Refused',
			text: TEXT.Refused,
			info: rec.refusedInfo,
			reasonCode: rec.refusedReason,
			at: rec.refusedAt,
			legacy: 'Refused',
		};
		out.push(response(s, partyId, order, rec, r, base + 99));
	}
	return out;
}

/**
 * What a full order read shows: CurrentDocumentDeliveryDetails and Messages in the published shape.
 * A Peppol send stored without its file (seeded) names the UBL it was sent as.
 * @param {Internal} s @param {string} partyId @param {Order} order @returns {{ details: ReturnType<typeof details>, messages: Record<string, any>[] }}
 */
function view(s, partyId, order) {
	const { rec, derived } = recordOf(s, order);
	const stored = (Array.isArray(order.Messages) ? order.Messages : []).filter((m) => m && typeof m === 'object');
	const messages = stored.map((m) => ({ OrderID: Number(order.OrderID), ...publicMessage(m) }));
	for (const m of messages) {
		if (m.MessageDirection !== 'Outgoing' || !isPeppol(m.TransportType) || m.FileID) continue;
		const ubl = filesOf(s.store).ubl(partyId, order);
		if (ubl) Object.assign(m, { FileID: ubl.FileID, Success: true });
	}
	if (derived && rec && isPeppol(rec.transport)) messages.push(...derivedMessages(s, partyId, order, rec).map(publicMessage));
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
		 * Delivered (from Pending the MLR AB comes first).
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
			if (derived) {
				// From now on kept: the messages a read derived become the order's own.
				d.records.set(Number(orderId), (rec = { ...rec }));
				hit.order.Messages = [...(hit.order.Messages || []), ...derivedMessages(s, hit.partyId, hit.order, rec)];
			}
			const from = rec.refusedAt ? 'Refused' : rec.acceptedAt ? 'Accepted' : rec.status;
			const allowed = outcome === 'Refused' || outcome === 'Accepted' ? from === 'Pending' || from === 'Delivered' : from === 'Pending';
			if (!allowed)
				throw new TypeError(
					`delivery.set: order ${orderId} is ${from}; it cannot become ${outcome} (Delivered and Error are final, a document is refused or accepted once)`,
				);
			d.pending.delete(Number(orderId));
			const at = serviceTime(opts.at === undefined ? s.clock.now() : new Date(opts.at));
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

module.exports = { send, tick, view, controls, deliveryOf, wentOverNetwork, publicMessage, busMessage, OUTCOMES, MOVES };
