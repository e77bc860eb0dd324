/**
 * Issue 37 item 1: the UBL reader's work is linear in the document's size whatever a sender puts in it. Each hostile
 * shape of emulator/documents.js `hostileUbl` (10,000 unused namespace declarations, 250-deep nesting, 5,000
 * attributes per element, huge text with references) is read at the same size as a plain invoice, in CPU time, the
 * best of several interleaved runs: a hostile one may cost a few times a plain one, never the hundredfold the
 * declarations cost when every element copied the declarations in scope (9-14 s for 0.6 MB). A ratio, not a time: on a
 * loaded machine both sides slow down alike. Limits the reader sets are a problem that says so, never a crash.
 */
import { readDocument, scanXml } from '../../nodes/shared/domain/ubl';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { cpuTime } = require('./helpers/cpuTime') as { cpuTime: <T>(fn: () => T) => { result: T; ms: number } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { hostileUbl } = require('../../emulator/documents') as { hostileUbl: (shape: string, bytes: number, o?: object) => string };

const MB = 1024 * 1024;
const read = (xml: Buffer) => readDocument(xml, { maxChars: 20 * MB });
/** CPU ms of one read. */
function cpuMs(xml: Buffer): number {
	const { result, ms } = cpuTime(() => read(xml));
	if (!result.ok) throw new Error(result.problem);
	return ms;
}

describe('the UBL reader is linear whatever the document holds', () => {
	const size = 0.6 * MB;
	const plain = Buffer.from(hostileUbl('plain', size));

	it.each(['xmlns', 'deep', 'attrs', 'text'])('%s: read as a plain invoice of the same size is, within a small factor', (shape) => {
		const hostile = Buffer.from(hostileUbl(shape, size));
		expect(Math.abs(hostile.length - plain.length) / plain.length).toBeLessThan(0.05);
		const result = read(hostile);
		expect(result.ok && result.doc.invoice).toMatchObject({ Number: 'HOSTILE-1', SupplierName: 'Hostile Supplier BV', PayableAmount: '121.00' });
		read(plain); // warm
		const [p, h]: number[][] = [[], []];
		for (let run = 0; run < 5; run++) {
			p.push(cpuMs(plain));
			h.push(cpuMs(hostile));
		}
		// Best of 5 each (noise only adds time); plain is at least 1 ms so the ratio means something.
		const ratio = Math.min(...h) / Math.max(1, Math.min(...p));
		expect(ratio).toBeLessThan(5);
	});

	it('the declarations inside a Peppol envelope too', () => {
		const xml = Buffer.from(hostileUbl('xmlns', size, { envelope: true }));
		const { result, ms } = cpuTime(() => read(xml));
		expect(result.ok && result.doc).toMatchObject({ envelope: true, kind: 'Invoice', invoice: { Number: 'HOSTILE-1' } });
		expect(ms).toBeLessThan(Math.max(1, cpuMs(plain)) * 5 + 50);
	});

	it('nesting beyond 256 levels is a problem that names the limit, not malformed XML', () => {
		const result = scanXml(`${'<a>'.repeat(300)}${'</a>'.repeat(300)}`, {}, { maxChars: MB });
		expect(result).toEqual({ ok: false, problem: 'is beyond what is read: elements nested more than 256 deep (line 1, column 769)' });
	});

	it('attribute names that are also names of object properties read as attributes', () => {
		const texts: string[] = [];
		const result = scanXml('<a __proto__="1" constructor="2" toString="3"/>', { close: (e) => texts.push(JSON.stringify({ ...e.attrs })) }, { maxChars: MB });
		expect(result.ok).toBe(true);
		expect(texts).toEqual(['{"__proto__":"1","constructor":"2","toString":"3"}']);
	});

	it('a text far larger than what is kept is checked whole: a bad reference at its end is found', () => {
		const big = `<a>${'x &amp; y '.repeat(200_000)}&bad;</a>`;
		expect(scanXml(big, {}, { maxChars: 10 * MB })).toMatchObject({ ok: false, problem: expect.stringContaining('an entity "&bad;" that is not defined') });
	});
});
