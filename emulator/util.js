'use strict';

/**
 * Small shared helpers: seeded PRNG, controllable clock, API errors, formatting.
 * @module emulator/util
 */

/**
 * Deterministic PRNG (mulberry32). Returns floats in [0, 1).
 * @param {number} seed
 * @returns {() => number}
 */
function createPrng(seed) {
	let a = Number(seed) >>> 0 || 0x9e3779b9;
	return function next() {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * @typedef {object} Clock
 * @property {() => Date} now current emulator time
 * @property {(ms: number) => void} advance move the clock forward (or back with a negative value)
 * @property {(date: Date | string | number) => void} set jump to a given instant (time keeps running from there)
 */

/**
 * A clock that follows real time plus an adjustable offset.
 * @param {Date | string | number} [start] initial instant (default: real now)
 * @returns {Clock}
 */
function createClock(start) {
	let offset = 0;
	/** @type {Clock} */
	const clock = {
		now: () => new Date(Date.now() + offset),
		advance(ms) {
			offset += Number(ms) || 0;
		},
		set(date) {
			const t = new Date(date).getTime();
			if (Number.isNaN(t)) throw new TypeError(`clock.set: invalid date ${String(date)}`);
			offset = t - Date.now();
		},
	};
	if (start !== undefined && start !== null) clock.set(start);
	return clock;
}

/** An error that the dispatcher turns into an HTTP error response. */
class ApiError extends Error {
	/**
	 * @param {number} status HTTP status
	 * @param {string} code error Code (e.g. GenericError)
	 * @param {string} description human-readable Description
	 * @param {Array<{Code: string, Description: string}>} [errors] several entries (overrides code/description)
	 */
	constructor(status, code, description, errors) {
		super(description);
		this.status = status;
		this.code = code;
		this.errors = errors || [{ Code: code, Description: description }];
	}
}

/**
 * @param {string} description
 * @returns {ApiError} a 400 GenericError
 */
const badRequest = (description) => new ApiError(400, 'GenericError', description);

/**
 * Milliseconds Brussels is ahead of UTC at an instant: summer time (+2 h) from the last Sunday of
 * March to the last Sunday of October, 01:00 UTC (the EU rule), else +1 h.
 * @param {number} t epoch ms
 */
function brusselsOffsetMs(t) {
	const year = new Date(t).getUTCFullYear();
	const lastSunday = (/** @type {number} */ month) => {
		const last = Date.UTC(year, month + 1, 0, 1);
		return last - new Date(last).getUTCDay() * 86400000;
	};
	return t >= lastSunday(2) && t < lastSunday(9) ? 7200000 : 3600000;
}

/**
 * A timestamp as the service writes it: Belgian local time without a zone, milliseconds with
 * trailing zeros dropped (as .NET writes a DateTime), e.g. 2026-05-04T09:55:34.063 or
 * 2026-05-04T09:55:34 (the service's pages "Webhooks" and "Get status info of a sales invoice").
 * @param {Date | number | string} d
 */
function serviceTime(d) {
	const t = new Date(d).getTime();
	const iso = new Date(t + brusselsOffsetMs(t)).toISOString();
	const ms = iso.slice(20, 23).replace(/0+$/, '');
	return `${iso.slice(0, 19)}${ms ? `.${ms}` : ''}`;
}

/**
 * ISO timestamp in UTC without milliseconds, e.g. 2024-05-01T10:00:00Z (the emulator's own records;
 * what the service writes on orders and messages is `serviceTime`).
 * @param {Date | number} d
 */
const isoSeconds = (d) => new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** @param {Date | number} d @returns {string} YYYY-MM-DD (UTC) */
const isoDate = (d) => new Date(d).toISOString().slice(0, 10);

/** @param {number} n */
const round2 = (n) => Math.round((n + Number.EPSILON) * 100) / 100;

/** @param {unknown} s */
const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] || c);

/**
 * Minimal unbranded HTML page.
 * @param {string} title
 * @param {string} bodyHtml already-escaped HTML
 */
const page = (title, bodyHtml) =>
	`<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
	`<body style="font-family:sans-serif;max-width:40em;margin:3em auto"><h1>${escapeHtml(title)}</h1>${bodyHtml}</body></html>`;

/** @template T @param {T} v @returns {T} */
const clone = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

module.exports = { createPrng, createClock, ApiError, badRequest, isoSeconds, serviceTime, isoDate, round2, escapeHtml, page, clone };
