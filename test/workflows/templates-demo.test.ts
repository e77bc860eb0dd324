/**
 * `npm run demo` (scripts/demo.js): the scenarios it runs for the templates, and its report,
 * through the same engine harness and emulator. The build step and the process exit code are
 * the CLI's (main() returns 1 when runDemo reports a failure).
 */
import { runDemo } from '../../scripts/demo';
import { createHarness } from '../harness';
import { removeFolder } from './fileSupport';

const IN_ORDER = [
	'onboard-company.json',
	'send-where-peppol-ready.json',
	'daily-order-export.json',
	'new-invoices-feed.json',
	'archive-invoice-files.json',
	'account-audit.json',
	'chase-undelivered-invoices.json',
	'chase-unpaid-invoices.json',
	'delivery-status-alerts.json',
	'supplier-invoices-to-accounting.json',
	'sync-customers.json',
];

/** The archive scenario leaves its folder for a person running the demo to open; the suite removes it. */
function removeDemoFolders(lines: string[]) {
	for (const line of lines) {
		const folder = /the two Write nodes point at (\S+ap-demo-invoices-\w+)/.exec(line)?.[1];
		if (folder) removeFolder(folder);
	}
}

describe('npm run demo', () => {
	it('runs the eleven templates in turn and reports node by node, items out and key fields', async () => {
		const h = await createHarness({ emulator: { orders: 300 }, quiet: true });
		const lines: string[] = [];
		try {
			const { ok, results } = await runDemo({ harness: h, log: (line: string) => lines.push(line) });
			expect(results.map((r) => [r.file, r.ok, r.failure])).toEqual(IN_ORDER.map((f) => [f, true, undefined]));
			expect(ok).toBe(true);
		} finally {
			await h.close();
			removeDemoFolders(lines);
		}
		const text = lines.join('\n');
		expect(lines.filter((l) => /^\[\d+\/11\] /.test(l))).toEqual([
			'[1/11] Onboard a company  (examples/onboard-company.json)',
			'[2/11] Send invoices only where the receiver is on Peppol  (examples/send-where-peppol-ready.json)',
			'[3/11] Daily order export  (examples/daily-order-export.json)',
			'[4/11] New invoices feed  (examples/new-invoices-feed.json)',
			'[5/11] Archive invoice files  (examples/archive-invoice-files.json)',
			'[6/11] Account audit  (examples/account-audit.json)',
			'[7/11] Chase undelivered invoices  (examples/chase-undelivered-invoices.json)',
			'[8/11] Chase unpaid invoices  (examples/chase-unpaid-invoices.json)',
			'[9/11] Delivery status alerts  (examples/delivery-status-alerts.json)',
			'[10/11] Supplier invoices to accounting  (examples/supplier-invoices-to-accounting.json)',
			'[11/11] Sync customers from a CRM  (examples/sync-customers.json)',
		]);
		expect(lines.filter((l) => /^ {2}OK \(\d+\.\d s\)$/.test(l))).toHaveLength(11);
		// The onboarding run waited, the provider page was completed, and the run went on.
		expect(text).toMatch(/- "Identify the signatory" started an identity check and paused the execution/);
		expect(text).toMatch(/- the link on the waiting node \(its resume URL\) led to the provider page \(.*\/provider\/\.\.\.\)/);
		expect(text).toMatch(/- the signatory completed the provider page: success/);
		expect(text).toMatch(
			/Identify the signatory\s+Not Identified: 0 items\n\s+Identified: 1 item\s+identified=true {2}reason=identified {2}RegistrationID=3000\d\d/,
		);
		expect(text).toMatch(
			/Ready to send invoices\s+1 item\s+RegistrationID=3000\d\d {2}CompanyName=Acme Onboarding BV {2}Identified=true {2}PeppolStatus=Active/,
		);
		expect(text).toMatch(/Can the customer receive on Peppol\?\s+Can Receive: 2 items\s+invoiceId=DEMO-2001/);
		expect(text).toMatch(/Cannot Receive: 2 items\s+invoiceId=DEMO-2003 {2}customerVat=BE1002003070 {2}Registered=false/);
		expect(text).toMatch(/Invoice sent\s+2 items\s+invoiceId=DEMO-2001 {2}OrderID=\d+ {2}Customer=Peppol Demo Belgium NV {2}OrderStatus=Sent/);
		expect(text).toMatch(/FALLBACK: not on Peppol\s+2 items\s+invoiceId=DEMO-2003 {2}Customer=A\+B Consulting {2}Reason=Not registered on Peppol/);
		expect(text).toMatch(/\$filter=LastModified ge DateTime'\d{4}-\d\d-\d\dT\d\d:00:00'/);
		expect(text).toMatch(/Export row\s+\d+ items?\s+OrderID=\d+ {2}OrderNumber=\S+ {2}OrderType=\w+/);
		expect(text).toMatch(/- poll 1 \(as when the workflow is activated\): nothing emitted/);
		expect(text).toMatch(/- poll 2: 2 new sales invoice\(s\)/);
		expect(text).toMatch(/- poll 3: nothing new/);
		expect(text).toMatch(/Invoice summary\s+2 items\s+OrderID=\d+ {2}OrderNumber=INV-\S+ {2}Customer=Peppol Demo Belgium NV/);
		// The archive run shows the files it wrote: path, size, first bytes.
		expect(text).toMatch(/- wrote \/\S+\/(Income|Cost)_\w+_INV-[\w-]+_\d+\.pdf \([\d,]+ bytes, starts with "%PDF-"\)/);
		expect(text).toMatch(/- wrote \/\S+\/Cost_\w+_INV-[\w-]+_\d+\.xml \([\d,]+ bytes, starts with "<\?xml"\)/);
		expect(text).toMatch(/Archived\s+1 item\s+OrderID=\d+ {2}OrderNumber=INV-\S+ {2}PdfFile=\/\S+\/Cost_\S+ {2}UblFile=\/\S+\/Cost_/);
		expect(text).toMatch(/Archived, UBL to come\s+1 item\s+OrderID=\d+ {2}OrderNumber=INV-\S+ {2}PdfFile=\/\S+\/Income_/);
		expect(text).toMatch(/Must be signed\s+1 item\s+CompanyName=Italia Demo SRL {2}Network=SDI/);
		expect(text).toMatch(/No network yet\s+1 item\s+CompanyName=Nog Niet Verbonden BV/);
		expect(text).toMatch(/- set-up: three days ago invoices \d+, \d+, \d+ went out over Peppol; one is still pending, one failed, one was refused/);
		expect(text).toMatch(/Delivery status\s+Delivered: \d+ items?\s+OrderID=\d+ {2}Status=Delivered/);
		expect(text).toMatch(/\n\s+Pending: \d+ items?\s+OrderID=\d+ {2}Status=Pending/);
		expect(text).toMatch(/\n\s+Error \/ Refused: \d+ items?\s*OrderID=\d+ {2}Status=(Error|Refused)/);
		expect(text).toMatch(/FOLLOW UP: not delivered\s+\d+ items?\s+OrderNumber=\S+ {2}Customer=.+ {2}Problem=(Error|Refused) {2}Reason=/);
		expect(text).toMatch(/- set-up: sent invoices \d+, \d+ \(partly paid\) and \d+ are 3, 20 and 45 days past due; \d+ is due in 10 days; \d+ is paid/);
		expect(text).toMatch(/- run 1: reminders for \d+ \(final notice, EUR 302\.5\), \d+ \(second reminder, EUR 202\.5\), \d+ \(first reminder, EUR 302\.5\)/);
		expect(text).toMatch(/- run 2 \(the same day\): 0 reminder\(s\) sent; "Not reminded yet" kept 0 of \d+/);
		expect(text).toMatch(/Send the reminder\s+\d+ items?\s+OrderNumber=INV-\S+ {2}CustomerEmail=\S+ {2}Subject=(Final notice|Payment reminder): invoice INV-/);
		expect(text).toMatch(/- published: the trigger registered 2 webhooks at the access point \(Message I, Message U\)/);
		expect(text).toMatch(/- 7 signed calls -> 7 executions: Delivered 1, ALERT 2, no action 4/);
		expect(text).toMatch(/ALERT: refused or error\s+1 item\s+alert=Invoice \S+: REFUSED by the buyer/);
		expect(text).toMatch(/- unpublished: 0 webhooks left at the access point/);
		expect(text).toMatch(/- poll 2: 2 supplier document\(s\) booked; 2 marked exported at the access point/);
		expect(text).toMatch(/Exported\s+2 items\s+InvoiceNumber=SUP-\S+ {2}Supplier=Paper Co NV/);
		expect(text).toMatch(/- run 1: Peppol Demo Belgium NV updated, Atelier Lumière SRL created, Groene Tuin BV created/);
		expect(text).toMatch(/- run 2 \(the same CRM items again\): 0 customer\(s\) created/);
	});

	it('reports a failure for every template that stops running', async () => {
		const h = await createHarness({ emulator: { orders: 20 }, credentials: { apiKey: 'revoked-api-key' }, quiet: true });
		const lines: string[] = [];
		try {
			const { ok, results } = await runDemo({ harness: h, log: (line: string) => lines.push(line) });
			expect(ok).toBe(false);
			expect(results.map((r) => [r.file, r.ok])).toEqual(IN_ORDER.map((f) => [f, false]));
			expect(results[0].failure).toMatch(/^the execution ended with status "error": .*\(node "Register the company"\)$/);
		} finally {
			await h.close();
			removeDemoFolders(lines);
		}
		expect(lines.filter((l) => l.startsWith('  FAILED: '))).toHaveLength(11);
		expect(lines.join('\n')).not.toContain('revoked-api-key');
	});

	it('reports a template file without a scenario as a failure', async () => {
		const lines: string[] = [];
		const h = await createHarness({ emulator: false, quiet: true });
		try {
			const { ok, results } = await runDemo({ harness: h, only: ['no-such-template.json'], log: (line: string) => lines.push(line) });
			expect(ok).toBe(false);
			expect(results).toEqual([{ file: 'no-such-template.json', ok: false, ms: 0, failure: 'no demo scenario for this template' }]);
		} finally {
			await h.close();
		}
	});
});
