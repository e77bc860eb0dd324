'use strict';

/**
 * Files (docs/api.md "Files and attachments"): `GET /v1/files/{FileID}`, the own PDF and attachments of
 * `POST /v1/orders`, and the full-order view that names an order's files and delivery status.
 * @module emulator/routes/files
 */

const { ApiError, badRequest } = require('../util');
const { FileStore, filesOf, ATTACHMENT_TYPES, extensionOf } = require('../files');
const { view } = require('../delivery');
const { unauthorized } = require('./auth');
const { renderPdf } = require('../documents');

/** @typedef {import('../server').Ctx} Ctx @typedef {import('../server').Internal} Internal */
/** @typedef {{ FileName: string, content: Buffer }} IncomingFile */

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** @param {unknown} v @param {string} field @returns {Buffer} */
function decodeBase64(v, field) {
	if (typeof v !== 'string') throw badRequest(`${field} is required and must be a base64 string`);
	// .NET's decoder, which the service runs on, skips whitespace (MIME line breaks) but nothing else
	const t = v.replace(/\s+/g, '');
	if (!t) throw badRequest(`${field} is empty: a file needs content`);
	if (t.length % 4 !== 0 || !BASE64.test(t)) throw badRequest(`${field} is not valid base64`);
	return Buffer.from(t, 'base64');
}

/** @param {unknown} v @param {string} field @returns {string} */
function fileName(v, field) {
	if (typeof v !== 'string' || !v.trim()) throw badRequest(`${field} is required`);
	if (v.length > 255 || /[/\\\u0000-\u001f]/.test(v))
		throw badRequest(`${field} '${v.slice(0, 80)}' is not a valid file name (at most 255 characters, no path separators or control characters)`);
	return v;
}

/**
 * Validate and decode `OrderPDF` and `Attachments` of a create body (before anything is stored).
 * @param {Record<string, any>} b @returns {{ pdf: IncomingFile | null, attachments: IncomingFile[] }}
 */
function intake(b) {
	/** @type {IncomingFile | null} */
	let pdf = null;
	if (b.OrderPDF !== undefined && b.OrderPDF !== null) {
		if (Array.isArray(b.OrderPDF)) throw badRequest('OrderPDF takes one file ({FileName, FileContent}), not a list; send other files as Attachments');
		if (typeof b.OrderPDF !== 'object') throw badRequest('OrderPDF must be an object {FileName, FileContent}');
		const name = fileName(b.OrderPDF.FileName, 'OrderPDF.FileName');
		const content = decodeBase64(b.OrderPDF.FileContent, 'OrderPDF.FileContent');
		if (content.subarray(0, 5).toString('latin1') !== '%PDF-') throw badRequest(`OrderPDF '${name}' is not a PDF: its content must start with %PDF-`);
		pdf = { FileName: name, content };
	}
	/** @type {IncomingFile[]} */
	const attachments = [];
	if (b.Attachments !== undefined && b.Attachments !== null) {
		if (!Array.isArray(b.Attachments)) throw badRequest('Attachments must be a list of {FileName, FileContent}');
		b.Attachments.forEach((/** @type {any} */ a, /** @type {number} */ i) => {
			if (!a || typeof a !== 'object' || Array.isArray(a)) throw badRequest(`Attachments[${i}] must be an object {FileName, FileContent}`);
			const name = fileName(a.FileName, `Attachments[${i}].FileName`);
			if (!Object.prototype.hasOwnProperty.call(ATTACHMENT_TYPES, extensionOf(name)))
				throw badRequest(`Attachments[${i}] '${name}': unsupported file type; supported extensions: ${Object.keys(ATTACHMENT_TYPES).join(', ')}`);
			attachments.push({ FileName: name, content: decodeBase64(a.FileContent, `Attachments[${i}].FileContent`) });
		});
	}
	return { pdf, attachments };
}

/**
 * Store what `intake` accepted for a new order, and the request itself as the order's original JSON
 * (the service's page "Retrieve invoice information": Attachments always contain it); file contents
 * in it are replaced by their size, so a large PDF is not kept twice.
 * @param {Ctx} ctx @param {Record<string, any>} order the new order @param {ReturnType<typeof intake>} files @param {Record<string, any>} body
 */
function storeIntake(ctx, order, files, body) {
	const fs = filesOf(ctx.emu.store);
	const orderId = Number(order.OrderID);
	if (files.pdf) fs.put(ctx.partyId, orderId, files.pdf, 'pdf');
	for (const a of files.attachments) fs.put(ctx.partyId, orderId, a, 'attachment');
	const json = JSON.stringify(body, (k, v) => (k === 'FileContent' && typeof v === 'string' ? `(${v.length} base64 characters)` : v));
	fs.put(ctx.partyId, orderId, { FileName: FileStore.jsonName(order), content: Buffer.from(json, 'utf8') }, 'json');
}

