'use strict';

/**
 * Local emulator of the access-point API (docs/api.md) with sandbox semantics.
 * Dev-only; listens on 127.0.0.1.
 *
 * @example
 * const { createEmulator } = require('./emulator');
 * const emu = await createEmulator({ port: 0, seed: 42, orders: 1000 });
 * // ... emu.url, emu.credentials ...
 * await emu.close();
 * @module emulator
 */

const http = require('node:http');
const { createPrng, createClock } = require('./util');
const { Store } = require('./store');
const { handle, droppedLog, violationLog } = require('./server');
const { assertKind } = require('./faults');
const { createRegistration } = require('./routes/registrations');
const { WebhookHub, WEBHOOK_DEFAULTS, view } = require('./webhooks');
const { OAuthServer, OAUTH_DEFAULTS, DEFAULT_CLIENT, DEFAULT_PASSWORD } = require('./oauth');
const fileControls = require('./routes/files').controls;
const deliveryControls = require('./delivery').controls;
const inbox = require('./inbox');

/**
 * @typedef {import('./faults').FaultKind} FaultKind
 * @typedef {import('./faults').FaultMatch} FaultMatch
 * @typedef {object} EmulatorConfig mutable switches, read on every request
 * @property {'NextpageLink'|'NextPageLink'} linkSpelling
 * @property {'relative'|'absolute'|'foreign'} linkForm
 * @property {'Items'|'value'|'bare'} listWrapper
 * @property {boolean} includeCount
 * @property {'RedirectURL'|'URL'} identificationUrlField
 * @property {boolean} wrapSingleRegistration
 * @property {number} pageSize
 * @property {number} latencyMs
 * @property {number} faultRate probability per /v1 request
 * @property {FaultKind[]} faultKinds
 * @property {number} retryAfterSeconds
 * @property {string[]} allowedRedirectHosts hostnames ('*' allows any)
 * @property {string} identificationProviderCode
 * @property {'Active'|'Ready'} peppolIntegrationStatus status of a new Peppol integration
 * @property {number} webhookLimit webhooks per party (4)
 * @property {number} webhookMaxAttempts attempts per delivery, the first included (5)
 * @property {number} webhookRetryBaseMs back-off before retry n: base * 2^(n-1) ms (1000) ...
 * @property {number} webhookRetryMaxMs ... capped at this (60000)
 * @property {number} webhookTimeoutMs an attempt without answer headers by then fails (10000)
 * @property {number} webhookStaleSeconds how old the 'stale-timestamp' fault's t is (3600)
 * @property {number} webhookHoldMs longest hold of an 'out-of-order' delivery (2000)
 * @property {number} webhookLogLimit deliveries kept in the log (1000)
 * @property {'published'|'older'} webhookPayloadForm the webhook wrapper the service's page publishes, or its older form ('published')
 * @property {boolean} webhookConfirmation a new webhook gets the confirmation carrying its secret (true)
 * @property {number} oauthAccessTokenSeconds access-token lifetime (3600)
 * @property {number} oauthCodeSeconds authorization-code lifetime (600)
 * @property {boolean} oauthRotateRefreshTokens a refresh grant replaces the refresh token (true)
 * @property {boolean} oauthRevokeOnReuse a rotated refresh token used again revokes every token of its sign-in (false)
 * @property {boolean} accountListsRegistrations account information lists the active registrations too (false)
 * @property {'Delivered'|'Error'|'Refused'|'Accepted'|'Pending'} deliveryOutcome what a Peppol send becomes when due (read at send time)
 * @property {number} deliveryDelayMs emulator-clock time from a Peppol send to its outcome
 * @property {number} maxRequestBytes larger request bodies are answered 413 RequestTooLarge
 * @property {'body'|'empty'} changeAnswer PATCH answers the full order and payments a summary, or both an empty 200
 * @property {'sbdh'|'none'} inboxEnvelope inbox documents come in their SBDH envelope, or bare
 * @property {'business'|'all'|'none'} inboxResponses which delivery responses reach the inbox: IMR and MLR RE, also MLR AP, none
 * @property {'number'|'object'} sendXmlAnswer POST /v1/peppol/sendxml answers the InboxItemID bare or as {InboxItemID}
 * @property {boolean} bindBodies bodies bound as the service binds them: unknown properties dropped and logged (true)
 * @property {'refuse'|'serve'} unpublishedPaths a path openapi.json and the docs pages do not publish: 404 ('refuse'), or the emulator's addition
 * @property {boolean} contractCheck every request is checked against the published contract and violations logged (true)
 * @property {'published'|'all'} orderFilter $filter on orders takes the 28 published properties, or every field the emulator knows
 * @typedef {object} EmulatorOptions
 * @property {number} [port] default 0 (random free port)
 * @property {number} [seed] PRNG seed, default 42
 * @property {number} [orders] seeded orders of the master party, default 1000
 * @property {string} [apiKey] master API key
 * @property {string} [partyId] master PartyID (whitelisted for identification)
 * @property {Date|string|number} [startTime] initial clock time (default: now)
 * @property {Partial<EmulatorConfig>} [config] initial switches
 * @property {{ clients?: Array<{ clientId: string, clientSecret: string, redirectUris: string[] }>,
 *   users?: Array<{ email: string, password: string, apiKey: string }> }} [oauth] OAuth clients (default: DEFAULT_CLIENT)
 *   and sign-in users (default: one per account, its e-mail, password 'emulator')
 * @typedef {object} RequestLogEntry
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string>} query
 * @property {Record<string, string>} headers lower-cased; apikey replaced by '***'
 * @property {number | null} status null when no answer was sent (timeout/reset faults)
 * @property {string} at ISO time (emulator clock)
 * @property {any} [body] parsed JSON request body (or raw text)
 * @property {FaultKind} [fault] injected fault, if any
 * @property {string[]} [dropped] body properties dropped before the handler saw them (as the service drops them)
 * @typedef {object} Emulator
 * @property {string} url base URL, http://127.0.0.1:PORT
 * @property {{ apiKey: string, partyId: string, baseUrl: string, environment: 'custom' }} credentials
 * @property {{ apiKey: string, partyId: string }} otherAccount valid master account, not whitelisted for identification
 * @property {EmulatorConfig} config
 * @property {RequestLogEntry[]} requests
 * @property {() => void} clearRequests
 * @property {import('./util').Clock} clock
 * @property {import('./store').Store} store
 * @property {{ complete: (sessionUrlOrToken: string, result: 'success'|'failure') => Promise<{ status: number, location: string | null }> }} provider
 * @property {(n: number, kind: FaultKind, match?: FaultMatch) => void} failNext
 * @property {EmulatorWebhooks} webhooks
 * @property {EmulatorOAuth} oauth
 * @property {ReturnType<typeof fileControls>} files file store controls: put, largePdf, refs, get, drop, corrupt
 * @property {ReturnType<typeof deliveryControls>} delivery delivery status controls: set, tick, get
 * @property {ReturnType<typeof inbox.controls>} inbox Peppol inbox controls: receive, items, sent, refused, confirmed
 * @property {{ dropped: () => import('./server').DroppedEntry[], violations: () => import('./server').ViolationEntry[], clear: () => void }} contract
 *   the request logs of dropped properties and of contract violations (emulator/contract.js)
 * @property {() => Promise<void>} close
 */

