'use strict';

/**
 * Webhooks: the registry (create, list, delete, refresh secret; at most `webhookLimit` per party) and
 * the delivery of signed events to them, with bounded retries and exponential back-off.
 *
 * Signature, as the service documents it: header `Billit-Signature: t=<unix seconds>,s=<hex>` where
 * s = HMAC-SHA256(secret, "<t>.<raw JSON body>"). Each attempt is signed afresh (new t); the body of a
 * delivery never changes between attempts.
 *
 * Bodies are the wrapper the service's page "Use webhooks to catch E-Invoice statuses" publishes (see
 * README.md, "Webhooks", for which parts are published, reported by integrators or assumed): `notices()`
 * turns one change of the store into what the service sends for it, e.g. a sent Peppol invoice's message
 * into Message I then Message U (flow state Sent), a customer's response into a new Message I. A delete
 * sends nothing. Creating a webhook sends it a confirmation carrying its secret (`webhookConfirmation`).
 *
 * Only loopback hosts are ever contacted (house rule: no traffic beyond 127.0.0.1). An https URL on
 * another host is accepted at creation, as the service would, but its deliveries are recorded as
 * `skipped` and nothing is sent.
 *
 * Deliveries to one webhook go out one at a time, in event order (first attempts only: a delivery that
 * is waiting for a retry does not hold back later events, so a failing receiver sees them overtake it).
 * @module emulator/webhooks
 */

const http = require('node:http');
const https = require('node:https');
const crypto = require('node:crypto');
const { clone, isoSeconds } = require('./util');

/** Defaults of the webhook switches in `emu.config`. */
const WEBHOOK_DEFAULTS = Object.freeze({
	/** webhooks per party (the service's reported limit) */
	webhookLimit: 4,
	/** attempts per delivery, first one included */
	webhookMaxAttempts: 5,
	/** back-off before retry n (1-based): base * 2^(n-1), capped by webhookRetryMaxMs */
	webhookRetryBaseMs: 1000,
	webhookRetryMaxMs: 60000,
	/** an attempt with no answer headers after this long fails (and is retried) */
	webhookTimeoutMs: 10000,
	/** the 'stale-timestamp' fault signs with a t this many seconds in the past */
	webhookStaleSeconds: 3600,
	/** the 'out-of-order' fault holds a delivery until the next one to the same webhook went out, or this long */
	webhookHoldMs: 2000,
	/** deliveries kept in the log (oldest finished ones dropped first) */
	webhookLogLimit: 1000,
	/** 'published': the page's current wrapper (EntityDetail.OrderMessage); 'older': its older form (message fields in EntityDetail) */
	webhookPayloadForm: 'published',
	/** send a new webhook the confirmation (with its secret) the service's page describes */
	webhookConfirmation: true,
});

/** Fault kinds of webhook delivery (`emu.webhooks.failNext`). */
const WEBHOOK_FAULTS = Object.freeze(['wrong-signature', 'stale-timestamp', 'duplicate', 'out-of-order']);

const ENTITY_TYPES = ['Order', 'Message'];
const UPDATE_TYPES = ['I', 'U', 'D'];
const FINAL = ['delivered', 'failed', 'canceled', 'skipped'];

