/**
 * The streaming reader of `GET /v1/files/{FileID}` answers (nodes/shared/http/fileAnswer.ts) and
 * the picking of an order's files (nodes/shared/http/files.ts): every byte value round-trips
 * through any chunking, JSON the way other writers escape it, and every broken answer is
 * refused instead of giving wrong bytes.
 */
import { checkFileId, decodeFileAnswer, FileAnswerDecoder, NOT_JSON } from '../../nodes/shared/http/fileAnswer';
import type { FileAnswer } from '../../nodes/shared/http/fileAnswer';
import { checkFileKinds, MAX_FILE_NAME_BYTES, MAX_FILES_PER_ORDER, pickFiles, safeFileName } from '../../nodes/shared/http/files';
import { publishedSentInvoice } from '../fixtures/published';
import { printFigures, sha256 as sha } from '../workflows/fileSupport';


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

const answer = (content: Buffer, extra = '') =>
	`{"FileID":"3f2b8c1e-7d4a-4b2e-9c1f-0a6d5e4b3c2a","FileName":"Factuur \\"2024\\" Zoë.pdf","MimeType":"application/pdf"${extra},"FileContent":"${content.toString('base64')}"}`;

function decodeIn(chunks: Array<string | Buffer>, hint?: number): FileAnswer | { problem: string } {
	const decoder = new FileAnswerDecoder(hint);
	for (const chunk of chunks) decoder.push(chunk);
	return decoder.end();
}

function split(text: Buffer, size: number): Buffer[] {
	const out: Buffer[] = [];
	for (let i = 0; i < text.length; i += size) out.push(text.subarray(i, i + size));
	return out;
}

const ok = (result: FileAnswer | { problem: string }): FileAnswer => {
	if ('problem' in result) throw new Error(`unexpected problem: ${result.problem}`);
	return result;
};

