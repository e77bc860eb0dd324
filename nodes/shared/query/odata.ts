/**
 * OData query options (README "Filters without OData"; docs/api.md "Queries and paging"):
 * conditions and sort keys become `$filter` / `$orderby` strings. Pure: no n8n, no I/O.
 *
 * Values are built as plain text and handed to the client in `qs`; the client writes the URL
 * itself with `toQueryString` (http/url.ts), never n8n's `qs` serializer, which splits an emoji straddling
 * its 1,024-character slices. Never pre-encode a value put in `qs`: it would be encoded twice.
 */

export type ODataType = 'string' | 'number' | 'boolean' | 'date' | 'datetime' | 'null';
export type ComparisonOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
export type Combine = 'and' | 'or';
export type SortDirection = 'asc' | 'desc';

export interface FilterCondition {
	/** Property path, e.g. `OrderDate` or `CounterParty/DisplayName`. */
	field: string;
	operator: ComparisonOperator;
	value: unknown;
	type: ODataType;
}

export interface SortKey {
	field: string;
	direction: SortDirection;
}

const COMPARISON_OPERATORS: readonly ComparisonOperator[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];

/** A query that cannot be built; `field` and `index` say which input was wrong. */
export class ODataError extends Error {
	constructor(
		message: string,
		readonly field?: string,
		readonly index?: number,
	) {
		super(message);
		this.name = 'ODataError';
	}
}

const PATH_SEGMENT = '[A-Za-z_][A-Za-z0-9_]*';
const PROPERTY_PATH = new RegExp(`^${PATH_SEGMENT}(?:/${PATH_SEGMENT})*$`);
const RESERVED_WORDS = new Set(['and', 'or', 'not', 'eq', 'ne', 'gt', 'ge', 'lt', 'le', 'true', 'false', 'null', 'asc', 'desc']);

export function isValidPropertyPath(path: string): boolean {
	if (typeof path !== 'string' || !PROPERTY_PATH.test(path)) return false;
	return !path.split('/').some((segment) => RESERVED_WORDS.has(segment));
}

/** The trimmed path, or an ODataError naming it. */
export function assertPropertyPath(path: unknown, index?: number): string {
	const text = typeof path === 'string' ? path.trim() : '';
	if (!text) throw new ODataError('A property name is empty', undefined, index);
	if (!isValidPropertyPath(text)) {
		throw new ODataError(`"${text.slice(0, 80)}" is not a valid property path (letters, digits, _ and /, e.g. CounterParty/DisplayName)`, text, index);
	}
	return text;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

const pad = (n: number) => String(n).padStart(2, '0');

function isRealDate(y: number, m: number, d: number): boolean {
	const check = new Date(Date.UTC(y, m - 1, d));
	return check.getUTCFullYear() === y && check.getUTCMonth() === m - 1 && check.getUTCDate() === d;
}

/** Text of a date-like value: strings, JS Dates and objects with toISO() (Luxon, as n8n's $now). */
function dateText(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim();
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	if (value && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		return (value as { toISO: () => string | null }).toISO() ?? undefined;
	}
	return undefined;
}

/** `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ss` (a zone converted to UTC, fractions dropped); undefined for no real calendar date. */
export function normalizeDate(value: unknown): string | undefined {
	const text = dateText(value);
	if (!text) return undefined;
	const dateOnly = DATE_ONLY.exec(text);
	if (dateOnly) {
		const [y, m, d] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
		return isRealDate(y, m, d) ? text : undefined;
	}
	const match = DATE_TIME.exec(text);
	if (!match) return undefined;
	const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(match[i]));
	const s = Number(match[6] ?? 0);
	if (!isRealDate(y, mo, d) || h > 23 || mi > 59 || s > 59) return undefined;
	const zone = match[7];
	if (!zone) return `${match[1]}-${match[2]}-${match[3]}T${pad(h)}:${pad(mi)}:${pad(s)}`;
	let t = Date.UTC(y, mo - 1, d, h, mi, s);
	if (zone.toUpperCase() !== 'Z') {
		const z = zone.replace(':', '');
		const offset = (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5))) * (z[0] === '-' ? -1 : 1);
		t -= offset * 60_000;
	}
	return new Date(t).toISOString().slice(0, 19);
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Index of the first unpaired surrogate (half an emoji), or -1: such text cannot be written as UTF-8, so not in a URL. */
export function unpairedSurrogateAt(text: string): number {
	const match = UNPAIRED_SURROGATE.exec(text);
	return match ? match.index : -1;
}