/**
 * @typedef {object} Webhook
 * @property {number} WebhookID
 * @property {number} PartyID
 * @property {'Order'|'Message'} EntityType
 * @property {'I'|'U'|'D'|null} EntityUpdateType null: every update type
 * @property {string} WebhookURL
 * @property {string} Created
 * @property {string} apiKey owning account
 * @property {string} secret
 * @typedef {object} Attempt
 * @property {number} n 1-based; duplicates carry the number of the attempt they copy
 * @property {string} at ISO time the request started (real time)
 * @property {number} t the signature timestamp sent
 * @property {string} signature the Billit-Signature header sent
 * @property {number | null} status HTTP status, null when there was no answer
 * @property {string} [error] network error or timeout
 * @property {number} ms
 * @property {boolean} [duplicate] the extra copy of the 'duplicate' fault
 * @typedef {object} Delivery
 * @property {number} DeliveryID
 * @property {number} WebhookID
 * @property {number | null} EventID the store's change event (null for a confirmation); one change may give two deliveries (I then U)
 * @property {'Order'|'Message'} EntityType
 * @property {'I'|'U'|'D'} EntityUpdateType
 * @property {number | null} OrderID
 * @property {boolean} [confirmation] the message sent when the webhook was made
 * @property {string} url
 * @property {string} body the raw JSON sent on every attempt
 * @property {'held'|'queued'|'sending'|'retrying'|'delivered'|'failed'|'canceled'|'skipped'} state
 * @property {string[]} faults injected delivery faults
 * @property {Attempt[]} attempts
 * @property {string | null} nextAttemptAt ISO time of the scheduled retry (real time)
 * @property {string} [reason] why a delivery was skipped or canceled
 * @typedef {{ remaining: number, kind: string, match: { webhookId?: number } }} QueuedWebhookFault
 * @typedef {{ update: 'I'|'U'|'D', body: Record<string, any> }} Notice what the service sends for a change
 */

/** @param {string} hostname */
const isLoopback = (hostname) => {
	const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
};

/**
 * HMAC-SHA256 signature value as the service computes it.
 * @param {string} secret @param {number} t unix seconds @param {string} rawBody
 */
const sign = (secret, t, rawBody) => crypto.createHmac('sha256', secret).update(`${t}.${rawBody}`, 'utf8').digest('hex');

const newSecret = () => crypto.randomBytes(32).toString('hex');

/** @param {Webhook} w the service's Webhook (its OpenAPI): never the secret */
const apiView = (w) => ({
	WebhookID: w.WebhookID,
	CompanyID: w.PartyID,
	EntityType: w.EntityType,
	EntityUpdateType: w.EntityUpdateType,
	WebhookURL: w.WebhookURL,
});
/** @param {Webhook} w what the control API and `emu.webhooks.list()` show: the service's view plus PartyID and Created */
const view = (w) => ({ ...apiView(w), PartyID: w.PartyID, Created: w.Created });

/** A time as the service writes it: zoneless, with milliseconds (2026-05-04T09:55:34.063). @param {unknown} at */
const zoneless = (at) => (at ? new Date(String(at)).toISOString().replace(/Z$/, '') : undefined);
/** The older form's date (its example: 31/01/2000). @param {unknown} at */
const dayMonthYear = (at) => (at ? new Date(String(at)).toISOString().slice(0, 10).split('-').reverse().join('/') : undefined);
/** @param {Record<string, any>} o drops undefined fields */
const defined = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * The service's wrapper for one message (published form: EntityDetail.OrderMessage and
 * AdditionalMessageInformation; older form: the message fields in EntityDetail, the state in
 * MessageAdditionalInformation, the date as DD/MM/YYYY).
 * @param {'published'|'older'} form @param {number} id @param {'I'|'U'} update
 * @param {Record<string, any>} message OrderMessage fields @param {Record<string, any>} state
 */
function messageBody(form, id, update, message, state) {
	const head = { UpdatedEntityID: id, UpdatedEntityType: 'Message', WebhookUpdateTypeTC: update };
	if (form === 'older')
		return { ...head, EntityDetail: defined({ ...message, CreationDate: dayMonthYear(message.CreationDate), MessageAdditionalInformation: state }) };
	return {
		...head,
		EntityDetail: { OrderMessage: defined({ ...message, CreationDate: zoneless(message.CreationDate) }), AdditionalMessageInformation: defined(state) },
	};
}

/** The published OrderMessage fields; the rest of a bus message (MessageID, flow state, legacy names) is not sent as such. */
const ORDER_MESSAGE = ['OrderID', 'FileID', 'CreationDate', 'TransportType', 'Success', 'Trials', 'Destination', 'MessageDirection', 'Description'];

/**
 * What the service sends for one change of the store: one notice per bus event (emulator/delivery.js
 * already emits what the page "Webhooks" shows: the send's message I without file, then U with the UBL
 * sent and flow state Sent; each response a new Message I, Incoming, Description "<code>: <text>", its
 * FileID and flow state; a failed delivery an Incoming MLR with Success false). An order: a short Order
 * notice (integrators report an empty EntityDetail). An order deleted: Order D, the same wrapper (the page "Webhooks"
 * defines D; its payload is not shown, so the wrapper of I and U is a guess). A message is never deleted.
 * @param {import('./events').ChangeEvent} ev @param {'published'|'older'} form
 * @returns {Notice[]}
 */
