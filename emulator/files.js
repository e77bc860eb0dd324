'use strict';

/**
 * The file store behind `GET /v1/files/{FileID}`. Two kinds of entries:
 * - stored: bytes a client sent on create (own PDF, attachments) or a test put there (large PDF);
 * - generated: the order's PDF and UBL and its Peppol responses, registered when a full order read
 *   first names them and rendered from the order at each file read (never cached: the renderers only
 *   use fields that cannot change, so the bytes stay identical). Seeding 12,000 orders costs nothing
 *   here and list reads never touch this module.
 * State hangs off the Store (one FileStore per store, created on first use).
 * @module emulator/files
 */

const crypto = require('node:crypto');
const { renderPdf, renderUbl, renderResponse } = require('./documents');

/** Extensions accepted as attachments on create, with the MIME type the file read answers. */
const ATTACHMENT_TYPES = {
	pdf: 'application/pdf',
	xls: 'application/vnd.ms-excel',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	csv: 'text/csv',
};
/** Order types with a UBL document (Peppol BIS Billing covers invoices and credit notes only). */
const UBL_TYPES = ['Invoice', 'CreditNote'];

/**
 * @typedef {{ kind: 'MLR'|'IMR', code: string, id: number, at: string, reason?: string | null, reasonCode?: string | null }} ResponseSpec
 * @typedef {object} FileEntry
 * @property {string} FileID
 * @property {string} FileName
 * @property {string} MimeType
 * @property {string} partyId owner: reading it with another partyID is a 401, like an order
 * @property {number} orderId
 * @property {'pdf'|'ubl'|'response'|'stored'} kind
 * @property {Buffer} [content] stored bytes (kind 'stored')
 * @property {ResponseSpec} [response] what a response file says (kind 'response')
 * @typedef {{ FileID: string, FileName: string }} FileRef
 */

/** @param {string} fileName */
const extensionOf = (fileName) => {
	const m = /\.([A-Za-z0-9]+)$/.exec(fileName);
	return m ? m[1].toLowerCase() : '';
};

/** @param {string} fileName */
const mimeOf = (fileName) => ATTACHMENT_TYPES[/** @type {'pdf'} */ (extensionOf(fileName))] || (extensionOf(fileName) === 'xml' ? 'application/xml' : 'application/octet-stream');

class FileStore {
	/** @param {import('./store').Store} store */
	constructor(store) {
		this.store = store;
		/** @type {Map<string, FileEntry>} by lower-case FileID */
		this.files = new Map();
		/** @type {Map<number, { pdf: string | null, attachments: string[] }>} stored files of each order */
		this.own = new Map();
		this.counter = 0;
	}

	/** A GUID-shaped id, deterministic per order and role so runs with the same seed name the same files. @param {number} orderId @param {string} role */
	static fileId(orderId, role) {
		const h = crypto.createHash('sha1').update(`file:${orderId}:${role}`).digest('hex');
		return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
	}

	/** @param {FileEntry} e @returns {FileEntry} the entry now in the store (the first one for an id) */
	register(e) {
		const have = this.files.get(e.FileID);
		if (have) return have;
		this.files.set(e.FileID, e);
		return e;
	}

	/**
	 * Store bytes for an order: its own PDF (replaces the generated one) or an extra attachment.
	 * @param {string} partyId @param {number} orderId
	 * @param {{ FileName: string, content: Buffer, MimeType?: string }} file
	 * @param {'pdf'|'attachment'} role
	 * @returns {FileRef}
	 */
	put(partyId, orderId, file, role) {
		const FileID = FileStore.fileId(orderId, `stored:${++this.counter}`);
		const MimeType = file.MimeType || (role === 'pdf' ? 'application/pdf' : mimeOf(file.FileName));
		this.register({ FileID, FileName: file.FileName, MimeType, partyId: String(partyId), orderId: Number(orderId), kind: 'stored', content: file.content });
		let own = this.own.get(Number(orderId));
		if (!own) this.own.set(Number(orderId), (own = { pdf: null, attachments: [] }));
		if (role === 'pdf') {
			if (own.pdf) this.files.delete(own.pdf);
			own.pdf = FileID;
		} else own.attachments.push(FileID);
		return { FileID, FileName: file.FileName };
	}

