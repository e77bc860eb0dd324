'use strict';

/**
 * The file store behind `GET /v1/files/{FileID}`. Two kinds of entries:
 * - stored: bytes a client sent on create (own PDF, attachments, the create request itself as the
 *   "original JSON") or a test put there (large PDF);
 * - generated: the order's PDF, UBL, original JSON (orders not created through the API) and its
 *   Peppol responses, registered when a full order read first names them and rendered from the order
 *   at each file read (never cached: the renderers only use fields that cannot change, so the bytes
 *   stay identical). Seeding 12,000 orders costs nothing here and list reads never touch this module.
 * Where the files sit in a full order follows the service's pages "Retrieve invoice information" and
 * "Get status info of a sales invoice": Attachments always hold the original JSON of an order created
 * through the API; the UBL of a sales invoice is the file of its outgoing Peppol message (Messages,
 * delivery.js), not an attachment; a received (Cost) invoice carries the UBL it arrived as in
 * Attachments, as `.xml`.
 * State hangs off the Store (one FileStore per store, created on first use).
 * @module emulator/files
 */

const crypto = require('node:crypto');
const { renderPdf, renderUbl, renderResponse, renderOriginalJson } = require('./documents');

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
 * @property {'pdf'|'ubl'|'json'|'response'|'stored'} kind
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
const mimeOf = (fileName) =>
	ATTACHMENT_TYPES[/** @type {'pdf'} */ (extensionOf(fileName))] || (extensionOf(fileName) === 'xml' ? 'application/xml' : 'application/octet-stream');

class FileStore {
	/** @param {import('./store').Store} store */
	constructor(store) {
		this.store = store;
		/** @type {Map<string, FileEntry>} by lower-case FileID */
		this.files = new Map();
		/** @type {Map<number, { pdf: string | null, attachments: string[], json?: string }>} stored files of each order */
		this.own = new Map();
		/** @type {Set<string>} FileIDs answered with a FileContent that is not base64 (a test's broken file) */
		this.corrupt = new Set();
		/** @type {Set<string>} FileIDs answered 404 although their order names them (a test's removed file) */
		this.dropped = new Set();
		this.counter = 0;
	}

	/** A GUID-shaped id, deterministic per order and role so runs with the same seed name the same files. @param {number} orderId @param {string} role */
	static fileId(orderId, role) {
		const h = crypto.createHash('sha1').update(`file:${orderId}:${role}`).digest('hex');
		return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
	}

	/** @param {FileEntry} e @returns {FileEntry} the entry now in the store (the first one for an id) */
	register(e) {
		// A dropped file stays named by its order but is never served again (emu.files.drop).
		if (this.dropped.has(e.FileID)) return e;
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
		const MimeType = file.MimeType || (role === 'pdf' ? 'application/pdf' : role === 'json' ? 'application/json' : mimeOf(file.FileName));
		this.register({ FileID, FileName: file.FileName, MimeType, partyId: String(partyId), orderId: Number(orderId), kind: 'stored', content: file.content });
		let own = this.own.get(Number(orderId));
		if (!own) this.own.set(Number(orderId), (own = { pdf: null, attachments: [] }));
		if (role === 'pdf') {
			if (own.pdf) this.files.delete(own.pdf);
			own.pdf = FileID;
		} else if (role === 'json') own.json = FileID;
		else own.attachments.push(FileID);
		return { FileID, FileName: file.FileName };
	}

	/**
	 * The name the service gives the original JSON: `<OrderNumber>__<d_MM_yyyy HH_mm_ss>.json` of the
	 * time it was created (the example of the service's page "Messages and Status").
	 * @param {Record<string, any>} order
	 */
	static jsonName(order) {
		const base = String(order.OrderNumber || order.OrderID).replace(/[^A-Za-z0-9._-]+/g, '_');
		const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(String(order.Created || ''));
		return m ? `${base}__${Number(m[3])}_${m[2]}_${m[1]} ${m[4]}_${m[5]}_${m[6]}.json` : `${base}.json`;
	}

	/**
	 * The generated UBL of an order: the document a sales invoice is sent as (its outgoing Peppol
	 * message names it), or the one a received invoice arrived as. Invoices and credit notes only.
	 * @param {string} partyId @param {Record<string, any>} order @returns {FileRef | null}
	 */
	ubl(partyId, order) {
		if (!UBL_TYPES.includes(order.OrderType)) return null;
		const id = Number(order.OrderID);
		const base = String(order.OrderNumber || id).replace(/[^A-Za-z0-9._-]+/g, '_');
		const e = this.register({
			FileID: FileStore.fileId(id, 'ubl'),
			FileName: `${base}.xml`,
			MimeType: 'application/xml',
			partyId: String(partyId),
			orderId: id,
			kind: 'ubl',
		});
		return { FileID: e.FileID, FileName: e.FileName };
	}

	/**
	 * The file references of a full order: OrderPDF (own, else generated) and Attachments: for a
	 * received (Cost) invoice or credit note the UBL it arrived as, for any other order the original
	 * JSON it was created from; then the stored attachments in the order they were sent.
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
		/** @param {'pdf'|'json'} kind @param {string} FileName @param {string} MimeType */
		const generated = (kind, FileName, MimeType) => {
			const e = this.register({ FileID: FileStore.fileId(id, kind), FileName, MimeType, partyId: String(partyId), orderId: id, kind });
			return { FileID: e.FileID, FileName: e.FileName };
		};
		const OrderPDF = own && own.pdf ? ref(own.pdf) : generated('pdf', `${base}.pdf`, 'application/pdf');
		const Attachments = [];
		const received = order.OrderDirection === 'Cost' && this.ubl(partyId, order);
		if (received) Attachments.push(received);
		else Attachments.push(own && own.json ? ref(own.json) : generated('json', FileStore.jsonName(order), 'application/json'));
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
		else if (e.kind === 'json') content = Buffer.from(renderOriginalJson(order), 'utf8');
		else if (e.kind === 'ubl') content = Buffer.from(renderUbl(order, { aboutInvoiceDate: this.invoiceDate(hit.partyId, order) }), 'utf8');
		else content = Buffer.from(renderResponse({ .../** @type {ResponseSpec} */ (e.response), order }), 'utf8');
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
