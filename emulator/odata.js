'use strict';

/**
 * OData-style query engine (pure): $filter evaluation, $orderby, $top/$skip paging.
 * Parsing lives in ./filter.js; this module re-exports it.
 * @module emulator/odata
 */

const { ODataError, parseFilter, resolveProperty, tokenize, parseInstant } = require('./filter');

/**
 * @typedef {import('./filter').ScalarType} ScalarType
 * @typedef {import('./filter').EntitySchema} EntitySchema
 * @typedef {import('./filter').Operand} Operand
 * @typedef {import('./filter').FilterNode} FilterNode
 */

/** @param {any} obj @param {string[]} path */
function getPath(obj, path) {
	let v = obj;
	for (const k of path) {
		if (v === null || v === undefined) return null;
		v = v[k];
	}
	return v === undefined ? null : v;
}

/**
 * Coerce a value for comparison under a type.
 * @param {any} v @param {string} type
 */
function coerce(v, type) {
	if (v === null || v === undefined) return null;
	if (type === 'date' || type === 'datetime') {
		if (typeof v === 'number') return v;
		const t = parseInstant(String(v));
		return Number.isNaN(t) ? null : t;
	}
	if (type === 'number') {
		const n = typeof v === 'number' ? v : Number(String(v).trim());
		return String(v).trim() === '' || Number.isNaN(n) ? null : n;
	}
	if (type === 'boolean') {
		if (typeof v === 'boolean') return v;
		return v === 'true' ? true : v === 'false' ? false : null;
	}
	return typeof v === 'string' ? v : String(v);
}

/** @param {Operand} o */
const typeOf = (o) => (o.kind === 'prop' ? o.ptype : o.vtype);

/** Null-aware ordinal comparison; nulls sort first. @param {any} a @param {any} b */
function compareValues(a, b) {
	if (a === b) return 0;
	if (a === null || a === undefined) return -1;
	if (b === null || b === undefined) return 1;
	return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Evaluate a parsed filter against one record.
 * @param {FilterNode} node @param {any} rec @returns {boolean}
 */
function evaluate(node, rec) {
	switch (node.type) {
		case 'or':
			return evaluate(node.left, rec) || evaluate(node.right, rec);
		case 'and':
			return evaluate(node.left, rec) && evaluate(node.right, rec);
		case 'not':
			return !evaluate(node.expr, rec);
		case 'bool':
			return getPath(rec, /** @type {any} */ (node.operand).path) === true;
		default: {
			const { left, right, op } = node;
			const tl = typeOf(left);
			const tr = typeOf(right);
			const types = [tl, tr];
			let type = 'string';
			if (types.includes('date') || types.includes('datetime')) type = 'datetime';
			else if (types.includes('number')) type = 'number';
			else if (types.includes('boolean')) type = 'boolean';
			const val = (/** @type {Operand} */ o) => coerce(o.kind === 'prop' ? getPath(rec, o.path) : o.value, type);
			const a = val(left);
			const b = val(right);
			if (op === 'eq') return a === b;
			if (op === 'ne') return a !== b;
			if (a === null || b === null) return false;
			const c = compareValues(a, b);
			return op === 'gt' ? c > 0 : op === 'ge' ? c >= 0 : op === 'lt' ? c < 0 : c <= 0;
		}
	}
}

/**
 * Parse $orderby: comma-separated `path [asc|desc]`.
 * @param {string} src @param {EntitySchema} schema
 * @returns {Array<{ path: string[], ptype: ScalarType, desc: boolean }>}
 */
function parseOrderBy(src, schema) {
	return String(src)
		.split(',')
		.map((part) => {
			const words = part.trim().split(/\s+/).filter(Boolean);
			if (words.length === 0 || words.length > 2) throw new ODataError(`Invalid $orderby item '${part.trim()}'`);
			const dir = (words[1] || 'asc').toLowerCase();
			if (dir !== 'asc' && dir !== 'desc') throw new ODataError(`Invalid $orderby direction '${words[1]}' (use asc or desc)`);
			return { ...resolveProperty(words[0], schema), desc: dir === 'desc' };
		});
}

/** @param {string | null | undefined} v @param {string} name */
function parseNonNegInt(v, name) {
	if (v === null || v === undefined) return undefined;
	if (!/^\s*\d+\s*$/.test(v)) throw new ODataError(`Invalid value '${v}' for ${name}: expected a non-negative integer`);
	return Number(v);
}

/**
 * Apply $filter, $orderby, $skip and $top (page size, capped) to a list.
 * @param {any[]} items
 * @param {{ filter?: string|null, orderby?: string|null, top?: string|null, skip?: string|null }} q raw option values
 * @param {EntitySchema} schema
 * @param {number} pageSize
 * @returns {{ page: any[], total: number, skip: number, top: number, topGiven: boolean, nextSkip: number | null }}
 */
function runQuery(items, q, schema, pageSize) {
	const ast = q.filter !== null && q.filter !== undefined ? parseFilter(q.filter, schema) : null;
	const order = q.orderby !== null && q.orderby !== undefined && q.orderby.trim() !== '' ? parseOrderBy(q.orderby, schema) : [];
	const topRaw = parseNonNegInt(q.top, '$top');
	const skip = parseNonNegInt(q.skip, '$skip') || 0;
	const top = Math.min(topRaw === undefined ? pageSize : topRaw, pageSize);
	const key = schema.key || '';
	const matched = ast ? items.filter((r) => evaluate(ast, r)) : items.slice();
	matched.sort((x, y) => {
		for (const o of order) {
			const c = compareValues(coerce(getPath(x, o.path), o.ptype), coerce(getPath(y, o.path), o.ptype));
			if (c !== 0) return o.desc ? -c : c;
		}
		return compareValues(x[key], y[key]);
	});
	const page = matched.slice(skip, skip + top);
	const nextSkip = top > 0 && skip + page.length < matched.length ? skip + top : null;
	return { page, total: matched.length, skip, top, topGiven: topRaw !== undefined, nextSkip };
}

module.exports = { ODataError, parseFilter, evaluate, parseOrderBy, runQuery, parseInstant, tokenize, getPath };
