/**
 * Issue 37 item 4, run by n8n-core's WorkflowExecute against the emulator: every write reads and
 * checks every input item before its first request (runItems' read phase). A 3-item batch whose
 * item 3 is invalid confirms, refuses, sends or deactivates nothing; with Continue On Fail items
 * 1-2 go through and item 3 is an error item.
 */
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import { buildOrder } from '../../emulator/model';
import { renderUbl } from '../../emulator/documents';
import { createHarness } from '../harness';
import type { Harness } from '../harness';

type Emu = Awaited<ReturnType<typeof createEmulator>>;
type Logged = { method: string; path: string };

describe('a write checks every item before its first request (engine, emulator)', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 2 } });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
	});
	afterAll(async () => {
		await h?.close();
	});

	const writes = () => (emu.requests as Logged[]).filter((r) => r.method !== 'GET' && r.path.startsWith('/v1/'));
	const ids = (third: string): INodeExecutionData[] => {
		const [a, b] = [emu.inbox.receive({ orderNumber: `A-${Math.random()}` }), emu.inbox.receive({ orderNumber: `B-${Math.random()}` })];
		return [{ json: { id: a.InboxItemID } }, { json: { id: b.InboxItemID } }, { json: { id: third } }];
	};

	it.each([
		['confirm', {}],
		['refuse', { refusalReason: 'QTY' }],
	])('Inbox › %s: item 3 "abc" stops the run before items 1-2 are settled; with Continue they are and item 3 is an error item', async (operation, extra) => {
		const input = ids('abc');
		const before = emu.inbox.items(party).length;
		emu.clearRequests();
		const parameters = { operation, inboxItemId: '={{ $json.id }}', ...extra };
		const stopped = await h.runNode('accessPointInbox', parameters, input);
		expect(stopped.nodeError(stopped.nodeName)?.message).toMatch(/^Item 2: "Inbox Item ID"/);
		expect(writes()).toEqual([]);
		expect(emu.inbox.items(party)).toHaveLength(before);

		const continued = await h.runNode('accessPointInbox', parameters, input, { onError: 'continueRegularOutput' });
		continued.assertSuccess();
		const out = continued.output(continued.nodeName);
		expect(out.slice(0, 2)).toEqual([expect.objectContaining({ InboxItemID: input[0].json.id }), expect.objectContaining({ InboxItemID: input[1].json.id })]);
		expect(out[2].error).toMatch(/^Item 2: "Inbox Item ID"/);
		expect(writes()).toHaveLength(2);
	});

	it('Order › Send UBL Document: item 3 without a file stops the run before items 1-2 go over Peppol', async () => {
		const self = emu.store.selfOf(party);
		const file = (number: string): IBinaryData => {
			const order = { OrderNumber: number, Customer: { Name: 'Café Zoë BV', VATNumber: 'BE0456789133' } };
			const xml = renderUbl(buildOrder({ orderId: 9, partyId: party, self, seq: 9, now: new Date('2024-05-01T00:00:00Z') }, order));
			return { data: Buffer.from(xml).toString('base64'), mimeType: 'application/xml', fileName: `${number}.xml`, bytes: Buffer.byteLength(xml) };
		};
		const input: INodeExecutionData[] = [{ json: {}, binary: { data: file('CHK-1') } }, { json: {}, binary: { data: file('CHK-2') } }, { json: {} }];
		const sent = emu.inbox.sent().length;
		emu.clearRequests();
		const result = await h.runNode('accessPointOrder', { resource: 'order', operation: 'sendUbl' }, input);
		expect(result.nodeError(result.nodeName)?.message).toBe('Item 2: "Input Binary Field" data is not a binary field of this item');
		expect(writes()).toEqual([]);
		expect(emu.inbox.sent()).toHaveLength(sent);
	});

	it('Registration › Deactivate (an Order-style write on one ID per item): item 3 "12x" stops the run before items 1-2 are deactivated', async () => {
		emu.clearRequests();
		const input = [{ json: { id: 1 } }, { json: { id: 2 } }, { json: { id: '12x' } }];
		const result = await h.runNode(
			'accessPointRegistration',
			{ operation: 'deactivate', registrationId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			input,
		);
		expect(result.nodeError(result.nodeName)?.message).toMatch(/^Item 2: "Registration"/);
		expect(writes()).toEqual([]);
	});

	// Issue 37 items 6 and 11: refused before any request, naming field and item, never rounded nor a raw TypeError.
	it.each([
		[
			'Product ID 9007199254740993 (would round to …992, another product)',
			'accessPointOrder',
			{ resource: 'product', operation: 'createOrUpdate', reference: 'P-0001', productId: '9007199254740993' },
			'Item 0: "Product ID" 9007199254740993 is larger than any ProductID (at most 9007199254740991)',
		],
		[
			'Inbox Item ID of 300 digits',
			'accessPointInbox',
			{ operation: 'confirm', inboxItemId: '9'.repeat(300) },
			/^Item 0: "Inbox Item ID" 9{20}.* is larger than any InboxItemID \(at most 9007199254740991\)$/,
		],
		[
			'Inbox Item ID 2^53 + 1 as a number',
			'accessPointInbox',
			{ operation: 'refuse', refusalReason: 'QTY', inboxItemId: '={{ 9007199254740993 }}' },
			'Item 0: "Inbox Item ID" 9007199254740992 is larger than any InboxItemID',
		],
		[
			'Party Type ""',
			'accessPointOrder',
			{ resource: 'party', operation: 'create', name: 'Acme', vatNumber: 'BE0123456749', partyType: '={{ "" }}' },
			'Item 0: "Party Type" is empty',
		],
		[
			'Input Binary Field "__proto__"',
			'accessPointOrder',
			{ resource: 'order', operation: 'sendUbl', binaryPropertyName: '__proto__' },
			'Item 0: "Input Binary Field" __proto__ is a name JavaScript reserves, not a binary field name',
		],
	])('%s: a NodeOperationError naming field and item, and no request', async (_label, type, parameters, message) => {
		emu.clearRequests();
		const result = await h.runNode(type, parameters as IDataObject, [{ json: {} }]);
		expect(result.nodeError(result.nodeName)?.constructor.name).toBe('NodeOperationError');
		const text = result.nodeError(result.nodeName)?.message ?? '';
		if (typeof message === 'string') expect(text.startsWith(message)).toBe(true);
		else expect(text).toMatch(message);
		expect((emu.requests as Logged[]).filter((r) => r.path.startsWith('/v1/'))).toEqual([]);
	});
});
