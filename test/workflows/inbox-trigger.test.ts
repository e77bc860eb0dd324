/**
 * AccessPoint Peppol Inbox Trigger through n8n-core's poll context (PollTriggerExecutor) against
 * the emulator: over 30 polls with documents arriving, items confirmed and refused in between,
 * a restart (static data reloaded into a new Workflow) and two overlapping polls, every inbox
 * item is emitted exactly once, with its document. Also: Confirm After Emitting, a full window
 * no one confirms, a document that cannot be read, a failed poll.
 */
import type { IBinaryData, IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import { createHarness } from '../harness';
import type { Harness, Poller } from '../harness';

type Emu = Awaited<ReturnType<typeof createEmulator>>;
const TRIGGER = 'accessPointInboxTrigger';
const KINDS = ['Invoice', 'IMR', 'CreditNote', 'MLR', 'Invoice'] as const;

describe('AccessPoint Peppol Inbox Trigger (engine, emulator)', () => {
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

	/** Empties the master's inbox (the tests share the emulator). */
	const drain = async () => {
		for (const item of emu.inbox.items(party)) {
			await fetch(`${emu.url}/v1/peppol/inbox/${item.InboxItemID}/confirm`, { method: 'POST', headers: { apikey: emu.credentials.apiKey, partyID: party } });
		}
	};
	const settle = async (id: number, action: 'confirm' | 'refuse') => {
		const r = await fetch(`${emu.url}/v1/peppol/inbox/${id}/${action}`, {
			method: 'POST',
			headers: { apikey: emu.credentials.apiKey, partyID: party, 'content-type': 'application/json' },
			body: action === 'refuse' ? JSON.stringify({ RefusalReason: 'PRI' }) : undefined,
		});
		expect(r.status).toBe(200);
	};
	const trigger = (parameters: IDataObject = {}, staticData?: IDataObject): Poller =>
		h.poller({ type: TRIGGER, parameters: { options: { maxRetries: 0 }, ...parameters } }, staticData ? { staticData } : {});
	const docText = (binary: IBinaryData | undefined) => Buffer.from(binary?.data ?? '', 'base64').toString('utf8');

	it('emits each item exactly once over 30 polls: arrivals, confirms and refusals in between, a restart, two overlapping polls', async () => {
		await drain();
		let poller = trigger();
		const arrived: number[] = [];
		const emitted: IDataObject[] = [];
		const documents = new Map<number, string>();
		const pending: number[] = []; // emitted, still in the inbox
		let overlapping = 0;
		let restarted = false;
		const record = (items: Array<{ json: IDataObject; binary?: Record<string, IBinaryData> }> | undefined) => {
			for (const item of items ?? []) {
				emitted.push(item.json);
				documents.set(item.json.InboxItemID as number, docText(item.binary?.data));
				pending.push(item.json.InboxItemID as number);
			}
		};

		for (let round = 1; round <= 30; round++) {
			// Documents arrive: 0 to 4 per round, of every kind (more than the 10 the list shows, at times).
			for (let n = 0; n < (round * 7) % 5; n++) {
				const type = KINDS[(round + n) % KINDS.length];
				arrived.push(
					emu.inbox.receive({
						type,
						orderNumber: `SUP-${round}-${n}`,
						invoiceNumber: `INV-${round}-${n}`,
						reason: 'Checked by the buyer',
						envelope: n % 2 === 0,
					}).InboxItemID,
				);
			}
			// The workflow handles some emitted items: confirms them, refuses supplier invoices now and then.
			if (round % 3 === 0) {
				for (const id of pending.splice(0, 4)) {
					const kind = emitted.find((e) => e.InboxItemID === id)?.DocumentKind;
					await settle(id, round % 6 === 0 && (kind === 'Invoice' || kind === 'CreditNote') ? 'refuse' : 'confirm');
				}
			}
			if (round === 15) {
				// A restart: n8n builds the workflow again from the static data it saved.
				poller = trigger({}, poller.staticData);
				restarted = true;
			}
			if (round === 20) {
				// Two polls at once on the same static data (n8n 2.41 may start one while another runs),
				// with new items in sight: only one of them may emit them.
				for (const id of pending.splice(0)) await settle(id, 'confirm');
				for (const n of [1, 2]) arrived.push(emu.inbox.receive({ orderNumber: `SUP-OVERLAP-${n}` }).InboxItemID);
				emu.config.latencyMs = 150;
				const [a, b] = await Promise.all([poller.poll(), poller.poll()]);
				emu.config.latencyMs = 0;
				overlapping = [a, b].filter((r) => r.data === null).length;
				expect([a, b].filter((r) => r.data !== null).length).toBe(1);
				record(a.data?.[0]);
				record(b.data?.[0]);
				continue;
			}
			const result = await poller.poll();
			record(result.data?.[0]);
		}
		// Afterwards the workflow handles everything left, and the trigger catches up on what was out of sight.
		for (let i = 0; i < 10 && (pending.length || emu.inbox.items(party).length); i++) {
			for (const id of pending.splice(0)) await settle(id, 'confirm');
			record((await poller.poll()).data?.[0]);
		}

		const ids = emitted.map((e) => e.InboxItemID as number);
		expect(restarted).toBe(true);
		expect(overlapping).toBe(1);
		expect(new Set(ids).size).toBe(ids.length); // never twice
		expect([...ids].sort((a, b) => a - b)).toEqual([...arrived].sort((a, b) => a - b)); // every one once
		expect(emu.inbox.items(party)).toEqual([]);
		expect(arrived.length).toBeGreaterThan(40);
		// Each with its document, the envelope removed, the fields read.
		for (const item of emitted) {
			const id = item.InboxItemID as number;
			expect(documents.get(id)).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<(Invoice|CreditNote|ApplicationResponse) /);
			expect(documents.get(id)).not.toContain('StandardBusinessDocument');
			if (item.DocumentKind === 'IMR')
				expect(item.Response).toMatchObject({ Type: 'IMR', Code: 'RE', InvoiceNumber: expect.stringMatching(/^INV-/), ReasonText: 'Checked by the buyer' });
			if (item.DocumentKind === 'Invoice') expect(item.Invoice).toMatchObject({ Number: expect.stringMatching(/^SUP-/), SupplierName: 'Office Supplies NV' });
		}
		expect(new Set(emitted.map((e) => e.DocumentKind))).toEqual(new Set(['Invoice', 'CreditNote', 'IMR', 'MLR']));
	});

	it('each item comes readable first (issue 39.10): what it is, the sender named by its document, what it says; the technical fields after', async () => {
		await drain();
		const invoice = emu.inbox.receive({ type: 'Invoice', orderNumber: 'READABLE-1' });
		const response = emu.inbox.receive({ type: 'IMR', reason: 'Checked by the buyer' });
		const [a, b] = (await trigger().poll()).items ?? [];
		expect(Object.keys(a).slice(0, 3)).toEqual(['DocumentKind', 'SenderName', 'Invoice']);
		expect(a).toMatchObject({ InboxItemID: invoice.InboxItemID, SenderName: (a.Invoice as IDataObject).SupplierName });
		expect(typeof a.SenderName).toBe('string');
		expect(Object.keys(b).slice(0, 3)).toEqual(['DocumentKind', 'SenderName', 'Response']);
		expect(b).toMatchObject({ InboxItemID: response.InboxItemID, SenderName: (b.Response as IDataObject).FromName });
		expect(Object.keys(a).indexOf('PeppolDocumentType')).toBeGreaterThan(Object.keys(a).indexOf('InboxItemID'));
	});

	it('Confirm After Emitting: each item confirmed at the next poll, so the 10-item window never blocks', async () => {
		await drain();
		const poller = trigger({ confirmAfterEmitting: true });
		const arrived = Array.from({ length: 25 }, (_, i) => emu.inbox.receive({ orderNumber: `AUTO-${i}` }).InboxItemID);
		const confirmedBefore = emu.inbox.confirmed().length;
		const emitted: number[] = [];
		for (let i = 0; i < 5; i++) emitted.push(...((await poller.poll()).items ?? []).map((j) => j.InboxItemID as number));
		expect(emitted).toEqual(arrived);
		expect(emu.inbox.items(party)).toEqual([]);
		expect(
			emu.inbox
				.confirmed()
				.slice(confirmedBefore)
				.map((c) => c.InboxItemID),
		).toEqual(arrived);
		expect(poller.nodeStaticData.inboxState).toMatchObject({ toConfirm: [] });
	});

	it('a full window no one confirms: nothing more is emitted, and Fetch Test Event says why', async () => {
		await drain();
		const poller = trigger();
		const arrived = Array.from({ length: 12 }, (_, i) => emu.inbox.receive({ orderNumber: `FULL-${i}` }).InboxItemID);
		expect((await poller.poll()).items?.map((i) => i.InboxItemID)).toEqual(arrived.slice(0, 10));
		expect((await poller.poll()).items).toBeNull();
		const sample = await poller.poll('manual');
		expect(sample.items).toHaveLength(1);
		expect(sample.items?.[0]).toMatchObject({ InboxItemID: arrived[0], InboxNotice: expect.stringContaining('lists only its 10 oldest items') });
		// One confirmed: the 11th comes into sight and is emitted.
		await settle(arrived[0], 'confirm');
		expect((await poller.poll()).items?.map((i) => i.InboxItemID)).toEqual([arrived[10]]);
		await drain();
	});

	it('a file that is gone is emitted with DocumentProblem; a failing read fails the poll and nothing is lost', async () => {
		await drain();
		const poller = trigger({ confirmAfterEmitting: true });
		const broken = emu.inbox.receive({ orderNumber: 'GONE' });
		const { filesOf } = require('../../emulator/files'); // eslint-disable-line @typescript-eslint/no-require-imports
		filesOf(emu.store).files.delete(broken.PeppolFileID.toLowerCase());
		const [first] = (await poller.poll()).items ?? [];
		expect(first).toMatchObject({ InboxItemID: broken.InboxItemID, DocumentProblem: expect.stringContaining('could not be read') });
		expect(poller.nodeStaticData.inboxState).toMatchObject({ toConfirm: [] }); // not confirmed: the user decides

		const next = emu.inbox.receive({ orderNumber: 'LATER' });
		const before = poller.nodeStaticData;
		emu.failNext(1, 503, { method: 'GET', pathPrefix: '/v1/files/' });
		const failure = await poller.poll().then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(failure).toBeInstanceOf(NodeApiError);
		expect(poller.nodeStaticData).toEqual(before);
		expect((await poller.poll()).items?.map((i) => i.InboxItemID)).toEqual([next.InboxItemID]);
		await drain();
	});
});
