'use strict';

/**
 * The documents behind an order's files, rendered from the order alone (pure functions, no state):
 * a one-or-more-page PDF 1.4 (Helvetica, WinAnsiEncoding, hand-written xref), a UBL 2.1 Invoice or
 * CreditNote in the Peppol BIS Billing 3.0 shape, and the Peppol response messages (MLR, IMR).
 * Output depends only on fields that cannot change after creation (number, dates, parties, lines,
 * totals), so a file read twice is byte-identical without being cached.
 * @module emulator/documents
 */

const { round2 } = require('./util');

/** @typedef {Record<string, any>} Order */

const BIS_CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const BIS_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const NS = {
	Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
	CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
	ApplicationResponse: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
	cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
	cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
const TITLES = { Invoice: 'INVOICE', CreditNote: 'CREDIT NOTE', Offer: 'OFFER', DeliveryNote: 'DELIVERY NOTE', OrderForm: 'ORDER FORM' };

/** Peppol participant scheme (ICD) of a VAT number, by its country prefix. */
const VAT_SCHEMES = { BE: '9925', NL: '9944', DE: '9930', SE: '9955', FR: '9957', IT: '9906', AT: '9914', LU: '9938', IE: '9935', ES: '9920', GB: '9932' };

/** Amount with two decimals, no thousands separator (what tests and accounting imports match on). @param {unknown} n */
const money = (n) => round2(Number(n) || 0).toFixed(2);

// ---------------------------------------------------------------- XML

/** @param {unknown} s */
const xmlEscape = (s) =>
	String(s === null || s === undefined ? '' : s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] || c);

/**
 * Tiny XML writer: el('cbc:ID', {schemeID: '0208'}, 'text') or el('cac:Party', {}, [children]).
 * Null/undefined children are dropped, so optional elements are written as `cond && el(...)`.
 * @param {string} name @param {Record<string, unknown>} attrs @param {unknown} [content]
 * @returns {string}
 */
function el(name, attrs, content) {
	const a = Object.entries(attrs)
		.filter(([, v]) => v !== undefined && v !== null)
		.map(([k, v]) => ` ${k}="${xmlEscape(v)}"`)
		.join('');
	if (Array.isArray(content)) {
		const inner = content.filter((c) => c !== null && c !== undefined && c !== false && c !== '').join('');
		return `<${name}${a}>${inner}</${name}>`;
	}
	return `<${name}${a}>${xmlEscape(content)}</${name}>`;
}

/**
 * Peppol endpoint of a party from its VAT number: Belgian numbers as 0208 (enterprise number), others by
 * their VAT scheme. Null when the party has no usable VAT number (such an order cannot go over Peppol).
 * @param {Record<string, any>} party @returns {{ scheme: string, id: string } | null}
 */
function endpointOf(party) {
	const vat = party && typeof party.VATNumber === 'string' ? party.VATNumber.replace(/[\s.]/g, '').toUpperCase() : '';
	const m = /^([A-Z]{2})(.+)$/.exec(vat);
	if (!m) return null;
	if (m[1] === 'BE' && /^\d{10}$/.test(m[2])) return { scheme: '0208', id: m[2] };
	const scheme = VAT_SCHEMES[/** @type {keyof typeof VAT_SCHEMES} */ (m[1])];
	return scheme ? { scheme, id: vat } : null;
}

/** @param {Record<string, any>} party */
function countryOf(party) {
	const vat = party && typeof party.VATNumber === 'string' ? party.VATNumber.trim().toUpperCase() : '';
	if (/^[A-Z]{2}/.test(vat)) return vat.slice(0, 2) === 'EL' ? 'GR' : vat.slice(0, 2);
	return (party && party.CountryCode) || 'BE';
}

/** @param {Record<string, any>} party */
function ublParty(party) {
	const ep = endpointOf(party);
	const name = party.Name || party.DisplayName || '';
	return el('cac:Party', {}, [
		ep && el('cbc:EndpointID', { schemeID: ep.scheme }, ep.id),
		el('cac:PartyName', {}, [el('cbc:Name', {}, name)]),
		el('cac:PostalAddress', {}, [el('cac:Country', {}, [el('cbc:IdentificationCode', {}, countryOf(party))])]),
		party.VATNumber && el('cac:PartyTaxScheme', {}, [el('cbc:CompanyID', {}, party.VATNumber), el('cac:TaxScheme', {}, [el('cbc:ID', {}, 'VAT')])]),
		el('cac:PartyLegalEntity', {}, [el('cbc:RegistrationName', {}, name)]),
		party.Email && el('cac:Contact', {}, [el('cbc:ElectronicMail', {}, party.Email)]),
	]);
}

