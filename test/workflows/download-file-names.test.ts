/**
 * Issue 37 item 12, through n8n's engine against the emulator: Order › Download Files names the PDFs of invoices
 * 2024/0001 and 2025/0001 "2024-0001.pdf" and "2025-0001.pdf": the path separator is part of the name, the number
 * is never cut (both used to be "0001.pdf", one overwriting the other when written to disk).
 */
import type { IBinaryData } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import type { Emu, Rec } from '../reliability/helpers';

describe('Download Files: a number with a slash names its file whole', () => {
	let h: Harness;
	let emu: Emu;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 5 }, quiet: true });
		emu = h.emulator as Emu;
	});
	afterAll(async () => {
		await h?.close();
	});

	it('2024/0001 and 2025/0001 → 2024-0001.pdf and 2025-0001.pdf', async () => {
		const [a, b] = (emu.store.listOrders(emu.credentials.partyId) as Rec[]).slice(0, 2);
		const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
		emu.files.put(a.OrderID, { FileName: '2024/0001.pdf', content: pdf }, 'pdf');
		emu.files.put(b.OrderID, { FileName: '2025\\0001.pdf', content: pdf }, 'pdf');
		const result = await h.runNode('accessPointOrder', { resource: 'order', operation: 'downloadFiles', orderId: '={{ $json.id }}', files: ['pdf'] }, [
			{ json: { id: String(a.OrderID) } },
			{ json: { id: String(b.OrderID) } },
		]);
		result.assertSuccess();
		const names = result.items(result.nodeName).map((item) => (item.binary?.pdf as IBinaryData).fileName);
		expect(names).toEqual(['2024-0001.pdf', '2025-0001.pdf']);
		expect(result.output(result.nodeName).map((item) => (item.Files as Rec[])[0].FileName)).toEqual(['2024-0001.pdf', '2025-0001.pdf']);
	});
});
