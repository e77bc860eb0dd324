import nock from 'nock';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { TEST_NETWORK_HINT } from '../../nodes/PeppolLookup/actions/lookup.operation';
import { createHarness } from '../harness';
import type { Harness, HarnessResult } from '../harness';

const LOOKUP = 'accessPointPeppolLookup';
const PATH = '/v1/peppol/participantInformation/';

interface LoggedRequest {
	method: string;
	path: string;
	status: number | null;
}

/** Valid Belgian enterprise number n (mod-97 check digits computed here, independently of the node). */
function enterpriseNumber(n: number): string {
	const first8 = String(4_000_000 + n).padStart(8, '0');
	return `${first8}${String(97 - (Number(first8) % 97)).padStart(2, '0')}`;
}

describe('AccessPoint Peppol Lookup against the emulator', () => {
	let h: Harness;

	const lookups = (): LoggedRequest[] => (h.emulator.requests as LoggedRequest[]).filter((r) => r.path.startsWith(PATH));
	const asked = () => lookups().map((r) => decodeURIComponent(r.path.slice(PATH.length)));

	const run = async (parameters: IDataObject, input: IDataObject[], nodeOptions: Parameters<Harness['runNode']>[3] = {}): Promise<HarnessResult> =>
		await h.runNode(LOOKUP, parameters, input, nodeOptions);
	const byIdentifier = { identifier: '={{ $json.id }}' };
	const ids = (...list: string[]) => list.map((id) => ({ id }));

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 0 }, quiet: true });
	});

	afterAll(async () => {
		await h?.close();
	});

	beforeEach(() => {
		h.emulator.clearRequests();
		h.emulator.config.retryAfterSeconds = 1;
	});

	afterEach(() => {
		nock.cleanAll();
	});

	describe('identifier forms', () => {
		it.each([
			['VAT number with country prefix', 'BE0123456749', 'BE0123456749', '9925:BE0123456749'],
			['VAT number typed loosely', ' be 0123.456.749 ', 'BE0123456749', '9925:BE0123456749'],
			['bare Belgian company number', '0123.456.749', '0123456749', '0208:0123456749'],
			['old 9-digit company number', '123 456 749', '0123456749', '0208:0123456749'],
			['<scheme>:<id>, Belgian VAT', '9925:BE0123456749', '9925:BE0123456749', '9925:BE0123456749'],
			['<scheme>:<id>, company number', '0208:0123456749', '0208:0123456749', '0208:0123456749'],
			['<scheme>:<id>, GLN', '0088:5400000000010', '0088:5400000000010', '0088:5400000000010'],
			['<scheme>:<id>, Dutch OIN', '0190:00000001234567890000', '0190:00000001234567890000', '0190:00000001234567890000'],
		])('%s (%s) is looked up as %s and can receive', async (_form, input, sent, answered) => {
			const result = await run({ ...byIdentifier, simplify: false }, ids(input));
			result.assertSuccess();
			expect(asked()).toEqual([sent]);
			const [item] = result.items(result.nodeName!, 0);
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json).toMatchObject({
				Registered: true,
				Identifier: answered,
				DocumentTypes: ['BISv3Invoice', 'BISv3CreditNote'],
				canReceiveInvoice: true,
				canReceiveCreditNote: true,
				canReceiveInvoicesAndCreditNotes: true,
				lookupIdentifier: sent,
				network: 'custom',
			});
			expect((item.json.ServiceDetails as IDataObject[]).map((d) => d.DocumentIdentifierScheme)).toEqual(['busdox-docid-qns', 'busdox-docid-qns']);
			expect(result.output(result.nodeName!, 1)).toEqual([]);
		});

		it('scheme picker + value, and "other" scheme code', async () => {
			const picked = await run({ identifierType: 'scheme', scheme: '0088', schemeValue: '5400000000010' }, [{}]);
			expect(picked.output(picked.nodeName!, 0)[0]).toMatchObject({ Identifier: '0088:5400000000010', canReceiveInvoicesAndCreditNotes: true });

			const other = await run({ identifierType: 'scheme', scheme: 'other', schemeCode: '0230', schemeValue: 'C2584563200' }, [{}]);
			expect(other.output(other.nodeName!, 0)[0]).toMatchObject({
				Identifier: '0230:C2584563200',
				DocumentTypes: ['MYPintInvoice', 'MYPintCreditNote'],
				canReceiveInvoicesAndCreditNotes: true,
			});
			expect(asked()).toEqual(['0088:5400000000010', '0230:C2584563200']);
		});

		it('recognises the SI variant (German VAT receiver)', async () => {
			const result = await run(byIdentifier, ids('DE123456789'));
			expect(result.output(result.nodeName!, 0)[0]).toMatchObject({
				Identifier: '9930:DE123456789',
				DocumentTypes: ['SIInvoice', 'SICreditNote'],
				canReceiveInvoicesAndCreditNotes: true,
			});
		});
	});

	describe('registered and unregistered receivers on two outputs', () => {
		it('routes each item to Can Receive or Cannot Receive, in input order with pairedItem', async () => {
			const input = ids(
				'BE0123456749', // registered, invoices + credit notes
				'0403.170.701', // valid number, not on Peppol
				'0208:0887766566', // registered, only IMR + MLR
				'NL123456789B01', // registered, invoices only
				'0088:5400000000010', // registered
				'BE0202239951', // not on Peppol
			);
			const result = await run(byIdentifier, input);
			result.assertSuccess();
			const can = result.items(result.nodeName!, 0);
			const cannot = result.items(result.nodeName!, 1);
			expect(can.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 4 }]);
			expect(cannot.map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 2 }, { item: 3 }, { item: 5 }]);

			// Simplified (the default): the deciding fields first, the SMP details left out.
			expect(Object.entries(cannot[0].json)).toEqual([
				['canReceiveInvoice', false],
				['canReceiveCreditNote', false],
				['canReceiveInvoicesAndCreditNotes', false],
				['Registered', false],
				['Identifier', '0208:0403170701'],
				['DocumentTypes', []],
				['lookupIdentifier', '0403170701'],
				['network', 'custom'],
			]);
			expect(cannot[1].json).toMatchObject({ Registered: true, canReceiveInvoice: false, canReceiveInvoicesAndCreditNotes: false });
			expect(cannot[2].json).toMatchObject({ Registered: true, canReceiveInvoice: true, canReceiveCreditNote: false });
			expect(cannot[3].json).toMatchObject({ Registered: false, Identifier: '9925:BE0202239951' });
		});

		it('"Can Receive When: Invoices" sends an invoice-only receiver to Can Receive', async () => {
			const result = await run({ ...byIdentifier, options: { routeOn: 'invoices' } }, ids('NL123456789B01', '0208:0887766566'));
			expect(result.output(result.nodeName!, 0).map((j) => j.Identifier)).toEqual(['9944:NL123456789B01']);
			expect(result.output(result.nodeName!, 1).map((j) => j.Identifier)).toEqual(['0208:0887766566']);
		});

		it('single-output mode puts every result on one output, in input order', async () => {
			const result = await run({ ...byIdentifier, singleOutput: true }, ids('0403.170.701', 'BE0123456749', 'BE0202239951'));
			result.assertSuccess();
			const outputs = result.outputs(result.nodeName!);
			expect(outputs).toHaveLength(1);
			expect(outputs[0].map((j) => [j.Registered, j.canReceiveInvoicesAndCreditNotes])).toEqual([
				[false, false],
				[true, true],
				[false, false],
			]);
			expect(result.items(result.nodeName!, 0).map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		});

		it('in a workflow, the Cannot Receive output feeds a fallback node without an IF node', async () => {
			const workflow = h.chain([
				{ type: LOOKUP, name: 'Lookup', parameters: byIdentifier },
				{
					type: 'set',
					name: 'E-mail fallback',
					typeVersion: 3.4,
					output: 1,
					parameters: {
						mode: 'manual',
						includeOtherFields: true,
						assignments: { assignments: [{ id: '1', name: 'route', type: 'string', value: 'email' }] },
						options: {},
					},
				},
			]);
			const result = await h.run(workflow, { input: ids('BE0123456749', '0403.170.701', 'BE0202239951') });
			result.assertSuccess();
			expect(result.output('E-mail fallback').map((j) => [j.lookupIdentifier, j.route])).toEqual([
				['0403170701', 'email'],
				['BE0202239951', 'email'],
			]);
		});

		it('"Include Input Fields" keeps the item\'s fields and binary next to the result', async () => {
			const input: INodeExecutionData[] = [
				{ json: { id: 'BE0123456749', invoice: 'INV-1', Registered: 'input value loses' }, binary: { pdf: { data: 'JVBERi0=', mimeType: 'application/pdf' } } },
			];
			const result = await h.runNode(LOOKUP, { ...byIdentifier, options: { includeInputFields: true } }, input);
			const [item] = result.items(result.nodeName!, 0);
			expect(item.json).toMatchObject({ id: 'BE0123456749', invoice: 'INV-1', Registered: true });
			expect(item.binary?.pdf).toMatchObject({ mimeType: 'application/pdf' });
			const plain = await run(byIdentifier, ids('BE0123456749'));
			expect(plain.output(plain.nodeName!, 0)[0]).not.toHaveProperty('id');
		});
	});

	describe('one request per distinct identifier', () => {
		it('1,000 items carrying 100 distinct identifiers make exactly 100 requests, order and pairedItem kept', async () => {
			const distinct = Array.from({ length: 100 }, (_, n) => enterpriseNumber(n));
			// Every third one is on Peppol.
			const registered = distinct.filter((_, n) => n % 3 === 0);
			for (const number of registered) {
				h.emulator.store.participants.add({ identifiers: [`0208:${number}`], documentTypes: ['BISv3Invoice', 'BISv3CreditNote'] });
			}
			try {
				// The same identifier is written in different ways across the items.
				const spell = (number: string, j: number) => (j % 2 === 0 ? number : `${number.slice(0, 4)}.${number.slice(4, 7)}.${number.slice(7)}`);
				const input = Array.from({ length: 1000 }, (_, j) => ({ id: spell(distinct[(j * 37) % 100], j), j }));
				const result = await run({ ...byIdentifier, options: { concurrency: 8 } }, input);
				result.assertSuccess();

				expect(lookups()).toHaveLength(100);
				expect(new Set(asked())).toEqual(new Set(distinct));

				const can = result.items(result.nodeName!, 0);
				const cannot = result.items(result.nodeName!, 1);
				expect(can.length + cannot.length).toBe(1000);
				for (const branch of [can, cannot]) {
					const indexes = branch.map((i) => (i.pairedItem as { item: number }).item);
					expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
					for (const item of branch) {
						const j = (item.pairedItem as { item: number }).item;
						expect(item.json.lookupIdentifier).toBe(distinct[(j * 37) % 100]);
					}
				}
				const registeredSet = new Set(registered);
				expect(can.every((i) => registeredSet.has(i.json.lookupIdentifier as string))).toBe(true);
				expect(cannot.every((i) => !registeredSet.has(i.json.lookupIdentifier as string))).toBe(true);
				expect(can).toHaveLength(input.filter((item) => registeredSet.has(distinct[(item.j * 37) % 100])).length);
			} finally {
				for (const number of registered) h.emulator.store.participants.remove(`0208:${number}`);
			}
		});

		it('keeps at most "Concurrent Lookups" requests in flight', async () => {
			let inFlight = 0;
			let most = 0;
			nock('https://api.example.test')
				.get((uri) => uri.startsWith(PATH))
				.times(12)
				.reply(async (uri) => {
					inFlight++;
					most = Math.max(most, inFlight);
					await sleep(15);
					inFlight--;
					const id = decodeURIComponent(uri.slice(PATH.length));
					return [200, { Registered: false, Identifier: `0208:${id}`, DocumentTypes: [], ServiceDetails: [] }];
				});
			const input = Array.from({ length: 12 }, (_, n) => ({ id: enterpriseNumber(500 + n) }));
			const result = await run({ ...byIdentifier, options: { concurrency: 3 } }, input, {
				runOptions: { credentialsOverride: { environment: 'custom', baseUrl: 'https://api.example.test' } },
			});
			result.assertSuccess();
			expect(result.output(result.nodeName!, 1)).toHaveLength(12);
			expect(most).toBeLessThanOrEqual(3);
			expect(most).toBeGreaterThan(1);
		});
	});

	describe('rate limits and API errors', () => {
		it('waits as Retry-After says on 429 and then answers', async () => {
			h.emulator.config.retryAfterSeconds = 0;
			h.emulator.failNext(1, 429, { pathPrefix: PATH });
			// The back-off would wait 30 s; only honouring "Retry-After: 0" finishes within the test's time limit.
			const result = await run({ ...byIdentifier, options: { retryDelayMs: 600_000 } }, ids('BE0123456749', 'BE0123456749'));
			result.assertSuccess();
			expect(lookups().map((r) => r.status)).toEqual([429, 200]);
			expect(result.output(result.nodeName!, 0)).toHaveLength(2);
		}, 10_000);

		it('an API failure stops the node with a NodeApiError naming the item', async () => {
			h.emulator.failNext(1, 500, { pathPrefix: PATH });
			const result = await run({ ...byIdentifier, options: { maxRetries: 0 } }, ids('BE0123456749'));
			expect(result.status).toBe('error');
			const error = result.nodeError(result.nodeName!);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error?.message).toMatch(/Peppol participant lookup/);
			expect(JSON.stringify(error)).not.toContain('emu-api-key');
		});

		it('with continue on fail, a failed lookup becomes an error item for every item that carries it', async () => {
			h.emulator.failNext(1, 500, { pathPrefix: `${PATH}0208` });
			const result = await run({ ...byIdentifier, options: { maxRetries: 0 } }, ids('0208:0123456749', 'BE0123456749', '0208:0123456749'), {
				onError: 'continueRegularOutput',
			});
			result.assertSuccess();
			expect(lookups()).toHaveLength(2);
			// Never on Can Receive: the failed lookups leave through Cannot Receive.
			expect(result.items(result.nodeName!, 0).map((i) => [i.pairedItem, Boolean(i.json.error)])).toEqual([[{ item: 1 }, false]]);
			const cannot = result.items(result.nodeName!, 1);
			expect(cannot.map((i) => [i.pairedItem, Boolean(i.json.error)])).toEqual([
				[{ item: 0 }, true],
				[{ item: 2 }, true],
			]);
			expect(cannot[0].json).toMatchObject({ httpCode: '500' });
		});

		it('with "continue (using error output)", each item carrying a failed identifier gets an error stamped with its own index', async () => {
			h.emulator.failNext(1, 500, { pathPrefix: `${PATH}0208` });
			const input = ids('0208:0123456749', 'BE0123456749', '0208:0123456749');
			const result = await run({ ...byIdentifier, options: { maxRetries: 0 } }, input, { onError: 'continueErrorOutput' });
			result.assertSuccess();
			const failed = result.items(result.nodeName!, 2);
			expect(failed.map((i) => [i.pairedItem, (i.error as NodeApiError | undefined)?.context.itemIndex])).toEqual([
				[{ item: 0 }, 0],
				[{ item: 2 }, 2],
			]);
			expect(failed.map((i) => i.error)).toEqual([expect.any(NodeApiError), expect.any(NodeApiError)]);
		});
	});

	describe('Simplify', () => {
		const DECIDING = ['canReceiveInvoice', 'canReceiveCreditNote', 'canReceiveInvoicesAndCreditNotes'];

		it("off: the API's answer whole (ServiceDetails, ServiceProviderID), still with the deciding fields first", async () => {
			const result = await run({ ...byIdentifier, simplify: false }, ids('BE0123456749'));
			const [json] = result.output(result.nodeName!, 0);
			expect(Object.keys(json).slice(0, 3)).toEqual(DECIDING);
			expect(Object.keys(json)).toEqual(expect.arrayContaining(['Registered', 'Identifier', 'DocumentTypes', 'ServiceDetails', 'lookupIdentifier', 'network']));
			expect((json.ServiceDetails as IDataObject[]).length).toBe(2);
		});

		it('with Include Input Fields the deciding fields still come first, and the lookup wins on equal names', async () => {
			const result = await run({ ...byIdentifier, options: { includeInputFields: true } }, [{ id: 'BE0123456749', invoice: 'A-1', Registered: 'from input' }]);
			const [json] = result.output(result.nodeName!, 0);
			expect(Object.keys(json).slice(0, 5)).toEqual([...DECIDING, 'id', 'invoice']);
			expect(json).toMatchObject({ invoice: 'A-1', Registered: true, canReceiveInvoicesAndCreditNotes: true });
		});
	});

	describe('network asked', () => {
		it.each([
			['sandbox', 'https://api.sandbox.billit.be', 'Peppol test network'],
			['production', 'https://api.billit.be', 'Peppol production'],
		] as const)('%s credential → %s', async (environment, host, network) => {
			const scope = nock(host)
				.get(`${PATH}BE0123456749`)
				.reply(200, { Registered: false, Identifier: '9925:BE0123456749', DocumentTypes: [], ServiceDetails: [] });
			const result = await run(byIdentifier, ids('BE0123456749'), { runOptions: { credentialsOverride: { environment } } });
			result.assertSuccess();
			expect(scope.isDone()).toBe(true);
			expect(result.output(result.nodeName!, 1)[0]).toMatchObject({ network, Registered: false });
			// The test-network notice only when it applies.
			const hints = (result.task(result.nodeName!)?.hints ?? []).map((hint) => hint.message);
			expect(hints).toEqual(environment === 'sandbox' ? [TEST_NETWORK_HINT] : []);
		});

		it('a custom Base URL (e.g. the emulator) gets no test-network notice', async () => {
			const result = await run(byIdentifier, ids('BE0123456749'));
			expect(result.task(result.nodeName!)?.hints ?? []).toEqual([]);
		});
	});

	describe('invalid identifiers are rejected before any request', () => {
		const INVALID: Array<[string, RegExp]> = [
			['', /"Identifier" is empty/],
			['BE0123456748', /"Identifier" BE0123456748 is not a valid Belgian VAT number \(mod-97/],
			['BE2403170743', /must start with 0 or 1/],
			['BE01234567', /not a Belgian VAT number/],
			['0123456748', /not a valid Belgian enterprise number/],
			['0403.170.702', /not a valid Belgian enterprise number/],
			['12345', /5-digit number/],
			['4006381333931', /looks like a GLN/],
			['NL12345678B01', /not a Dutch VAT number/],
			['NL123456789X01', /not a Dutch VAT number/],
			['DE12345678', /not a German VAT number/],
			['DK12345678', /no Peppol VAT scheme exists/],
			['1234:abc', /unknown scheme code 1234/],
			['0000:0123456749', /unknown scheme code 0000/],
			['9956:0123456749', /withdrawn scheme 9956/],
			['ABCD:0123456749', /a Peppol scheme code is 4 digits/],
			['0208:', /no value after the scheme 0208/],
			['9925:NL123456789B01', /not a Belgian VAT number/],
			['0088:BE0123456749', /a GLN cannot be derived from a VAT number/],
			['0088:4006381333932', /not a valid GLN/],
			['0088:540000000001', /not a GLN \(expected 13 digits\)/],
			['0106:1234567', /not a KvK number/],
			['0199:5493001KJTIIGC8Y1R13', /not a valid LEI/],
			[`0007:${'9'.repeat(131)}`, /at most 130/],
			['BE0123456749é', /character "é"/],
			['@@@', /not a recognised Peppol identifier/],
		];

		it('has at least 20 cases', () => expect(INVALID.length).toBeGreaterThanOrEqual(20));

		it.each(INVALID)('%j stops the node with a NodeOperationError, and nothing is sent', async (identifier, message) => {
			// A valid item comes first: it must not be looked up either.
			const result = await run(byIdentifier, ids('BE0123456749', identifier));
			expect(result.status).toBe('error');
			const error = result.nodeError(result.nodeName!);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toMatch(/^Item 1: "Identifier"/);
			expect(error?.message).toMatch(message);
			expect(String(error?.description ?? '').length).toBeGreaterThan(10);
			expect((error as unknown as { context: IDataObject }).context.itemIndex).toBe(1);
			expect(lookups()).toHaveLength(0);
		});

		it('with continue on fail, each bad item becomes an error item on Cannot Receive, never Can Receive; the good ones are still looked up', async () => {
			const input = ids('BE0123456749', ...INVALID.map(([id]) => id), '0403.170.701');
			const result = await run(byIdentifier, input, { onError: 'continueRegularOutput' });
			result.assertSuccess();
			expect(asked()).toEqual(['BE0123456749', '0403170701']);
			const can = result.items(result.nodeName!, 0);
			expect(can.map((i) => [i.pairedItem, i.json.Registered])).toEqual([[{ item: 0 }, true]]);
			const cannot = result.items(result.nodeName!, 1);
			expect(cannot).toHaveLength(INVALID.length + 1);
			cannot.slice(0, -1).forEach((item, n) => {
				expect(item.pairedItem).toEqual({ item: n + 1 });
				expect(item.json.error).toMatch(INVALID[n][1]);
				expect(item.json.description).toEqual(expect.any(String));
			});
			expect(cannot[cannot.length - 1].pairedItem).toEqual({ item: input.length - 1 });
			expect(cannot[cannot.length - 1].json.error).toBeUndefined();
		});

		it('with Single Output, error items and results share the one output', async () => {
			const result = await run({ ...byIdentifier, singleOutput: true }, ids('BE0123456749', '@@@'), { onError: 'continueRegularOutput' });
			result.assertSuccess();
			expect(result.output(result.nodeName!).map((j) => [j.Registered, Boolean(j.error)])).toEqual([
				[true, false],
				[undefined, true],
			]);
		});

		it('with "continue (using error output)", bad items leave on the error output', async () => {
			const result = await run(byIdentifier, ids('BE0123456749', '0088:BE0123456749', '0403.170.701'), {
				onError: 'continueErrorOutput',
			});
			result.assertSuccess();
			const outputs = result.outputs(result.nodeName!);
			expect(outputs).toHaveLength(3);
			expect(outputs[0].map((j) => j.lookupIdentifier)).toEqual(['BE0123456749']);
			expect(outputs[1].map((j) => j.lookupIdentifier)).toEqual(['0403170701']);
			expect(outputs[2]).toHaveLength(1);
			expect(outputs[2][0].error).toMatch(/a GLN cannot be derived from a VAT number/);
		});

		it('scheme picker errors name the field: Value for a VAT number under GLN, Scheme Code for an unknown code', async () => {
			const gln = await run({ identifierType: 'scheme', scheme: '0088', schemeValue: 'BE0123456749' }, [{}]);
			expect(gln.nodeError(gln.nodeName!)?.message).toBe('Item 0: "Value" BE0123456749 is a VAT number, not a GLN: a GLN cannot be derived from a VAT number');
			const code = await run({ identifierType: 'scheme', scheme: 'other', schemeCode: '1234', schemeValue: 'x' }, [{}]);
			expect(code.nodeError(code.nodeName!)?.message).toBe('Item 0: "Scheme Code" 1234 uses the unknown scheme code 1234');
			expect(lookups()).toHaveLength(0);
		});
	});
});
