/**
 * Timestamps as the API and HTTP write them (pure). The cursor works in whole epoch
 * seconds: LastModified has second resolution, and so has the filter's literal.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const MS_JSON = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/;

/**
 * A timestamp (ISO 8601, `/Date(ms)/`, epoch ms) as epoch seconds. A zoneless time counts as
 * written (as if UTC): the service writes and reads its stamps in Belgian time, so the cursor
 * stays in its frame; only the clocks are moved into it (`serviceClock`).
 */
export function parseTimestamp(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? Math.floor(value / 1000) : undefined;
	if (value instanceof Date) {
		const t = value.getTime();
		return Number.isNaN(t) ? undefined : Math.floor(t / 1000);
	}
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	const ms = MS_JSON.exec(text);
	if (ms) return Math.floor(Number(ms[1]) / 1000);
	const m = ISO.exec(text);
	if (!m) return undefined;
	const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
	if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return undefined;
	let t = Date.UTC(y, mo - 1, d, h, mi, s);
	if (new Date(t).getUTCDate() !== d) return undefined;
	const zone = m[8];
	if (zone && zone.toUpperCase() !== 'Z') {
		const z = zone.replace(':', '');
		const minutes = (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5))) * (z[0] === '-' ? -1 : 1);
		t -= minutes * 60_000;
	}
	return Math.floor(t / 1000);
}

/** `YYYY-MM-DDThh:mm:ss` (UTC) for epoch seconds: the text of the filter's DateTime literal. */
export function formatSeconds(seconds: number): string {
	return new Date(seconds * 1000).toISOString().slice(0, 19);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

/** An HTTP `Date` header (IMF-fixdate, RFC 9110) as epoch seconds; undefined for a year outside 2000-9999. */
export function parseHttpDate(value: unknown): number | undefined {
	const m = typeof value === 'string' ? IMF_FIXDATE.exec(value.trim()) : null;
	const month = m ? MONTHS.indexOf(m[2]) + 1 : 0;
	if (!m || !month || Number(m[3]) < 2000) return undefined;
	return parseTimestamp(`${m[3]}-${String(month).padStart(2, '0')}-${m[1]}T${m[4]}:${m[5]}:${m[6]}Z`);
}

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in epoch seconds: the times the filter's literal can write. */
const FIRST_SECOND = -62_135_596_800;
const LAST_SECOND = 253_402_300_799;

/** A whole second the cursor can stand on and write into the filter. */
export function isWritableSecond(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value >= FIRST_SECOND && value <= LAST_SECOND;
}

/** Seconds Brussels is ahead of UTC at an instant: CEST (+2 h) from the last Sunday of March to the last Sunday of October, 01:00 UTC (EU rule), else CET (+1 h). */
export function brusselsOffset(utcSeconds: number): number {
	const year = new Date(utcSeconds * 1000).getUTCFullYear();
	const lastSunday = (month: number) => {
		const last = Date.UTC(year, month + 1, 0, 1);
		return last / 1000 - new Date(last).getUTCDay() * 86_400;
	};
	return utcSeconds >= lastSunday(2) && utcSeconds < lastSunday(9) ? 7200 : 3600;
}

/** True for an ISO date-time written without a zone, the way the service writes its timestamps ("2026-05-04T09:55:34.063"). */
export function isZoneless(value: unknown): boolean {
	const m = typeof value === 'string' ? ISO.exec(value.trim()) : null;
	return !!m && m[4] !== undefined && m[8] === undefined;
}

/** A clock (epoch seconds) in the stamps' frame: Belgian wall-clock time when they carry no zone (docs/api.md "Orders"). */
export function serviceClock(utcSeconds: number, zoneless: boolean): number {
	return zoneless ? utcSeconds + brusselsOffset(utcSeconds) : utcSeconds;
}
