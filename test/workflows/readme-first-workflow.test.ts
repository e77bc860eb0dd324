/**
 * The README's "Your first workflow", built as it says and run against the emulator: Manual
 * Trigger → Peppol Lookup → (Can Receive) Order › Create and Send, with the values the README
 * names. Guards the first thing a new user tries.
 */
import { createHarness } from '../harness';
import type { Harness } from '../harness';
import { readText } from '../unit/helpers/release';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const README: string = readText('README.md') ?? '';

/** The README's numbered steps under "Your first workflow", as one line of text. */
function firstWorkflowSteps(): string {
	const start = README.indexOf('**Your first workflow**');
	const end = README.indexOf('\n\n', README.indexOf('\n1. ', start) + 1);
	return start < 0 ? '' : README.slice(start, end).replace(/\s+/g, ' ');
}

describe("the README's first workflow", () => {
	let h: Harness;
	const VAT = 'BE0123456749';

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 0 }, quiet: true });
	});

	afterAll(async () => {
		await h?.close();
	});

	it('names the nodes, the operation and the values this test runs', () => {
		const steps = firstWorkflowSteps();
		for (const words of [
			'Manual Trigger',
			'AccessPoint Peppol Lookup',
			`emulator \`${VAT}\``,
			'Can Receive',
			'AccessPoint Order** › *Create and Send*',
			'Order Date `{{ $today }}`',
			'Customer Name',
			'the same VAT number',
			'one order line',
			'Execute workflow',
		]) {
			expect(steps).toContain(words);
		}
		for (const value of ['http://127.0.0.1:3999', 'emu-api-key', '100001']) expect(steps).toContain(value);
	});

	it('creates the invoice and sends it over Peppol, with its delivery status', async () => {
		expect(h.emulator.credentials).toMatchObject({ apiKey: 'emu-api-key', partyId: '100001' });
		const wf = h.chain([
			{ type: 'accessPointPeppolLookup', name: 'Lookup', parameters: { identifier: VAT } },
			{
				type: 'accessPointOrder',
				name: 'Create and Send',
				output: 0,
				parameters: {
					operation: 'createAndSend',
					orderDate: '={{ $today }}',
					customerName: 'Peppol Demo Belgium NV',
					customerVatNumber: VAT,
					orderLines: { lines: [{ description: 'Consulting', quantity: '1', unitPriceExcl: '100' }] },
				},
			},
		]);
		const result = await h.run(wf);
		result.assertSuccess();
		expect(result.output('Lookup', 0)).toHaveLength(1);
		const [sent] = result.output('Create and Send') as Rec[];
		expect(sent).toMatchObject({ sent: true, sentVia: 'Peppol', fallback: false, AlreadyExisted: false });
		expect(sent.deliveryStatus).toEqual(expect.any(String));
		const order = h.emulator.store.book('100001').get(sent.OrderID);
		expect(order).toMatchObject({ OrderType: 'Invoice', OrderDirection: 'Income', IsSent: true });
	});
});
