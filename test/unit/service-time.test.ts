/** The service's zoneless Belgian timestamps and the clocks moved into them (nodes/OrderTrigger/cursor.ts). */
import { brusselsOffset, isZoneless, parseTimestamp, serviceClock } from '../../nodes/OrderTrigger/cursor';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('Belgian time (EU summer time rule)', () => {
	it.each([
		['2026-01-15T12:00:00Z', 3600],
		['2026-03-29T00:59:59Z', 3600], // last Sunday of March, just before 01:00 UTC
		['2026-03-29T01:00:00Z', 7200],
		['2026-07-01T00:00:00Z', 7200],
		['2026-10-25T00:59:59Z', 7200], // last Sunday of October
		['2026-10-25T01:00:00Z', 3600],
		['2025-03-30T01:00:00Z', 7200],
		['2024-10-27T00:30:00Z', 7200],
	])('%s is UTC+%d s', (iso, offset) => {
		expect(brusselsOffset(at(iso))).toBe(offset);
	});

	it('zoneless is how the service writes; a zone or a date alone is not', () => {
		expect(isZoneless('2026-05-04T09:55:34.063')).toBe(true);
		expect(isZoneless('2026-05-04T09:55:34')).toBe(true);
		expect(isZoneless('2026-05-04T09:55:34Z')).toBe(false);
		expect(isZoneless('2026-05-04T09:55:34+02:00')).toBe(false);
		expect(isZoneless('2026-05-04')).toBe(false);
		expect(isZoneless(42)).toBe(false);
	});

	it('a clock moves into Belgian time only for zoneless stamps; the stamps themselves are read as written', () => {
		const now = at('2026-05-04T07:55:34Z');
		expect(serviceClock(now, true)).toBe(parseTimestamp('2026-05-04T09:55:34.063'));
		expect(serviceClock(now, false)).toBe(now);
	});
});