function notices(ev, form) {
	const o = ev.order || {};
	if (ev.update === 'D' && ev.entity !== 'Order') return [];
	if (ev.entity === 'Order')
		return [{ update: ev.update, body: { UpdatedEntityID: o.OrderID, UpdatedEntityType: 'Order', WebhookUpdateTypeTC: ev.update, EntityDetail: {} } }];
	const m = ev.message || {};
	const message = Object.fromEntries(ORDER_MESSAGE.filter((k) => m[k] !== undefined && m[k] !== null).map((k) => [k, m[k]]));
	const state = { EInvoiceFlowState: m.EInvoiceFlowState, AdditionalFlowStateInformation: m.AdditionalFlowStateInformation };
	return [{ update: ev.update === 'U' ? 'U' : 'I', body: messageBody(form, m.MessageID, ev.update === 'U' ? 'U' : 'I', message, state) }];
}

/**
 * The confirmation a new webhook gets (the page: "a Message confirmation ... does contain the
 * secret"; its shape is not published: assumed).
 * @param {Webhook} hook
 */
const confirmation = (hook) => ({
	UpdatedEntityID: hook.WebhookID,
	UpdatedEntityType: 'Message',
	WebhookUpdateTypeTC: 'I',
	EntityDetail: {
		WebhookID: hook.WebhookID,
		EntityType: hook.EntityType,
		EntityUpdateType: hook.EntityUpdateType,
		WebhookURL: hook.WebhookURL,
		Secret: hook.secret,
	},
});

class WebhookHub {
	/**
	 * @param {{ config: Record<string, any>, clock: import('./util').Clock, timers: Set<NodeJS.Timeout>, closing: boolean }} s
	 *   the emulator's shared state (config read per use; timers cleared by close)
	 */
	constructor(s) {
		this.s = s;
		/** @type {Map<number, Webhook>} */
		this.hooks = new Map();
		/** @type {Delivery[]} */
		this.log = [];
		/** @type {QueuedWebhookFault[]} */
		this.faults = [];
		/** @type {Map<number, Delivery[]>} out-of-order deliveries waiting for the next one */
		this.held = new Map();
		/** @type {Map<number, Promise<void>>} per-webhook chain of first attempts */
		this.chains = new Map();
		/** @type {Set<import('node:http').ClientRequest>} */
		this.inflight = new Set();
		this.ids = { webhook: 800000, delivery: 0 };
	}

	/** @param {number | string} partyId */
	ofParty(partyId) {
		return [...this.hooks.values()].filter((w) => w.PartyID === Number(partyId));
	}

	/**
	 * Validate a create body; throws a message for a 400 answer.
	 * @param {any} b @returns {{ EntityType: 'Order'|'Message', EntityUpdateType: 'I'|'U'|'D'|null, WebhookURL: string }}
	 */
	static parseCreate(b) {
		if (!b || typeof b !== 'object' || Array.isArray(b)) throw new Error('The request body must be an object with EntityType, EntityUpdateType and WebhookURL');
		const et = typeof b.EntityType === 'string' ? ENTITY_TYPES.find((t) => t.toLowerCase() === b.EntityType.trim().toLowerCase()) : undefined;
		if (!et) throw new Error(`EntityType is required and must be one of ${ENTITY_TYPES.join(', ')}`);
		let ut = null;
		if (b.EntityUpdateType !== undefined && b.EntityUpdateType !== null && b.EntityUpdateType !== '') {
			ut = typeof b.EntityUpdateType === 'string' ? UPDATE_TYPES.find((t) => t === b.EntityUpdateType.trim().toUpperCase()) : undefined;
			if (!ut) throw new Error(`EntityUpdateType must be one of ${UPDATE_TYPES.join(', ')} (I new, U updated, D deleted)`);
		}
		if (typeof b.WebhookURL !== 'string' || !b.WebhookURL.trim()) throw new Error('WebhookURL is required');
		const raw = b.WebhookURL.trim();
		if (raw.length > 2048) throw new Error('WebhookURL is longer than 2048 characters');
		let u;
		try {
			u = new URL(raw);
		} catch {
			throw new Error(`WebhookURL '${raw}' is not an absolute URL`);
		}
		if (u.protocol === 'http:' && !isLoopback(u.hostname))
			throw new Error(`WebhookURL must use https; the service does not call http URLs (this emulator accepts http on loopback hosts only)`);
		if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('WebhookURL must be an https URL');
		return { EntityType: /** @type {any} */ (et), EntityUpdateType: /** @type {any} */ (ut), WebhookURL: raw };
	}

