'use strict';

/**
 * The service's published contract as code (dev only): emulator/openapi.json (the service's own OpenAPI document,
 * see README.md "The published contract") plus what its docs pages add (docs/api.md "Published or assumed"):
 * the docs-only endpoints, the filterable order properties, the patchable order and party properties and the
 * transport types. Used by the emulator (binding: known properties kept in the document's spelling, unknown ones
 * dropped, as the service does) and by the test harness (every request the suite sends is checked).
 *
 *   const { contract } = require('./contract');
 *   contract.check({ method: 'POST', path: '/v1/orders/1/payments', body: { Amount: 1, PaymentDate: '2026-01-01' } })
 *   // -> { api: true, endpoint: 'POST /v1/orders/{orderID}/payments', violations: [{ kind: 'unknown-property', ... }] }
 * @module emulator/contract
 */

const fs = require('node:fs');
const path = require('node:path');
const { tokenize } = require('./filter');

/**
 * @typedef {{ kind: string, message: string, property?: string }} Violation
 * @typedef {{ method: string, path: string, query?: URLSearchParams | Record<string, string> | string, body?: any, contentType?: string }} RequestShape
 * @typedef {{ method: string, template: string, re: RegExp, params: string[], op: any, page?: string }} Endpoint
 * @typedef {{ api: boolean, endpoint: string | null, page?: string, violations: Violation[], notes: string[] }} CheckResult
 */

/**
 * Endpoints published on the service's docs pages only (not in openapi.json), each with the page that publishes it.
 * Anything the package calls that is in neither is a finding of the check.
 */
const DOCS_ONLY = [
	{
		method: 'POST',
		template: '/v1/peppol/sendxml',
		page: 'Send UBL to Peppol',
		body: { type: 'object', properties: { XML: { type: 'string' } } },
	},
	// The sign-in and consent page of the Authorization Code flow, on the web app host (the emulator serves it).
	// The page shows client_id, redirect_uri, state; response_type, scope and PKCE are OAuth 2.0's own (RFC 6749, 7636).
	{
		method: 'GET',
		template: '/Account/Logon',
		page: 'How do I get started with OAuth',
		query: ['client_id', 'redirect_uri', 'state', 'response_type', 'scope', 'code_challenge', 'code_challenge_method'],
	},
	{ method: 'POST', template: '/Account/Logon', page: 'How do I get started with OAuth', form: true },
];

/**
 * Request bodies a docs page publishes beside the OpenAPI one: page "Products" posts `{Items: [Product, ...]}` to
 * POST /v1/products (the OpenAPI `Product` has no `Items`, so the key tells the forms apart).
 */
const DOCS_BODIES = [
	{
		endpoint: 'POST /v1/products',
		page: 'Products',
		key: 'items',
		schema: { type: 'object', properties: { Items: { type: 'array', items: { $ref: '#/definitions/Product' } } } },
	},
];

/** Page "OData for Filtering": the only order properties $filter takes since 17 March 2026. */
const FILTERABLE_ORDER = Object.freeze([
	'OrderID',
	'CounterParty/PartyID',
	'CompanyID',
	'OrderDirection',
	'OrderType',
	'OrderDate',
	'OrderNumber',
	'ExpiryDate',
	'ExportedToConnector',
	'AccountantVerificationNeeded',
	'TotalExcl',
	'TotalVAT',
	'TotalIncl',
	'FXRateToForeign',
	'Paid',
	'OrderStatus',
	'ExternalProviderID',
	'Currency',
	'PaymentReference',
	'LastModified',
	'Created',
	'ApprovalStatus',
	'PaidDate',
	'PaymentMethod',
	'Reference',
	'RemindersSent',
	'ExternalProvider',
	'IsSent',
]);

/** The type the service names when a property cannot be filtered (page "OData for Filtering"). */
const FILTER_TYPE = 'Domain.Order.OrderPartyPerformanceSafeColumns';

