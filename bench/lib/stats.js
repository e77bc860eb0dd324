'use strict';
/** Median / min / max of a series and the printed table. */

function summary(values) {
	const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
	if (!v.length) return { n: 0, median: NaN, min: NaN, max: NaN };
	const mid = Math.floor(v.length / 2);
	const median = v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
	return { n: v.length, median, min: v[0], max: v[v.length - 1] };
}

/** Nearest-rank percentile (p in 0..100) of a series. */
function percentile(values, p) {
	const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
	if (!v.length) return NaN;
	return v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
}

/**
 * A row: label, values (one per run), unit formatter and an optional target
 * { op: '<=' | '<' | '=', value, text } checked against the median.
 */
function row(id, label, values, { unit = 'x', digits, target, note } = {}) {
	return { id, label, ...summary(values), unit, digits, target, note };
}

function fmt(value, unit, digits) {
	if (!Number.isFinite(value)) return 'n/a';
	switch (unit) {
		case 'x':
			return `${value.toFixed(digits ?? 2)}×`;
		case 'ms':
			return `${value.toFixed(digits ?? (value < 100 ? 1 : 0))} ms`;
		case 'kB':
			return `${(value / 1000).toFixed(digits ?? 1)} kB`;
		case 'MB':
			return `${(value / 1e6).toFixed(digits ?? 1)} MB`;
		case 'count':
			return String(Math.round(value * 10) / 10);
		default:
			return value.toFixed(digits ?? 2);
	}
}

function verdict(r) {
	if (!r.target) return '';
	if (!Number.isFinite(r.median)) return 'n/a';
	const { op, value } = r.target;
	const ok = op === '<=' ? r.median <= value : op === '<' ? r.median < value : op === '=' ? r.median === value && r.min === value && r.max === value : false;
	return ok ? 'met' : '**MISSED**';
}

function targetText(r) {
	if (!r.target) return '—';
	if (r.target.text) return r.target.text;
	const op = r.target.op === '<=' ? '≤' : r.target.op === '=' ? '=' : r.target.op;
	return `${op} ${fmt(r.target.value, r.unit, r.unit === 'x' ? 2 : undefined)}`;
}

/** Markdown table (it reads as plain text too). */
function table(rows) {
	const head = ['#', 'Figure', 'Median', 'Min', 'Max', 'n', 'Target', 'Result'];
	const body = rows.map((r) => [
		r.id,
		r.label,
		fmt(r.median, r.unit, r.digits),
		fmt(r.min, r.unit, r.digits),
		fmt(r.max, r.unit, r.digits),
		String(r.n),
		targetText(r),
		verdict(r),
	]);
	const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
	const line = (cells) => `| ${cells.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
	const rule = `|${widths.map((w, i) => (i >= 2 && i <= 5 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
	return [line(head), rule, ...body.map(line)].join('\n');
}

module.exports = { summary, percentile, row, table, fmt, verdict };