	/**
	 * Create a webhook; throws { limit: true } style errors through the callers' ApiError mapping.
	 * @param {{ partyId: number | string, apiKey: string, EntityType: 'Order'|'Message', EntityUpdateType: 'I'|'U'|'D'|null, WebhookURL: string }} o
	 * @returns {Webhook & { Secret: string }} the created webhook with its secret (shown only now)
	 */
	create(o) {
		const limit = Number(this.s.config.webhookLimit);
		const existing = this.ofParty(o.partyId);
		if (existing.length >= limit) {
			const err = new Error(
				`Party ${o.partyId} already has ${existing.length} webhooks (ids ${existing.map((w) => w.WebhookID).join(', ')}); at most ${limit} webhooks per party are allowed. Delete one before creating another.`,
			);
			/** @type {any} */ (err).limit = true;
			throw err;
		}
		/** @type {Webhook} */
		const hook = {
			WebhookID: ++this.ids.webhook,
			PartyID: Number(o.partyId),
			EntityType: o.EntityType,
			EntityUpdateType: o.EntityUpdateType,
			WebhookURL: o.WebhookURL,
			Created: isoSeconds(this.s.clock.now()),
			apiKey: o.apiKey,
			secret: newSecret(),
		};
		this.hooks.set(hook.WebhookID, hook);
		if (this.s.config.webhookConfirmation !== false) {
			const d = this.record(hook, { id: null, entity: 'Message', orderId: null }, { update: 'I', body: confirmation(hook) });
			d.confirmation = true;
			// Sent once the answer is on its way, as a call of the service would arrive.
			if (d.state !== 'skipped') this.later(0, () => this.enqueue(hook.WebhookID, d));
		}
		return /** @type {any} */ ({ ...apiView(hook), Secret: hook.secret });
	}

	/** @param {number} id @returns {boolean} whether it existed */
	remove(id) {
		const ok = this.hooks.delete(Number(id));
		const held = this.held.get(Number(id)) || [];
		for (const d of held) Object.assign(d, { state: 'canceled', reason: 'webhook deleted' });
		this.held.delete(Number(id));
		this.chains.delete(Number(id));
		return ok;
	}

	/** @param {number} id @returns {string} the new secret */
	refreshSecret(id) {
		const hook = this.hooks.get(Number(id));
		if (!hook) throw new Error(`Webhook ${id} not found`);
		hook.secret = newSecret();
		return hook.secret;
	}

	/** @param {number} n @param {string} kind @param {{ webhookId?: number }} [match] */
	failNext(n, kind, match = {}) {
		if (!WEBHOOK_FAULTS.includes(kind)) throw new TypeError(`Unknown webhook fault ${JSON.stringify(kind)}; use one of ${WEBHOOK_FAULTS.join(', ')}`);
		if (Number(n) > 0) this.faults.push({ remaining: Number(n), kind, match: match || {} });
	}

	/** @param {Webhook} hook @returns {string | null} */
	takeFault(hook) {
		const i = this.faults.findIndex((f) => f.match.webhookId === undefined || Number(f.match.webhookId) === hook.WebhookID);
		if (i < 0) return null;
		const f = this.faults[i];
		if (--f.remaining <= 0) this.faults.splice(i, 1);
		return f.kind;
	}

