/**
 * Receiving supplier invoices: the Order Trigger's New Incoming Supplier Invoice event (query.ts, pure),
 * and the words people search the node panel with (the editor's search over display names and
 * codex aliases, as panel-search.test.ts runs it).
 */
import { AccessPointOrderTrigger } from '../../nodes/OrderTrigger/AccessPointOrderTrigger.node';
import { cursorEvent, triggerFilter } from '../../nodes/OrderTrigger/cursor';
import { builtInNodes, loadPackageNodes, PACKAGE_NAME, searchNodePanel } from './packageNodes';

describe('Order Trigger › New Incoming Supplier Invoice (query.ts)', () => {
	it('asks for Cost invoices and credit notes (#37: not order forms, offers, delivery notes) not exported yet, whatever Direction says, with the order type and bound', () => {
		expect(triggerFilter({ event: 'newIncomingInvoice', orderType: '', direction: 'Income', modifiedFrom: '2026-01-02T03:04:05' })).toBe(
			"(OrderType eq 'Invoice' or OrderType eq 'CreditNote') and OrderDirection eq 'Cost' and IsSent eq false and LastModified ge DateTime'2026-01-02T03:04:05'",
		);
		expect(triggerFilter({ event: 'newIncomingInvoice', orderType: 'CreditNote', direction: '' })).toBe(
			"OrderType eq 'CreditNote' and OrderDirection eq 'Cost' and IsSent eq false",
		);
	});

	it('leaves the other events as they were', () => {
		expect(triggerFilter({ event: 'newOrder', orderType: 'Invoice', direction: 'Income' })).toBe("OrderType eq 'Invoice' and OrderDirection eq 'Income'");
		expect(triggerFilter({ orderType: '', direction: '' })).toBe('');
	});

	it('is named so that the node panel shows it as it is ("On " + lodash startCase of the name drops brackets)', () => {
		const event = new AccessPointOrderTrigger().description.properties.find((p) => p.name === 'event');
		const names = (event?.options ?? []).map((o) => o.name);
		expect(names).toContain('New Incoming Supplier Invoice');
		for (const name of names) expect(name).toMatch(/^[A-Z][a-z]*( [A-Za-z][a-z]*)*$/);
	});

	it('follows every change of a received invoice (an order marked Not Exported again comes again)', () => {
		expect(cursorEvent('newIncomingInvoice')).toBe('newOrUpdatedOrder');
		expect(cursorEvent('newOrder')).toBe('newOrder');
		expect(cursorEvent('newOrUpdatedOrder')).toBe('newOrUpdatedOrder');
	});
});

describe('the node panel finds the receiving side under the words people use', () => {
	const ours = loadPackageNodes().map((n) => ({
		key: `${PACKAGE_NAME}.${n.description.name}`,
		properties: { displayName: n.description.displayName, codex: n.codex },
	}));
	const everyNode = [...builtInNodes(), ...ours];

	it.each(['incoming', 'received', 'supplier invoice', 'purchase', 'inbox', 'purchase invoice', 'received invoice'])(
		'"%s" finds the Order node and the Order Trigger',
		(term) => {
			const found = searchNodePanel(term, everyNode).map((r) => r.key);
			expect(found).toEqual(expect.arrayContaining([`${PACKAGE_NAME}.accessPointOrder`, `${PACKAGE_NAME}.accessPointOrderTrigger`]));
		},
	);

	it.each(['customer', 'product'])('"%s" finds the Order node (parties and products)', (term) => {
		expect(searchNodePanel(term, everyNode).map((r) => r.key)).toContain(`${PACKAGE_NAME}.accessPointOrder`);
	});
});
