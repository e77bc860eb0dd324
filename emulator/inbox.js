'use strict';

/**
 * The Peppol inbox: the queue of documents received over Peppol, as the service's pages "Get the
 * Inbox List for Supplier Invoices", "Get the Inbox List for IMR and MLR files", "Mark Inbox as
 * Read/Confirmed" and the OpenAPI operations PeppolGetInbox, PeppolInboxItemConfirm and
 * PeppolInboxItemRefuse publish them, and the send of a ready UBL document ("Send UBL to Peppol").
 *
 * - `receiveDocument(store, partyId, options)` is the one way a document arrives: a supplier's
 *   invoice or credit note (rendered from `options.order`, e.g. the Cost order the same document
 *   became, or from a simulated supplier), a customer's IMR or MLR about one of your sent invoices,
 *   or any XML given as is (`options.xml`). It stores the file (in its SBDH envelope unless
 *   `envelope: false` or config `inboxEnvelope: 'none'`) and queues an item.
 * - `attach(s)`: the responses the delivery flow creates (emulator/delivery.js: a customer refusing
 *   or accepting a sent invoice, a delivery failing) also arrive in the inbox; config
 *   `inboxResponses`: 'business' (IMR and MLR RE, default), 'all' (also the delivery MLR, AB), 'none'.
 * The routes (list, confirm, refuse, send XML) are in emulator/routes/inbox.js.
 * @module emulator/inbox
 */

const crypto = require('node:crypto');
const { clone } = require('./util');
const { FileStore, filesOf } = require('./files');
const { buildOrder } = require('./model');
const { renderUbl, renderResponse, endpointOf } = require('./documents');
const { DOCUMENT_TYPES } = require('./directory');

const SBDH_NS = 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader';
const UBL = 'urn:oasis:names:specification:ubl:schema:xsd:';
/** PeppolDocumentType of each kind, as the inbox list shows it. */
const DOCUMENT_TYPE = { Invoice: DOCUMENT_TYPES.BISv3Invoice.doc, CreditNote: DOCUMENT_TYPES.BISv3CreditNote.doc, IMR: 'IMR', MLR: 'MLR' };
const KINDS = Object.keys(DOCUMENT_TYPE);
const RESPONSE_CODES = { IMR: ['AB', 'IP', 'UQ', 'CA', 'RE', 'AP', 'PD'], MLR: ['AB', 'AP', 'RE'] };
const DEFAULT_SUPPLIER = { Name: 'Office Supplies NV', VATNumber: 'BE0403170701', Email: 'invoices@office-supplies.example' };

/**
 * @typedef {'Invoice'|'CreditNote'|'IMR'|'MLR'} Kind
 * @typedef {{ InboxItemID: number, SenderPeppolID: string | null, SenderCompanyID: string | null, PeppolDocumentType: string,
 *   ReceiverPeppolID: string | null, ReceiverCompanyID: string | null, CreationDate: string, PeppolFileID: string }} InboxItem
 * @typedef {{ item: InboxItem, partyId: string, kind: Kind }} Entry
 * @typedef {object} ReceiveOptions
 * @property {Kind} [type] Invoice (default), CreditNote, IMR or MLR
 * @property {string} [xml] the document as is (any shape); otherwise it is rendered
 * @property {Record<string, any>} [order] Invoice/CreditNote: the order to render; IMR/MLR: the sent order answered
 * @property {Record<string, any>} [supplier] a simulated supplier ({Name, VATNumber, Email}) when no order is given
 * @property {string} [orderNumber] @property {string} [orderDate] @property {Record<string, any>[]} [lines]
 * @property {string} [code] IMR/MLR response code (RE for IMR, AP for MLR by default)
 * @property {string} [reason] free text of the response @property {string} [reasonCode] its status reason code
 * @property {string} [invoiceNumber] the invoice answered, when no order is given
 * @property {Record<string, any>} [customer] the customer answering, when no order is given
 * @property {boolean} [envelope] wrap in the SBDH (default: config inboxEnvelope)
 */

class Inbox {
	constructor() {
		/** @type {Map<number, Entry>} */
		this.entries = new Map();
		this.nextId = 69790;
		/** @type {Array<{ InboxItemID: number, partyId: string, XML: string, at: string, receiver: string | null }>} */
		this.sent = [];
		/** @type {Array<{ InboxItemID: number, partyId: string, RefusalReason: string, at: string }>} */
		this.refused = [];
		/** @type {Array<{ InboxItemID: number, partyId: string, at: string }>} */
		this.confirmed = [];
	}
}