/** Page "Patchable Properties". */
const PATCHABLE_ORDER = Object.freeze([
	'Paid',
	'PaidDate',
	'IsSent',
	'ApprovalStatus',
	'AccountCode',
	'InternalInfo',
	'Invoiced',
	'AccountantVerificationNeeded',
]);
const PATCHABLE_PARTY = Object.freeze([
	'GLAccountCode',
	'GLDefaultExpiryOffset',
	'Nr',
	'Email',
	'ExternalProviderTC',
	'ExternalProviderID',
	'Name',
	'CommercialName',
	'ContactFirstName',
	'ContactLastName',
	'CountryCode',
	'City',
	'Street',
	'StreetNumber',
	'Zipcode',
	'Box',
	'Phone',
	'Mobile',
	'Fax',
	'VATNumber',
	'IBAN',
	'Language',
	'VATLiable',
]);

/** Pages "Send via Email" and "Party types": the transport types a send may name (none: the service chooses). */
const TRANSPORT_TYPES = Object.freeze(['Peppol', 'SMTP', 'Letter', 'SDI']);

/** OData query options the page "OData for Filtering" publishes for the list endpoints (answers PageResult_*). */
const ODATA_OPTIONS = Object.freeze(['$filter', '$orderby', '$top', '$skip']);

/** Paths of the emulator itself (control API, provider and signing pages, AS4 stub): not the service's API. */
const INTERNAL = /^\/(?:_emulator(?:\/|$)|provider\/|sign\/|as4(?:\/|$)|$)/;

const PATCH_LISTS = [
	{ re: /^PATCH \/v1\/orders\/\{orderID\}$/, list: PATCHABLE_ORDER, type: 'Order', page: 'Patchable Properties' },
	{ re: /^PATCH \/v1\/einvoices\/registrations\/\{registrationID\}\/orders\/\{orderID\}$/, list: PATCHABLE_ORDER, type: 'Order', page: 'Patchable Properties' },
	{ re: /^PATCH \/v1\/parties\/\{partyID\}$/, list: PATCHABLE_PARTY, type: 'Party', page: 'Patchable Properties' },
];
const ORDER_LISTS = new Set(['GET /v1/orders', 'GET /v1/einvoices/registrations/{registrationID}/orders', 'GET /v1/orders/deleted']);
const SENDS = new Set(['POST /v1/orders/commands/send', 'POST /v1/einvoices/registrations/{registrationID}/commands/send']);

const DOC_FILE = path.join(__dirname, 'openapi.json');

/** @param {string} s */
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** @param {string} template */
function templateRe(template) {
	/** @type {string[]} */
	const params = [];
	const src = template
		.split(/(\{[^}]+\})/)
		.map((part) => {
			const m = /^\{([^}]+)\}$/.exec(part);
			if (!m) return escapeRe(part);
			params.push(m[1]);
			return '([^/]+)';
		})
		.join('');
	// ASP.NET routes match case-insensitively and take a trailing slash.
	return { re: new RegExp(`^${src}/?$`, 'i'), params };
}

/** @param {any} v */
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * @param {Record<string, any> | undefined} q
 * @returns {Array<[string, string]>}
 */
function queryEntries(q) {
	if (!q) return [];
	if (typeof q === 'string') return [...new URLSearchParams(q.replace(/^\?/, '')).entries()];
	if (q instanceof URLSearchParams) return [...q.entries()];
	return Object.entries(q).map(([k, v]) => [k, String(v)]);
}

/**
 * Property paths named in an OData expression ($filter, $orderby), in order; [] when it does not tokenize
 * (a syntax error is the service's to answer, not a contract finding).
 * @param {string} src
 */
function filterProperties(src) {
	try {
		return tokenize(String(src))
			.filter((t) => t.t === 'ident' && !/^(asc|desc)$/i.test(String(t.v)))
			.map((t) => String(t.v));
	} catch {
		return [];
	}
}

class Contract {
	/** @param {any} doc an OpenAPI (Swagger 2.0) document */
	constructor(doc) {
		this.doc = doc;
		/** @type {Endpoint[]} */
		this.endpoints = [];
		for (const [template, item] of Object.entries(doc.paths || {})) {
			for (const [method, op] of Object.entries(/** @type {Record<string, any>} */ (item))) {
				if (method === 'parameters') continue;
				this.endpoints.push({ method: method.toUpperCase(), template, ...templateRe(template), op });
			}
		}
		for (const d of DOCS_ONLY) {
			const parameters = [
				...(d.body ? [{ name: 'body', in: 'body', schema: d.body }] : []),
				...(d.query || []).map((name) => ({ name, in: 'query', type: 'string' })),
			];
			this.endpoints.push({ method: d.method, template: d.template, ...templateRe(d.template), op: { parameters, form: d.form }, page: d.page });
		}
		// Literal segments beat parameters (`/v1/orders/deleted` before `/v1/orders/{orderID}`), as ASP.NET routes do.
		const literal = (/** @type {Endpoint} */ e) => e.template.split('/').filter((s) => s && !s.startsWith('{')).length;
		this.endpoints.sort((a, b) => literal(b) - literal(a));
	}