/** UNCL5305 tax category of a rate: S standard, Z zero rated. @param {number} pct */
const taxCategory = (pct) => (Number(pct) > 0 ? 'S' : 'Z');

/**
 * VAT breakdown per rate. Each subtotal sums the order's own line amounts, so the breakdown adds up
 * to the order's TotalExcl/TotalVAT to the cent (the order rounds VAT per line).
 * @param {Order} order @returns {{ pct: number, taxable: number, tax: number }[]}
 */
function vatBreakdown(order) {
	/** @type {Map<number, { pct: number, taxable: number, tax: number }>} */
	const by = new Map();
	for (const l of order.OrderLines || []) {
		const pct = Number(l.VATPercentage) || 0;
		const g = by.get(pct) || { pct, taxable: 0, tax: 0 };
		g.taxable = round2(g.taxable + Number(l.AmountExcl || 0));
		g.tax = round2(g.tax + Number(l.AmountVAT || 0));
		by.set(pct, g);
	}
	return [...by.values()].sort((a, b) => b.pct - a.pct);
}

/**
 * UBL 2.1 Invoice (OrderType Invoice) or CreditNote (CreditNote) in the Peppol BIS Billing 3.0 shape.
 * @param {Order} order
 * @param {{ aboutInvoiceDate?: string | null }} [extra] issue date of the credited invoice when known
 * @returns {string} UTF-8 XML text
 */