/** @type {WeakMap<import('./store').Store, Inbox>} */
const byStore = new WeakMap();
/** @param {import('./store').Store} store */
function inboxOf(store) {
	let inbox = byStore.get(store);
	if (!inbox) byStore.set(store, (inbox = new Inbox()));
	return inbox;
}

/** The time as the published list writes it: local-looking, seven decimals, no zone. @param {Date} d */
const creationDate = (d) => `${d.toISOString().slice(0, 23)}0000`;

/** @param {Record<string, any> | undefined} party */
const peppolId = (party) => {
	const ep = party && endpointOf(party);
	return ep ? `${ep.scheme}:${ep.id}` : null;
};

/** The Peppol routing envelope around a document, in the form access points exchange it. */
function envelope(xml, o) {
	const standard = o.kind === 'Invoice' || o.kind === 'CreditNote' ? `${UBL}${o.kind}-2` : `${UBL}ApplicationResponse-2`;
	const type = o.kind === 'Invoice' || o.kind === 'CreditNote' ? o.kind : 'ApplicationResponse';
	const spec = o.kind === 'Invoice' ? DOCUMENT_TYPES.BISv3Invoice : o.kind === 'CreditNote' ? DOCUMENT_TYPES.BISv3CreditNote : DOCUMENT_TYPES[o.kind];
	const body = xml.replace(/^\uFEFF?<\?xml[^>]*\?>\s*/, '');
	return `<?xml version="1.0" encoding="UTF-8"?>
<StandardBusinessDocument xmlns="${SBDH_NS}">
  <StandardBusinessDocumentHeader>
    <HeaderVersion>1.0</HeaderVersion>
    <Sender><Identifier Authority="iso6523-actorid-upis">${o.sender || '0088:0000000000000'}</Identifier></Sender>
    <Receiver><Identifier Authority="iso6523-actorid-upis">${o.receiver || '0088:0000000000000'}</Identifier></Receiver>
    <DocumentIdentification>
      <Standard>${standard}</Standard>
      <TypeVersion>2.1</TypeVersion>
      <InstanceIdentifier>${o.instance}</InstanceIdentifier>
      <Type>${type}</Type>
      <CreationDateAndTime>${o.at}</CreationDateAndTime>
    </DocumentIdentification>
    <BusinessScope>
      <Scope><Type>DOCUMENTID</Type><InstanceIdentifier>${spec.doc}</InstanceIdentifier><Identifier>busdox-docid-qns</Identifier></Scope>
      <Scope><Type>PROCESSID</Type><InstanceIdentifier>${spec.process}</InstanceIdentifier><Identifier>cenbii-procid-ubl</Identifier></Scope>
    </BusinessScope>
  </StandardBusinessDocumentHeader>
${body.trimEnd()}
</StandardBusinessDocument>
`;
}

/**
 * A document arriving over Peppol for `partyId`: its file is stored and an inbox item queued.
 * @param {import('./store').Store} store @param {string} partyId the receiving company
 * @param {ReceiveOptions} [o] @param {Record<string, any>} [config] the emulator switches (inboxEnvelope)
 * @returns {InboxItem} a copy of the new item
 */
