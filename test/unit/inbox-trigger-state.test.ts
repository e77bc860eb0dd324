/**
 * The Inbox Trigger's memory (nodes/InboxTrigger/state.ts): each InboxItemID emitted once,
 * bounded memory that never forgets a listed item, confirms due at the next poll, the blocked
 * window, and a stored state that is damaged or for another party.
 */
import type { InboxState, Listed } from '../../nodes/InboxTrigger/state';
import { dueConfirms, emptyState, isBlocked, loadState, MAX_REMEMBERED, newItems, nextState } from '../../nodes/InboxTrigger/state';

const listed = (...ids: number[]): Listed[] => ids.map((id) => ({ key: String(id), item: { InboxItemID: id } }));
const keys = (entries: Listed[]) => entries.map((e) => e.key);

describe('Inbox Trigger state', () => {
	it('emits what was never emitted, in list order, once', () => {
		let state = emptyState('100001');
		const first = newItems(state, listed(1, 2, 3));
		expect(keys(first)).toEqual(['1', '2', '3']);
		state = nextState(state, { listed: listed(1, 2, 3), emitted: keys(first), confirmLater: [], confirmed: [] });
		expect(keys(newItems(state, listed(1, 2, 3, 4)))).toEqual(['4']);
		expect(keys(newItems(state, listed(2, 4, 4)))).toEqual(['4']);
	});

	it('confirms at the next poll what is still listed; drops what someone else confirmed; keeps a failed one', () => {
		let state: InboxState = nextState(emptyState('p'), { listed: listed(1, 2, 3), emitted: ['1', '2', '3'], confirmLater: ['1', '2', '3'], confirmed: [] });
		expect(state.toConfirm).toEqual(['1', '2', '3']);
		// Item 2 was confirmed by the workflow itself: it is no longer listed.
		expect(dueConfirms(state, listed(1, 3))).toEqual(['1', '3']);
		state = nextState(state, { listed: listed(3, 4), emitted: ['4'], confirmLater: ['4'], confirmed: ['1'] });
		expect(state.toConfirm).toEqual(['3', '4']);
		expect(state.emitted).toEqual(['1', '2', '3', '4']);
	});

	it('memory is bounded and never forgets an item the last list showed', () => {
		let state = emptyState('p');
		const window = listed(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
		state = nextState(state, { listed: window, emitted: keys(window), confirmLater: [], confirmed: [] });
		for (let id = 11; id <= MAX_REMEMBERED + 500; id++)
			state = nextState(state, { listed: [...window, ...listed(id)], emitted: [String(id)], confirmLater: [], confirmed: [] });
		expect(state.emitted).toHaveLength(MAX_REMEMBERED);
		for (let id = 1; id <= 10; id++) expect(state.emitted).toContain(String(id));
		expect(newItems(state, window)).toEqual([]);
	});

	it('the window is blocked when full of emitted items none of which will be confirmed', () => {
		const ten = listed(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
		const emitted = nextState(emptyState('p'), { listed: ten, emitted: keys(ten), confirmLater: [], confirmed: [] });
		expect(isBlocked(emitted, ten, 10)).toBe(true);
		expect(isBlocked(emitted, ten.slice(1), 10)).toBe(false);
		expect(isBlocked({ ...emitted, toConfirm: ['4'] }, ten, 10)).toBe(false);
		expect(isBlocked(emptyState('p'), ten, 10)).toBe(false);
	});

	it('a stored state: another party starts over; a damaged one starts over with words; bad entries are dropped', () => {
		const good: InboxState = { version: 1, scope: '100001', emitted: ['5', '6'], toConfirm: ['6'] };
		expect(loadState(good, '100001')).toEqual({ state: good });
		expect(loadState(good, '300001')).toEqual({ state: emptyState('300001') });
		expect(loadState(undefined, 'x')).toEqual({ state: emptyState('x') });
		expect(loadState('garbage', 'x')).toEqual({ state: emptyState('x'), problem: 'it is not a state this version wrote' });
		expect(loadState({ version: 1, scope: 'x' }, 'x')).toEqual({ state: emptyState('x'), problem: 'its lists are missing' });
		expect(loadState({ version: 1, scope: 'x', emitted: ['1', { evil: true }, '2'], toConfirm: [null] }, 'x')).toEqual({
			state: { version: 1, scope: 'x', emitted: ['1', '2'], toConfirm: [] },
			problem: '2 entries did not read and were dropped',
		});
	});
});
