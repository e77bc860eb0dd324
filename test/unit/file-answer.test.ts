/**
 * The answer of `GET /v1/files/{FileID}` (nodes/shared/node/files.ts decodeFileAnswer and readFileAnswer) and the
 * picking of an order's files: every byte value round-trips, base64 the way other writers send
 * it is read, and every broken answer is refused instead of giving wrong bytes.
 */
import {
	checkFileId,
	checkFileKinds,
	decodeFileAnswer,
	MAX_FILE_NAME_BYTES,
	readFileAnswer,
	MAX_FILES_PER_ORDER,
	pickFiles,
	safeFileName,
} from '../../nodes/shared/node/files';
import type { FileAnswer } from '../../nodes/shared/node/files';
import { publishedSentInvoice } from '../fixtures/published';

/** A deterministic pseudo-random byte string. */
function bytes(length: number, seed = 1): Buffer {
	const out = Buffer.alloc(length);
	let x = seed;
	for (let i = 0; i < length; i++) {
		x = (x * 1103515245 + 12345) >>> 0;
		out[i] = x >>> 24;
	}
	return out;
}

const decode = (text: string) => decodeFileAnswer(JSON.parse(text));
const ok = (result: FileAnswer | { problem: string }): FileAnswer => {
	if ('problem' in result) throw new Error(`unexpected problem: ${result.problem}`);
	return result;
};