	/**
	 * @param {{ webhookId?: number, state?: string, confirmations?: boolean }} [filter] confirmations: also the ones sent at create
	 * @returns {Delivery[]} copies, oldest first
	 */
	deliveries(filter = {}) {
		return clone(
			this.log.filter(
				(d) =>
					(filter.webhookId === undefined || d.WebhookID === Number(filter.webhookId)) &&
					(!filter.state || d.state === filter.state) &&
					(filter.confirmations || !d.confirmation),
			),
		);
	}

	clearDeliveries() {
		// Deliveries still in progress stay: their later attempts would otherwise go unrecorded.
		this.log = this.log.filter((d) => !FINAL.includes(d.state));
	}

	/** @returns {boolean} no delivery waiting, sending or retrying */
	idle() {
		return this.log.every((d) => FINAL.includes(d.state));
	}

	/**
	 * Store change listener: what the service sends for the change (notices), one delivery per notice and matching webhook.
	 * @param {import('./events').ChangeEvent} ev
	 */
	onEvent(ev) {
		if (this.s.closing) return;
		const form = this.s.config.webhookPayloadForm === 'older' ? 'older' : 'published';
		for (const notice of notices(ev, form)) {
			for (const hook of this.hooks.values()) {
				if (hook.PartyID !== Number(ev.partyId) || hook.EntityType !== ev.entity) continue;
				if (hook.EntityUpdateType !== null && hook.EntityUpdateType !== notice.update) continue;
				const d = this.record(hook, ev, notice);
				if (d.state !== 'skipped') this.dispatch(hook, d);
			}
		}
	}

	/** Queue a delivery, with the fault queued for its webhook if any. @param {Webhook} hook @param {Delivery} d */
	dispatch(hook, d) {
		const fault = this.takeFault(hook);
		if (fault) d.faults.push(fault);
		if (fault === 'out-of-order') {
			d.state = 'held';
			const held = this.held.get(hook.WebhookID) || [];
			held.push(d);
			this.held.set(hook.WebhookID, held);
			this.later(Number(this.s.config.webhookHoldMs) || 0, () => this.release(hook.WebhookID, d));
			return;
		}
		this.enqueue(hook.WebhookID, d);
		for (const h of this.held.get(hook.WebhookID) || []) this.enqueue(hook.WebhookID, h);
		this.held.delete(hook.WebhookID);
	}

	/**
	 * @param {Webhook} hook @param {{ id: number | null, entity: 'Order'|'Message', orderId: number | null }} ev @param {Notice} notice
	 * @returns {Delivery}
	 */
	record(hook, ev, notice) {
		/** @type {Delivery} */
		const d = {
			DeliveryID: ++this.ids.delivery,
			WebhookID: hook.WebhookID,
			EventID: ev.id,
			EntityType: ev.entity,
			EntityUpdateType: notice.update,
			OrderID: ev.orderId,
			url: hook.WebhookURL,
			body: JSON.stringify(notice.body),
			state: 'queued',
			faults: [],
			attempts: [],
			nextAttemptAt: null,
		};
		const u = new URL(hook.WebhookURL);
		if (!isLoopback(u.hostname)) Object.assign(d, { state: 'skipped', reason: 'the emulator calls loopback hosts only' });
		this.log.push(d);
		const max = Number(this.s.config.webhookLogLimit) || 1000;
		while (this.log.length > max) {
			const i = this.log.findIndex((x) => FINAL.includes(x.state));
			if (i < 0) break;
			this.log.splice(i, 1);
		}
		return d;
	}

	/** @param {number} hookId @param {Delivery} d */
	release(hookId, d) {
		const held = this.held.get(hookId);
		if (!held || !held.includes(d)) return;
		held.splice(held.indexOf(d), 1);
		if (!held.length) this.held.delete(hookId);
		this.enqueue(hookId, d);
	}

	/** @param {number} hookId @param {Delivery} d */
	enqueue(hookId, d) {
		d.state = 'queued';
		const prev = this.chains.get(hookId) || Promise.resolve();
		const next = prev.then(() => this.attempt(d)).catch(() => undefined);
		this.chains.set(hookId, next);
	}

	/** @param {number} ms @param {() => void} fn */
	later(ms, fn) {
		if (this.s.closing) return;
		const t = setTimeout(() => {
			this.s.timers.delete(t);
			if (!this.s.closing) fn();
		}, ms);
		this.s.timers.add(t);
	}

