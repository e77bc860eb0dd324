/**
 * Issue 24 point 5 on the shipped template examples/send-where-peppol-ready.json, run by
 * n8n-core's engine against the emulator: with the lookup node set to On Error › Continue,
 * a lookup that fails never leaves through "Can Receive", whose branch creates and sends
 * the invoice. The only change to the template is the node's On Error setting.
 */
import type { IDataObject } from 'n8n-workflow';

import { loadTemplate } from '../../scripts/demo';
import { createHarness } from '../harness';
import type { Harness, WorkflowJson } from '../harness';

const FILE = 'send-where-peppol-ready.json';
const LOOKUP = 'Can the customer receive on Peppol?';
/** DEMO-2002's customer: registered and able to receive, so only the injected fault keeps it from sending. */
const FAILING = '/v1/peppol/participantInformation/BE0456789133';

function templateWith(onError: string): WorkflowJson {
	const workflow = loadTemplate(FILE) as WorkflowJson;
	const node = workflow.nodes.find((n) => n.name === LOOKUP);
	if (!node) throw new Error(`${LOOKUP} is not in ${FILE}`);
	(node as { onError?: string }).onError = onError;
	return workflow;
}

describe(`${FILE}: a failed Peppol lookup never reaches the sending branch`, () => {
	let h: Harness;

	beforeEach(async () => {
		h = await createHarness({ emulator: { orders: 0 }, quiet: true });
		// The lookup of DEMO-2002's customer fails on the first try and on each of the node's 3 read retries.
		h.emulator.failNext(4, 500, { method: 'GET', pathPrefix: FAILING });
	});
	afterEach(async () => {
		await h?.close();
	});

	const ordersCreatedFor = (ids: string[]) =>
		h.emulator.store.listOrders(h.emulator.credentials.partyId).filter((o: IDataObject) => ids.includes(String(o.ExternalProviderID)));

	it('On Error › Continue: the failed item goes to Cannot Receive and the fallback says why; nothing is created or sent for it', async () => {
		const result = (await h.run(templateWith('continueRegularOutput'))).assertSuccess();
		const [can, cannot] = result.outputs(LOOKUP);
		expect(can.map((i) => i.invoiceId)).toEqual(['DEMO-2001']);
		expect(cannot.map((i) => [i.invoiceId, typeof i.error])).toEqual([
			['DEMO-2002', 'string'],
			['DEMO-2003', 'undefined'],
			['DEMO-2004', 'undefined'],
		]);
		expect(result.output('Create the invoice').map((o) => o.OrderID)).toHaveLength(1);
		expect(result.output('Invoice sent').map((o) => o.invoiceId)).toEqual(['DEMO-2001']);
		expect(ordersCreatedFor(['DEMO-2002'])).toEqual([]);

		const fallback = result.output('FALLBACK: not on Peppol');
		expect(fallback.map((row) => row.invoiceId)).toEqual(['DEMO-2002', 'DEMO-2003', 'DEMO-2004']);
		expect(fallback[0]).toMatchObject({ Customer: 'Café Zoë BV', CustomerVAT: 'BE0456789133' });
		expect(fallback[0].Reason).toMatch(/^The Peppol lookup failed: Peppol participant lookup failed with HTTP 500/);
	});

	it('On Error › Continue (using error output): the failed item leaves on the error output only', async () => {
		const result = (await h.run(templateWith('continueErrorOutput'))).assertSuccess();
		const [can, cannot, errors] = result.outputs(LOOKUP);
		expect(can.map((i) => i.invoiceId)).toEqual(['DEMO-2001']);
		expect(cannot.map((i) => i.invoiceId)).toEqual(['DEMO-2003', 'DEMO-2004']);
		// n8n keeps only { error } on the error output; the item stays paired with DEMO-2002's input item.
		expect(errors.map((i) => typeof i.error)).toEqual(['string']);
		expect(result.items(LOOKUP, 2).map((i) => i.pairedItem)).toEqual([{ item: 1 }]);
		expect(result.output('Invoice sent').map((o) => o.invoiceId)).toEqual(['DEMO-2001']);
		expect(ordersCreatedFor(['DEMO-2002'])).toEqual([]);
	});
});