function renderUbl(order, extra = {}) {
	const credit = order.OrderType === 'CreditNote';
	const root = credit ? 'CreditNote' : 'Invoice';
	const cur = order.Currency || 'EUR';
	const amt = (/** @type {string} */ name, /** @type {unknown} */ v) => el(name, { currencyID: cur }, money(v));
	const taxScheme = el('cac:TaxScheme', {}, [el('cbc:ID', {}, 'VAT')]);
	const lines = (order.OrderLines || []).map((/** @type {any} */ l, /** @type {number} */ i) =>
		el(credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine', {}, [
			el('cbc:ID', {}, l.OrderLineID || i + 1),
			el(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', { unitCode: 'C62' }, String(Number(l.Quantity))),
			amt('cbc:LineExtensionAmount', l.AmountExcl),
			el('cac:Item', {}, [
				el('cbc:Name', {}, l.Description || `Line ${i + 1}`),
				el('cac:ClassifiedTaxCategory', {}, [
					el('cbc:ID', {}, taxCategory(l.VATPercentage)),
					el('cbc:Percent', {}, String(Number(l.VATPercentage) || 0)),
					taxScheme,
				]),
			]),
			el('cac:Price', {}, [el('cbc:PriceAmount', { currencyID: cur }, String(Number(l.UnitPriceExcl)))]),
		]),
	);
	const subtotals = vatBreakdown(order).map((g) =>
		el('cac:TaxSubtotal', {}, [
			amt('cbc:TaxableAmount', g.taxable),
			amt('cbc:TaxAmount', g.tax),
			el('cac:TaxCategory', {}, [
				el('cbc:ID', {}, taxCategory(g.pct)),
				el('cbc:Percent', {}, String(g.pct)),
				g.pct > 0 ? null : el('cbc:TaxExemptionReason', {}, 'Zero rated'),
				taxScheme,
			]),
		]),
	);
	const body = [
		el('cbc:CustomizationID', {}, BIS_CUSTOMIZATION),
		el('cbc:ProfileID', {}, BIS_PROFILE),
		el('cbc:ID', {}, order.OrderNumber),
		el('cbc:IssueDate', {}, order.OrderDate),
		!credit && order.ExpiryDate && el('cbc:DueDate', {}, order.ExpiryDate),
		el(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', {}, credit ? '381' : '380'),
		el('cbc:DocumentCurrencyCode', {}, cur),
		el('cbc:BuyerReference', {}, order.Reference || order.OrderNumber),
		credit &&
			order.AboutInvoiceNumber &&
			el('cac:BillingReference', {}, [
				el('cac:InvoiceDocumentReference', {}, [
					el('cbc:ID', {}, order.AboutInvoiceNumber),
					extra.aboutInvoiceDate && el('cbc:IssueDate', {}, extra.aboutInvoiceDate),
				]),
			]),
		el('cac:AccountingSupplierParty', {}, [ublParty(order.Supplier || {})]),
		el('cac:AccountingCustomerParty', {}, [ublParty(order.Customer || {})]),
		el('cac:PaymentMeans', {}, [
			el('cbc:PaymentMeansCode', {}, '30'),
			credit && order.ExpiryDate && el('cbc:PaymentDueDate', {}, order.ExpiryDate),
			order.PaymentReference && el('cbc:PaymentID', {}, order.PaymentReference),
		]),
		el('cac:TaxTotal', {}, [amt('cbc:TaxAmount', order.TotalVAT), ...subtotals]),
		el('cac:LegalMonetaryTotal', {}, [
			amt('cbc:LineExtensionAmount', order.TotalExcl),
			amt('cbc:TaxExclusiveAmount', order.TotalExcl),
			amt('cbc:TaxInclusiveAmount', order.TotalIncl),
			amt('cbc:PayableAmount', order.TotalIncl),
		]),
		...lines,
	];
	return `<?xml version="1.0" encoding="UTF-8"?>\n${el(root, { xmlns: NS[root], 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc }, body)}\n`;
}

/**
 * A Peppol response to a sent order: MLR (message level response, ResponseCode AP accepted / RE rejected)
 * or IMR (invoice response, e.g. RE refused with a status reason code).
 * @param {{ kind: 'MLR'|'IMR', order: Order, code: string, at: string, id: string | number, reason?: string | null, reasonCode?: string | null }} r
 * @returns {string}
 */
function renderResponse(r) {
	const o = r.order;
	const credit = o.OrderType === 'CreditNote';
	const buyer = o.Customer || {};
	const seller = o.Supplier || {};
	const endpoint = (/** @type {any} */ p) => {
		const ep = endpointOf(p);
		return ep ? el('cbc:EndpointID', { schemeID: ep.scheme }, ep.id) : el('cbc:EndpointID', { schemeID: '0088' }, '0000000000000');
	};
	const mlr = r.kind === 'MLR';
	const response = mlr
		? el('cac:Response', {}, [el('cbc:ResponseCode', {}, r.code), r.reason && el('cbc:Description', {}, r.reason)])
		: el('cac:Response', {}, [
				el('cbc:ResponseCode', { listID: 'UNCL4343OpSubset' }, r.code),
				el('cbc:EffectiveDate', {}, r.at.slice(0, 10)),
				(r.reason || r.reasonCode) &&
					el('cac:Status', {}, [
						r.reasonCode && el('cbc:StatusReasonCode', { listID: 'OPStatusReason' }, r.reasonCode),
						r.reason && el('cbc:StatusReason', {}, r.reason),
					]),
			]);
	const body = [
		el('cbc:CustomizationID', {}, mlr ? 'urn:fdc:peppol.eu:poacc:trns:mlr:3' : 'urn:fdc:peppol.eu:poacc:trns:invoice_response:3'),
		el('cbc:ProfileID', {}, mlr ? 'urn:fdc:peppol.eu:poacc:bis:mlr:3' : 'urn:fdc:peppol.eu:poacc:bis:invoice_response:3'),
		el('cbc:ID', {}, `${r.kind}-${r.id}`),
		el('cbc:IssueDate', {}, r.at.slice(0, 10)),
		el('cbc:IssueTime', {}, r.at.slice(11, 19)),
		el('cac:SenderParty', {}, [endpoint(buyer), !mlr && el('cac:PartyLegalEntity', {}, [el('cbc:RegistrationName', {}, buyer.Name || '')])]),
		el('cac:ReceiverParty', {}, [endpoint(seller), !mlr && el('cac:PartyLegalEntity', {}, [el('cbc:RegistrationName', {}, seller.Name || '')])]),
		el('cac:DocumentResponse', {}, [
			response,
			el('cac:DocumentReference', {}, [
				el('cbc:ID', {}, o.OrderNumber),
				!mlr && el('cbc:IssueDate', {}, o.OrderDate),
				!mlr && el('cbc:DocumentTypeCode', {}, credit ? '381' : '380'),
			]),
		]),
	];
	return `<?xml version="1.0" encoding="UTF-8"?>\n${el('ApplicationResponse', { xmlns: NS.ApplicationResponse, 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc }, body)}\n`;
}

// ---------------------------------------------------------------- PDF

/** Unicode -> Windows-1252 for the code points 0x80-0x9F where the two differ. */
const CP1252 = new Map(
	[...'€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ']
		.map((c, i) => [c.codePointAt(0), 0x80 + i])
		.filter(([cp]) => !(/** @type {number} */ (cp >= 0x80 && /** @type {number} */ (cp) <= 0x9f))),
);

/** @param {string} s @returns {number[]} WinAnsi bytes ('?' for what WinAnsi cannot show) */
function winAnsi(s) {
	const out = [];
	for (const ch of s) {
		const cp = /** @type {number} */ (ch.codePointAt(0));
		if (cp >= 0x20 && cp < 0x7f) out.push(cp);
		else if (cp >= 0xa0 && cp <= 0xff) out.push(cp);
		else if (CP1252.has(cp)) out.push(/** @type {number} */ (CP1252.get(cp)));
		else out.push(0x3f);
	}
	return out;
}

/** A PDF literal string (bytes as latin1 text) with \ ( ) escaped. @param {string} s */
function pdfString(s) {
	let out = '(';
	for (const b of winAnsi(s)) {
		if (b === 0x5c || b === 0x28 || b === 0x29) out += '\\';
		out += String.fromCharCode(b);
	}
	return `${out})`;
}

/** Helvetica advance widths (1/1000 em) for right-aligning numbers; other glyphs count as 556. */
const HELV = { ' ': 278, '.': 278, ',': 278, '-': 333, '%': 889, '+': 584, '/': 278 };
/** @param {string} s @param {number} size */
const textWidth = (s, size) => ([...s].reduce((w, c) => w + (HELV[/** @type {' '} */ (c)] || 556), 0) * size) / 1000;

/** @param {string} s @param {number} max */
const clip = (s, max) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** @param {string | undefined} iso @returns {string} PDF date D:YYYYMMDDHHmmSSZ */
const pdfDate = (iso) => {
	const d = iso && !Number.isNaN(Date.parse(iso)) ? new Date(iso) : new Date(0);
	return `D:${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
};

const LINES_FIRST_PAGE = 22;
const LINES_PER_PAGE = 40;

/**
 * The page content streams of an order (text operators only).
 * @param {Order} order @returns {string[]} one content stream per page, latin1 text
 */
function pageContents(order) {
	const cur = order.Currency || 'EUR';
	const lines = order.OrderLines || [];
	const pages = [];
	let from = 0;
	do {
		const take = pages.length === 0 ? LINES_FIRST_PAGE : LINES_PER_PAGE;
		pages.push(lines.slice(from, from + take));
		from += take;
	} while (from < lines.length);
	const sup = order.Supplier || {};
	const cus = order.Customer || {};
	return pages.map((pageLines, p) => {
		/** @type {string[]} */
		const ops = ['BT'];
		const text = (/** @type {string} */ font, /** @type {number} */ size, /** @type {number} */ x, /** @type {number} */ y, /** @type {string} */ s) =>
			ops.push(`/${font} ${size} Tf 1 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)} Tm ${pdfString(s)} Tj`);
		const right = (/** @type {string} */ font, /** @type {number} */ size, /** @type {number} */ xr, /** @type {number} */ y, /** @type {string} */ s) =>
			text(font, size, xr - textWidth(s, size), y, s);
		let y = 790;
		text('F2', 18, 50, y, `${TITLES[/** @type {'Invoice'} */ (order.OrderType)] || 'ORDER'} ${order.OrderNumber}`);
		if (p === 0) {
			y -= 28;
			const facts = [
				['Date', order.OrderDate],
				[order.OrderType === 'Offer' ? 'Valid until' : 'Due date', order.ExpiryDate],
				['Payment reference', order.PaymentReference],
				['Your reference', order.Reference],
				['Credit note for invoice', order.OrderType === 'CreditNote' ? order.AboutInvoiceNumber : null],
			].filter(([, v]) => v);
			for (const [k, v] of facts) {
				text('F1', 10, 50, y, `${k}:`);
				text('F1', 10, 170, y, String(v));
				y -= 14;
			}
			y -= 10;
			text('F2', 10, 50, y, 'From');
			text('F2', 10, 310, y, 'To');
			const block = (/** @type {any} */ party) =>
				[party.Name || party.DisplayName || '', party.VATNumber ? `VAT ${party.VATNumber}` : '', party.Email || ''].filter(Boolean);
			const left = block(sup);
			const rightBlock = block(cus);
			for (let i = 0; i < Math.max(left.length, rightBlock.length); i++) {
				y -= 14;
				if (left[i]) text('F1', 10, 50, y, clip(left[i], 45));
				if (rightBlock[i]) text('F1', 10, 310, y, clip(rightBlock[i], 45));
			}
			y -= 30;
		} else y -= 30;
		text('F2', 9, 50, y, 'Description');
		right('F2', 9, 350, y, 'Qty');
		right('F2', 9, 425, y, 'Unit price');
		right('F2', 9, 470, y, 'VAT %');
		right('F2', 9, 545, y, `Amount (${cur})`);
		y -= 16;
		for (const l of pageLines) {
			text('F1', 9, 50, y, clip(String(l.Description || ''), 52));
			right('F1', 9, 350, y, String(Number(l.Quantity)));
			right('F1', 9, 425, y, money(l.UnitPriceExcl));
			right('F1', 9, 470, y, String(Number(l.VATPercentage) || 0));
			right('F1', 9, 545, y, money(l.AmountExcl));
			y -= 13;
		}
		if (p === pages.length - 1) {
			y -= 14;
			for (const [k, v, font] of [
				['Total excl. VAT', order.TotalExcl, 'F1'],
				['VAT', order.TotalVAT, 'F1'],
				['Total incl. VAT', order.TotalIncl, 'F2'],
			]) {
				text(String(font), 10, 330, y, String(k));
				right(String(font), 10, 545, y, `${cur} ${money(v)}`);
				y -= 15;
			}
			for (const g of vatBreakdown(order)) {
				text('F1', 8, 330, y, `VAT ${g.pct}% on ${money(g.taxable)}: ${money(g.tax)}`);
				y -= 11;
			}
		}
		text('F1', 7, 50, 30, `Page ${p + 1} of ${pages.length} - rendered by the access-point API emulator`);
		ops.push('ET');
		return `${ops.join('\n')}\n`;
	});
}

/**
 * Assemble a PDF 1.4 file from page content streams: catalog, pages, fonts, info, an optional unreferenced
 * filler stream (for size tests) and a classic xref table with exact byte offsets.
 * @param {string[]} contents latin1 text per page
 * @param {{ title: string, created?: string, filler?: number }} meta
 * @returns {Buffer}
 */
function assemblePdf(contents, meta) {
	const n = contents.length;
	// object numbers: 1 catalog, 2 pages, 3 Helvetica, 4 Helvetica-Bold, 5 info, then page/content pairs, then filler
	const pageObj = (/** @type {number} */ i) => 6 + 2 * i;
	/** @type {(string | Buffer)[][]} */
	const objects = [];
	objects[1] = ['<< /Type /Catalog /Pages 2 0 R >>'];
	objects[2] = [`<< /Type /Pages /Kids [${contents.map((_, i) => `${pageObj(i)} 0 R`).join(' ')}] /Count ${n} >>`];
	objects[3] = ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'];
	objects[4] = ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>'];
	objects[5] = [`<< /Title ${pdfString(meta.title)} /Producer (access-point API emulator) /CreationDate (${pdfDate(meta.created)}) >>`];
	contents.forEach((c, i) => {
		const stream = Buffer.from(c, 'latin1');
		objects[pageObj(i)] = [
			`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageObj(i) + 1} 0 R >>`,
		];
		objects[pageObj(i) + 1] = [`<< /Length ${stream.length} >>\nstream\n`, stream, '\nendstream'];
	});
	if (meta.filler && meta.filler > 0) objects.push([`<< /Length ${meta.filler} >>\nstream\n`, fillerBytes(meta.filler), '\nendstream']);
	/** @type {Buffer[]} */
	const parts = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
	let offset = parts[0].length;
	const offsets = [];
	for (let i = 1; i < objects.length; i++) {
		offsets[i] = offset;
		for (const piece of [`${i} 0 obj\n`, ...objects[i], '\nendobj\n']) {
			const b = typeof piece === 'string' ? Buffer.from(piece, 'latin1') : piece;
			parts.push(b);
			offset += b.length;
		}
	}
	// each xref entry is exactly 20 bytes: 10-digit offset, space, 5-digit generation, space, n/f, space, LF
	let xref = `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
	for (let i = 1; i < objects.length; i++) xref += `${String(offsets[i]).padStart(10, '0')} 00000 n \n`;
	xref += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
	parts.push(Buffer.from(xref, 'latin1'));
	return Buffer.concat(parts);
}

