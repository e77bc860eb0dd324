/**
 * Issue 28 (point 2 and minors), as the editor shows the Order node's fields: amounts and
 * quantities are text read by the node's own parser (n8n 2.x's number field reads "12,50"
 * as 1250: its parser takes "," for a thousands separator), dates are date-only pickers
 * (a typed 2026-02-28 sticks; the date-and-time picker drops it), and Update's Approval
 * Status writes nothing until chosen.
 */
import type { INodeProperties } from 'n8n-workflow';

import { loadPackageNodes } from './packageNodes';

const ORDER = loadPackageNodes().find((n) => n.description.name === 'accessPointOrder')!.description;

/** Every property of the node, nested ones (collections, fixed collections) included, with its path. */
function walk(properties: INodeProperties[], path = ''): Array<[string, INodeProperties]> {
	return properties.flatMap((property) => {
		const here = `${path}${property.displayName}`;
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option && Array.isArray(option.values)) return walk(option.values, `${here} › ${option.displayName} › `);
			if ('type' in option && 'name' in option && 'displayName' in option) return walk([option as INodeProperties], `${here} › `);
			return [];
		});
		return [[here, property] as [string, INodeProperties], ...nested];
	});
}

const shownFor = (property: INodeProperties, operation: string) => {
	const operations = property.displayOptions?.show?.operation;
	return !operations || operations.includes(operation);
};
const fields = walk(ORDER.properties);

describe('the Order node as the editor shows it', () => {
	it.each([
		['recordPayment', 'Amount'],
		['create', 'Order Lines › Line › Quantity'],
		['create', 'Order Lines › Line › Unit Price Excl. VAT'],
		['create', 'Order Lines › Line › VAT Percentage'],
		['createAndSend', 'Order Lines › Line › Unit Price Excl. VAT'],
		['createCreditNote', 'Picked Lines › Line › Quantity'],
	])("%s › %s is text read by the node, not n8n's number field", (operation, path) => {
		const matches = fields.filter(([name, property]) => name === path && shownFor(property, operation));
		expect(matches.length).toBeGreaterThan(0);
		for (const [, property] of matches) expect(property.type).toBe('string');
	});

	it('every date of a payment, an order or a credit note is a date-only picker', () => {
		const dates = fields.filter(([, property]) => property.type === 'dateTime' && /Date/.test(property.displayName) && property.name !== 'startFrom');
		expect(dates.map(([name]) => name).sort()).toEqual(
			expect.arrayContaining(['Additional Fields › Delivery Date', 'Additional Fields › Expiry Date', 'Credit Note Date', 'Order Date', 'Payment Date']),
		);
		for (const [name, property] of dates) expect([name, property.typeOptions?.dateOnly]).toEqual([name, true]);
	});

	it('Update › Approval Status added writes nothing until chosen (no default among the API values)', () => {
		const [[, approval]] = fields.filter(([name]) => name === 'Update Fields › Approval Status');
		expect(approval.default).toBe('');
		expect((approval.options as Array<{ value: string }>).map((o) => o.value)).not.toContain('');
	});
});