	/** @param {any} schema resolves $ref and merges allOf @returns {any} */
	resolve(schema) {
		let s = schema;
		for (let i = 0; s && s.$ref && i < 20; i++) s = this.doc.definitions[String(s.$ref).replace('#/definitions/', '')];
		if (s && Array.isArray(s.allOf)) {
			/** @type {any} */
			const merged = { type: 'object', properties: {} };
			for (const part of s.allOf) {
				const r = this.resolve(part) || {};
				Object.assign(merged.properties, r.properties || {});
				if (r.additionalProperties) merged.additionalProperties = r.additionalProperties;
			}
			Object.assign(merged.properties, s.properties || {});
			return merged;
		}
		return s;
	}

	/** @param {string} name a definition's name */
	type(name) {
		return this.resolve({ $ref: `#/definitions/${name}` });
	}

	/**
	 * The endpoint a method and path name, or why none does.
	 * @param {string} method @param {string} urlPath
	 * @returns {{ endpoint?: Endpoint, params?: Record<string, string>, otherMethods: string[] }}
	 */
	match(method, urlPath) {
		const m = method.toUpperCase();
		/** @type {string[]} */
		const otherMethods = [];
		for (const e of this.endpoints) {
			const hit = e.re.exec(urlPath);
			if (!hit) continue;
			if (e.method !== m) {
				otherMethods.push(e.method);
				continue;
			}
			/** @type {Record<string, string>} */
			const params = {};
			e.params.forEach((p, i) => (params[p] = hit[i + 1]));
			return { endpoint: e, params, otherMethods };
		}
		return { otherMethods };
	}

	/**
	 * The schema a body is bound to: the endpoint's, or a docs page's other form of it (DOCS_BODIES).
	 * @param {Endpoint} e @param {any} [body]
	 */
	bodySchema(e, body) {
		const alt = DOCS_BODIES.find((d) => d.endpoint === `${e.method} ${e.template}`);
		if (alt && isObject(body) && Object.keys(body).some((k) => k.toLowerCase() === alt.key)) return alt.schema;
		const p = (e.op.parameters || []).find((/** @type {any} */ x) => x.in === 'body');
		return p ? this.resolve(p.schema) : undefined;
	}

	/** @param {Endpoint} e */
	patchList(e) {
		const key = `${e.method} ${e.template}`;
		return PATCH_LISTS.find((p) => p.re.test(key));
	}

	/**
	 * Bind a value to a schema as the service does: known properties (matched case-insensitively) kept, unknown ones
	 * dropped. Returns the bound value and the dropped property paths. `canonical`: known properties renamed to the
	 * document's spelling (as the service's model holds them); by default they keep the sender's spelling, so the
	 * emulator's handlers read them as they always did.
	 * @param {any} value @param {any} schema @param {{ canonical?: boolean }} [options]
	 * @returns {{ value: any, dropped: string[] }}
	 */
	bind(value, schema, { canonical = false } = {}) {
		/** @type {string[]} */
		const dropped = [];
		const walk = (/** @type {any} */ v, /** @type {any} */ s, /** @type {string} */ where) => {
			const sch = this.resolve(s);
			if (!sch || v === null || v === undefined) return v;
			if (Array.isArray(v)) return sch.type === 'array' || sch.items ? v.map((x) => walk(x, sch.items, `${where}[]`)) : v;
			if (!isObject(v)) return v;
			if (sch.properties) {
				const known = new Map(Object.keys(sch.properties).map((k) => [k.toLowerCase(), k]));
				/** @type {Record<string, any>} */
				const out = {};
				for (const [k, x] of Object.entries(v)) {
					const name = known.get(k.toLowerCase());
					if (name) out[canonical ? name : k] = walk(x, sch.properties[name], where ? `${where}.${name}` : name);
					else if (sch.additionalProperties) out[k] = x;
					else dropped.push(where ? `${where}.${k}` : k);
				}
				return out;
			}
			if (sch.additionalProperties) {
				/** @type {Record<string, any>} */
				const out = {};
				for (const [k, x] of Object.entries(v)) out[k] = walk(x, sch.additionalProperties, where ? `${where}.${k}` : k);
				return out;
			}
			return v;
		};
		return { value: walk(value, schema, ''), dropped };
	}