/** Deterministic, incompressible-looking filler (a 64 KiB xorshift block, repeated). @param {number} size */
function fillerBytes(size) {
	const block = Buffer.alloc(Math.min(size, 65536));
	let x = 0x2545f491;
	for (let i = 0; i < block.length; i++) {
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		block[i] = x & 0xff;
	}
	if (size <= block.length) return block;
	const out = Buffer.allocUnsafe(size);
	for (let o = 0; o < size; o += block.length) block.copy(out, o, 0, Math.min(block.length, size - o));
	return out;
}

/**
 * The order as a PDF a viewer opens: number, dates, parties, lines and totals.
 * @param {Order} order
 * @param {{ size?: number }} [opts] pad to exactly `size` bytes with an unreferenced stream (large-file tests)
 * @returns {Buffer}
 */
function renderPdf(order, opts = {}) {
	const contents = pageContents(order);
	const meta = { title: `${TITLES[/** @type {'Invoice'} */ (order.OrderType)] || 'ORDER'} ${order.OrderNumber}`, created: order.Created };
	const plain = assemblePdf(contents, meta);
	const target = Number(opts.size) || 0;
	if (target <= plain.length) return plain;
	// the filler object's wrapper (its /Length digits, one more xref entry) shifts the size: converge in a few steps
	let filler = target - plain.length;
	let out = plain;
	for (let i = 0; i < 6; i++) {
		out = assemblePdf(contents, { ...meta, filler });
		if (out.length === target) break;
		filler = Math.max(1, filler - (out.length - target));
	}
	return out;
}

