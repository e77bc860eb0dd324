/**
 * Issue 37 item 1 through n8n's poller with a heap limit: the Inbox Trigger polls a queue holding, between two good
 * invoices, one 19 MB document (under the default Maximum File Size of 20 MB) of each hostile shape of
 * emulator/documents.js `hostileUbl`, each in its SBDH envelope, in a child process whose heap is capped at 768 MB (the
 * harness, n8n-core and the emulator holding all of them included). When each element copied the declarations in
 * scope, 6.5 MB with 10,000 declarations exhausted a 1 GB heap and 19 MB a 4 GB heap: n8n aborted; and each of the
 * others was read whole (0.5 to 1 s of blocked event loop each). Now the reader bounds its work: each hostile one is
 * emitted once with a DocumentProblem naming the limit it went beyond, and a 19 MB invoice that carries a base64
 * attachment (the usual large document) is read like any other.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { runLimited } = require('./heapLimitedPoll') as {
	runLimited: (o: { heapMb: number; docMb: number; shapes: string[] }) => Promise<{
		code: number | null;
		signal: string | null;
		result?: { queued: number[]; ids: number[]; numbers: Array<string | null>; problems: Array<string | null>; ms: number; maxBlockMs: number };
		stderr: string;
	}>;
};

describe('the Inbox Trigger reads hostile documents within a capped heap and bounded work', () => {
	it('19 MB of each hostile shape, heap capped at 768 MB: every item emitted once, the hostile ones with the limit they went beyond', async () => {
		const shapes = ['xmlns', 'attrs', 'deep', 'text', 'plain', 'flat', 'attachment'];
		const run = await runLimited({ heapMb: 768, docMb: 19, shapes });
		expect(run.stderr).not.toMatch(/heap out of memory/i);
		expect(run.code).toBe(0);
		expect(run.result?.ids).toEqual(run.result?.queued);
		const beyond = (limit: string) => `The document is beyond what is read: ${limit}`;
		expect(run.result?.problems).toEqual([
			null,
			expect.stringContaining(beyond('more than 100 attributes (namespace declarations included) on <Invoice>')),
			expect.stringContaining(beyond('more than 100 attributes (namespace declarations included) on <cbc:Note>')),
			expect.stringContaining(beyond('more than 50,000 elements')),
			expect.stringContaining(beyond('more than 10,000 references')),
			expect.stringContaining(beyond('more than 50,000 elements')),
			expect.stringContaining(beyond('more than 10,000 elements in the parts read')),
			null,
			null,
		]);
		expect(run.result?.numbers).toEqual(['GOOD-BEFORE', null, null, null, null, null, null, 'HOSTILE-attachment', 'GOOD-AFTER']);
	}, 300_000);
});