	/**
	 * What the service does with a request body: the bound body and what it drops. PATCH bodies on orders and parties
	 * bind to the entity and keep only its patchable properties, named as the document names them (`isSent` binds to
	 * IsSent, as the service's case-insensitive binder does).
	 * @param {string} method @param {string} urlPath @param {any} body
	 * @returns {{ value: any, dropped: string[], endpoint: string | null }}
	 */
	bindRequest(method, urlPath, body) {
		const { endpoint } = this.match(method, urlPath);
		if (!endpoint || body === undefined) return { value: body, dropped: [], endpoint: endpoint ? `${endpoint.method} ${endpoint.template}` : null };
		const name = `${endpoint.method} ${endpoint.template}`;
		const patch = this.patchList(endpoint);
		if (patch && isObject(body)) {
			const bound = this.bind(body, this.type(patch.type), { canonical: true });
			const allowed = new Map(patch.list.map((k) => [k.toLowerCase(), k]));
			/** @type {Record<string, any>} */
			const value = {};
			for (const [k, v] of Object.entries(bound.value)) {
				const name = allowed.get(k.toLowerCase());
				if (name) value[name] = v;
				else bound.dropped.push(k);
			}
			return { value, dropped: bound.dropped, endpoint: name };
		}
		const schema = this.bodySchema(endpoint, body);
		if (!schema) return { value: body, dropped: [], endpoint: name };
		const bound = this.bind(body, schema);
		return { ...bound, endpoint: name };
	}

	/**
	 * Type mismatches the service's binder would refuse (an object or array where a scalar is published and the
	 * reverse; a boolean for a number). Strings for numbers and dates are taken (the binder converts them).
	 * @param {any} v @param {any} s @param {string} where @param {Violation[]} out
	 */
	typeCheck(v, s, where, out) {
		const sch = this.resolve(s);
		if (!sch || v === null || v === undefined) return;
		const t = sch.type || (sch.properties ? 'object' : undefined);
		const kind = Array.isArray(v) ? 'array' : typeof v;
		const bad = (/** @type {string} */ want) =>
			out.push({ kind: 'type', property: where, message: `${where} is ${kind === 'object' ? 'an object' : `a ${kind}`}; the published type is ${want}` });
		if (t === 'array') {
			if (!Array.isArray(v)) return bad('an array');
			v.forEach((x, i) => this.typeCheck(x, sch.items, `${where}[${i}]`, out));
		} else if (t === 'object') {
			if (!isObject(v)) return bad('an object');
			if (sch.properties) {
				const known = new Map(Object.keys(sch.properties).map((k) => [k.toLowerCase(), k]));
				for (const [k, x] of Object.entries(v)) {
					const name = known.get(k.toLowerCase());
					if (name) this.typeCheck(x, sch.properties[name], where ? `${where}.${name}` : name, out);
				}
			}
		} else if (t === 'string') {
			if (kind === 'object' || kind === 'array') bad('a string');
		} else if (t === 'integer' || t === 'number') {
			if (kind === 'object' || kind === 'array' || kind === 'boolean') bad(t === 'integer' ? 'an integer' : 'a number');
		} else if (t === 'boolean') {
			if (kind === 'object' || kind === 'array' || kind === 'number') bad('a boolean');
		}
	}

