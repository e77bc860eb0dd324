'use strict';

/**
 * Delivery status updates of a sent order's message (what the network reports after sending):
 * Delivered, Accepted, Refused or Error. Updates the message, the order's
 * CurrentDocumentDeliveryDetails (shape of beyond-contract.md "Delivery status"), and emits a
 * Message U event then an Order U event, as the service's Message webhook reports status feedback.
 * @module emulator/messages
 */

const { isoSeconds } = require('./util');

const STATUSES = ['Delivered', 'Accepted', 'Refused', 'Error'];

/**
 * @param {import('./store').Store} store
 * @param {number | string} orderId
 * @param {string} status Delivered | Accepted | Refused | Error
 * @param {{ info?: string, reason?: string, messageId?: number }} [opts] info text; reason code of a refusal
 * @returns {{ order: Record<string, any>, message: Record<string, any> }} copies
 */
function setMessageStatus(store, orderId, status, opts = {}) {
	if (!STATUSES.includes(status)) throw new TypeError(`Unknown message status ${JSON.stringify(status)}; use one of ${STATUSES.join(', ')}`);
	const hit = store.findOrder(orderId);
	if (!hit) throw new RangeError(`Order ${orderId} not found`);
	const messages = Array.isArray(hit.order.Messages) ? hit.order.Messages : [];
	const message = opts.messageId !== undefined ? messages.find((m) => m && m.MessageID === Number(opts.messageId)) : messages[messages.length - 1];
	if (!message) throw new RangeError(`Order ${orderId} has no message${opts.messageId !== undefined ? ` ${opts.messageId}` : ''}: send it first`);
	const now = isoSeconds(store.clock.now());
	const refused = status === 'Refused';
	Object.assign(message, { Status: status, StatusDate: now, StatusInfo: opts.info || `${status} (${message.TransportType || 'transport'})` });
	if (refused) message.RefusedReasonTC = opts.reason || 'REF';
	const prev = hit.order.CurrentDocumentDeliveryDetails || {};
	const details = {
		IsDocumentDelivered: status !== 'Error',
		DocumentDeliveryStatus: status === 'Error' ? 'Error' : 'Delivered',
		DocumentDeliveryDate: status === 'Error' ? prev.DocumentDeliveryDate || null : prev.DocumentDeliveryDate || now,
		DocumentDeliveryInfo: status === 'Error' || !refused ? message.StatusInfo : prev.DocumentDeliveryInfo || null,
		DocumentRefusedDate: refused ? now : prev.DocumentRefusedDate || null,
		DocumentRefusedInfo: refused ? message.StatusInfo : prev.DocumentRefusedInfo || null,
		DocumentRefusedReasonTC: refused ? message.RefusedReasonTC : prev.DocumentRefusedReasonTC || null,
	};
	store.events.message('U', hit.partyId, hit.order, message);
	const order = store.updateOrder(hit.partyId, hit.order.OrderID, { CurrentDocumentDeliveryDetails: details, ...(refused ? { OrderStatus: 'Refused' } : {}) });
	return { order, message: JSON.parse(JSON.stringify(message)) };
}

module.exports = { setMessageStatus, MESSAGE_STATUSES: STATUSES };