function receiveDocument(store, partyId, o = {}, config = {}) {
	const kind = o.type === undefined ? (o.order && o.order.OrderType === 'CreditNote' ? 'CreditNote' : 'Invoice') : o.type;
	if (!KINDS.includes(kind)) throw new TypeError(`type must be one of ${KINDS.join(', ')}, not ${JSON.stringify(kind)}`);
	if (o.xml !== undefined && (typeof o.xml !== 'string' || !o.xml.trim())) throw new TypeError('xml must be the document as text');
	const self = store.selfOf(String(partyId));
	const now = store.clock.now();
	const inbox = inboxOf(store);
	const id = ++inbox.nextId;
	const response = kind === 'IMR' || kind === 'MLR';
	let sender;
	let xml = o.xml;
	if (response) {
		const code = o.code || (kind === 'IMR' ? 'RE' : 'AP');
		if (!o.xml && !RESPONSE_CODES[kind].includes(code))
			throw new TypeError(`an ${kind} code is one of ${RESPONSE_CODES[kind].join(', ')}, not ${JSON.stringify(code)}`);
		const order = o.order || {
			OrderNumber: o.invoiceNumber || 'INV-UNKNOWN',
			OrderDate: now.toISOString().slice(0, 10),
			OrderType: 'Invoice',
			Customer: o.customer || { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749' },
			Supplier: self,
		};
		sender = order.Customer;
		xml = xml || renderResponse({ kind, order, code, at: now.toISOString(), id, reason: o.reason, reasonCode: o.reasonCode });
	} else {
		const order =
			o.order ||
			buildOrder(
				{ orderId: id, partyId: String(partyId), self, seq: id, now },
				{
					OrderType: kind,
					OrderDirection: 'Cost',
					Supplier: o.supplier || DEFAULT_SUPPLIER,
					OrderNumber: o.orderNumber || `SUP-${id}`,
					OrderDate: o.orderDate,
					OrderLines: o.lines,
				},
			);
		sender = order.Supplier;
		xml = xml || renderUbl(order);
	}
	const wrap = o.envelope === undefined ? config.inboxEnvelope !== 'none' : o.envelope;
	const from = peppolId(sender);
	const to = peppolId(self);
	const instance = crypto
		.createHash('sha1')
		.update(`inbox:${id}`)
		.digest('hex')
		.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, '$1-$2-$3-$4-$5');
	const content = wrap ? envelope(xml, { kind, sender: from, receiver: to, instance, at: now.toISOString() }) : xml;
	const FileID = FileStore.fileId(0, `inbox:${id}`);
	filesOf(store).register({
		FileID,
		FileName: `peppol-${id}.xml`,
		MimeType: 'application/xml',
		partyId: String(partyId),
		orderId: 0,
		kind: 'stored',
		content: Buffer.from(content, 'utf8'),
	});
	/** @type {InboxItem} */
	const item = {
		InboxItemID: id,
		SenderPeppolID: from,
		SenderCompanyID: (sender && sender.VATNumber) || null,
		PeppolDocumentType: DOCUMENT_TYPE[/** @type {Kind} */ (kind)],
		ReceiverPeppolID: to,
		ReceiverCompanyID: self.VATNumber || null,
		CreationDate: creationDate(now),
		PeppolFileID: FileID,
	};
	inbox.entries.set(id, { item, partyId: String(partyId), kind: /** @type {Kind} */ (kind) });
	return clone(item);
}

/**
 * Responses created by the delivery flow arrive in the inbox of the party that sent the invoice.
 * @param {import('./server').Internal} s
 */
function attach(s) {
	s.store.events.on((ev) => {
		const m = ev.message;
		if (ev.entity !== 'Message' || ev.update !== 'I' || !m || (m.MessageType !== 'IMR' && m.MessageType !== 'MLR') || !m.FileID) return;
		const policy = s.config.inboxResponses;
		if (policy === 'none' || (policy !== 'all' && m.MessageType === 'MLR' && m.ResponseCode !== 'RE')) return;
		const file = filesOf(s.store).read(m.FileID);
		if (file) receiveDocument(s.store, ev.partyId, { type: m.MessageType, xml: file.content.toString('utf8'), order: ev.order }, s.config);
	});
}

/** The party's items, oldest first. @param {import('./store').Store} store @param {string} partyId @returns {InboxItem[]} */
function itemsOf(store, partyId) {
	return [...inboxOf(store).entries.values()]
		.filter((e) => e.partyId === String(partyId))
		.sort((a, b) => a.item.InboxItemID - b.item.InboxItemID)
		.map((e) => clone(e.item));
}

/**
 * Test controls (`emu.inbox`).
 * @param {import('./server').Internal} s @param {string} masterPartyId
 */
function controls(s, masterPartyId) {
	return {
		/** A document arrives (default: for the master party). @param {ReceiveOptions & { partyId?: string }} [o] */
		receive: (o = {}) => receiveDocument(s.store, o.partyId || masterPartyId, o, s.config),
		/** The party's queue, oldest first (all of it, not only the 10 the list shows). @param {string} [partyId] */
		items: (partyId = masterPartyId) => itemsOf(s.store, partyId),
		sent: () => clone(inboxOf(s.store).sent),
		refused: () => clone(inboxOf(s.store).refused),
		confirmed: () => clone(inboxOf(s.store).confirmed),
	};
}

module.exports = { receiveDocument, attach, controls, inboxOf, itemsOf, UBL, RESPONSE_CODES };
