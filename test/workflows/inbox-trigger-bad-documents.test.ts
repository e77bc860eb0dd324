/**
 * Issue 37 items 1 and 2, through n8n-core's poll (PollTriggerExecutor) against the emulator: a queue that holds,
 * between good documents, a hostile one (10,000 unused namespace declarations: beyond the reader's limit of 100
 * attributes on an element), documents over Maximum File Size (just over and far over), and file answers that are not
 * the file (FileContent not base64, no FileContent, another FileID). The good ones are emitted once with their fields;
 * each bad one once with DocumentProblem; no poll fails, and Confirm After Emitting confirms only what was read. A proxy in front of the emulator gives the
 * answers the emulator cannot (no FileContent).
 */
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import type { Emu } from '../reliability/helpers';
import { serveHostile } from '../reliability/hostile-server';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { hostileUbl } = require('../../emulator/documents') as { hostileUbl: (shape: string, bytes: number, o?: object) => string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { filesOf } = require('../../emulator/files') as { filesOf: (store: unknown) => { files: Map<string, { FileID: string }> } };

const MB = 1024 * 1024;

describe('Inbox Trigger: one bad document never holds back the others', () => {
	let h: Harness;
	let emu: Emu;
	let proxy: Awaited<ReturnType<typeof serveHostile>>;
	/** FileIDs the proxy answers without FileContent. */
	const noContent = new Set<string>();

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 3 }, quiet: true });
		emu = h.emulator as Emu;
		proxy = await serveHostile((req, res, request) => {
			const id = /^\/v1\/files\/([^/?]+)/.exec(request.url)?.[1];
			if (req.method === 'GET' && id && noContent.has(decodeURIComponent(id).toLowerCase())) {
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ FileID: decodeURIComponent(id), FileName: 'x.xml', MimeType: 'application/xml' }));
				return;
			}
			const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<
				string,
				string
			>;
			void fetch(`${emu.url}${request.url}`, { method: req.method, headers, body: ['GET', 'HEAD'].includes(req.method ?? '') ? undefined : request.body }).then(
				async (answer) => {
					res.statusCode = answer.status;
					answer.headers.forEach(
						(value, key) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(key) && res.setHeader(key, value),
					);
					res.end(Buffer.from(await answer.arrayBuffer()));
				},
			);
		});
	});
	afterAll(async () => {
		await proxy?.close();
		await h?.close();
	});

	it('good, hostile, oversized and unreadable documents: each emitted once, the bad ones with their problem', async () => {
		const good = (n: number) => emu.inbox.receive({ orderNumber: `GOOD-${n}`, envelope: n % 2 === 0 });
		const queue = [
			['good', good(1)],
			['hostile', emu.inbox.receive({ xml: hostileUbl('xmlns', 0.6 * MB, { number: 'HOSTILE-7' }) })],
			['just over', emu.inbox.receive({ xml: hostileUbl('plain', MB + 1000) })],
			['far over', emu.inbox.receive({ xml: hostileUbl('plain', 3 * MB) })],
			['good', good(2)],
			['not base64', emu.inbox.receive({ orderNumber: 'BAD-B64' })],
			['no FileContent', emu.inbox.receive({ orderNumber: 'BAD-NOCONTENT' })],
			['another FileID', emu.inbox.receive({ orderNumber: 'BAD-OTHERID' })],
			['good', good(3)],
		] as const;
		const fileOf = (what: string) => queue.find(([w]) => w === what)![1].PeppolFileID;
		emu.files.corrupt(fileOf('not base64'));
		noContent.add(fileOf('no FileContent').toLowerCase());
		filesOf(emu.store).files.get(fileOf('another FileID').toLowerCase())!.FileID = 'some-other-file';

		const poller = h.poller(
			{ type: 'accessPointInboxTrigger', parameters: { confirmAfterEmitting: true, options: { maxFileSizeMb: 1, maxRetries: 0 } } },
			{ credentialsOverride: { baseUrl: proxy.url } },
		);
		const first = await poller.poll();
		const items = first.items as IDataObject[];
		expect(items.map((item) => item.InboxItemID)).toEqual(queue.map(([, item]) => item.InboxItemID));
		const byWhat = (what: string) => items.filter((_, i) => queue[i][0] === what);
		for (const item of byWhat('good')) expect(item).toMatchObject({ DocumentKind: 'Invoice', Invoice: { Number: expect.stringMatching(/^GOOD-/) } });
		for (const item of byWhat('good')) expect(item.DocumentProblem).toBeUndefined();
		expect(byWhat('hostile')).toHaveLength(1);
		expect(byWhat('hostile')[0].Invoice).toBeUndefined();
		expect(byWhat('hostile')[0].DocumentProblem).toMatch(
			/^The document is beyond what is read: more than 100 attributes \(namespace declarations included\) on <Invoice> \(line \d+, column 1\); it is passed on as it came\.$/,
		);
		const problems: Array<[string, RegExp]> = [
			['just over', /above Maximum File Size \(1 MB\)/],
			['far over', /larger than 1 MB; it was not read further/],
			['not base64', /FileContent that is not base64/],
			['no FileContent', /has no FileContent/],
			['another FileID', /is the file "some-other-file", not the one asked for/],
		];
		for (const [what, problem] of problems) {
			expect(byWhat(what)).toHaveLength(1);
			expect(byWhat(what)[0].DocumentProblem).toMatch(/^The document could not be read: /);
			expect(byWhat(what)[0].DocumentProblem).toMatch(problem);
		}

		// Nothing again; the next poll confirms what was read (the good ones), not the bad ones.
		expect((await poller.poll()).items).toBeNull();
		const left = emu.inbox.items().map((item) => item.InboxItemID);
		expect(left).toEqual(queue.filter(([what]) => what !== 'good').map(([, item]) => item.InboxItemID));
		for (const id of left)
			await fetch(`${emu.url}/v1/peppol/inbox/${id}/refuse`, {
				method: 'POST',
				headers: { apikey: emu.credentials.apiKey, partyID: emu.credentials.partyId, 'content-type': 'application/json' },
				body: '{"RefusalReason":"OTH"}',
			});
	});
});
