'use strict';

/**
 * OData $filter tokenizer and parser (pure), used by ./odata.js.
 *
 * Grammar: expr := and ('or' and)* ; and := unary ('and' unary)* ; unary := 'not' unary | '(' expr ')' | cmp
 * cmp := operand (eq|ne|gt|ge|lt|le) operand | boolean-property ; operands are property paths
 * (`CounterParty/DisplayName`) or literals: 'str' / "str" (quote doubled to escape), numbers, true, false,
 * null, DateTime'2024-01-31' / datetime'2024-01-31T10:00:00' (UTC unless a zone is given), bare 2024-01-31.
 * @module emulator/filter
 */

/**
 * @typedef {'string'|'number'|'boolean'|'date'|'datetime'} ScalarType
 * @typedef {{ name: string, key?: string, fields: Record<string, ScalarType | EntitySchema> }} EntitySchema
 * @typedef {{ kind: 'prop', path: string[], ptype: ScalarType } | { kind: 'lit', vtype: string, value: any }} Operand
 * @typedef {{ type: 'or'|'and', left: FilterNode, right: FilterNode } | { type: 'not', expr: FilterNode }
 *   | { type: 'cmp', op: string, left: Operand, right: Operand } | { type: 'bool', operand: Operand }} FilterNode
 */

/** A malformed query option; the HTTP layer answers 400 GenericError with its message. */
class ODataError extends Error {}

const COMPARISON = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,7})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parse a date or datetime string to epoch ms; date-only and zone-less values are UTC. NaN when invalid.
 * @param {string} s
 * @returns {number}
 */
function parseInstant(s) {
	const m = DATE_RE.exec(String(s).trim());
	if (!m) return NaN;
	const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '', zone = 'Z'] = m;
	const ms = frac ? Math.round(Number(frac) * 1000) : 0;
	let t = Date.UTC(+y, +mo - 1, +d, +h, +mi, +sec, ms);
	const check = new Date(Date.UTC(+y, +mo - 1, +d));
	if (check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || +h > 23 || +mi > 59 || +sec > 59) return NaN;
	if (zone.toUpperCase() !== 'Z') {
		const z = zone.replace(':', '');
		const off = (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5))) * (z[0] === '-' ? -1 : 1);
		t -= off * 60000;
	}
	return t;
}

/**
 * @param {string} src
 * @returns {Array<{ t: string, v?: any, pos: number }>}
 */
function tokenize(src) {
	const out = [];
	let i = 0;
	const fail = (/** @type {string} */ msg) => {
		throw new ODataError(`Syntax error in $filter at position ${i}: ${msg}`);
	};
	const readQuoted = () => {
		const q = src[i];
		let s = '';
		i++;
		for (;;) {
			if (i >= src.length) fail(`unterminated string literal (missing closing ${q})`);
			if (src[i] === q) {
				if (src[i + 1] === q) {
					s += q;
					i += 2;
					continue;
				}
				i++;
				return s;
			}
			s += src[i++];
		}
	};
	while (i < src.length) {
		const c = src[i];
		const pos = i;
		if (/\s/.test(c)) {
			i++;
		} else if (c === '(' || c === ')' || c === ',') {
			out.push({ t: c, pos });
			i++;
		} else if (c === "'" || c === '"') {
			out.push({ t: 'lit', v: { vtype: 'string', value: readQuoted() }, pos });
		} else if (/[A-Za-z_]/.test(c)) {
			const m = /^[A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z_][A-Za-z0-9_]*)*/.exec(src.slice(i));
			const word = m ? m[0] : c;
			i += word.length;
			if (/^datetime(offset)?$/i.test(word) && (src[i] === "'" || src[i] === '"')) {
				const raw = readQuoted();
				const t = parseInstant(raw);
				if (Number.isNaN(t)) fail(`invalid ${word} literal '${raw}' (expected YYYY-MM-DD or YYYY-MM-DDThh:mm:ss)`);
				out.push({ t: 'lit', v: { vtype: 'datetime', value: t }, pos });
			} else if (word === 'true' || word === 'false') {
				out.push({ t: 'lit', v: { vtype: 'boolean', value: word === 'true' }, pos });
			} else if (word === 'null') {
				out.push({ t: 'lit', v: { vtype: 'null', value: null }, pos });
			} else if (COMPARISON.has(word) || word === 'and' || word === 'or' || word === 'not') {
				out.push({ t: word, pos });
			} else {
				out.push({ t: 'ident', v: word, pos });
			}
		} else if (/[-\d]/.test(c)) {
			const m = /^-?\d[\d\-:T.Z+]*/.exec(src.slice(i));
			const raw = m ? m[0] : c;
			i += raw.length;
			if (/^-?\d+(\.\d+)?$/.test(raw)) {
				if (/^[mMdDfFlL]/.test(src[i] || '') && !/[A-Za-z0-9_]/.test(src[i + 1] || '')) i++;
				out.push({ t: 'lit', v: { vtype: 'number', value: Number(raw) }, pos });
			} else if (!Number.isNaN(parseInstant(raw))) {
				out.push({ t: 'lit', v: { vtype: 'datetime', value: parseInstant(raw) }, pos });
			} else fail(`invalid literal '${raw}'`);
		} else {
			fail(`unexpected character '${c}'`);
		}
	}
	return out;
}