	/**
	 * The file references of a full order: OrderPDF (own, else generated) and Attachments (UBL for
	 * invoices and credit notes, then the stored attachments in the order they were sent).
	 * @param {string} partyId @param {Record<string, any>} order
	 * @returns {{ OrderPDF: FileRef, Attachments: FileRef[] }}
	 */
	refs(partyId, order) {
		const id = Number(order.OrderID);
		const own = this.own.get(id);
		const ref = (/** @type {string} */ fileId) => {
			const e = /** @type {FileEntry} */ (this.files.get(fileId));
			return { FileID: e.FileID, FileName: e.FileName };
		};
		const base = String(order.OrderNumber || id).replace(/[^A-Za-z0-9._-]+/g, '_');
		/** @param {'pdf'|'ubl'} kind @param {string} FileName @param {string} MimeType */
		const generated = (kind, FileName, MimeType) =>
			ref(this.register({ FileID: FileStore.fileId(id, kind), FileName, MimeType, partyId: String(partyId), orderId: id, kind }).FileID);
		const OrderPDF = own && own.pdf ? ref(own.pdf) : generated('pdf', `${base}.pdf`, 'application/pdf');
		const Attachments = [];
		if (UBL_TYPES.includes(order.OrderType)) Attachments.push(generated('ubl', `${base}.xml`, 'application/xml'));
		if (own) for (const f of own.attachments) Attachments.push(ref(f));
		return { OrderPDF, Attachments };
	}

	/**
	 * Register the file of a Peppol response message.
	 * @param {string} partyId @param {Record<string, any>} order @param {ResponseSpec} response
	 * @returns {FileRef}
	 */
	response(partyId, order, response) {
		const base = String(order.OrderNumber || order.OrderID).replace(/[^A-Za-z0-9._-]+/g, '_');
		const e = this.register({
			FileID: FileStore.fileId(Number(order.OrderID), `response:${response.id}`),
			FileName: `${base}-${response.kind}-${response.id}.xml`,
			MimeType: 'application/xml',
			partyId: String(partyId),
			orderId: Number(order.OrderID),
			kind: 'response',
			response,
		});
		return { FileID: e.FileID, FileName: e.FileName };
	}

	/**
	 * A file with its bytes, or undefined when unknown or its order was deleted.
	 * @param {string} fileId @returns {(FileEntry & { content: Buffer }) | undefined}
	 */
	read(fileId) {
		const e = this.files.get(String(fileId).toLowerCase());
		if (!e) return undefined;
		if (e.kind === 'stored') return /** @type {any} */ (e);
		const hit = this.store.findOrder(e.orderId);
		if (!hit) return undefined;
		const order = hit.order;
		let content;
		if (e.kind === 'pdf') content = renderPdf(order);
		else if (e.kind === 'ubl') content = Buffer.from(renderUbl(order, { aboutInvoiceDate: this.invoiceDate(hit.partyId, order) }), 'utf8');
		else content = Buffer.from(renderResponse({ ...(/** @type {ResponseSpec} */ (e.response)), order }), 'utf8');
		return { ...e, content };
	}

	/** Issue date of the invoice a credit note is about, when it is in the same book. @param {string} partyId @param {Record<string, any>} order */
	invoiceDate(partyId, order) {
		if (order.OrderType !== 'CreditNote' || !order.AboutInvoiceNumber) return null;
		for (const o of this.store.book(partyId).values()) if (o.OrderType === 'Invoice' && o.OrderNumber === order.AboutInvoiceNumber) return o.OrderDate;
		return null;
	}

	/** Forget every file of a deleted order. @param {number} orderId */
	dropOrder(orderId) {
		for (const [k, e] of this.files) if (e.orderId === Number(orderId)) this.files.delete(k);
		this.own.delete(Number(orderId));
	}
}

/** @type {WeakMap<import('./store').Store, FileStore>} */
const byStore = new WeakMap();

/** @param {import('./store').Store} store @returns {FileStore} */
function filesOf(store) {
	let f = byStore.get(store);
	if (!f) byStore.set(store, (f = new FileStore(store)));
	return f;
}

module.exports = { FileStore, filesOf, ATTACHMENT_TYPES, UBL_TYPES, extensionOf, mimeOf };
