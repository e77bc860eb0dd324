/**
 * Issue 37 item 10: a document whose fields hold the API key (a hostile sender who knows it, or a key pasted into an
 * invoice number) does not pass it on in the fields read from it: Invoice.Number and an IMR's reasons are masked as
 * every answer of the service is, in the Inbox Trigger's items and in Peppol Inbox › Get Document. The document
 * itself (the binary file) is handed on as it came.
 */
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import type { Emu } from './helpers';

const CANARY = 'SECRET-APIKEY-77c1d0e2b9a84f01';

describe('secrets in the fields of a received document are masked', () => {
	let h: Harness;
	let emu: Emu;

	beforeAll(async () => {
		h = await createHarness({ emulator: { apiKey: CANARY, orders: 3 }, quiet: true });
		emu = h.emulator as Emu;
	});
	afterAll(async () => {
		await h?.close();
	});

	it('Inbox Trigger and Get Document: Invoice.Number and Response reasons holding the API key read as ***', async () => {
		const invoice = emu.inbox.receive({ orderNumber: `INV-${CANARY}` });
		const imr = emu.inbox.receive({ type: 'IMR', invoiceNumber: CANARY, reason: `call us, key ${CANARY}` });
		const polled = (await h.poller({ type: 'accessPointInboxTrigger', parameters: { options: { maxRetries: 0 } } }).poll()).items as IDataObject[];
		const byId = (id: number) => polled.find((item) => item.InboxItemID === id) as IDataObject;
		expect(byId(invoice.InboxItemID).Invoice).toMatchObject({ Number: 'INV-***' });
		expect(byId(imr.InboxItemID).Response).toMatchObject({ InvoiceNumber: '***', ReasonText: 'call us, key ***' });
		expect(JSON.stringify(polled)).not.toContain(CANARY);

		const got = await h.runNode('accessPointInbox', { operation: 'getDocument' }, [{ json: { PeppolFileID: invoice.PeppolFileID } }]);
		expect(got.output(got.nodeName)[0]).toMatchObject({ Invoice: { Number: 'INV-***' } });
		expect(JSON.stringify(got.output(got.nodeName))).not.toContain(CANARY);
	});
});