/**
 * @typedef {object} EmulatorWebhooks webhook registry and delivery log (see emulator/webhooks.js)
 * @property {() => Array<ReturnType<typeof import('./webhooks').view>>} list every webhook, no secrets
 * @property {(filter?: { webhookId?: number, state?: string, confirmations?: boolean }) => import('./webhooks').Delivery[]} deliveries
 * @property {() => void} clearDeliveries forget finished deliveries
 * @property {(n: number, kind: 'wrong-signature'|'stale-timestamp'|'duplicate'|'out-of-order', match?: { webhookId?: number }) => void} failNext
 * @property {(timeoutMs?: number) => Promise<void>} settle resolves once no delivery is queued, sending, retrying or held
 * @property {ReturnType<typeof deliveryControls>['set']} setMessageStatus alias of `emu.delivery.set` (the one source of delivery status)
 * @property {WebhookHub} hub
 * @typedef {object} EmulatorOAuth OAuth 2.0 authorization server (see emulator/oauth.js)
 * @property {string} authorizeUrl sign-in and consent page, `${url}/Account/Logon`
 * @property {string} tokenUrl `${url}/OAuth2/token`
 * @property {{ clientId: string, clientSecret: string, redirectUris: string[] }} client the first registered client
 * @property {{ email: string, password: string }} user the sign-in prefilled on the consent page
 * @property {(c: { clientId: string, clientSecret: string, redirectUris: string[] }) => { clientId: string, redirectUris: string[] }} addClient register or replace
 * @property {() => { grants: { authorization_code: number, refresh_token: number }, errors: Record<string, number>,
 *   consent: { allow: number, deny: number, badLogin: number }, reuse: number, bearer: { ok: number, expired: number, invalid: number, revoked: number } }} stats
 * @property {() => void} resetStats
 * @property {(o?: { refreshToken?: string, clientId?: string, keepAccessTokens?: boolean }) => number} revoke refresh tokens revoked
 * @property {OAuthServer} server
 */

