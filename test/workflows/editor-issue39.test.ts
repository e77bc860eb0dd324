/**
 * Issue 39 run by n8n's engine against the emulator. Item 9, one ID convention: an ID field left as the node
 * comes (Party › Update's Party ID, Record Payment's Order, Product › Get, File › Get) takes the ID the input
 * item carries under the name the operations before it output it, as the Inbox operations do. Room for words:
 * a refused Other Fields (JSON) shows an example of what it takes.
 */
import type { IDataObject } from 'n8n-workflow';

import { orderBody, post } from '../emulator/helpers';
import type { Emu } from '../emulator/helpers';
import { createHarness } from '../harness';
import type { Harness } from '../harness';

const NODE = 'accessPointOrder';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("issue 39.9: ID fields left as they come take the input item's ID (engine, emulator)", () => {
	let h: Harness;
	let emu: Emu;
	const logged = () => (emu.requests as Array<{ method: string; path: string; body?: Rec }>).filter((r) => r.path.startsWith('/v1/'));

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 20 }, quiet: true });
		emu = h.emulator as Emu;
	});
	afterAll(async () => {
		await h?.close();
	});
	beforeEach(() => emu.clearRequests());

	async function run(parameters: IDataObject, input: IDataObject[]) {
		const result = await h.runNode(NODE, parameters, input);
		const name = result.nodeName as string;
		return { result, name, items: result.output(name) as Rec[] };
	}

	it('Find by VAT Number, then Party › Update with no Party ID set: the found party is changed', async () => {
		const party = (emu.store.listParties(emu.credentials.partyId) as Rec[]).find((p) => p.VATNumber)!;
		const chain = h.chain([
			{ type: NODE, parameters: { resource: 'party', operation: 'findByVat', vatNumber: party.VATNumber } },
			{ type: NODE, parameters: { resource: 'party', operation: 'update', updateFields: { city: 'Gent' } } },
		]);
		const result = await h.run(chain);
		const updated = result.output(chain.nodes[chain.nodes.length - 1].name as string) as Rec[];
		expect(
			logged()
				.filter((r) => r.method === 'PATCH')
				.map((r) => [r.path, r.body]),
		).toEqual([[`/v1/parties/${party.PartyID}`, { City: 'Gent' }]]);
		expect(updated).toEqual([expect.objectContaining({ PartyID: party.PartyID, City: 'Gent' })]);
	});

	it("Record Payment with the Order left as it comes pays the input item's OrderID", async () => {
		const answer = await post(emu, '/v1/orders', orderBody({ Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' } }));
		const id = answer.json as number;
		emu.clearRequests();
		const { items } = await run({ resource: 'order', operation: 'recordPayment', amount: '12,50', paymentDate: '2026-02-28' }, [{ OrderID: id }]);
		expect(logged().map((r) => `${r.method} ${r.path}`)).toContain(`POST /v1/orders/${id}/payments`);
		expect(items).toEqual([expect.objectContaining({ OrderID: id, Amount: 12.5 })]);
	});

	it("Product › Get with no Product ID set reads the input item's ProductID", async () => {
		const product = (emu.store.listProducts(emu.credentials.partyId) as Rec[])[0];
		const { items } = await run({ resource: 'product', operation: 'get' }, [{ ProductID: product.ProductID }]);
		expect(logged().map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/products/${product.ProductID}`]);
		expect(items).toEqual([expect.objectContaining({ ProductID: product.ProductID })]);
	});

	it('an input item without the ID stops the run before any request, naming the field and what to map', async () => {
		const { result, name } = await run({ resource: 'party', operation: 'get' }, [{ Name: 'no id here' }]);
		const error = result.nodeError(name) as unknown as { message: string; description?: string };
		expect([error.message, error.description]).toEqual(['Item 0: "Party ID" is empty', expect.stringContaining('{{ $json.PartyID }}')]);
		expect(logged()).toEqual([]);
	});

	it('room for words: Other Fields (JSON) refused says what a valid one looks like, before any request', async () => {
		const party = (emu.store.listParties(emu.credentials.partyId) as Rec[])[0];
		for (const otherFields of ['{"CustomFields": [', '[1, 2]']) {
			const { result, name } = await run({ resource: 'party', operation: 'update', updateFields: { otherFields } }, [{ PartyID: party.PartyID }]);
			const error = result.nodeError(name) as unknown as { message: string; description?: string };
			expect([error.message, error.description]).toEqual([
				expect.stringMatching(/^Item 0: "Other Fields \(JSON\)" .*(is not valid JSON|is not a JSON object)/),
				'Enter a JSON object, e.g. {"CustomFields": [{"Key": "crm", "Value": "42"}]}, or map one.',
			]);
		}
		expect(logged()).toEqual([]);
	});
});
