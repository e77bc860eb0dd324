/**
 * Bad input for the receiving nodes (the rule of bad-input.test.ts, applied to every field of
 * AccessPoint Peppol Inbox, Order › Send UBL Document and the Peppol Inbox Trigger): each case
 * runs through the engine against the emulator and stops with a NodeOperationError whose
 * message is exactly the item and the field with the problem, with a how-to-fix description,
 * and no request reaches the emulator. The trigger has no items: its messages name the field.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import type { Emu } from './helpers';
import { apiRequests } from './helpers';

const INBOX = 'accessPointInbox';
const ORDER = 'accessPointOrder';
const TRIGGER = 'accessPointInboxTrigger';
const FILE = '8758f630-1fbe-478c-b872-77f5652e2999';
const xml = (text: string): { json: IDataObject; binary: Record<string, IBinaryData> } => ({
	json: {},
	binary: { data: { data: Buffer.from(text).toString('base64'), mimeType: 'application/xml', fileName: 'x.xml', bytes: Buffer.byteLength(text) } },
});
const sendUbl = (over: IDataObject = {}): IDataObject => ({ resource: 'order', operation: 'sendUbl', ...over });

/** [label, node, parameters, the exact message, input items?] */
type Case = [string, string, IDataObject, string, Array<IDataObject | ReturnType<typeof xml>>?];

const CASES: Case[] = [
	[
		'Inbox Item ID not a number',
		INBOX,
		{ operation: 'confirm', inboxItemId: 'INV-1' },
		'Item 0: "Inbox Item ID" INV-1 is not a valid InboxItemID (a positive whole number)',
	],
	['Inbox Item ID 0', INBOX, { operation: 'refuse', inboxItemId: '0' }, 'Item 0: "Inbox Item ID" 0 is not a valid InboxItemID (a positive whole number)'],
	['Inbox Item ID empty (nothing to map from)', INBOX, { operation: 'confirm' }, 'Item 0: "Inbox Item ID" is empty'],
	[
		'Inbox Item ID an object',
		INBOX,
		{ operation: 'confirm', inboxItemId: '={{ { id: 1 } }}' },
		'Item 0: "Inbox Item ID" {"id":1} is an object, not a InboxItemID',
	],
	[
		'Refusal Reason free text',
		INBOX,
		{ operation: 'refuse', inboxItemId: '5', refusalReason: '={{ "Too expensive" }}' },
		'Item 0: "Refusal Reason" Too expensive is not one of DEL, FIN, QUA, ITM, LEG, NON, UNR, OTH, PPD, PAY, PRI, QTY, REC, REF',
	],
	['Documents unknown', INBOX, { operation: 'list', documents: '={{ "orders" }}' }, 'Item 0: "Documents" orders is not one of all, invoices, responses'],
	['Peppol File ID a path', INBOX, { operation: 'getDocument', peppolFileId: '../orders/1' }, 'Item 0: "Peppol File ID" ../orders/1 is not a FileID'],
	['Peppol File ID a number', INBOX, { operation: 'getDocument', peppolFileId: '={{ 42 }}' }, 'Item 0: "Peppol File ID" 42 is not a FileID (it is not text)'],
	[
		'output field empty',
		INBOX,
		{ operation: 'getDocument', peppolFileId: FILE, binaryPropertyName: '={{ "" }}' },
		'Item 0: "Put Output File in Field" is empty',
	],
	[
		'Keep Peppol Envelope "yes"',
		INBOX,
		{ operation: 'getDocument', peppolFileId: FILE, options: { keepEnvelope: '={{ "yes" }}' } },
		'Item 0: "Keep Peppol Envelope" yes is not true or false',
	],
	[
		'Maximum File Size 0',
		INBOX,
		{ operation: 'getDocument', peppolFileId: FILE, options: { maxFileSizeMb: 0 } },
		'Item 0: "Maximum File Size (MB)" 0 is not a size from 1 to 256 MB',
	],
	[
		'Act for Party with a line break',
		INBOX,
		{ operation: 'list', options: { actForParty: '={{ "300001\\n" }}' } },
		'Item 0: "Act for Party" 300001\\n contains a line break or another control or non-ASCII character',
	],
	['Read Retries 1e9', INBOX, { operation: 'list', options: { maxRetries: 1e9 } }, 'Item 0: "Read Retries" 1000000000 is not a whole number from 0 to 10'],
	['Send UBL: no binary field', ORDER, sendUbl(), 'Item 0: "Input Binary Field" data is not a binary field of this item'],
	[
		'Send UBL: a PDF',
		ORDER,
		sendUbl(),
		'Item 0: "Input Binary Field" data holds a file that is not well-formed XML: text before the root element (line 1, column 1)',
		[xml('%PDF-1.4')],
	],
	[
		'Send UBL: an Order document',
		ORDER,
		sendUbl(),
		'Item 0: "Input Binary Field" data holds a file that has the root element Order in namespace urn:oasis:names:specification:ubl:schema:xsd:Order-2, not a UBL Invoice or CreditNote',
		[xml('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>')],
	],
	[
		'Send UBL: a DTD',
		ORDER,
		sendUbl(),
		'Item 0: "Input Binary Field" data holds a file that is not well-formed XML: a DOCTYPE (DTDs are not read) (line 1, column 1)',
		[xml('<!DOCTYPE x [<!ENTITY a "b">]><Invoice/>')],
	],
	['Send UBL: field name with a slash', ORDER, sendUbl({ binaryPropertyName: 'a/b' }), 'Item 0: "Input Binary Field" a/b is not a binary field name'],
	[
		'Send UBL: size "big"',
		ORDER,
		sendUbl({ ublOptions: { maxSizeMb: '={{ "big" }}' } }),
		'Item 0: "Maximum Document Size (MB)" big is not a number from 1 to 50',
	],
	['Send UBL: size 500', ORDER, sendUbl({ ublOptions: { maxSizeMb: 500 } }), 'Item 0: "Maximum Document Size (MB)" 500 is not a number from 1 to 50'],
	[
		'Send UBL: a path on another host',
		ORDER,
		sendUbl({ ublOptions: { sendPath: 'https://elsewhere.example/v1/peppol/sendxml' } }),
		'Item 0: "Send Path" https://elsewhere.example/v1/peppol/sendxml is not an API path such as /v1/peppol/sendxml',
	],
	[
		'Send UBL: a path out of /v1',
		ORDER,
		sendUbl({ ublOptions: { sendPath: '/v1/../admin' } }),
		'Item 0: "Send Path" /v1/../admin is not an API path such as /v1/peppol/sendxml',
	],
];