/** Default options and switches. */
const DEFAULTS = Object.freeze({
	port: 0,
	seed: 42,
	orders: 1000,
	apiKey: 'emu-api-key',
	partyId: '100001',
	otherApiKey: 'emu-other-api-key',
	otherPartyId: '200001',
	/** @type {Readonly<EmulatorConfig>} */
	config: Object.freeze({
		linkSpelling: 'NextpageLink',
		linkForm: 'relative',
		listWrapper: 'Items',
		includeCount: true,
		identificationUrlField: 'RedirectURL',
		wrapSingleRegistration: false,
		pageSize: 120,
		latencyMs: 0,
		faultRate: 0,
		faultKinds: /** @type {FaultKind[]} */ ([500, 503, 429, 'html']),
		retryAfterSeconds: 1,
		allowedRedirectHosts: ['127.0.0.1', 'localhost'],
		identificationProviderCode: 'itsme',
		peppolIntegrationStatus: 'Active',
		...WEBHOOK_DEFAULTS,
		...OAUTH_DEFAULTS,
		deliveryOutcome: 'Delivered',
		deliveryDelayMs: 5 * 60 * 1000,
		maxRequestBytes: 32 * 1024 * 1024,
		changeAnswer: 'body',
		inboxEnvelope: 'sbdh',
		inboxResponses: 'business',
		sendXmlAnswer: 'number',
		contractCheck: true,
		bindBodies: true,
		unpublishedPaths: 'refuse',
		orderFilter: 'published',
	}),
});

/**
 * Start an emulator.
 * @param {EmulatorOptions} [options]
 * @returns {Promise<Emulator>}
 */
