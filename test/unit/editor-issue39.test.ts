/**
 * Issue 39 as the editor shows it (descriptions, defaults and texts, computed by n8n-workflow's
 * NodeHelpers as the editor computes them): money typed as text, the https rule said where the
 * Base URL is typed, hints that keep their promises, names that lead with invoices.
 */
import type { INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { AccessPointApi } from '../../credentials/AccessPointApi.credentials';
import { checkNumericId } from '../../nodes/shared/domain/validation';
import { AccessPointOAuth2Api } from '../../credentials/AccessPointOAuth2Api.credentials';
import { packageJson } from './helpers/release';
import { PACKAGE_NAME, loadPackageNodes, searchNodePanel } from './packageNodes';

const nodes = loadPackageNodes();
const node = (name: string): INodeTypeDescription => {
	const found = nodes.find((n) => n.description.name === name);
	if (!found) throw new Error(`no node ${name}`);
	return found.description;
};
const nodeOf = (description: INodeTypeDescription, parameters: INodeParameters): INode => ({
	id: '00000000-0000-4000-8000-000000000039',
	name: 'n',
	type: `${PACKAGE_NAME}.${description.name}`,
	typeVersion: 1,
	position: [0, 0],
	parameters,
});

/** Every property of a description, with the options of its collections and fixed collections. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) => [
		p,
		...allProperties(
			((p.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>).flatMap((o) =>
				'values' in o && Array.isArray(o.values) ? o.values : 'type' in o && 'displayName' in o ? [o as INodeProperties] : [],
			),
		),
	]);
}

describe('item 1: every amount, price and quantity is typed as text (2,35 is never 235)', () => {
	it('no number field of any node takes money or a quantity', () => {
		const money = /amount|price|quantity|total|vat percentage|to pay/i;
		const numberFields = nodes.flatMap(({ description }) =>
			allProperties(description.properties)
				.filter((p) => p.type === 'number' && money.test(p.displayName))
				.map((p) => `${description.displayName} › ${p.displayName}`),
		);
		expect(numberFields).toEqual([]);
	});

	it('Product › Create or Update: the price and quantity fields are text with the forms they take', () => {
		const fields = node('accessPointOrder').properties.find((p) => p.name === 'productFields')?.options as INodeProperties[];
		const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
		for (const name of ['amountExcl', 'amountIncl', 'buyExcl', 'minimumBilledQuantity', 'stockQuantity', 'vat']) {
			expect([name, byName[name].type, byName[name].default]).toEqual([name, 'string', '']);
		}
		expect(byName.amountExcl.description).toMatch(/1\.250,50/);
	});
});

describe('item 8: a plain-http Custom Base URL says the https rule where it is typed', () => {
	const notices = (properties: INodeProperties[], values: INodeParameters) =>
		properties.filter((p) => p.type === 'notice' && NodeHelpers.displayParameter(values, p, null, null)).map((p) => p.displayName);

	it.each([
		['API key', new AccessPointApi().properties],
		['OAuth2', new AccessPointOAuth2Api().properties],
	])('%s credential: the notice shows for http on another host (and ftp), never for https or a loopback host', (_label, properties) => {
		for (const baseUrl of ['http://api.example.test', ' http://localhost.example.test:80', 'ftp://api.example.test']) {
			expect(notices(properties, { environment: 'custom', baseUrl })).toEqual([
				expect.stringMatching(/^This Base URL is refused: it must start with https:\/\//),
			]);
		}
		for (const baseUrl of ['https://proxy.example.test', 'HTTPS://proxy.example.test', 'http://localhost:5678', 'http://127.0.0.1:8080/api', '']) {
			expect(notices(properties, { environment: 'custom', baseUrl })).toEqual([]);
		}
		expect(notices(properties, { environment: 'sandbox', baseUrl: 'http://api.example.test' })).toEqual([]);
	});
});

describe('item 9: an ID hint promises no list the field does not have', () => {
	it.each([[{ a: 1 }], [''], ['abc']])('checkNumericId(%j) says to enter or map the ID', (value) => {
		const check = checkNumericId(value, 'PartyID');
		expect(check.ok).toBe(false);
		if (!check.ok)
			expect([check.hint, check.hint.includes('list')]).toEqual([expect.stringMatching(/^Enter the PartyID .*\{\{ \$json\.PartyID \}\}\.$/), false]);
	});
});

describe('item 9: one ID convention: an ID the input item carries is its default, the hint says where it comes from', () => {
	/** Every ID field of every node: [node, where it shows, name, default]. */
	const idFields = nodes.flatMap(({ description }) =>
		allProperties(description.properties)
			.filter((p) => /\bID\b/.test(p.displayName) || /Id$/.test(p.name) || (p.type === 'resourceLocator' && p.name !== 'model'))
			.map((p) => ({ node: description.name, show: JSON.stringify(p.displayOptions?.show ?? {}), p })),
	);
	const expr = (key: string) => `={{ $json.${key} }}`;
	/** Fields taking the input item's ID, by name, and the key the operations before them output it under. */
	const fromInput: Record<string, string> = {
		orderId: 'OrderID',
		partyId: 'PartyID',
		productId: 'ProductID',
		fileId: 'FileID',
		inboxItemId: 'InboxItemID',
		peppolFileId: 'PeppolFileID',
	};

	it("every required ID field of a record the input item carries defaults to that item's ID, the same way everywhere", () => {
		const taking = idFields.filter(({ p }) => p.required && fromInput[p.name]);
		expect(taking.map(({ node, p }) => `${node}.${p.name}`).sort()).toEqual(
			[
				...Array(9).fill('accessPointOrder.orderId'),
				'accessPointOrder.partyId',
				'accessPointOrder.partyId',
				'accessPointOrder.productId',
				'accessPointOrder.fileId',
				'accessPointInbox.inboxItemId',
				'accessPointInbox.inboxItemId',
				'accessPointInbox.peppolFileId',
			].sort(),
		);
		for (const { node: name, show, p } of taking) {
			const value = p.type === 'resourceLocator' ? (p.default as { mode: string; value: string }) : { mode: 'id', value: p.default };
			expect([name, show, p.name, value]).toEqual([name, show, p.name, { mode: 'id', value: expr(fromInput[p.name]) }]);
			// The hint says where the value comes from, and promises a list only where the field has one.
			expect([name, p.name, p.description]).toEqual([
				name,
				p.name,
				expect.stringMatching(new RegExp(`input item's ${fromInput[p.name]}|${fromInput[p.name]} of the item`)),
			]);
		}
	});

	it("Party › Update and Record Payment start with the input item's ID, the order field still offers its list", () => {
		const order = node('accessPointOrder');
		const at = (operation: string, name: string) =>
			order.properties.find((p) => p.name === name && (p.displayOptions?.show?.operation as string[] | undefined)?.includes(operation));
		expect(at('update', 'partyId')?.default).toBe('={{ $json.PartyID }}');
		expect(at('update', 'partyId')?.description).toBe("By default the input item's PartyID (Find by VAT Number, Create and Get give it)");
		const payment = at('recordPayment', 'orderId')!;
		expect(payment.default).toEqual({ mode: 'id', value: '={{ $json.OrderID }}' });
		expect(payment.modes?.map((m) => m.name)).toEqual(['list', 'id']);
		expect(payment.description).toMatch(/^The invoice or credit note that was paid: by default the input item's OrderID .*; or pick it From List$/);
		// n8n shows no issue for the default (an expression), so a new node is not marked red before it runs.
		const values = NodeHelpers.getNodeParameters(order.properties, { resource: 'order', operation: 'recordPayment' }, true, false, null, order);
		expect(NodeHelpers.getNodeParametersIssues(order.properties, nodeOf(order, values!), order)?.parameters?.orderId).toBeUndefined();
	});

	it("an ID that is not the input item's is a list of the account's own entities, or optional and empty", () => {
		const rest = idFields.filter(({ p }) => !(p.required && fromInput[p.name]));
		for (const { node: name, p } of rest) {
			if (p.required) {
				expect([name, p.name, p.type, p.default]).toEqual([name, p.name, 'resourceLocator', { mode: 'list', value: '' }]);
				expect(p.modes?.[0]?.type).toBe('list');
			} else expect([name, p.name, p.default]).toEqual([name, p.name, p.type === 'number' ? 0 : '']);
		}
		// No plain-text ID field tells the user to select it from a list ("List" the operation aside).
		const textIds = idFields.filter(({ p }) => p.type === 'string').map(({ p }) => `${p.description ?? ''} ${p.hint ?? ''} ${p.placeholder ?? ''}`);
		expect(textIds.filter((t) => /\b(list|select)\b|From List/.test(t))).toEqual([]);
	});
});