/**
 * Resolve a property path against the schema.
 * @param {string} pathStr
 * @param {EntitySchema} schema
 * @returns {{ path: string[], ptype: ScalarType }}
 */
function resolveProperty(pathStr, schema) {
	const path = pathStr.split('/');
	/** @type {EntitySchema} */
	let type = schema;
	for (let k = 0; k < path.length; k++) {
		const f = Object.prototype.hasOwnProperty.call(type.fields, path[k]) ? type.fields[path[k]] : undefined;
		if (f === undefined) throw new ODataError(`Could not find a property named '${path[k]}' on type '${type.name}'.`);
		if (typeof f === 'string') {
			if (k < path.length - 1) throw new ODataError(`Property '${path[k]}' of type '${type.name}' has no sub-properties`);
			return { path, ptype: f };
		}
		type = f;
	}
	throw new ODataError(`Property '${pathStr}' is a complex type; compare one of its sub-properties, e.g. '${pathStr}/${Object.keys(type.fields)[0]}'`);
}

/**
 * Parse a $filter expression into an AST, checking property names against the schema.
 * @param {string} src
 * @param {EntitySchema} schema
 * @returns {FilterNode}
 */
function parseFilter(src, schema) {
	if (!String(src).trim()) throw new ODataError('$filter is empty');
	const toks = tokenize(String(src));
	let p = 0;
	const peek = () => toks[p];
	const fail = (/** @type {string} */ msg) => {
		const tok = toks[p];
		throw new ODataError(`Syntax error in $filter ${tok ? `at position ${tok.pos}` : 'at end of expression'}: ${msg}`);
	};
	/** @returns {Operand} */
	const operand = () => {
		const tok = toks[p];
		if (!tok) fail('expected a property or a value');
		if (tok.t === 'lit') {
			p++;
			return { kind: 'lit', ...tok.v };
		}
		if (tok.t === 'ident') {
			if (toks[p + 1] && toks[p + 1].t === '(') fail(`function '${tok.v}' is not supported`);
			p++;
			return { kind: 'prop', ...resolveProperty(tok.v, schema) };
		}
		return fail(`expected a property or a value but found '${tok.t}'`);
	};
	/** @returns {FilterNode} */
	const unary = () => {
		const tok = peek();
		if (!tok) return fail('expected a condition');
		if (tok.t === 'not') {
			p++;
			return { type: 'not', expr: unary() };
		}
		if (tok.t === '(') {
			p++;
			const e = orExpr();
			if (!peek() || peek().t !== ')') fail("expected ')'");
			p++;
			return e;
		}
		const left = operand();
		const opTok = peek();
		if (!opTok || !COMPARISON.has(opTok.t)) {
			if (left.kind === 'prop' && left.ptype === 'boolean') return { type: 'bool', operand: left };
			if (opTok && opTok.t === 'ident' && /^(eq|ne|gt|ge|lt|le)$/i.test(opTok.v)) fail(`operators are lower-case: use '${opTok.v.toLowerCase()}'`);
			return fail('expected a comparison operator (eq, ne, gt, ge, lt, le)');
		}
		p++;
		return { type: 'cmp', op: opTok.t, left, right: operand() };
	};
	/** @returns {FilterNode} */
	const andExpr = () => {
		let left = unary();
		while (peek() && peek().t === 'and') {
			p++;
			left = { type: 'and', left, right: unary() };
		}
		return left;
	};
	/** @returns {FilterNode} */
	const orExpr = () => {
		let left = andExpr();
		while (peek() && peek().t === 'or') {
			p++;
			left = { type: 'or', left, right: andExpr() };
		}
		return left;
	};
	const ast = orExpr();
	if (p < toks.length) {
		const t = toks[p];
		if (t.t === 'ident' && /^(and|or)$/i.test(t.v)) fail(`logical operators are lower-case: use '${t.v.toLowerCase()}'`);
		fail(`unexpected '${t.t === 'ident' || t.t === 'lit' ? String(t.v && t.v.value !== undefined ? t.v.value : t.v) : t.t}'`);
	}
	return ast;
}

module.exports = { ODataError, parseFilter, resolveProperty, tokenize, parseInstant };