	/**
	 * Does the service publish this request as sent? Method and path, query options, every body property
	 * (case-insensitive, nested), $filter properties on orders, PATCH properties, transport types.
	 * @param {RequestShape} req
	 * @returns {CheckResult}
	 */
	check(req) {
		const method = String(req.method || 'GET').toUpperCase();
		const urlPath = String(req.path || '/').split('?')[0];
		/** @type {Violation[]} */
		const violations = [];
		/** @type {string[]} */
		const notes = [];
		if (INTERNAL.test(urlPath)) return { api: false, endpoint: null, violations, notes };
		const { endpoint, params, otherMethods } = this.match(method, urlPath);
		if (!endpoint) {
			violations.push({
				kind: 'endpoint',
				message: otherMethods.length
					? `${method} ${urlPath}: the service publishes only ${[...new Set(otherMethods)].join(', ')} on this path`
					: `${method} ${urlPath} is not published (neither in openapi.json nor on a docs page)`,
			});
			return { api: true, endpoint: null, violations, notes };
		}
		const name = `${endpoint.method} ${endpoint.template}`;
		// Path parameters typed integer must be integers.
		for (const p of endpoint.op.parameters || []) {
			if (p.in !== 'path' || p.type !== 'integer' || !params) continue;
			const v = params[p.name];
			let text = v;
			try {
				text = decodeURIComponent(v);
			} catch {
				/* kept */
			}
			if (v !== undefined && !/^-?\d+$/.test(text))
				violations.push({ kind: 'path-parameter', property: p.name, message: `${name}: ${p.name} '${text}' is not an integer` });
		}
		// Query: declared parameters, and the OData options on the list endpoints.
		const declared = new Map(
			(endpoint.op.parameters || []).filter((/** @type {any} */ p) => p.in === 'query').map((/** @type {any} */ p) => [p.name.toLowerCase(), p.name]),
		);
		const okSchema = ((endpoint.op.responses || {})['200'] || {}).schema || {};
		const isList = method === 'GET' && /PageResult_/.test(String(okSchema.$ref || ''));
		for (const [k, v] of queryEntries(req.query)) {
			if (declared.has(k.toLowerCase())) continue;
			if (isList && ODATA_OPTIONS.includes(k.toLowerCase())) {
				if (ORDER_LISTS.has(name) && (k.toLowerCase() === '$filter' || k.toLowerCase() === '$orderby')) {
					for (const prop of filterProperties(v)) {
						if (!FILTERABLE_ORDER.includes(prop)) {
							// The service names the first segment it cannot resolve (CounterParty/DisplayName: DisplayName).
							const segs = prop.split('/');
							let at = 0;
							while (at < segs.length - 1 && FILTERABLE_ORDER.some((f) => f.startsWith(`${segs.slice(0, at + 1).join('/')}/`))) at++;
							violations.push({
								kind: 'filter',
								property: prop,
								message: `${name} ${k}: ${prop} is not filterable (page "OData for Filtering": only ${FILTERABLE_ORDER.length} order properties); the service answers 400 "Could not find a property named '${segs[at]}' on type '${FILTER_TYPE}'."`,
							});
						}
					}
				} else if (/^GET \/v1\/(parties|products)$/.test(name) && (k.toLowerCase() === '$filter' || k.toLowerCase() === '$orderby')) {
					const type = this.type(name.endsWith('parties') ? 'Party' : 'Product');
					const props = new Set(Object.keys(type.properties || {}));
					for (const prop of filterProperties(v)) {
						const head = prop.split('/')[0];
						if (!props.has(head))
							violations.push({
								kind: 'filter',
								property: prop,
								message: `${name} ${k}: ${prop} is not a property of the published ${name.endsWith('parties') ? 'Party' : 'Product'}`,
							});
						else notes.push(`${name} ${k}: that ${prop} filters is assumed (not on a docs page)`);
					}
				}
				continue;
			}
			violations.push({ kind: 'query', property: k, message: `${name}: query parameter ${k} is not published` });
		}
		// Body.
		let body = req.body;
		if (typeof body === 'string' && /x-www-form-urlencoded/i.test(req.contentType || '')) body = Object.fromEntries(new URLSearchParams(body));
		else if (typeof body === 'string' && body.trim()) {
			try {
				body = JSON.parse(body);
			} catch {
				/* not JSON: left to the service */
			}
		}
		const empty = body === undefined || body === null || body === '' || (isObject(body) && Object.keys(body).length === 0);
		const schema = this.bodySchema(endpoint, body);
		const patch = this.patchList(endpoint);
		if (patch && isObject(body)) {
			const allowed = new Map(patch.list.map((k) => [k.toLowerCase(), k]));
			for (const k of Object.keys(body))
				if (!allowed.has(k.toLowerCase()))
					violations.push({ kind: 'not-patchable', property: k, message: `${name}: ${k} is not patchable (page "${patch.page}": ${patch.list.join(', ')})` });
			this.typeCheck(body, this.type(patch.type), '', violations);
		} else if (schema) {
			if (!empty || isObject(body)) {
				const { dropped } = this.bind(body, schema);
				for (const p of dropped)
					violations.push({ kind: 'unknown-property', property: p, message: `${name}: ${p} is not a property of the published body; the service drops it` });
				this.typeCheck(body, schema, '', violations);
			}
		} else if (!empty && method !== 'GET' && method !== 'DELETE' && !endpoint.op.form) {
			violations.push({ kind: 'unexpected-body', message: `${name} publishes no request body; the service ignores it` });
		}
		if (SENDS.has(name) && isObject(body)) {
			const key = Object.keys(body).find((k) => k.toLowerCase() === 'transporttype');
			const v = key === undefined ? undefined : body[key];
			if (v !== undefined && v !== null && !TRANSPORT_TYPES.some((t) => t.toLowerCase() === String(v).toLowerCase()))
				violations.push({
					kind: 'transport-type',
					property: String(key),
					message: `${name}: TransportType '${v}' is not published (${TRANSPORT_TYPES.join(', ')}; e-mail is SMTP; none lets the service choose)`,
				});
		}
		return { api: true, endpoint: name, ...(endpoint.page ? { page: endpoint.page } : {}), violations, notes };
	}