describe('FileAnswerDecoder', () => {
	it('decodes every length 0..70 and every byte value, split at every position into two chunks', () => {
		let cases = 0;
		for (let length = 0; length <= 70; length++) {
			const content = length === 70 ? Buffer.from(Array.from({ length: 256 }, (_, i) => i)) : bytes(length, length + 7);
			const raw = Buffer.from(answer(content), 'utf8');
			for (let cut = 0; cut <= raw.length; cut++) {
				const got = ok(decodeIn([raw.subarray(0, cut), raw.subarray(cut)], raw.length));
				expect(got.content.equals(content)).toBe(true);
				cases++;
			}
		}
		const got = ok(decodeFileAnswer(answer(bytes(10))));
		expect(got).toMatchObject({ FileID: '3f2b8c1e-7d4a-4b2e-9c1f-0a6d5e4b3c2a', FileName: 'Factuur "2024" Zoë.pdf', MimeType: 'application/pdf' });
		printFigures('file answer decoder', { 'two-chunk splits decoded byte-identical': cases });
	});

	it('decodes a large file in network-sized chunks (SHA-256 equal), with or without a (wrong) Content-Length', () => {
		const content = bytes(3 * 1024 * 1024 + 17, 99);
		const raw = Buffer.from(answer(content), 'utf8');
		for (const [size, hint] of [
			[65536, raw.length],
			[1000, undefined],
			[4093, 1000],
			[7, raw.length * 2],
		] as Array<[number, number | undefined]>) {
			const got = ok(decodeIn(split(raw, size), hint));
			expect(sha(got.content)).toBe(sha(content));
		}
	});

	it('reads the fields whatever their order, case or neighbours, and skips nested objects that say FileContent', () => {
		const content = bytes(500, 3);
		const b64 = content.toString('base64');
		const text =
			`\r\n { "fileContent" : "${b64}" , "Meta": {"FileContent": "not this", "list": [1, {"a": "}]\\"{"}], "n": null},` +
			` "Note": "a \\"FileContent\\": \\"x\\" and \\\\", "mimeType": "application/pdf", "FILENAME": "a.pdf", "FileID": "x-1", "Size": 500 } \n`;
		for (let cut = 0; cut <= text.length; cut += 3) {
			const got = ok(decodeIn([text.slice(0, cut), text.slice(cut)]));
			expect(got.content.equals(content)).toBe(true);
			expect(got).toMatchObject({ FileID: 'x-1', FileName: 'a.pdf', MimeType: 'application/pdf' });
		}
	});

	it('accepts base64 as other JSON writers send it: escaped "/" and "+", MIME line breaks, padding split across chunks', () => {
		const content = bytes(4000, 5);
		const b64 = content.toString('base64');
		const escaped = b64.replace(/\//g, '\\/').replace(/\+/g, '\\u002B');
		const wrapped = (b64.match(/.{1,76}/g) ?? []).join('\\r\\n');
		const rawWrapped = (b64.match(/.{1,76}/g) ?? []).join('\r\n');
		for (const form of [escaped, wrapped, rawWrapped]) {
			const raw = Buffer.from(`{"FileName":"f.pdf","FileContent":"${form}"}`);
			for (const size of [1, 2, 3, 5, 64, 1000]) expect(ok(decodeIn(split(raw, size))).content.equals(content)).toBe(true);
		}
		for (const length of [1, 2, 3, 4]) {
			const small = bytes(length, length);
			const text = `{"FileContent":"${small.toString('base64')}"}`;
			for (let cut = 0; cut <= text.length; cut++) expect(ok(decodeIn([text.slice(0, cut), text.slice(cut)])).content.equals(small)).toBe(true);
			// Without padding, as some encoders write it.
			const bare = `{"FileContent":"${small.toString('base64').replace(/=+$/, '')}"}`;
			expect(ok(decodeFileAnswer(bare)).content.equals(small)).toBe(true);
		}
	});

	it('refuses a cut-off answer at every cut, never handing out a shorter file', () => {
		const raw = Buffer.from(answer(bytes(300, 11)));
		let refused = 0;
		for (let cut = 0; cut < raw.length; cut++) {
			const result = decodeIn([raw.subarray(0, cut)], raw.length);
			expect(result).toEqual({ problem: NOT_JSON });
			refused++;
		}
		expect(refused).toBe(raw.length);
	});

	it.each([
		['an HTML page', '<html><head><title>502 Bad Gateway</title></head></html>', NOT_JSON],
		['a list', '[{"FileContent":"QUJD"}]', NOT_JSON],
		['text after the object', '{"FileContent":"QUJD"} trailing', NOT_JSON],
		['an object without FileContent', '{"FileID":"x"}', 'has no FileContent'],
		['FileContent null', '{"FileID":"x","FileContent":null}', 'has a FileContent that is not a string'],
		['FileContent a number', '{"FileContent":12}', 'has a FileContent that is not a string'],
		['a character outside base64', '{"FileContent":"QUJD*EFG"}', 'has a FileContent that is not base64'],
		['padding in the middle', '{"FileContent":"QQ==QUJD"}', 'has a FileContent that is not base64'],
		['three padding characters', '{"FileContent":"Q==="}', 'has a FileContent that is not base64'],
		['one character left over', '{"FileContent":"QUJDR"}', 'has a FileContent that is not base64'],
		['an unknown escape', '{"FileContent":"QU\\xJD"}', 'has a FileContent that is not base64'],
		['an escape outside ASCII', '{"FileContent":"QU\\u00e9JD"}', 'has a FileContent that is not base64'],
	])('refuses %s', (_what, text, problem) => {
		expect(decodeFileAnswer(text)).toEqual({ problem });
		// The same, a byte at a time.
		expect(decodeIn(split(Buffer.from(text), 1))).toEqual({ problem });
	});

	it('keeps at most 1 MB besides FileContent', () => {
		const text = `{"Note":"${'x'.repeat(1024 * 1024)}","FileContent":"QUJD"}`;
		expect(decodeFileAnswer(text)).toEqual({ problem: 'has more than 1 MB besides FileContent' });
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
		expect(pickFiles(many, ['attachments'])).toMatchObject({ refs: [], problem: `names ${MAX_FILES_PER_ORDER + 1} files of the chosen kinds; at most ${MAX_FILES_PER_ORDER} are read per order` });
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
		['a path', '../../etc/passwd', 'passwd'],
		['a Windows path', 'C:\\invoices\\INV-1.pdf', 'INV-1.pdf'],
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
