/**
 * Custom Base URLs must be https, except for loopback hosts. A plain-http (or otherwise
 * unusable) Base URL stops every node with a NodeOperationError that names the URL and
 * says to fix the credential, before any request leaves (a nock catch-all on the host and
 * the emulator's log both stay empty). Loopback http and https work. The credential's
 * "Test" button follows the same rule (its request stops at an address that is not a URL).
 */
import nock from 'nock';
import { NodeOperationError } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import { runCredentialTest } from '../workflows/credentialTestRun';
import type { Harness } from '../harness';
import type { Emu } from './helpers';
import { apiRequests, errorItemProblem } from './helpers';
import { printFigures } from './report';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

const NODES: Array<[string, string, IDataObject]> = [
	['Order › Get', 'accessPointOrder', { resource: 'order', operation: 'get', orderId: '1000001' }],
	['Order › Get Many', 'accessPointOrder', { resource: 'order', operation: 'getAll', limit: 5 }],
	[
		'Order › Create',
		'accessPointOrder',
		{
			resource: 'order',
			operation: 'create',
			orderDate: '2024-01-01',
			customerName: 'A',
			orderLines: { lines: [{ quantity: 1, unitPriceExcl: 1, vatPercentage: 21 }] },
			externalProviderId: 'B-1',
		},
	],
	['Registration › Get Many', 'accessPointRegistration', { operation: 'getAll', returnAll: true }],
	['Integration › Get Many', 'accessPointIntegration', { operation: 'getAll', registrationId: byId('300001'), returnAll: true }],
	['Peppol Lookup', 'accessPointPeppolLookup', { identifier: 'BE0123456749' }],
	['Identification › Start', 'accessPointIdentification', { operation: 'start', registrationId: byId('300001'), redirectUrl: 'https://app.example.test/x' }],
];

const REJECTED = [
	'http://api.example.test',
	'HTTP://API.EXAMPLE.TEST/v1',
	'http://10.0.0.5:8080',
	'http://192.168.1.10',
	'http://127.0.0.1.nip.io',
	'http://localhost.example.test',
	'http://localhost@evil.example.test',
	'ftp://files.example.test',
	'ws://api.example.test',
	'//api.example.test',
	'api.example.test',
];