/**
 * A full order as single reads answer it: the stored order plus OrderPDF, Attachments, Messages with
 * their files, CurrentDocumentDeliveryDetails, and InternalInfo/ApprovalStatus (null until patched).
 * The live order is not changed.
 * @param {Internal} s @param {string} partyId @param {Record<string, any>} order
 */
function fullOrder(s, partyId, order) {
	const { OrderPDF, Attachments } = filesOf(s.store).refs(partyId, order);
	const { details, messages } = view(s, partyId, order);
	return {
		InternalInfo: null,
		ApprovalStatus: null,
		...order,
		OrderPDF,
		Attachments,
		Messages: messages,
		CurrentDocumentDeliveryDetails: details,
	};
}

/** GET /v1/files/{FileID}: answers {FileID, FileName, MimeType, FileContent (base64)}. @param {Ctx} ctx */
function getFile(ctx) {
	const id = ctx.params.id;
	const fs = filesOf(ctx.emu.store);
	const entry = fs.files.get(id.toLowerCase());
	if (entry && entry.partyId !== ctx.partyId) throw unauthorized(`File ${id} does not belong to party ${ctx.partyId}`);
	const f = entry && fs.read(id);
	if (!f) throw new ApiError(404, 'GenericError', `File ${id} not found`);
	const content = fs.corrupt.has(f.FileID) ? '%%not base64%%' : f.content.toString('base64');
	// written by hand: a 20 MB file would otherwise be cloned and serialised twice by the dispatcher
	const raw = `{"FileID":${JSON.stringify(f.FileID)},"FileName":${JSON.stringify(f.FileName)},"MimeType":${JSON.stringify(f.MimeType)},"FileContent":"${content}"}`;
	return { status: 200, raw, headers: { 'content-type': 'application/json; charset=utf-8' } };
}

/**
 * Test controls (`emu.files`).
 * @param {Internal} s
 */
function controls(s) {
	const fs = () => filesOf(s.store);
	/** @param {number | string} orderId */
	const order = (orderId) => {
		const hit = s.store.findOrder(orderId);
		if (!hit) throw new TypeError(`files: order ${orderId} does not exist`);
		return hit;
	};
	return {
		/**
		 * Store bytes as an order's own PDF (role 'pdf', replaces the current one) or an extra attachment.
		 * @param {number | string} orderId @param {{ FileName: string, content: Buffer, MimeType?: string }} file @param {'pdf'|'attachment'} [role]
		 */
		put(orderId, file, role = 'attachment') {
			const hit = order(orderId);
			return fs().put(hit.partyId, Number(orderId), file, role);
		},
		/**
		 * Give an order a PDF of exactly `bytes` bytes (its real pages plus an unreferenced filler stream),
		 * as its own PDF: the benchmark's large download.
		 * @param {number | string} orderId @param {number} bytes
		 */
		largePdf(orderId, bytes) {
			const hit = order(orderId);
			const content = renderPdf(hit.order, { size: bytes });
			return { ...fs().put(hit.partyId, Number(orderId), { FileName: `${hit.order.OrderNumber}.pdf`, content }, 'pdf'), size: content.length };
		},
		/** The file refs a full read of the order names (registers generated files). @param {number | string} orderId */
		refs(orderId) {
			const hit = order(orderId);
			return fs().refs(hit.partyId, hit.order);
		},
		/** The order keeps naming the file, but reading it answers 404 (removed at the service). @param {string} fileId */
		drop(fileId) {
			const id = String(fileId).toLowerCase();
			if (!fs().files.delete(id)) throw new TypeError(`files.drop: no file ${fileId}`);
			fs().dropped.add(id);
		},
		/** Reading the file answers a FileContent that is not base64. @param {string} fileId */
		corrupt(fileId) {
			fs().corrupt.add(String(fileId).toLowerCase());
		},
		/** A file with its bytes, as `GET /v1/files/{FileID}` would serve it. @param {string} fileId */
		get(fileId) {
			const f = fs().read(fileId);
			return f ? { FileID: f.FileID, FileName: f.FileName, MimeType: f.MimeType, content: f.content } : undefined;
		},
	};
}

/** @type {Array<[string, RegExp, (ctx: Ctx) => any, boolean]>} */
const ROUTES = [['GET', /^\/v1\/files\/(?<id>[^/]+)\/?$/i, getFile, true]];

module.exports = { ROUTES, getFile, intake, storeIntake, fullOrder, controls, decodeBase64 };