describe('item 11: the node panel leads with invoices, sending and receiving', () => {
	const ours = nodes.map((n) => ({ key: n.description.name, properties: { displayName: n.description.displayName, codex: n.codex } }));

	it('searching "invoice" lists the node that makes invoices first, then its trigger', () => {
		expect(
			searchNodePanel('invoice', ours)
				.map((r) => r.key)
				.slice(0, 2)
				.sort(),
		).toEqual(['accessPointOrder', 'accessPointOrderTrigger']);
	});

	it('the webhook trigger is not a bare "AccessPoint" in the panel (it drops "Trigger"); node type names are unchanged (saved workflows)', () => {
		const names = Object.fromEntries(nodes.map((n) => [n.description.name, n.description.displayName]));
		expect(names.accessPointTrigger.replace(/ Trigger$/, '')).toBe('AccessPoint Invoice Events');
		expect(names.accessPointOrder).toBe('AccessPoint Invoices and Orders');
		// n8n merges a trigger into the action node whose name it carries.
		expect(names.accessPointOrderTrigger).toBe(`${names.accessPointOrder} Trigger`);
		expect(node('accessPointOrder').description).toMatch(/^Create, send and read invoices/);
		expect(nodes.map((n) => n.description.defaults.name)).toContain('AccessPoint Order');
	});
});