async function createEmulator(options = {}) {
	const o = { ...DEFAULTS, ...options };
	const clock = createClock(o.startTime);
	const seedNum = Number(o.seed) || 0;
	const master = {
		apiKey: o.apiKey,
		partyId: String(o.partyId),
		name: 'Emulator Master BV',
		whitelisted: true,
		self: { Name: 'Emulator Master BV', VATNumber: 'BE0314159244', Email: 'billing@emulator-master.example', PartyID: Number(o.partyId) || null },
	};
	const other = {
		apiKey: DEFAULTS.otherApiKey,
		partyId: DEFAULTS.otherPartyId,
		name: 'Other Master SRL',
		whitelisted: false,
		self: { Name: 'Other Master SRL', VATNumber: 'BE0765432146', Email: 'billing@other-master.example', PartyID: 200001 },
	};
	const store = new Store({ clock, rnd: createPrng(seedNum), accounts: [master, other] });
	store.seedParty(master.partyId, { orders: Math.max(0, Number(o.orders) || 0) });
	store.seedParty(other.partyId, { orders: 25, parties: 20, products: 10 });
	const demo = createRegistration(store, master.apiKey, {
		TaxIdentifier: 'BE0204060878',
		CompanyName: 'Demo Entity BV',
		Email: 'demo-entity@emulator.example',
		Language: 'NL',
		Addresses: [{ AddressType: 'InvoiceAddress', Street: 'Kerkstraat', StreetNumber: '1', Zipcode: '9000', City: 'Gent', CountryCode: 'BE' }],
	});
	demo.Integrations.push({
		IntegrationID: ++store.ids.integration,
		Integration: 'Peppol',
		IntegrationStatus: 'Active',
		IntegrationStatusDescription: '',
		IntegrationDocumentToSign: '',
		Created: demo.Created,
	});
	store.seedParty(demo.PartyID, { orders: 30, parties: 20, products: 10 });

	/** @type {EmulatorConfig} */
	const config = {
		...DEFAULTS.config,
		faultKinds: [...DEFAULTS.config.faultKinds],
		allowedRedirectHosts: [...DEFAULTS.config.allowedRedirectHosts],
		...(options.config || {}),
	};
	/** @type {import('./server').Internal} */
	const state = /** @type {import('./server').Internal} */ (
		/** @type {unknown} */ ({
			store,
			config,
			clock,
			url: '',
			requests: [],
			queue: [],
			faultRnd: createPrng(seedNum ^ 0x5bd1e995),
			timers: new Set(),
			closing: false,
		})
	);
	state.webhooks = new WebhookHub(state);
	store.events.on((ev) => state.webhooks.onEvent(ev));
	inbox.attach(state);
	const users = (options.oauth && options.oauth.users) || [master, other].map((a) => ({ email: a.self.Email, password: DEFAULT_PASSWORD, apiKey: a.apiKey }));
	state.oauth = new OAuthServer(state, { clients: options.oauth && options.oauth.clients, users });
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	const server = http.createServer((req, res) => {
		handle(state, req, res).catch((err) => {
			if (!res.headersSent && !res.destroyed) {
				res.writeHead(500, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ errors: [{ Code: 'InternalError', Description: String(err && err.message) }] }));
			}
		});
	});
	server.on('connection', (sock) => {
		sockets.add(sock);
		sock.on('close', () => sockets.delete(sock));
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(Number(o.port) || 0, '127.0.0.1', () => resolve(undefined));
	});
	const addr = /** @type {import('node:net').AddressInfo} */ (server.address());
	state.url = `http://127.0.0.1:${addr.port}`;

	const delivery = deliveryControls(state);
	/** @type {Emulator} */
	const emu = {
		url: state.url,
		credentials: { apiKey: master.apiKey, partyId: master.partyId, baseUrl: state.url, environment: 'custom' },
		otherAccount: { apiKey: other.apiKey, partyId: other.partyId },
		config,
		requests: /** @type {RequestLogEntry[]} */ (state.requests),
		clearRequests: () => {
			state.requests.length = 0;
		},
		clock,
		store,
		provider: {
			async complete(sessionUrlOrToken, result) {
				const m = /\/provider\/([^/?#]+)/.exec(sessionUrlOrToken);
				const token = m ? m[1] : sessionUrlOrToken;
				const res = await fetch(`${state.url}/provider/${token}/complete?result=${encodeURIComponent(result)}`, { redirect: 'manual' });
				await res.arrayBuffer();
				return { status: res.status, location: res.headers.get('location') };
			},
		},
		failNext(n, kind, match = {}) {
			assertKind(kind);
			if (Number(n) > 0) state.queue.push({ remaining: Number(n), kind, match: match || {} });
		},
		webhooks: {
			list: () => [...state.webhooks.hooks.values()].map(view),
			deliveries: (filter) => state.webhooks.deliveries(filter),
			clearDeliveries: () => state.webhooks.clearDeliveries(),
			failNext: (n, kind, match) => state.webhooks.failNext(n, kind, match),
			async settle(timeoutMs = 30000) {
				const end = Date.now() + timeoutMs;
				while (!state.webhooks.idle()) {
					if (Date.now() > end) throw new Error(`webhook deliveries still in progress after ${timeoutMs} ms`);
					await new Promise((r) => setTimeout(r, 10));
				}
			},
			setMessageStatus: (orderId, status, opts) => delivery.set(orderId, status, opts),
			hub: state.webhooks,
		},
		oauth: {
			authorizeUrl: `${state.url}/Account/Logon`,
			tokenUrl: `${state.url}/OAuth2/token`,
			get client() {
				const c = state.oauth.clients.values().next().value || DEFAULT_CLIENT;
				return { clientId: c.clientId, clientSecret: c.clientSecret, redirectUris: [...c.redirectUris] };
			},
			user: { email: users[0].email, password: users[0].password },
			addClient: (c) => state.oauth.addClient(c),
			stats: () => state.oauth.stats(),
			resetStats: () => state.oauth.resetStats(),
			revoke: (o) => state.oauth.revoke(o),
			server: state.oauth,
		},
		files: fileControls(state),
		delivery,
		inbox: inbox.controls(state, master.partyId),
		contract: {
			dropped: () => droppedLog(state).map((d) => ({ ...d, dropped: [...d.dropped] })),
			violations: () => violationLog(state).map((v) => ({ ...v, violations: v.violations.map((x) => ({ ...x })) })),
			clear: () => {
				droppedLog(state).length = 0;
				violationLog(state).length = 0;
			},
		},
		close: () =>
			new Promise((resolve) => {
				state.closing = true;
				state.webhooks.close();
				for (const t of state.timers) clearTimeout(t);
				state.timers.clear();
				server.close(() => resolve());
				for (const s of sockets) s.destroy();
				server.closeAllConnections();
			}),
	};
	return emu;
}

module.exports = { createEmulator, DEFAULTS };