// ---------------------------------------------------------------- original JSON

/**
 * The "original JSON" the service keeps with an order created through the API (page "Retrieve
 * invoice information": Attachments always contain it), for orders the emulator did not receive a
 * request for (seeded, or added by a test): the create request that would have made it, from fields
 * that never change. An order created through `POST /v1/orders` keeps the request it came with instead.
 * @param {Order} order @returns {string}
 */
function renderOriginalJson(order) {
	const party = (/** @type {any} */ p) => (p ? { Name: p.Name || p.DisplayName || '', VATNumber: p.VATNumber || null, PartyType: p.PartyType || null } : null);
	const body = {
		OrderType: order.OrderType,
		OrderDirection: order.OrderDirection,
		OrderNumber: order.OrderNumber,
		OrderDate: order.OrderDate,
		ExpiryDate: order.ExpiryDate,
		Currency: order.Currency,
		Customer: party(order.Customer),
		Supplier: order.OrderDirection === 'Cost' ? party(order.Supplier) : undefined,
		OrderLines: (order.OrderLines || []).map((/** @type {any} */ l) => ({
			Quantity: l.Quantity,
			Description: l.Description,
			UnitPriceExcl: l.UnitPriceExcl,
			VATPercentage: l.VATPercentage,
		})),
	};
	return JSON.stringify(body);
}