describe('item 13: Find by VAT Number can let "not found" go on', () => {
	it('If None Found offers a not-found item; Output Nothing stays the default (saved workflows unchanged)', () => {
		const field = node('accessPointOrder').properties.find((p) => p.name === 'ifNone');
		expect(field?.default).toBe('nothing');
		expect((field?.options as Array<{ value: string }>).map((o) => o.value)).toEqual(['nothing', 'item']);
		expect(field?.displayOptions?.show).toEqual({ resource: ['party'], operation: ['findByVat'] });
	});
});

describe('items 16 and 17: words a user understands, and room for the hints that help', () => {
	const order = node('accessPointOrder');
	const shown = (name: string, values: INodeParameters) =>
		order.properties.filter((p) => p.name === name && NodeHelpers.displayParameter(values, p, nodeOf(order, values), order));

	it('Product "Send As" is out of sight unless a saved workflow chose Items List', () => {
		expect(shown('bodyForm', { resource: 'product', operation: 'createOrUpdate' })).toEqual([]);
		expect(shown('bodyForm', { resource: 'product', operation: 'createOrUpdate', bodyForm: 'items' })).toHaveLength(1);
	});

	it('Transport Type Letter says what it does; placeholders use this year; the credit-note and Extra Fields examples are back', () => {
		const all = allProperties(order.properties);
		const transport = all.find((p) => p.name === 'transportType');
		expect((transport?.options as Array<{ value: string; description?: string }>).find((o) => o.value === 'Letter')?.description).toMatch(/post/);
		const placeholders = nodes.flatMap(({ description }) => allProperties(description.properties).map((p) => String(p.placeholder ?? '')));
		expect(placeholders.filter((p) => /20(1\d|2[0-5])/.test(p))).toEqual([]);
		expect(placeholders).toContain('e.g. INV-2026-0042');
		const invoiceBy = all.find((p) => p.name === 'invoiceBy');
		expect(JSON.stringify(invoiceBy?.options)).toContain('e.g. INV-2026-0042');
		expect(all.find((p) => p.name === 'otherFields')?.description).toContain('{"CustomFields": [{"Key": "crm", "Value": "42"}]}');
	});

	it('the Inbox Trigger says to turn on Confirm After Emitting only while it is off', () => {
		const trigger = node('accessPointInboxTrigger');
		const notice = trigger.properties.find((p) => p.name === 'windowNotice')!;
		const show = (confirmAfterEmitting: boolean) => NodeHelpers.displayParameter({ confirmAfterEmitting }, notice, nodeOf(trigger, {}), trigger);
		expect([show(false), show(true)]).toEqual([true, false]);
	});
});

describe('item 18: the package says it receives, and where to report an issue', () => {
	const pkg = packageJson() as unknown as { description: string; bugs?: { url?: string } };

	it('bugs.url and a description naming sending and receiving', () => {
		expect(pkg.bugs?.url).toMatch(/^https:\/\/github\.com\/.+\/issues$/);
		expect(pkg.description).toMatch(/send invoices/);
		expect(pkg.description).toMatch(/receive supplier invoices/);
	});
});