	/**
	 * Check an answer against the document's response type for its status (tests of the emulator's own answers).
	 * Extra properties are reported as violations too ('unpublished-field').
	 * @param {{ method: string, path: string, status: number, body: any }} res
	 * @returns {Violation[]}
	 */
	checkResponse(res) {
		const { endpoint } = this.match(String(res.method).toUpperCase(), res.path.split('?')[0]);
		if (!endpoint) return [{ kind: 'endpoint', message: `${res.method} ${res.path} is not published` }];
		const r = (endpoint.op.responses || {})[String(res.status)];
		if (!r) return endpoint.page ? [] : [{ kind: 'status', message: `${res.method} ${endpoint.template}: status ${res.status} is not published` }];
		if (!r.schema) return [];
		/** @type {Violation[]} */
		const out = [];
		const walk = (/** @type {any} */ v, /** @type {any} */ s, /** @type {string} */ where) => {
			const sch = this.resolve(s);
			if (!sch || v === null || v === undefined) return;
			const t = sch.type || (sch.properties ? 'object' : undefined);
			const kind = Array.isArray(v) ? 'array' : typeof v;
			const bad = (/** @type {string} */ want) =>
				out.push({ kind: 'type', property: where, message: `${where || 'the answer'} is ${kind}, published ${want}` });
			if (t === 'array') {
				if (!Array.isArray(v)) return bad('array');
				v.forEach((x, i) => walk(x, sch.items, `${where}[${i}]`));
			} else if (t === 'object') {
				if (!isObject(v)) return bad('object');
				if (sch.properties)
					for (const [k, x] of Object.entries(v)) {
						if (k in sch.properties) walk(x, sch.properties[k], where ? `${where}.${k}` : k);
						else if (!sch.additionalProperties)
							out.push({
								kind: 'unpublished-field',
								property: where ? `${where}.${k}` : k,
								message: `${where ? `${where}.${k}` : k} is not in the published type`,
							});
					}
			} else if (t === 'string') {
				if (kind !== 'string') bad('string');
			} else if (t === 'integer') {
				if (kind !== 'number' || !Number.isInteger(v)) bad('integer');
			} else if (t === 'number') {
				if (kind !== 'number') bad('number');
			} else if (t === 'boolean') {
				if (kind !== 'boolean') bad('boolean');
			}
		};
		walk(res.body, r.schema, '');
		return out;
	}
}

/** @type {Contract | undefined} */
let shared;
/** The published contract built from emulator/openapi.json (read once per process; the document never changes at run time). */
function loadContract() {
	if (!shared) shared = new Contract(JSON.parse(fs.readFileSync(DOC_FILE, 'utf8')));
	return shared;
}

/** @param {Violation[]} vs */
const describe = (vs) => vs.map((v) => `- ${v.message}`).join('\n');

module.exports = {
	Contract,
	loadContract,
	describe,
	filterProperties,
	DOCS_ONLY,
	DOCS_BODIES,
	FILTERABLE_ORDER,
	FILTER_TYPE,
	PATCHABLE_ORDER,
	PATCHABLE_PARTY,
	TRANSPORT_TYPES,
	DOC_FILE,
};