/** One OData literal: 'text' (quotes doubled), DateTime'…', bare numbers and booleans, null; ODataError when the value does not fit. */
export function formatLiteral(value: unknown, type: ODataType): string {
	const result = tryFormatLiteral(value, type);
	if ('problem' in result) throw new ODataError(result.problem);
	return result.literal;
}

/** formatLiteral without throwing: the literal, or the problem with the value. */
export function tryFormatLiteral(value: unknown, type: ODataType): { literal: string } | { problem: string } {
	const fail = (problem: string) => ({ problem });
	switch (type) {
		case 'null':
			return { literal: 'null' };
		case 'string': {
			if (value === null || value === undefined) return fail('A text value is missing');
			if (typeof value === 'object') return fail('A text value must be text, not an object or a list');
			const text = String(value);
			const at = unpairedSurrogateAt(text);
			if (at >= 0) return fail(`The text value contains an invalid (unpaired surrogate) character at position ${at + 1}`);
			return { literal: `'${text.replace(/'/g, "''")}'` };
		}
		case 'number': {
			const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
			if (typeof value === 'number' && !Number.isFinite(value)) return fail(`${String(value)} is not a finite number`);
			if (!/^-?\d+(\.\d+)?$/.test(text)) {
				if (typeof value === 'number') {
					// Large or tiny numbers print with an exponent; write them out in full.
					const fixed = value.toFixed(20).replace(/\.?0+$/, '');
					if (/^-?\d+(\.\d+)?$/.test(fixed)) return { literal: fixed };
				}
				return fail(`"${String(value).slice(0, 60)}" is not a number (e.g. 12.5)`);
			}
			return { literal: text.replace(/^(-?)0+(?=\d)/, '$1') };
		}
		case 'boolean': {
			if (typeof value === 'boolean') return { literal: String(value) };
			const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
			if (text === 'true' || text === 'false') return { literal: text };
			return fail(`"${String(value).slice(0, 60)}" is not a boolean (use true or false)`);
		}
		case 'date':
		case 'datetime': {
			const normalized = normalizeDate(value);
			if (!normalized) {
				return fail(
					`"${String(value instanceof Date ? 'Invalid Date' : value).slice(0, 60)}" is not a valid ${type === 'datetime' ? 'date and time' : type} (use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss)`,
				);
			}
			return { literal: `DateTime'${normalized}'` };
		}
		default:
			return fail(`Unknown value type "${String(type)}"`);
	}
}

/** `<path> <op> <literal>` for one condition. */
export function buildCondition(condition: FilterCondition, index?: number): string {
	const field = assertPropertyPath(condition.field, index);
	if (!COMPARISON_OPERATORS.includes(condition.operator)) {
		throw new ODataError(`Unknown operator "${String(condition.operator)}" (use eq, ne, gt, ge, lt or le)`, field, index);
	}
	if (condition.type === 'null' && condition.operator !== 'eq' && condition.operator !== 'ne') {
		throw new ODataError(`"${field}" can only be compared with empty (null) using equals or not equals`, field, index);
	}
	const literal = tryFormatLiteral(condition.value, condition.type);
	if ('problem' in literal) throw new ODataError(`${field}: ${literal.problem}`, field, index);
	return `${field} ${condition.operator} ${literal.literal}`;
}

