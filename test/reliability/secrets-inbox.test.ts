/**
 * Secret scan of the receiving nodes (as secrets.test.ts does for the others): with a
 * recognisable API key, AccessPoint Peppol Inbox (every operation, success and failure, three
 * error modes), Order › Send UBL Document and the Peppol Inbox Trigger (emitting, confirming, a
 * failed poll, a blocked window) leave the key nowhere: run data, errors, error items, emitted
 * items, static data, n8n's log. The trigger's blocked-window warning is checked in the log too.
 */
import type { IBinaryData, IDataObject } from 'n8n-workflow';

import { buildOrder } from '../../emulator/model';
import { renderUbl } from '../../emulator/documents';
import { createHarness } from '../harness';
import type { Harness, HarnessResult } from '../harness';
import type { Emu } from './helpers';
import { captureLogs, deepText } from './report';

const CANARY = 'SECRET-APIKEY-4e1d7c90b2a34f65';
const INBOX = 'accessPointInbox';
const noRetry = { maxRetries: 0, retryDelayMs: 1 };

describe('secret scan: the receiving nodes never show the API key', () => {
	let h: Harness;
	let emu: Emu;
	let logs: ReturnType<typeof captureLogs>;
	const leaks: string[] = [];
	const scan = (where: string, text: string | undefined) => {
		const at = text ? text.indexOf(CANARY) : -1;
		if (text && at >= 0) leaks.push(`${where}: …${text.slice(Math.max(0, at - 80), at + 40)}…`);
	};
	const scanRun = (where: string, result: HarnessResult) => {
		scan(`${where} › run`, JSON.stringify(result.run));
		scan(`${where} › node error`, deepText(result.nodeError(result.nodeName as string)));
		scan(`${where} › workflow error`, deepText(result.error));
	};

	beforeAll(async () => {
		h = await createHarness({ emulator: { apiKey: CANARY, orders: 5 }, quiet: true });
		emu = h.emulator as Emu;
		logs = captureLogs();
	});
	afterAll(async () => {
		logs?.stop();
		await h?.close();
	});

	it('Peppol Inbox operations and Send UBL Document, on success and failure, in every error mode', async () => {
		const party = emu.credentials.partyId;
		const self = emu.store.selfOf(party);
		const xml = renderUbl(
			buildOrder(
				{ orderId: 1, partyId: party, self, seq: 1, now: new Date('2024-05-01T00:00:00Z') },
				{ Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749' } },
			),
		);
		const file: IBinaryData = { data: Buffer.from(xml).toString('base64'), mimeType: 'application/xml', fileName: 'u.xml', bytes: Buffer.byteLength(xml) };
		const runs: Array<[string, string, IDataObject, IDataObject[]?]> = [
			['list', INBOX, { operation: 'list', options: noRetry }],
			['get document', INBOX, { operation: 'getDocument', options: noRetry }],
			['confirm (gone: 400)', INBOX, { operation: 'confirm', inboxItemId: '1', options: noRetry }],
			['refuse (gone: 400)', INBOX, { operation: 'refuse', inboxItemId: '1', options: noRetry }],
			['list 503', INBOX, { operation: 'list', options: noRetry }],
			[
				'send UBL',
				'accessPointOrder',
				{ resource: 'order', operation: 'sendUbl', options: noRetry },
				[{ json: {}, binary: { data: file } } as unknown as IDataObject],
			],
			[
				'send UBL refused (unknown receiver)',
				'accessPointOrder',
				{ resource: 'order', operation: 'sendUbl', options: noRetry },
				[{ json: {}, binary: { data: { ...file, data: Buffer.from(xml.replace(/0123456749/g, '1002003070')).toString('base64') } } } as unknown as IDataObject],
			],
		];
		for (const onError of ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'] as const) {
			const item = emu.inbox.receive({ type: 'IMR', invoiceNumber: 'INV-SECRET' });
			for (const [label, type, parameters, input] of runs) {
				if (label === 'list 503') emu.failNext(1, 503, { pathPrefix: '/v1/peppol/inbox' });
				const result = await h.runNode(type, parameters, input ?? [item as unknown as IDataObject], { onError });
				scanRun(`${label} [${onError}]`, result);
			}
		}
		for (const line of logs.lines) scan(`log (${line.level})`, line.text);
		expect(leaks).toEqual([]);
	});

	it('the Inbox Trigger: emitted items, confirms, a failed poll, its static data; the blocked window is logged', async () => {
		for (const item of emu.inbox.items())
			await fetch(`${emu.url}/v1/peppol/inbox/${item.InboxItemID}/confirm`, { method: 'POST', headers: { apikey: CANARY, partyID: emu.credentials.partyId } });
		const poller = h.poller({ type: 'accessPointInboxTrigger', parameters: { options: noRetry } });
		for (let i = 0; i < 11; i++) emu.inbox.receive({ orderNumber: `S-${i}` });
		const first = await poller.poll();
		expect(first.items).toHaveLength(10);
		scan('trigger › emitted', deepText(first.data));
		const before = logs.lines.length;
		expect((await poller.poll()).items).toBeNull();
		const warned = logs.lines.slice(before).filter((line) => line.level === 'warn' && line.text.includes('lists only its 10 oldest items'));
		expect(warned).toHaveLength(1);
		emu.failNext(1, 503, { pathPrefix: '/v1/peppol/inbox' });
		const failure = await poller.poll().then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(failure).toBeDefined();
		scan('trigger › failed poll', deepText(failure));
		scan('trigger › static data', deepText(poller.staticData));
		for (const line of logs.lines) scan(`log (${line.level})`, line.text);
		expect(leaks).toEqual([]);
	});
});
