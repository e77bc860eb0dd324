/**
 * AccessPoint Order › Create / Create and Send when the create answers 200 without a
 * readable OrderID (empty body, plain text): the item fails with a NodeApiError saying the
 * order may or may not exist, instead of being output as a success.
 */
import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';

const NODE = 'accessPointOrder';
const BASE = 'https://api.example.test';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const order = {
	resource: 'order',
	orderType: 'Invoice',
	orderDirection: 'Income',
	orderDate: '2024-03-01',
	customerName: 'ACME NV',
	customerVatNumber: 'BE0123456749',
	orderLines: { lines: [{ description: 'Work', quantity: 1, unitPriceExcl: 100, vatPercentage: 21 }] },
};

describe('AccessPoint Order › Create answered without an OrderID (nock)', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await createHarness({ emulator: false, credentials: { apiKey: 'secret-key-1', partyId: '100001', environment: 'custom', baseUrl: BASE } });
		nock.disableNetConnect();
	});
	afterEach(() => nock.cleanAll());
	afterAll(async () => {
		nock.enableNetConnect();
		await h?.close();
	});

	const answers: Array<[string, () => nock.Scope]> = [
		['an empty body', () => nock(BASE).post('/v1/orders').reply(200, '')],
		['plain text "OK"', () => nock(BASE).post('/v1/orders').reply(200, 'OK', { 'Content-Type': 'text/plain' })],
		['a JSON object without OrderID', () => nock(BASE).post('/v1/orders').reply(200, { Status: 'Accepted' })],
	];

	it.each(answers)('Create: %s fails the item with a NodeApiError (not a success)', async (_label, reply) => {
		const scope = reply();
		const result = await h.runNode(NODE, { ...order, operation: 'create', skipIfExists: false }, undefined, { onError: 'continueErrorOutput' });
		const name = result.nodeName as string;
		expect(scope.isDone()).toBe(true);
		expect(result.items(name, 0)).toEqual([]);
		const [failed] = result.items(name, 1);
		expect(failed.pairedItem).toEqual({ item: 0 });
		expect(failed.error).toBeInstanceOf(NodeApiError);
		const error = failed.error as NodeApiError;
		expect(error.message).toMatch(/^Create order answered with .*: the order may or may not exist$/);
		expect(error.description).toMatch(/Skip If Already Created/);
		expect(error.description).toMatch(/External Provider ID/);
	});

	it('a made order whose read-back fails is still a success (its OrderID output, never an error inviting a duplicate re-run)', async () => {
		const scope = nock(BASE).post('/v1/orders').reply(200, '42').get('/v1/orders/42').reply(404, {});
		const result = await h.runNode(NODE, { ...order, operation: 'create', skipIfExists: false, options: { maxRetries: 0 } });
		expect(scope.isDone()).toBe(true);
		expect(result.output(result.nodeName as string)).toEqual([{ OrderID: 42, AlreadyExisted: false }]);
	});

	it('the error names the text answer and the External Provider ID to find the order by; the other items go on', async () => {
		const scope = nock(BASE)
			.get('/v1/orders')
			.query(true)
			.twice()
			.reply(200, { Items: [] })
			.post('/v1/orders')
			.reply(200, 'OK', { 'Content-Type': 'text/plain' })
			.post('/v1/orders')
			.reply(200, '71');
		const result = await h.runNode(
			NODE,
			{ ...order, operation: 'create', externalProviderId: '={{ $json.ext }}' },
			[{ ext: 'INV-A' }, { ext: 'INV-B' }] as IDataObject[],
			{
				onError: 'continueRegularOutput',
			},
		);
		const name = result.nodeName as string;
		expect(scope.isDone()).toBe(true);
		const items = result.output(name) as Rec[];
		expect(items[1]).toEqual({ OrderID: 71, AlreadyExisted: false });
		expect(items[0].error).toBe('Create order answered with the text "OK": the order may or may not exist');
		expect(items[0]).not.toHaveProperty('Response');
		expect(items[0]).not.toHaveProperty('AlreadyExisted');
		expect(items[0].description).toContain('Skip If Already Created');
		expect(items[0].description).toContain('External Provider ID INV-A');
	});

	it('without continueOnFail the run stops on that item with the NodeApiError', async () => {
		nock(BASE).post('/v1/orders').reply(200, '');
		const result = await h.runNode(NODE, { ...order, operation: 'create', skipIfExists: false });
		const error = result.nodeError(result.nodeName as string);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toBe('Create order answered with an empty answer: the order may or may not exist');
	});

	it('Create and Send: the item fails with the same error and nothing is sent', async () => {
		const scope = nock(BASE).get('/v1/orders').query(true).reply(200, { Items: [] }).post('/v1/orders').reply(200, 'OK', { 'Content-Type': 'text/plain' });
		const result = await h.runNode(NODE, { ...order, operation: 'createAndSend', externalProviderId: 'INV-C' }, undefined, {
			onError: 'continueRegularOutput',
		});
		expect(scope.isDone()).toBe(true);
		const items = result.output(result.nodeName as string) as Rec[];
		expect(items).toEqual([expect.objectContaining({ error: expect.stringMatching(/: the order may or may not exist$/) })]);
	});
});
