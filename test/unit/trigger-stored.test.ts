/**
 * The stored cursor read back (pure): every damaged shape is either repaired (its
 * position still reads) or declared unusable with the problem in words; none throws,
 * none is taken as it is, and the words never repeat the stored text.
 */
import { loadState, lowerBound, scopeKey } from '../../nodes/OrderTrigger/cursor';

const T0 = Date.UTC(2024, 4, 1, 10, 0, 0) / 1000;
const SCOPE = scopeKey('100001', undefined);
const good = { version: 1, scope: SCOPE, from: T0, createdFrom: T0, seen: { '5': T0 } };

describe('loadState', () => {
	it('takes a sound state as it is, with or without createdAhead', () => {
		expect(loadState(good, SCOPE)).toEqual({ kind: 'ok', state: good });
		const withAhead = { ...good, createdAhead: { '7': T0 + 99 } };
		expect(loadState(withAhead, SCOPE)).toEqual({ kind: 'ok', state: withAhead });
		expect(loadState({ ...good, from: null, createdFrom: null }, SCOPE).kind).toBe('ok');
	});

	it.each<[string, unknown, RegExp]>([
		['a string', 'garbage', /it is text, not a cursor/],
		['a number', 42, /it is a number/],
		['a list', [good], /it is a list, not a cursor/],
		['another version', { ...good, version: 2 }, /it has another shape \(version 2, not 1\)/],
		['a version that is text', { ...good, version: 'v1' }, /it has another shape \(version text, not 1\)/],
		['no scope', { ...good, scope: undefined }, /its scope is missing/],
		['position as text', { ...good, from: '2024-05-01' }, /its position \(from\) is text/],
		[
			'position out of range (would throw when written into the filter)',
			{ ...good, from: 1e20 },
			/its position \(from\) is a number that is not a whole second of years 1-9999/,
		],
		['position NaN', { ...good, from: NaN }, /its position \(from\) is NaN/],
		['position a fraction', { ...good, from: T0 + 0.5 }, /its position \(from\)/],
		['position missing', { ...good, from: undefined }, /its position \(from\) is missing/],
	])('declares %s unusable and says why', (_name, raw, message) => {
		const result = loadState(raw, SCOPE);
		expect(result.kind).toBe('unusable');
		expect(result.kind === 'unusable' && result.problem).toMatch(message);
	});

	it.each<[string, unknown, RegExp, Record<string, unknown>]>([
		['createdFrom unreadable', { ...good, createdFrom: 'x' }, /"new since" bound \(createdFrom\) was text and is now the position/, { createdFrom: T0 }],
		['seen not an object', { ...good, seen: 'x' }, /handled at the position was text/, { seen: {} }],
		['seen missing', { ...good, seen: undefined }, /handled at the position was missing/, { seen: {} }],
		[
			'seen entries unreadable',
			{ ...good, seen: { '5': T0, '6': 'x', '7': null, '8': 1e30 } },
			/partly unreadable \(3 entries dropped\)/,
			{ seen: { '5': T0 } },
		],
	])('repairs %s and carries on from the position', (_name, raw, message, expected) => {
		const result = loadState(raw, SCOPE);
		expect(result.kind).toBe('repaired');
		if (result.kind !== 'repaired') return;
		expect(result.problem).toMatch(message);
		expect(result.state).toEqual({ ...good, ...expected });
		expect(lowerBound(result.state)).toBe('2024-05-01T10:00:00');
	});

	it('never repeats the stored text in its words', () => {
		const marker = 'stored-0123456789';
		for (const raw of [marker, { ...good, from: marker }, { ...good, seen: marker }, { ...good, version: marker }, { ...good, scope: 7 }]) {
			const result = loadState(raw, SCOPE);
			expect(JSON.stringify(result)).not.toContain('0123456789');
		}
	});
});