	/** One attempt (plus the extra copy of a 'duplicate' fault once it succeeded); schedules the retry. @param {Delivery} d */
	async attempt(d) {
		const hook = this.hooks.get(d.WebhookID);
		if (this.s.closing) return;
		if (!hook) {
			Object.assign(d, { state: 'canceled', reason: 'webhook deleted', nextAttemptAt: null });
			return;
		}
		const n = d.attempts.filter((a) => !a.duplicate).length + 1;
		d.state = 'sending';
		d.nextAttemptAt = null;
		const a = await this.send(d, hook, n, false);
		if (this.s.closing) return;
		if (a.status !== null && a.status >= 200 && a.status < 300) {
			if (d.faults.includes('duplicate') && !d.attempts.some((x) => x.duplicate)) await this.send(d, hook, n, true);
			d.state = 'delivered';
			return;
		}
		if (n >= Math.max(1, Number(this.s.config.webhookMaxAttempts) || 1)) {
			d.state = 'failed';
			return;
		}
		const wait = Math.min(Number(this.s.config.webhookRetryBaseMs) * 2 ** (n - 1), Number(this.s.config.webhookRetryMaxMs));
		d.state = 'retrying';
		d.nextAttemptAt = new Date(Date.now() + wait).toISOString();
		this.later(wait, () => void this.attempt(d));
	}

	/**
	 * POST the delivery's body once, signed now.
	 * @param {Delivery} d @param {Webhook} hook @param {number} n @param {boolean} duplicate
	 * @returns {Promise<Attempt>}
	 */
	async send(d, hook, n, duplicate) {
		let t = Math.floor(this.s.clock.now().getTime() / 1000);
		if (d.faults.includes('stale-timestamp')) t -= Number(this.s.config.webhookStaleSeconds) || 3600;
		const key = d.faults.includes('wrong-signature') ? `${hook.secret}-not-the-secret` : hook.secret;
		const signature = `t=${t},s=${sign(key, t, d.body)}`;
		/** @type {Attempt} */
		const a = { n, at: new Date().toISOString(), t, signature, status: null, ms: 0 };
		if (duplicate) a.duplicate = true;
		d.attempts.push(a);
		const t0 = Date.now();
		const r = await this.post(d.url, d.body, {
			'content-type': 'application/json; charset=utf-8',
			'billit-signature': signature,
			'user-agent': 'access-point-emulator-webhooks/1',
		});
		a.status = r.status;
		if (r.error) a.error = r.error;
		a.ms = Date.now() - t0;
		return a;
	}

	/**
	 * @param {string} url @param {string} body @param {Record<string, string>} headers
	 * @returns {Promise<{ status: number | null, error?: string }>}
	 */
	post(url, body, headers) {
		return new Promise((resolve) => {
			const u = new URL(url);
			const mod = u.protocol === 'https:' ? https : http;
			let settled = false;
			/** @param {{ status: number | null, error?: string }} r */
			const done = (r) => {
				if (settled) return;
				settled = true;
				this.inflight.delete(req);
				resolve(r);
			};
			// agent:false: one connection per attempt, so close() has nothing pooled to wait for.
			const req = mod.request(
				u,
				{ method: 'POST', agent: false, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, rejectUnauthorized: false },
				(res) => {
					res.resume();
					done({ status: res.statusCode || null });
				},
			);
			this.inflight.add(req);
			req.setTimeout(Math.max(1, Number(this.s.config.webhookTimeoutMs) || 10000), () => {
				req.destroy(new Error(`no answer within ${this.s.config.webhookTimeoutMs} ms`));
			});
			req.on('error', (e) => done({ status: null, error: e.message || String(e) }));
			req.on('close', () => done({ status: null, error: 'connection closed' }));
			req.end(body);
		});
	}

	close() {
		for (const r of this.inflight) r.destroy();
		this.inflight.clear();
	}
}

module.exports = { WebhookHub, WEBHOOK_DEFAULTS, WEBHOOK_FAULTS, sign, isLoopback, view, apiView, notices, confirmation };