// ---------------------------------------------------------------- hostile documents

/**
 * A UBL Invoice of about `bytes` characters (ASCII) in one of the shapes a hostile sender can give, for the reader's tests
 * and bench: 'plain' (invoice lines), 'xmlns' (10,000 unused namespace declarations on the root, then lines), 'deep'
 * (lines inside 250-deep nesting), 'attrs' (elements with 5,000 attributes each), 'text' (notes of huge text with
 * references), 'flat' (elements with an attribute right under the root, none the reader reads), 'attachment' (one base64
 * attachment, the usual large invoice). `envelope` wraps it in an SBDH. The invoice's own fields (ID, date, supplier,
 * amount) are the same in all. `blocks`: at most that many blocks of the shape, the rest of the size a base64 attachment
 * (the largest document of a shape within the reader's limits); `perElement`: the attributes ('attrs') or namespace
 * declarations on each line ('xmlns') instead of 5,000 / 10,000 on the root.
 * @param {'plain'|'xmlns'|'deep'|'attrs'|'text'|'flat'|'attachment'} shape @param {number} bytes
 * @param {{ envelope?: boolean, number?: string, blocks?: number, perElement?: number }} [o]
 * @returns {string}
 */
function hostileUbl(shape, bytes, o = {}) {
	const decls = shape === 'xmlns' && !o.perElement ? Array.from({ length: 10_000 }, (_, i) => ` xmlns:n${i}="urn:example:unused:${i}"`).join('') : '';
	const head =
		`<Invoice xmlns="${NS.Invoice}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}" xmlns:p="urn:example:p"${decls}>` +
		`<cbc:CustomizationID>${BIS_CUSTOMIZATION}</cbc:CustomizationID><cbc:ID>${xmlEscape(o.number || 'HOSTILE-1')}</cbc:ID>` +
		'<cbc:IssueDate>2024-05-01</cbc:IssueDate><cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>' +
		'<cac:AccountingSupplierParty><cac:Party><cbc:EndpointID schemeID="0208">0123456749</cbc:EndpointID>' +
		'<cac:PartyLegalEntity><cbc:RegistrationName>Hostile Supplier BV</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>' +
		'<cac:LegalMonetaryTotal><cbc:PayableAmount currencyID="EUR">121.00</cbc:PayableAmount></cac:LegalMonetaryTotal>';
	const line = (/** @type {number} */ n) =>
		`<cac:InvoiceLine><cbc:ID>${n}</cbc:ID><cbc:InvoicedQuantity unitCode="C62">1</cbc:InvoicedQuantity>` +
		`<cbc:LineExtensionAmount currencyID="EUR">10.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Line ${n}</cbc:Name></cac:Item></cac:InvoiceLine>\n`;
	const attrs = Array.from({ length: shape === 'attrs' ? o.perElement || 5_000 : 0 }, (_, i) => ` ${i % 2 ? 'p:' : ''}a${i}="v"`).join('');
	const lineDecls = Array.from({ length: shape === 'xmlns' ? o.perElement || 0 : 0 }, (_, i) => ` xmlns:n${i}="urn:example:unused:${i}"`).join('');
	const block = {
		plain: line,
		xmlns: (/** @type {number} */ n) => line(n).replace('<cac:InvoiceLine>', `<cac:InvoiceLine${lineDecls}>`),
		flat: (/** @type {number} */ n) => `<cbc:AccountingCost n="${n}">c</cbc:AccountingCost>\n`,
		attachment: line,
		deep: (/** @type {number} */ n) => `${'<cac:AdditionalDocumentReference>'.repeat(248)}${line(n)}${'</cac:AdditionalDocumentReference>'.repeat(248)}\n`,
		attrs: () => `<cbc:Note${attrs}>x</cbc:Note>\n`,
		text: () => `<cbc:Note>${'Tom &amp; Jerry &#x41; '.repeat(1000)}</cbc:Note>\n`,
	}[shape];
	if (!block) throw new TypeError(`hostileUbl: unknown shape ${JSON.stringify(shape)}`);
	const tail = '</Invoice>\n';
	const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n', head];
	let size = parts[0].length + head.length + tail.length;
	const blocks = shape === 'attachment' ? 0 : (o.blocks ?? Infinity);
	for (let n = 1; size < bytes && n <= blocks; n++) {
		const next = block(n);
		parts.push(next);
		size += next.length;
	}
	const [open, close] = [
		'<cac:AdditionalDocumentReference><cbc:ID>ATTACHMENT-1</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="a.pdf">',
		'</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>\n',
	];
	const room = bytes - size - open.length - close.length;
	if (room > 0) parts.push(open, 'JVBERi0xLjQK'.repeat(Math.ceil(room / 12)).slice(0, room - (room % 4)), close);
	parts.push(tail);
	const xml = parts.join('');
	if (!o.envelope) return xml;
	const sbdh = 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader';
	return (
		`<?xml version="1.0" encoding="UTF-8"?>\n<StandardBusinessDocument xmlns="${sbdh}"><StandardBusinessDocumentHeader><HeaderVersion>1.0</HeaderVersion>` +
		`</StandardBusinessDocumentHeader>${xml.slice(xml.indexOf('<Invoice'))}</StandardBusinessDocument>\n`
	);
}

module.exports = { renderPdf, renderUbl, renderResponse, renderOriginalJson, endpointOf, vatBreakdown, xmlEscape, hostileUbl, BIS_CUSTOMIZATION, BIS_PROFILE };