/** The trigger's fields (no item: the message names the field). */
const TRIGGER_CASES: Array<[string, IDataObject, string]> = [
	['Confirm After Emitting "yes"', { confirmAfterEmitting: '={{ "yes" }}' }, '"Confirm After Emitting" yes is not true or false'],
	['Keep Peppol Envelope 1', { options: { keepEnvelope: '={{ 1 }}' } }, '"Keep Peppol Envelope" 1 is not true or false'],
	['Maximum File Size 1e6', { options: { maxFileSizeMb: 1e6 } }, '"Maximum File Size (MB)" 1000000 is not a size from 1 to 256 MB'],
	['Act for Party an object', { options: { actForParty: '={{ { id: 1 } }}' } }, '"Act for Party" {"id":1} is an object, not text'],
	['Request Timeout 0', { options: { timeoutSeconds: 0 } }, '"Request Timeout (Seconds)" 0 is not a number from 1 to 600 seconds'],
];

describe('receiving: bad input is refused before any request, naming the field (and the item)', () => {
	let h: Harness;
	let emu: Emu;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 5 }, quiet: true });
		emu = h.emulator as Emu;
	});
	afterAll(async () => {
		await h?.close();
	});
	beforeEach(() => emu.clearRequests());

	it.each(CASES)('%s', async (...[, type, parameters, message, input]: Case) => {
		const result = await h.runNode(type, parameters, (input ?? [{}]) as IDataObject[]);
		const error = result.nodeError(result.nodeName as string) as unknown as NodeOperationError;
		if (!error) throw new Error(`no node error: ${result.status} ${JSON.stringify(result.error).slice(0, 600)}`);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(message);
		expect(error.context.itemIndex).toBe(0);
		expect(String(error.description ?? '').length).toBeGreaterThan(10);
		expect(apiRequests(emu)).toEqual([]);
	});

	it.each(TRIGGER_CASES)('trigger: %s', async (_label, parameters, message) => {
		const failure = await h.poll({ type: TRIGGER, parameters }).then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(failure).toBeInstanceOf(NodeOperationError);
		expect((failure as NodeOperationError).message).toBe(message);
		expect(apiRequests(emu)).toEqual([]);
	});
});
