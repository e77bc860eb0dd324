/**
 * Reading a body within bounds (nodes/shared/http/body.ts) on plain streams: the size limit
 * stops and destroys the stream, the deadline cuts off a stalled one, the key's forms are
 * found across chunk boundaries, and a late answer after the deadline is dropped.
 */
import { sleep } from 'n8n-workflow';

import { beforeDeadline, BodyLimitError, readBody } from '../../nodes/shared/http/body';
import { streams } from '../reliability/hostile-server';

const open = () => new AbortController().signal;
const bounds = (over: Partial<Parameters<typeof readBody>[1]> = {}) => ({ maxBytes: 1000, deadline: open(), tail: false, watch: [], ...over });

const chunks = streams.of;

describe('readBody', () => {
	it('reads a stream as text, keeping the tail when asked', async () => {
		const read = await readBody(chunks(['{"a":', '"é"}']), bounds({ tail: true }));
		expect(read).toEqual({ text: '{"a":"é"}', tail: '{"a":"é"}', found: false });
	});

	it('stops at the size limit and destroys the stream', async () => {
		const counter = { pulled: 0 };
		const endless = streams.endless(counter);
		const error = await readBody(endless, bounds({ maxBytes: 1000 })).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(BodyLimitError);
		expect((error as BodyLimitError).reason).toBe('size');
		expect((error as BodyLimitError).received).toBe(1100);
		expect(endless.destroyed).toBe(true);
		expect(counter.pulled).toBeLessThan(40);
	});

	it('cuts off a stalled stream at the deadline', async () => {
		const stalled = streams.stalled('{"Items":[');
		const controller = new AbortController();
		const reading = readBody(stalled, bounds({ deadline: controller.signal }));
		await sleep(5);
		controller.abort();
		const error = await reading.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(BodyLimitError);
		expect((error as BodyLimitError).reason).toBe('deadline');
		expect(stalled.destroyed).toBe(true);
	});

	it('finds a watched text inside a chunk and across a chunk boundary, and only then', async () => {
		const key = 'SECRET-KEY-1234';
		expect(await readBody(chunks(['{"k":"SECRET-KEY-1234"}']), bounds({ watch: [key] }))).toMatchObject({ found: true });
		for (let cut = 1; cut < key.length; cut++) {
			const text = `{"k":"${key}"}`;
			const at = 6 + cut;
			expect(await readBody(chunks([text.slice(0, at), text.slice(at)]), bounds({ watch: [key] }))).toMatchObject({ found: true });
			expect(await readBody(chunks([text.slice(0, 5), text.slice(5, at), text.slice(at)]), bounds({ watch: [key] }))).toMatchObject({ found: true });
		}
		expect(await readBody(chunks(['{"k":"SECRET-KEY-123', '5"}']), bounds({ watch: [key] }))).toMatchObject({ found: false });
	});

	it('takes text and buffers as they are (size checked) and hands other values back', async () => {
		expect(await readBody('{"a":1}', bounds({ watch: ['"a"'] }))).toEqual({ text: '{"a":1}', tail: '', found: true });
		expect(await readBody(Buffer.from('[1]'), bounds())).toEqual({ text: '[1]', tail: '', found: false });
		await expect(readBody('x'.repeat(1001), bounds())).rejects.toBeInstanceOf(BodyLimitError);
		expect(await readBody({ Items: [] }, bounds())).toEqual({ value: { Items: [] } });
	});
});

describe('beforeDeadline', () => {
	it('fails at the deadline and drops the answer that comes later', async () => {
		const controller = new AbortController();
		type Late = { body: ReturnType<typeof chunks> };
		let answer!: (value: Late) => void;
		const pending = new Promise<Late>((resolve) => (answer = resolve));
		const waiting = beforeDeadline(pending, controller.signal);
		controller.abort();
		await expect(waiting).rejects.toBeInstanceOf(BodyLimitError);
		const late = chunks(['{}']);
		answer({ body: late });
		await pending;
		await new Promise((resolve) => late.once('close', resolve));
		expect(late.destroyed).toBe(true);
	});

	it('passes an answer that comes in time', async () => {
		expect(await beforeDeadline(Promise.resolve({ body: 'ok' }), open())).toEqual({ body: 'ok' });
	});
});
