/**
 * Issue 37 item 1 through n8n's poller with a heap limit: the Inbox Trigger polls a queue holding, between two good
 * invoices, a 6.5 MB invoice with 10,000 unused namespace declarations, in a child process whose heap is capped at
 * 512 MB (the harness, n8n-core and the emulator included). When each element copied the declarations in scope, this
 * document exhausted a 1 GB heap and n8n aborted; now the three are emitted, the hostile one read like any other.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { runLimited } = require('./heapLimitedPoll') as {
	runLimited: (o: { heapMb: number; docMb: number; shape: string }) => Promise<{
		code: number | null;
		signal: string | null;
		result?: { queued: number[]; ids: number[]; numbers: string[]; problems: Array<string | null>; ms: number };
		stderr: string;
	}>;
};

describe('the Inbox Trigger reads a hostile document within a capped heap', () => {
	it('6.5 MB with 10,000 unused xmlns declarations, heap capped at 512 MB: all three items emitted', async () => {
		const run = await runLimited({ heapMb: 512, docMb: 6.5, shape: 'xmlns' });
		expect(run.stderr).not.toMatch(/heap out of memory/i);
		expect(run.code).toBe(0);
		expect(run.result?.ids).toEqual(run.result?.queued);
		expect(run.result?.numbers).toEqual(['GOOD-BEFORE', 'HOSTILE-BIG', 'GOOD-AFTER']);
		expect(run.result?.problems).toEqual([null, null, null]);
	}, 300_000);
});