/** Conditions joined with ` and ` / ` or `; '' when there are none. */
export function buildFilter(conditions: FilterCondition[], combine: Combine = 'and'): string {
	if (combine !== 'and' && combine !== 'or') throw new ODataError(`Unknown combination "${String(combine)}" (use and or or)`);
	return conditions.map((condition, index) => buildCondition(condition, index)).join(` ${combine} `);
}

/** Index of the quote closing the text value opened at `start` (a doubled quote is part of the value), or -1. */
function closingQuote(text: string, start: number): number {
	for (let j = start + 1; j < text.length; j++) {
		if (text[j] !== text[start]) continue;
		if (text[j + 1] !== text[start]) return j;
		j++;
	}
	return -1;
}

/** Whether a filter has an `or` at depth 0 and is enclosed in one pair of parentheses; ODataError for unbalanced text or parentheses. */
export function scanFilter(filter: string): { topLevelOr: boolean; enclosed: boolean } {
	let depth = 0;
	let topLevelOr = false;
	let enclosed = filter.startsWith('(');
	for (let i = 0; i < filter.length; i++) {
		const c = filter[i];
		if (c === "'" || c === '"') {
			const end = closingQuote(filter, i);
			if (end < 0) throw new ODataError(`The filter has an unterminated text value starting at position ${i}`);
			i = end;
			continue;
		}
		if (c === '(') depth++;
		else if (c === ')') {
			depth--;
			if (depth < 0) throw new ODataError(`The filter closes a parenthesis it never opened (position ${i})`);
			if (depth === 0 && i !== filter.length - 1) enclosed = false;
		} else if (depth === 0 && /^or[\s(]/i.test(filter.slice(i, i + 3)) && i > 0 && /[\s)]/.test(filter[i - 1])) {
			topLevelOr = true;
		}
	}
	if (depth !== 0) throw new ODataError('The filter opens a parenthesis it never closes');
	return { topLevelOr, enclosed: enclosed && filter.endsWith(')') };
}

/** ANDs the non-empty filters, parenthesising a part with a top-level `or`: `a or b` AND `c` is `(a or b) and c`. */
export function andFilters(...filters: Array<string | undefined | null>): string | undefined {
	const parts = filters.map((filter) => (filter ?? '').trim()).filter((filter) => filter !== '');
	if (parts.length === 0) return undefined;
	return parts
		.map((part) => {
			const scan = scanFilter(part);
			return parts.length > 1 && scan.topLevelOr && !scan.enclosed ? `(${part})` : part;
		})
		.join(' and ');
}

/** `$orderby`: `Field[ desc]` joined by commas; '' for no keys. */
export function buildOrderBy(keys: SortKey[]): string {
	const seen = new Set<string>();
	return keys
		.map((key, index) => {
			const field = assertPropertyPath(key.field, index);
			if (key.direction !== 'asc' && key.direction !== 'desc') {
				throw new ODataError(`Unknown sort direction "${String(key.direction)}" for ${field} (use asc or desc)`, field, index);
			}
			if (seen.has(field)) throw new ODataError(`${field} is in the sort order twice`, field, index);
			seen.add(field);
			return key.direction === 'desc' ? `${field} desc` : field;
		})
		.join(',');
}

/**
 * A hand-written filter as copied from the API docs: outside quoted text (kept exactly) a `+` (the docs' URL space) or
 * whitespace becomes one space; quotes and parentheses must balance; `%` is left alone (the value is encoded once when sent).
 */
export function normalizeRawFilter(raw: string): string {
	let out = '';
	let space = false;
	const text = String(raw ?? '');
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '+' || /\s/.test(c)) {
			space = true;
			continue;
		}
		if (space && out) out += ' ';
		space = false;
		if (c === "'" || c === '"') {
			const end = closingQuote(text, i);
			out += end < 0 ? text.slice(i) : text.slice(i, end + 1);
			i = end < 0 ? text.length : end;
			continue;
		}
		out += c;
	}
	const at = unpairedSurrogateAt(out);
	if (at >= 0) throw new ODataError(`The filter contains an invalid (unpaired surrogate) character at position ${at + 1}`);
	if (out) scanFilter(out);
	return out;
}