describe('custom Base URL: https only, except loopback', () => {
	let h: Harness;
	let emu: Emu;
	const arrived: string[] = [];
	const figures: Record<string, string> = {};

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 10 }, quiet: true });
		emu = h.emulator as Emu;
		for (const host of [
			'http://api.example.test',
			'http://10.0.0.5:8080',
			'http://192.168.1.10',
			'http://127.0.0.1.nip.io',
			'http://localhost.example.test',
			'http://evil.example.test',
			'https://api.example.test',
		]) {
			for (const method of ['GET', 'POST', 'DELETE']) {
				nock(host)
					.persist()
					.intercept(/.*/, method)
					.reply(function (uri) {
						arrived.push(`${method} ${host}${uri}`);
						return [200, { Items: [] }];
					});
			}
		}
	});
	afterAll(async () => {
		printFigures('custom Base URL', figures);
		nock.cleanAll();
		await h?.close();
	});
	beforeEach(() => {
		emu.clearRequests();
		arrived.length = 0;
	});

	it.each(NODES)('%s: http://api.example.test stops the node before any request', async (_label, type, parameters) => {
		const result = await h.runNode(type, parameters, [{}], {
			runOptions: { credentialsOverride: { environment: 'custom', baseUrl: 'http://api.example.test' } },
		});
		expect(result.status).toBe('error');
		const error = result.nodeError(result.nodeName as string) as unknown as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('The credential\'s Base URL must use https (http only for localhost/127.0.0.1), got "http://api.example.test"');
		expect(error.description).toMatch(/credential.*Base URL/);
		expect(error.context.itemIndex).toBe(0);
		expect(arrived).toEqual([]);
		expect(apiRequests(emu)).toEqual([]);
		figures[_label] = `NodeOperationError before any request: "${error.message}"`;
	});

	it('Order Trigger: the poll fails with the same NodeOperationError before any request', async () => {
		const failure = await h
			.poll(
				{ type: 'accessPointOrderTrigger', parameters: { event: 'newOrder', orderType: '', direction: '' } },
				{ credentialsOverride: { environment: 'custom', baseUrl: 'http://api.example.test' } },
			)
			.then(
				() => undefined,
				(error: unknown) => error,
			);
		expect(failure).toBeInstanceOf(NodeOperationError);
		expect((failure as Error).message).toMatch(/Base URL must use https/);
		expect(arrived).toEqual([]);
		figures['Order Trigger'] = `poll: NodeOperationError "${(failure as Error).message}"`;
	});

	it.each(REJECTED)('%s is rejected before any request', async (baseUrl) => {
		const result = await h.runNode('accessPointOrder', { resource: 'order', operation: 'get', orderId: '1' }, [{}], {
			runOptions: { credentialsOverride: { environment: 'custom', baseUrl } },
		});
		const error = result.nodeError(result.nodeName as string);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toMatch(/^The credential's Base URL /);
		expect(arrived).toEqual([]);
		figures[`rejected ${baseUrl}`] = String(error?.message);
	});

	it('with continue on fail every item gets its own error item, stamped with its own index', async () => {
		const result = await h.runNode('accessPointOrder', { resource: 'order', operation: 'get', orderId: '1' }, [{}, {}, {}], {
			onError: 'continueErrorOutput',
			runOptions: { credentialsOverride: { environment: 'custom', baseUrl: 'http://api.example.test' } },
		});
		result.assertSuccess();
		const errors = result.items(result.nodeName as string, 1);
		expect(errors.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const problems = errors.map((item) => errorItemProblem(item, 'operation')).filter(Boolean);
		figures['continue on fail, 3 items'] = problems.length ? `problems: ${problems.join('; ')}` : '3 error items, each stamped with its own item';
		expect(problems).toEqual([]);
		expect(arrived).toEqual([]);
	});

	it.each([
		['http://127.0.0.1', (emu: Emu) => emu.url],
		['http://localhost', (emu: Emu) => emu.url.replace('127.0.0.1', 'localhost')],
	])('loopback %s:<port> is allowed', async (_label, url) => {
		const result = await h.runNode('accessPointOrder', { resource: 'order', operation: 'get', orderId: '1000001' }, [{}], {
			runOptions: { credentialsOverride: { environment: 'custom', baseUrl: url(emu) } },
		});
		result.assertSuccess();
		expect(result.output(result.nodeName as string)[0]).toMatchObject({ OrderID: 1000001 });
	});

	it('https on another host is allowed (and reached)', async () => {
		const result = await h.runNode('accessPointRegistration', { operation: 'getAll', returnAll: true }, [{}], {
			runOptions: { credentialsOverride: { environment: 'custom', baseUrl: 'https://api.example.test' } },
		});
		result.assertSuccess();
		expect(arrived).toEqual(['GET https://api.example.test/v1/einvoices/registrations']);
	});

	describe('the credential "Test" request', () => {
		/** The credential's declarative Test as n8n runs it (n8n-core's RoutingNode). */
		async function credentialTest(data: IDataObject) {
			return await runCredentialTest(h, { ...emu.credentials, ...data } as unknown as ICredentialDataDecryptedObject, 'accessPointApi');
		}

		it('accepts the environments and loopback http as the nodes do', async () => {
			expect(await credentialTest({ environment: 'custom', baseUrl: emu.url })).toMatchObject({ status: 'OK' });
			expect(await credentialTest({ environment: 'custom', baseUrl: `${emu.url.replace('127.0.0.1', 'localhost')}/` })).toMatchObject({ status: 'OK' });
		});

		it.each(REJECTED)('never sends the key to %s: the request stops at its address', async (baseUrl) => {
			const before = arrived.length;
			const result = await credentialTest({ environment: 'custom', baseUrl });
			figures[`credential test, ${baseUrl}`] = result.message;
			expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^(Invalid URL|ERR_INVALID_URL)$/) });
			expect(arrived.length).toBe(before);
		});
	});
});
