/**
 * AccessPoint Peppol Inbox and Order › Send UBL Document run by n8n-core's WorkflowExecute against
 * the emulator: a customer refuses a sent invoice, and List → Get Document → Confirm hands the
 * workflow the refusal with its reason and invoice number; a supplier invoice refused with a
 * reason; a ready UBL invoice sent as it is, and one that is not refused before any request.
 */
import type { IBinaryData, IDataObject } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import { buildOrder } from '../../emulator/model';
import { renderUbl } from '../../emulator/documents';
import { createHarness } from '../harness';
import type { Harness } from '../harness';

type Emu = Awaited<ReturnType<typeof createEmulator>>;
const INBOX = 'accessPointInbox';

describe('AccessPoint Peppol Inbox and Send UBL Document (engine, emulator)', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 10 } });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
	});
	afterAll(async () => {
		await h?.close();
	});

	const api = async (method: string, path: string, body?: unknown) => {
		const r = await fetch(`${emu.url}${path}`, {
			method,
			headers: { apikey: emu.credentials.apiKey, partyID: party, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return (await r.json()) as unknown;
	};

	it('a customer refuses a sent invoice: List (responses) → Get Document → Confirm gives the code, the reason and the invoice', async () => {
		const orderId = (await api('POST', '/v1/orders', {
			OrderType: 'Invoice',
			OrderDirection: 'Income',
			OrderDate: '2024-03-01',
			Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
			OrderLines: [{ Quantity: 3, Description: 'Consulting day', UnitPriceExcl: 800, VATPercentage: 21 }],
		})) as number;
		await api('POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [orderId] });
		const orderNumber = ((await api('GET', `/v1/orders/${orderId}`)) as IDataObject).OrderNumber;
		emu.delivery.set(orderId, 'Refused', { reason: 'REF', info: 'We have no purchase order for this' });
		const supplierInvoice = emu.inbox.receive({ orderNumber: 'SUP-KEEP' });

		const result = await h.run(
			h.chain([
				{ type: INBOX, name: 'List', parameters: { operation: 'list', documents: 'responses' } },
				{ type: INBOX, name: 'Get Document', parameters: { operation: 'getDocument' } },
				{ type: INBOX, name: 'Confirm', parameters: { operation: 'confirm' } },
			]),
		);
		result.assertSuccess();
		const [listed] = result.output('List');
		expect(listed).toMatchObject({ PeppolDocumentType: 'IMR', DocumentKind: 'IMR' });
		// Issue 39: the readable part first (what it is, then the inbox's technical fields).
		// Issue 39.10: readable first, the 130-character document-type URN and the receiver's and file's IDs after.
		expect(Object.keys(listed)).toEqual([
			'DocumentKind',
			'InboxItemID',
			'CreationDate',
			'SenderCompanyID',
			'SenderPeppolID',
			...Object.keys(listed).filter((k) => /^(PeppolDocumentType|ReceiverPeppolID|ReceiverCompanyID|PeppolFileID)$/.test(k)),
		]);
		expect(Object.keys(listed).slice(5).sort()).toEqual(['PeppolDocumentType', 'PeppolFileID', 'ReceiverCompanyID', 'ReceiverPeppolID']);
		const [document] = result.items('Get Document');
		expect(Object.keys(document.json).slice(0, 3)).toEqual(['DocumentKind', 'SenderName', 'Response']);
		expect(document.json.SenderName).toBe((document.json.Response as IDataObject).FromName);
		expect(Object.keys(document.json).indexOf('PeppolDocumentType')).toBeGreaterThan(Object.keys(document.json).indexOf('SenderPeppolID'));
		expect(document.json).toMatchObject({
			InboxItemID: listed.InboxItemID,
			DocumentKind: 'IMR',
			Envelope: 'removed',
			Response: {
				Code: 'RE',
				Meaning: 'Rejected: the customer refused the invoice',
				InvoiceNumber: orderNumber,
				Reasons: [{ Code: 'REF', Meaning: 'References incorrect', Text: 'We have no purchase order for this' }],
				ReasonText: 'REF: We have no purchase order for this',
				FromEndpointID: '0208:0123456749',
			},
		});
		expect(Buffer.from((document.binary?.data as IBinaryData).data, 'base64').toString('utf8')).toMatch(
			/^<\?xml version="1.0" encoding="UTF-8"\?>\n<ApplicationResponse /,
		);
		expect(result.output('Confirm')).toEqual([expect.objectContaining({ InboxItemID: listed.InboxItemID, Confirmed: true })]);
		expect(emu.inbox.items(party).map((i) => i.InboxItemID)).toEqual([supplierInvoice.InboxItemID]);
	});

	it("issue 39.10: Get Document of a supplier invoice shows what it is, the supplier's name and the invoice first", async () => {
		const result = await h.run(
			h.chain([
				{ type: INBOX, name: 'List', parameters: { operation: 'list', documents: 'invoices' } },
				{ type: INBOX, name: 'Get Document', parameters: { operation: 'getDocument' } },
			]),
		);
		result.assertSuccess();
		const [document] = result.items('Get Document');
		const invoice = document.json.Invoice as IDataObject;
		expect(invoice).toMatchObject({ Number: 'SUP-KEEP', SupplierName: expect.any(String) });
		expect(Object.keys(document.json).slice(0, 7)).toEqual([
			'DocumentKind',
			'SenderName',
			'Invoice',
			'InboxItemID',
			'CreationDate',
			'SenderCompanyID',
			'SenderPeppolID',
		]);
		expect(document.json).toMatchObject({ DocumentKind: 'Invoice', SenderName: invoice.SupplierName });
		// The list answer names no sender (openapi.json InboxGetResultItem): List invents none.
		expect(result.output('List')[0].SenderName).toBeUndefined();
	});

	it('List (invoices) → Refuse: the supplier invoice leaves the inbox with the reason code', async () => {
		const result = await h.run(
			h.chain([
				{ type: INBOX, name: 'List', parameters: { operation: 'list', documents: 'invoices' } },
				{ type: INBOX, name: 'Refuse', parameters: { operation: 'refuse', refusalReason: 'QTY' } },
			]),
		);
		result.assertSuccess();
		const [refused] = result.output('Refuse');
		expect(refused).toMatchObject({ Refused: true, RefusalReason: 'QTY', PeppolDocumentType: expect.stringContaining('Invoice-2::Invoice') });
		expect(refused.DocumentKind).toBeUndefined(); // only the published item fields go on
		expect(emu.inbox.refused().at(-1)).toMatchObject({ InboxItemID: refused.InboxItemID, RefusalReason: 'QTY' });
		expect(emu.inbox.items(party)).toEqual([]);
	});

	it("Refuse over a list holding a customer's IMR: says before sending anything which items can be refused; with Continue it refuses those and reports the IMR", async () => {
		const orderId = (await api('POST', '/v1/orders', {
			OrderType: 'Invoice',
			OrderDirection: 'Income',
			OrderDate: '2026-03-01',
			Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
			OrderLines: [{ Quantity: 1, Description: 'Consulting day', UnitPriceExcl: 800, VATPercentage: 21 }],
		})) as number;
		await api('POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [orderId] });
		const first = emu.inbox.receive({ orderNumber: 'SUP-A' });
		emu.delivery.set(orderId, 'Refused', { reason: 'REF', info: 'No purchase order' });
		const second = emu.inbox.receive({ orderNumber: 'SUP-B' });
		const chain = (onError?: 'continueErrorOutput') =>
			h.chain([
				{ type: INBOX, name: 'List', parameters: { operation: 'list' } },
				{ type: INBOX, name: 'Refuse', parameters: { operation: 'refuse', refusalReason: 'QTY' }, ...(onError ? { onError } : {}) },
			]);
		const refusedBefore = emu.inbox.refused().length;
		const stopped = await h.run(chain());
		const kinds = stopped.output('List').map((i) => i.DocumentKind);
		const imr = kinds.indexOf('IMR');
		expect(kinds.filter((k) => k === 'Invoice')).toHaveLength(2);
		const error = stopped.nodeError('Refuse');
		expect(error?.message).toMatch(new RegExp(`^Item ${imr}: "Inbox Item ID" \\d+ is an IMR, a response to a document you sent: it cannot be refused$`));
		const others = [0, 1, 2].filter((i) => i !== imr).join(', ');
		expect(error?.description).toContain(`Items that can be refused: ${others}; none was sent unless Continue is on.`);
		expect(emu.inbox.refused()).toHaveLength(refusedBefore);

		const continued = await h.run(chain('continueErrorOutput'));
		continued.assertSuccess();
		const outputs = continued.runData.Refuse[0].data?.main ?? [];
		expect((outputs[0] ?? []).map((i) => i.json.InboxItemID).sort()).toEqual([first.InboxItemID, second.InboxItemID].sort());
		expect((outputs[1] ?? []).map((i) => [i.pairedItem, String(i.json.error)])).toEqual([[{ item: imr }, expect.stringContaining('cannot be refused')]]);
		expect(emu.inbox.items(party).map((i) => i.PeppolDocumentType)).toEqual(['IMR']);
	});

	it('Send UBL Document: a ready invoice goes out as it is, once when run twice; a document in its envelope is refused before any request', async () => {
		const self = emu.store.selfOf(party);
		const xml = renderUbl(
			buildOrder(
				{ orderId: 9, partyId: party, self, seq: 9, now: new Date('2024-05-01T00:00:00Z') },
				{ OrderNumber: 'OWN-UBL-1', Customer: { Name: 'Café Zoë BV', VATNumber: 'BE0456789133' } },
			),
		);
		const file = (text: string): IBinaryData => ({
			data: Buffer.from(text).toString('base64'),
			mimeType: 'application/xml',
			fileName: 'OWN-UBL-1.xml',
			fileExtension: 'xml',
			bytes: Buffer.byteLength(text),
		});
		const sent = await h.runNode('accessPointOrder', { resource: 'order', operation: 'sendUbl' }, [{ json: {}, binary: { data: file(xml) } }]);
		sent.assertSuccess();
		const [out] = sent.output(sent.nodeName);
		expect(out).toEqual({ Sent: true, DocumentKind: 'Invoice', DocumentNumber: 'OWN-UBL-1', InboxItemID: expect.any(Number) });
		expect(emu.inbox.sent().at(-1)).toMatchObject({ InboxItemID: out.InboxItemID, XML: xml, receiver: '0208:0456789133' });
		// Run again (a re-run of the workflow): the same document is not sent a second time.
		const count = emu.inbox.sent().length;
		const again = await h.runNode('accessPointOrder', { resource: 'order', operation: 'sendUbl' }, [{ json: {}, binary: { data: file(xml) } }]);
		again.assertSuccess();
		expect(again.output(again.nodeName)).toEqual([{ Sent: false, AlreadySent: true, DocumentKind: 'Invoice', DocumentNumber: 'OWN-UBL-1' }]);
		expect(emu.inbox.sent()).toHaveLength(count);

		emu.clearRequests();
		const wrapped = emu.files.get(emu.inbox.receive({ orderNumber: 'WRAPPED' }).PeppolFileID)!.content.toString('utf8');
		const refused = await h.runNode('accessPointOrder', { resource: 'order', operation: 'sendUbl' }, [{ json: {}, binary: { data: file(wrapped) } }]);
		expect(refused.nodeError(refused.nodeName)?.message).toBe('Item 0: "Input Binary Field" data holds a file that is wrapped in a Peppol envelope (SBDH)');
		expect(emu.requests.filter((r) => r.path.includes('sendxml'))).toEqual([]);
	});
});
