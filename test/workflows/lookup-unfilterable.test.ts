/**
 * Issue 36 item 7, run by n8n-core's WorkflowExecute against the emulator: the docs publish no
 * VATNumber, Email or Reference filter for parties and products. Here the emulator answers those
 * as the service answers a property it cannot filter (400 "Could not find a property named …"):
 * Party › Create and Product › Create or Update neither fail with that bare 400 nor create a
 * duplicate; they read the list (parties by the published PartyType filter), compare each record,
 * and find the one created before, on the second page too.
 */
import type { IDataObject } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import * as schemas from '../../emulator/schemas';
import { createHarness } from '../harness';
import type { Harness } from '../harness';

type Emu = Awaited<ReturnType<typeof createEmulator>>;
type Logged = { method: string; path: string; status?: number; query?: Record<string, string>; url?: string };
const ORDER = 'accessPointOrder';
const fields = (schema: { fields: Record<string, unknown> }) => schema.fields;

describe('lookups on fields the service does not filter (engine, emulator)', () => {
	let h: Harness;
	let emu: Emu;
	const removed: Array<[Record<string, unknown>, string, unknown]> = [];

	beforeAll(async () => {
		// Not published as filterable: the emulator refuses them as the service refuses an order property.
		for (const [schema, name] of [
			[schemas.PARTY, 'VATNumber'],
			[schemas.PARTY, 'Email'],
			[schemas.PRODUCT, 'Reference'],
		] as const) {
			removed.push([fields(schema), name, fields(schema)[name]]);
			delete fields(schema)[name];
		}
		h = await createHarness({ emulator: { orders: 2 } });
		emu = h.emulator as Emu;
	});
	afterAll(async () => {
		for (const [table, name, value] of removed) table[name] = value;
		await h?.close();
	});

	const requests = () => (emu.requests as Logged[]).filter((r) => r.path.startsWith('/v1/'));
	const posts = (path: string) => requests().filter((r) => r.method === 'POST' && r.path === path);

	it('the emulator refuses the filter, as the service does', async () => {
		const r = await fetch(`${emu.url}/v1/parties?$filter=${encodeURIComponent("VATNumber eq 'BE1002003070'")}`, {
			headers: { apikey: emu.credentials.apiKey, partyID: emu.credentials.partyId },
		});
		expect(r.status).toBe(400);
		expect(await r.text()).toMatch(/Could not find a property named 'VATNumber'/);
	});

	it('Party › Create run twice: created once, then found by reading the Customer list (no duplicate, no bare 400)', async () => {
		const parameters = {
			resource: 'party',
			operation: 'create',
			name: 'Nieuw Klant BV',
			vatNumber: 'BE0700123432',
			partyType: 'Customer',
			options: { maxRetries: 0 },
		};
		emu.clearRequests();
		const first = await h.runNode(ORDER, parameters);
		first.assertSuccess();
		expect(first.output(first.nodeName)).toEqual([expect.objectContaining({ Name: 'Nieuw Klant BV', AlreadyExisted: false })]);
		const [created] = first.output(first.nodeName) as IDataObject[];

		emu.clearRequests();
		const again = await h.runNode(ORDER, parameters);
		again.assertSuccess();
		expect(again.output(again.nodeName)).toEqual([expect.objectContaining({ PartyID: created.PartyID, AlreadyExisted: true })]);
		expect(posts('/v1/parties')).toEqual([]);
		const sameVat = emu.store.listParties(emu.credentials.partyId).filter((p: IDataObject) => p.VATNumber === 'BE0700123432');
		expect(sameVat).toHaveLength(1);
		// The refused filter, then the Customer list page after page (the new party is at its end).
		const lists = requests().filter((r) => r.method === 'GET' && r.path === '/v1/parties');
		expect(lists[0].status).toBe(400);
		expect(lists.length).toBeGreaterThan(2);
	});

	it('Product › Create or Update: the product with that Reference (on page 2 of the list) is updated, not created again', async () => {
		const count = emu.store.listProducts(emu.credentials.partyId).length;
		emu.clearRequests();
		const result = await h.runNode(ORDER, {
			resource: 'product',
			operation: 'createOrUpdate',
			reference: 'P-0150',
			productFields: { description: 'Renamed' },
			options: { maxRetries: 0 },
		});
		result.assertSuccess();
		expect(result.output(result.nodeName)).toEqual([expect.objectContaining({ ProductID: 8000150, Reference: 'P-0150', AlreadyExisted: true })]);
		expect(emu.store.listProducts(emu.credentials.partyId)).toHaveLength(count);
		expect(posts('/v1/products')).toHaveLength(1);
	});
});