describe('decodeFileAnswer', () => {
	it('decodes every length 0..70 and every byte value, and reads the fields in any letter case', () => {
		for (let length = 0; length <= 70; length++) {
			const content = length === 70 ? Buffer.from(Array.from({ length: 256 }, (_, i) => i)) : bytes(length, length + 7);
			const text = `{"FileID":"3f2b8c1e","FileName":"Factuur \\"2024\\" Zoë.pdf","MimeType":"application/pdf","FileContent":"${content.toString('base64')}"}`;
			expect(ok(decode(text)).content.equals(content)).toBe(true);
		}
		const got = ok(decode(`{"fileContent":"QUJD","FILENAME":"a.pdf","fileid":"x-1","mimeType":"application/pdf","Meta":{"FileContent":"no"}}`));
		expect(got).toMatchObject({ FileID: 'x-1', FileName: 'a.pdf', MimeType: 'application/pdf', content: Buffer.from('ABC') });
	});

	it('accepts base64 as other JSON writers send it: escaped "/" and "+", MIME line breaks, no padding', () => {
		const content = bytes(4000, 5);
		const b64 = content.toString('base64');
		for (const form of [b64.replace(/\//g, '\\/').replace(/\+/g, '\\u002B'), (b64.match(/.{1,76}/g) ?? []).join('\\r\\n')]) {
			expect(ok(decode(`{"FileName":"f.pdf","FileContent":"${form}"}`)).content.equals(content)).toBe(true);
		}
		for (const length of [1, 2, 3, 4]) {
			const small = bytes(length, length);
			expect(ok(decode(`{"FileContent":"${small.toString('base64').replace(/=+$/, '')}"}`)).content.equals(small)).toBe(true);
		}
	});

	it.each([
		['a list', '[{"FileContent":"QUJD"}]', 'is not a JSON object'],
		['a text', '"QUJD"', 'is not a JSON object'],
		['an object without FileContent', '{"FileID":"x"}', 'has no FileContent'],
		['FileContent null', '{"FileID":"x","FileContent":null}', 'has a FileContent that is not a string'],
		['FileContent a number', '{"FileContent":12}', 'has a FileContent that is not a string'],
		['a character outside base64', '{"FileContent":"QUJD*EFG"}', 'has a FileContent that is not base64'],
		['padding in the middle', '{"FileContent":"QQ==QUJD"}', 'has a FileContent that is not base64'],
		['three padding characters', '{"FileContent":"Q==="}', 'has a FileContent that is not base64'],
		['padding on a short group', '{"FileContent":"QUI=Q"}', 'has a FileContent that is not base64'],
		['one character left over', '{"FileContent":"QUJDR"}', 'has a FileContent that is not base64'],
		['a character outside ASCII', '{"FileContent":"QU\\u00e9JD"}', 'has a FileContent that is not base64'],
	])('refuses %s', (_what, text, problem) => {
		expect(decode(text)).toEqual({ problem });
	});
});

describe('readFileAnswer: the file decoded from the bytes of the answer (docs/performance.md, 6a)', () => {
	const file = bytes(300_000, 9);
	const b64 = file.toString('base64');

	it('decodes FileContent in slices straight from the bytes, whatever its length and place among the fields', () => {
		for (const length of [0, 1, 2, 3, 4, 49_151, 49_152, 49_153, 300_000]) {
			const content = file.subarray(0, length);
			const text = `{"FileID":"x-1","FileName":"Zoë \\"1\\".pdf","FileContent":"${content.toString('base64')}","MimeType":"application/pdf"}`;
			expect(readFileAnswer(Buffer.from(text))).toEqual(ok(decode(text)));
		}
		expect(readFileAnswer(Buffer.from(`{ "FileContent" : "${b64}" , "FileName": "a.pdf" }`))).toEqual({ FileName: 'a.pdf', content: file });
	});

	it('never makes the base64 one text: JSON.parse sees only the small rest', () => {
		const parse = jest.spyOn(JSON, 'parse');
		try {
			expect(readFileAnswer(Buffer.from(`{"FileID":"x-1","FileContent":"${b64}"}`))).toEqual({ FileID: 'x-1', content: file });
			expect(Math.max(...parse.mock.calls.map(([text]) => text.length))).toBeLessThan(100);
		} finally {
			parse.mockRestore();
		}
	});

	it.each([
		['escaped "/" and "+"', `{"FileContent":"${b64.replace(/\//g, '\\/').replace(/\+/g, '\\u002B')}"}`],
		['MIME line breaks', `{"FileContent":"${(b64.match(/.{1,76}/g) ?? []).join('\\r\\n')}"}`],
		['unpadded', `{"FileContent":"${file.subarray(0, 4).toString('base64').replace(/=+$/, '')}"}`],
		['"FileContent" as a value before the field', `{"FileName":"FileContent","Meta":{"FileContent":"QUJD"},"FileContent":"${b64}"}`],
		['a nested FileContent first', `{"Meta":{"FileContent":"QUJD"},"FileContent":"${b64}"}`],
		['fields in another case', `{"fileContent":"${b64}","FILENAME":"a.pdf"}`],
		['padding in the middle of a long one', `{"FileContent":"${'QQ=='.repeat(20_000)}"}`],
		['a character outside base64 late', `{"FileContent":"${b64.slice(0, 100_000)}*${b64.slice(100_001)}"}`],
		['a list', '[{"FileContent":"QUJD"}]'],
		['no FileContent', '{"FileID":"x"}'],
		['FileContent null', '{"FileContent":null}'],
	])('reads %s as the whole answer parsed would', (_what, text) => {
		expect(readFileAnswer(Buffer.from(text))).toEqual(decode(text));
	});

	it('answers undefined for a body that is not JSON (cut off in transit), so it counts as broken', () => {
		expect(readFileAnswer(Buffer.from(`{"FileContent":"${b64.slice(0, 1000)}`))).toBeUndefined();
		expect(readFileAnswer(Buffer.from(`{"FileContent":"${b64}", "FileName": `))).toBeUndefined();
		expect(readFileAnswer(Buffer.from('<html>502</html>'))).toBeUndefined();
	});
});

describe('checkFileId', () => {
	it.each([
		['3f2b8c1e-7d4a-4b2e-9c1f-0a6d5e4b3c2a', true],
		['  ABC_def.1-2  ', true],
		['../orders', false],
		['a/b', false],
		['a%2Fb', false],
		['.hidden', false],
		['x'.repeat(129), false],
		['', false],
		[42, false],
		[null, false],
	])('%p -> %p', (value, valid) => {
		expect(checkFileId(value).ok).toBe(valid);
	});
});

describe('pickFiles', () => {
	const order = {
		OrderID: 1,
		OrderPDF: { FileID: 'pdf-1', FileName: 'INV-1.pdf' },
		Attachments: [
			{ FileID: 'ubl-1', FileName: 'INV-1.xml' },
			{ FileID: 'att-1', FileName: 'timesheet.xlsx' },
			{ FileID: 'json-1', FileName: 'order.json' },
			{ FileID: 'ubl-2', FileName: 'received.XML' },
			{ FileID: null, FileName: 'no-id.pdf' },
		],
		Messages: [
			{ MessageDirection: 'Outgoing', TransportType: 'Peppol' },
			{ MessageDirection: 'Incoming', FileID: 'mlr-2', Description: 'AB: received' },
		],
	};

	it('names each picked file by its binary property: .xml attachments are UBL, the original JSON its own kind', () => {
		expect(pickFiles(order, ['pdf', 'ubl', 'attachments', 'json', 'messages'])).toEqual({
			refs: [
				{ kind: 'pdf', property: 'pdf', FileID: 'pdf-1', FileName: 'INV-1.pdf' },
				{ kind: 'ubl', property: 'ubl', FileID: 'ubl-1', FileName: 'INV-1.xml' },
				{ kind: 'ubl', property: 'ubl_2', FileID: 'ubl-2', FileName: 'received.XML' },
				{ kind: 'attachments', property: 'attachment_1', FileID: 'att-1', FileName: 'timesheet.xlsx' },
				{ kind: 'json', property: 'original_json', FileID: 'json-1', FileName: 'order.json' },
				{ kind: 'messages', property: 'message_1', FileID: 'mlr-2', FileName: undefined },
			],
			missing: [],
		});
	});

	it("the published sent invoice: the UBL is its Outgoing message's file, the JSON is not another attachment, the response is a message (#32)", () => {
		const picked = pickFiles(publishedSentInvoice(), ['pdf', 'ubl', 'attachments', 'json', 'messages']);
		expect(picked.refs.map((r) => [r.property, r.FileID])).toEqual([
			['pdf', 'f23a5e6a-1319-4faf-8b28-7a9f925832ab'],
			['ubl', '4809a574-3887-411b-9792-66e0be48d99c'],
			['original_json', '13c734eb-20f1-4d96-be0f-76af26e5eb14'],
			['message_1', '1785b916-d26a-49c2-a6d7-5961a3df99e0'],
		]);
		expect(picked.missing).toEqual(['attachments']);
		// A sale sent by e-mail has no UBL: that message's file is not one.
		const mailed = { Messages: [{ MessageDirection: 'Outgoing', TransportType: 'Email', FileID: 'mail-1' }] };
		expect(pickFiles(mailed, ['ubl'])).toEqual({ refs: [], missing: ['ubl'] });
	});

	it('lists what is missing; a list item (summary) names no files', () => {
		expect(pickFiles({ OrderID: 2, OrderPDF: { FileID: 'p' }, Attachments: [] }, ['pdf', 'ubl'])).toEqual({
			refs: [{ kind: 'pdf', property: 'pdf', FileID: 'p', FileName: undefined }],
			missing: ['ubl'],
		});
		expect(pickFiles({ OrderID: 3, OrderPDF: null, Attachments: [] }, ['pdf', 'ubl', 'messages']).missing).toEqual(['pdf', 'ubl', 'messages']);
	});

	it('reads no file of an order whose file list names an unsafe FileID or too many files', () => {
		const unsafe = pickFiles({ OrderPDF: { FileID: '../../v1/orders' } }, ['pdf']);
		expect(unsafe.refs).toEqual([]);
		expect(unsafe.problem).toBe('Main PDF has a FileID "../../v1/orders" that is not a FileID');
		const many = { Attachments: Array.from({ length: MAX_FILES_PER_ORDER + 1 }, (_, i) => ({ FileID: `f-${i}`, FileName: `${i}.csv` })) };
		expect(pickFiles(many, ['attachments'])).toMatchObject({
			refs: [],
			problem: `names ${MAX_FILES_PER_ORDER + 1} files of the chosen kinds; at most ${MAX_FILES_PER_ORDER} are read per order`,
		});
	});

	it('checkFileKinds: known kinds in a fixed order, from a list or a comma-separated expression', () => {
		expect(checkFileKinds(['ubl', 'pdf'])).toEqual({ kinds: ['pdf', 'ubl'] });
		expect(checkFileKinds('messages, pdf')).toEqual({ kinds: ['pdf', 'messages'] });
		expect(checkFileKinds(['pdf', 'zip'])).toEqual({ problem: 'has "zip", which is not one of pdf, ubl, attachments, json, messages' });
		expect(checkFileKinds(3)).toEqual({ problem: 'is not a list of files' });
	});
});

describe('safeFileName: binary file names safe by construction (#33)', () => {
	const bytes = (name: string) => Buffer.byteLength(name, 'utf8');

	it.each([
		['a path: its separators become part of the name', '../../etc/passwd', 'etc-passwd'],
		['an invoice number with a slash (#37: never cut)', '2024/0001.pdf', '2024-0001.pdf'],
		['the same number of another year', '/2025\\0001.pdf', '2025-0001.pdf'],
		['a Windows path', 'C:\\invoices\\INV-1.pdf', 'C:-invoices-INV-1.pdf'],
		['control characters and a line break', 'INV\u0000-1\r\n.pdf', 'INV-1.pdf'],
		['bidirectional controls (a name shown reversed)', 'invoice\u202Efdp.exe', 'invoicefdp.exe'],
		['C1 controls and isolates', 'A\u0085B\u2066C\u2069.xml', 'ABC.xml'],
		['nothing left', '\u202E/..', 'file-F-1'],
		['the published name with a space', '227010068_Simple2__6_05_2026 14_53_17.json', '227010068_Simple2__6_05_2026 14_53_17.json'],
	])('%s', (_what, name, expected) => {
		expect(safeFileName(name, 'F-1')).toBe(expected);
	});

	it('at most 200 bytes, the extension kept, never a character cut in half', () => {
		const long = `${'Leverancier met een heel lange naam '.repeat(8)}factuur.pdf`;
		const safe = safeFileName(long, 'F-1');
		expect(bytes(long)).toBeGreaterThan(264);
		expect(bytes(safe)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
		expect(safe.endsWith('.pdf')).toBe(true);
		const accents = safeFileName(`${'é'.repeat(150)}.xml`, 'F-1');
		expect(bytes(accents)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
		expect(accents).toBe(`${'é'.repeat(98)}.xml`);
		const emoji = safeFileName(`${'😀'.repeat(60)}.pdf`, 'F-1');
		expect(emoji).toBe(`${'😀'.repeat(49)}.pdf`);
	});
});
