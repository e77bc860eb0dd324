/**
 * The published contract (emulator/openapi.json + the docs pages, emulator/contract.js): the checker flags what the
 * service would not take as sent, the emulator binds and answers as the service does, its answers have the
 * document's response types, and the harness hook fails a test that sent a violation.
 */
// Test-only: reads the repository's own files (the document, the README) and switches CONTRACT_CHECK.
/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { call, get, post, start, type Emu } from './helpers';

/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any */
const contractModule = require('../../emulator/contract');
const harnessContract = require('../harness/contract');
const { allowContractViolations } = harnessContract;
const contract = contractModule.loadContract();

/** Fields the emulator answers that the published response types do not have (each a guess in emulator/README.md). */
const ANSWER_GUESSES = [
	'NextpageLink',
	'OrderLines[].AmountExcl',
	'OrderLines[].AmountVAT',
	'OrderLines[].AmountIncl',
	'Payments',
	'UnitPriceExcl',
	'VATPercentage',
	'IsActive',
	'RegistrationID',
	'PartyID',
	'Active',
	'Status',
	'Identified',
	'CompanyDetails',
	'Integrations',
	'ServiceDetails[].Processes[].Endpoints[].EndpointURI',
	'ServiceDetails[].Processes[].Endpoints[].ServiceActivationDate',
	'ServiceDetails[].Processes[].Endpoints[].ServiceExpirationDate',
	'ServiceDetails[].Processes[].Endpoints[].TechnicalContactUrl',
];

const kinds = (r: { violations: Array<{ kind: string; property?: string }> }) => r.violations.map((v) => `${v.kind}:${v.property ?? ''}`);

describe('the published-contract checker (emulator/contract.js)', () => {
	it('is built from the copy of the service document in the repository, not ../shared', () => {
		expect(contractModule.DOC_FILE).toBe(path.resolve(__dirname, '../../emulator/openapi.json'));
		const doc = JSON.parse(fs.readFileSync(contractModule.DOC_FILE, 'utf8'));
		expect(doc.info).toEqual({ version: 'v1', title: 'Billit.API' });
		expect(Object.keys(doc.paths)).toHaveLength(71);
		expect(Object.keys(doc.definitions)).toHaveLength(131);
		expect(fs.readFileSync(path.resolve(__dirname, '../../emulator/README.md'), 'utf8')).toMatch(/emulator\/openapi\.json.*\/swagger\/docs\/v1.*April 2026/s);
	});

	it("flags today's Record Payment body: PaymentDate, PaymentType and Reference are not in PostPaymentRequest", () => {
		const r = contract.check({
			method: 'POST',
			path: '/v1/orders/1234/payments',
			body: { Amount: 12.5, PaymentDate: '2026-05-04', PaymentType: 'Bank transfer', Reference: 'ref' },
		});
		expect(r.endpoint).toBe('POST /v1/orders/{orderID}/payments');
		expect(kinds(r)).toEqual(['unknown-property:PaymentDate', 'unknown-property:PaymentType', 'unknown-property:Reference']);
		// The published body passes, in any letter case (the service binds case-insensitively).
		expect(
			contract.check({ method: 'POST', path: '/v1/orders/1234/payments', body: { amount: 12.5, DATE: '2026-05-04', Description: 'x' } }).violations,
		).toEqual([]);
	});

	it('flags a $filter property orders cannot be filtered on, with the 400 the service answers', () => {
		const q = new URLSearchParams({ $filter: "CounterParty/DisplayName eq 'Acme' and OrderDate ge DateTime'2026-01-01'", $top: '10' });
		const r = contract.check({ method: 'GET', path: '/v1/orders', query: q });
		expect(kinds(r)).toEqual(['filter:CounterParty/DisplayName']);
		expect(r.violations[0].message).toContain("Could not find a property named 'DisplayName' on type 'Domain.Order.OrderPartyPerformanceSafeColumns'.");
		for (const p of ['Customer/Name', 'Overdue', 'ToPay', 'Customer/VATNumber'])
			expect(kinds(contract.check({ method: 'GET', path: '/v1/einvoices/registrations/300001/orders', query: { $filter: `${p} eq 1` } }))).toEqual([
				`filter:${p}`,
			]);
		expect(contractModule.FILTERABLE_ORDER).toHaveLength(28);
		for (const p of contractModule.FILTERABLE_ORDER)
			expect(contract.check({ method: 'GET', path: '/v1/orders', query: { $filter: `${p} eq 1` } }).violations).toEqual([]);
		expect(contract.check({ method: 'GET', path: '/v1/orders', query: { fullTextSearch: 'acme' } }).violations).toEqual([]);
	});

	it('flags an unknown body property at any depth, a wrong type, and an unpublished query parameter', () => {
		const r = contract.check({
			method: 'POST',
			path: '/v1/orders',
			body: {
				OrderType: 'Invoice',
				orderdirection: 'Income',
				Colour: 'red',
				Customer: { Name: 'A', Nickname: 'a' },
				OrderLines: [{ Quantity: 1, UnitPriceExcl: 2, Sparkle: true }],
				OrderPDF: 'x',
			},
		});
		expect(kinds(r)).toEqual(['unknown-property:Colour', 'unknown-property:Customer.Nickname', 'unknown-property:OrderLines[].Sparkle', 'type:OrderPDF']);
		expect(kinds(contract.check({ method: 'GET', path: '/v1/orders/5', query: { expand: 'all' } }))).toEqual(['query:expand']);
		expect(contract.check({ method: 'GET', path: '/v1/orders/5', query: { documentType: 'pdf' } }).violations).toEqual([]);
	});

	it('flags unpatchable PATCH properties on orders and parties, unpublished paths and transport types', () => {
		expect(kinds(contract.check({ method: 'PATCH', path: '/v1/orders/7', body: { OrderStatus: 'Canceled', paid: true } }))).toEqual([
			'not-patchable:OrderStatus',
		]);
		expect(kinds(contract.check({ method: 'PATCH', path: '/v1/parties/7', body: { PartyType: 'Customer', BIC: 'x', Name: 'n', IBAN: 'i' } }))).toEqual([
			'not-patchable:PartyType',
			'not-patchable:BIC',
		]);
		expect(kinds(contract.check({ method: 'GET', path: '/v1/order/7' }))).toEqual(['endpoint:']);
		expect(kinds(contract.check({ method: 'PUT', path: '/v1/orders/7' }))).toEqual(['endpoint:']);
		expect(kinds(contract.check({ method: 'POST', path: '/v1/orders/commands/send', body: { Transporttype: 'Email', OrderIDs: [1] } }))).toEqual([
			'transport-type:Transporttype',
		]);
		for (const t of ['SMTP', 'Peppol', 'Letter', 'SDI'])
			expect(contract.check({ method: 'POST', path: '/v1/orders/commands/send', body: { TransportType: t, OrderIds: [1] } }).violations).toEqual([]);
		// No transport type: the service chooses (Peppol, else e-mail), published since February 2026.
		expect(contract.check({ method: 'POST', path: '/v1/orders/commands/send', body: { OrderIds: [1] } }).violations).toEqual([]);
	});

	it("names the docs page of a docs-only endpoint, and leaves the emulator's own pages alone", () => {
		const r = contract.check({ method: 'POST', path: '/v1/peppol/sendxml', body: { XML: '<Invoice/>' } });
		expect(r).toMatchObject({ api: true, endpoint: 'POST /v1/peppol/sendxml', page: 'Send UBL to Peppol', violations: [] });
		expect(kinds(contract.check({ method: 'POST', path: '/v1/peppol/sendxml', body: { Xml: '<a/>', Receiver: 'x' } }))).toEqual(['unknown-property:Receiver']);
		expect(contract.check({ method: 'GET', path: '/_emulator/config' })).toMatchObject({ api: false, violations: [] });
		expect(
			contract.check({
				method: 'POST',
				path: '/OAuth2/token',
				body: 'grant_type=refresh_token&refresh_token=x&client_id=c',
				contentType: 'application/x-www-form-urlencoded',
			}).violations,
		).toEqual([]);
	});
});

describe('the emulator answers as the service does', () => {
	let emu: Emu;
	beforeAll(async () => {
		emu = await start({ orders: 60 });
	});
	afterAll(() => emu.close());

	it('drops unknown body properties before its handlers see them, and logs them', async () => {
		allowContractViolations('sends the payment body the package sent before issue 36, to show what is dropped');
		const order = (await get(emu, '/v1/orders?$filter=' + encodeURIComponent("OrderType eq 'Invoice' and Paid eq false") + '&$top=1')).json.Items[0];
		emu.contract.clear();
		const r = await post(emu, `/v1/orders/${order.OrderID}/payments`, { Amount: 1, PaymentDate: '2026-05-04', PaymentType: 'Bank', Reference: 'R1' });
		const dropped = emu.contract.dropped();
		expect(dropped).toEqual([
			expect.objectContaining({ method: 'POST', endpoint: 'POST /v1/orders/{orderID}/payments', dropped: ['PaymentDate', 'PaymentType', 'Reference'] }),
		]);
		expect(emu.contract.violations()).toHaveLength(1);
		expect(emu.requests[emu.requests.length - 1]).toMatchObject({ dropped: ['PaymentDate', 'PaymentType', 'Reference'] });
		// The handler saw {Amount} only: it cannot have stored the date (the old handler requires PaymentDate).
		expect(JSON.stringify(r.json)).not.toContain('R1');
		const control = await get(emu, '/_emulator/contract', { auth: false });
		expect(control.json.dropped).toHaveLength(1);
		await call(emu, 'DELETE', '/_emulator/contract', { auth: false });
		expect(emu.contract.dropped()).toEqual([]);
	});

	it('answers the published 400 for a property orders cannot be filtered on', async () => {
		allowContractViolations('filters on CounterParty/DisplayName on purpose');
		const r = await get(emu, '/v1/orders?$filter=' + encodeURIComponent("CounterParty/DisplayName eq 'x'"));
		expect(r.status).toBe(400);
		expect(r.json).toEqual({
			errors: [{ Code: 'GenericError', Description: "Could not find a property named 'DisplayName' on type 'Domain.Order.OrderPartyPerformanceSafeColumns'." }],
		});
		const vat = await get(emu, '/v1/orders?$filter=' + encodeURIComponent("VATNumber eq 'BE1'"));
		expect(vat.json.errors[0].Description).toBe("Could not find a property named 'VATNumber' on type 'Domain.Order.OrderPartyPerformanceSafeColumns'.");
		emu.config.orderFilter = 'all';
		try {
			expect((await get(emu, '/v1/orders?$filter=' + encodeURIComponent("CounterParty/DisplayName eq 'x'"))).status).toBe(200);
		} finally {
			emu.config.orderFilter = 'published';
		}
		const ok = await get(emu, '/v1/orders?$filter=' + encodeURIComponent('CounterParty/PartyID gt 0 and Paid eq false'));
		expect(ok.status).toBe(200);
	});

	it('applies only the patchable fields of an order PATCH; the others are dropped and logged', async () => {
		allowContractViolations('sends an unpatchable OrderStatus on purpose');
		const order = (await get(emu, '/v1/orders?$top=1&$filter=' + encodeURIComponent("OrderStatus ne 'Canceled'"))).json.Items[0];
		emu.contract.clear();
		const r = await call(emu, 'PATCH', `/v1/orders/${order.OrderID}`, { body: { IsSent: true, OrderStatus: 'Canceled' } });
		expect(r.status).toBe(200);
		expect(emu.contract.dropped()).toEqual([expect.objectContaining({ dropped: ['OrderStatus'] })]);
		const after = (await get(emu, `/v1/orders/${order.OrderID}`)).json;
		expect(after.IsSent).toBe(true);
		expect(after.OrderStatus).toBe(order.OrderStatus);
	});

	it('searches orders with fullTextSearch (case-insensitive; how the service matches is a guess) and keeps it in the next link', async () => {
		const all = (await get(emu, '/v1/orders?$top=120')).json.Items as any[];
		const one = all[7];
		const byNumber = await get(emu, `/v1/orders?fullTextSearch=${encodeURIComponent(String(one.OrderNumber).toLowerCase())}`);
		expect(byNumber.status).toBe(200);
		expect(byNumber.json.Items.map((o: any) => o.OrderID)).toContain(one.OrderID);
		const name = String(one.Customer?.Name ?? one.CounterParty?.DisplayName)
			.split(' ')[0]
			.toUpperCase();
		const byName = await get(emu, `/v1/orders?fullTextSearch=${encodeURIComponent(name)}&$top=2`);
		expect(byName.json.Items.length).toBeGreaterThan(0);
		if (byName.json.NextpageLink) expect(byName.json.NextpageLink).toContain(`fullTextSearch=${encodeURIComponent(name)}`);
		expect((await get(emu, '/v1/orders?fullTextSearch=zzzz-nothing-matches')).json.Items).toEqual([]);
	});

	it('has no /v1/order/{id}; refreshes a webhook on both published paths', async () => {
		allowContractViolations('reads the unpublished /v1/order/{id} on purpose');
		const order = (await get(emu, '/v1/orders?$top=1')).json.Items[0];
		expect((await get(emu, `/v1/order/${order.OrderID}`)).status).toBe(404);
		const hook = (
			await post(emu, '/v1/einvoices/registrations/300001/webhooks', { EntityType: 'Order', EntityUpdateType: 'I', WebhookURL: 'https://hooks.example.com/x' })
		).json;
		const a = await post(emu, `/v1/webhooks/refresh/${hook.WebhookID}`);
		expect(a.status).toBe(200);
		expect(typeof a.json).toBe('string');
		const b = await post(emu, `/v1/einvoices/registrations/300001/webhooks/refresh/${hook.WebhookID}`);
		expect(b.status).toBe(200);
		expect(typeof b.json).toBe('string');
		expect(b.json).not.toBe(a.json);
		expect((await post(emu, `/v1/einvoices/registrations/300001/webhooks/refresh/999999`)).status).toBe(404);
	});

	it("answers with the document's response types", async () => {
		const order = (await get(emu, '/v1/orders?$top=1')).json.Items[0];
		const reads: Array<[string, string]> = [
			['GET', '/v1/orders?$top=3'],
			['GET', `/v1/orders/${order.OrderID}`],
			['GET', '/v1/parties?$top=3'],
			['GET', '/v1/products?$top=3'],
			['GET', '/v1/webhooks'],
			['GET', '/v1/peppol/inbox'],
			['GET', '/v1/einvoices/registrations/300001'],
			['GET', `/v1/einvoices/registrations/300001/orders/${(await get(emu, '/v1/orders?$top=1', { partyId: '300001' })).json.Items[0].OrderID}`],
			['GET', '/v1/account/accountInformation'],
			['GET', '/v1/peppol/participantInformation/BE0123456749'],
		];
		const findings: string[] = [];
		for (const [method, p] of reads) {
			const r = await call(emu, method, p);
			expect(r.status).toBe(200);
			for (const v of contract.checkResponse({ method, path: p, status: r.status, body: r.json })) findings.push(`${method} ${p.split('?')[0]}: ${v.message}`);
		}
		expect(findings.filter((f) => / is (string|number|boolean|object|array), published /.test(f))).toEqual([]);
		// Answers of the writes: bare integers, booleans, strings and the published Webhook.
		const writes: Array<[string, string, unknown]> = [
			[
				'POST',
				'/v1/orders',
				{
					OrderType: 'Invoice',
					OrderDirection: 'Income',
					OrderDate: '2026-05-04',
					Customer: { Name: 'Typed BV' },
					OrderLines: [{ Quantity: 1, UnitPriceExcl: 10, VATPercentage: 21, Description: 'x' }],
				},
			],
			['POST', '/v1/parties', { Name: 'Typed Party BV', PartyType: 'Customer' }],
			['POST', '/v1/products', { Reference: 'TYPED-1', Description: 'Typed', AmountExcl: 1, VAT: 21 }],
			['POST', '/v1/webhooks', { EntityType: 'Message', EntityUpdateType: 'U', WebhookURL: 'https://hooks.example.com/typed' }],
		];
		for (const [method, p, body] of writes) {
			const r = await call(emu, method, p, { body });
			expect(r.status).toBe(200);
			for (const v of contract.checkResponse({ method, path: p, status: r.status, body: r.json })) findings.push(`${method} ${p}: ${v.message}`);
			if (p === '/v1/webhooks') {
				for (const [m2, p2] of [
					['POST', `/v1/webhooks/refresh/${r.json.WebhookID}`],
					['DELETE', `/v1/webhooks/${r.json.WebhookID}`],
				]) {
					const r2 = await call(emu, m2, p2);
					expect(r2.status).toBe(200);
					for (const v of contract.checkResponse({ method: m2, path: p2, status: r2.status, body: r2.json })) findings.push(`${m2} ${p2}: ${v.message}`);
				}
			}
		}
		expect(typeof (await call(emu, 'GET', '/v1/orders?$top=1')).json.Items[0].OrderID).toBe('number');
		// Every field beyond the published types is a guess of the emulator, listed in emulator/README.md.
		const extra = [
			...new Set(
				findings.map((f) =>
					f
						.replace(/\[\d+\]/g, '[]')
						.replace(/^.*?: (Items\[\]\.)?/, '')
						.replace(/ is not in the published type$/, ''),
				),
			),
		];
		expect(extra.filter((f) => !ANSWER_GUESSES.includes(f))).toEqual([]);
		const readme = fs.readFileSync(path.resolve(__dirname, '../../emulator/README.md'), 'utf8');
		const section = readme.split('### Answers beyond the published types')[1] ?? '';
		expect(ANSWER_GUESSES.filter((g) => !section.includes(`\`${g}\``))).toEqual([]);
	});
});

describe('the harness hook (test/harness/contract.js)', () => {
	it('fails the test that sent a violation, and lets an allowed one pass', async () => {
		const hooks: Record<string, () => void> = {};
		const fake = {
			beforeEach: (f: () => void) => (hooks.beforeEach = f),
			afterEach: (f: () => void) => (hooks.afterEach = f),
			afterAll: (f: () => void) => (hooks.afterAll = f),
			expect: { getState: () => ({ testPath: path.resolve(__dirname, 'contract.test.ts'), currentTestName: 'a probe' }) },
		};
		const probe = await start({ orders: 5 });
		try {
			// A fresh install tracks this emulator only from here; the file's own hook sees it too, so allow it there.
			allowContractViolations('probes the hook with a bad payment body');
			harnessContract.install(fake);
			harnessContract.collect();
			hooks.beforeEach();
			await post(probe, '/v1/orders/1/payments', { Amount: 1, PaymentType: 'Cash' });
			expect(() => hooks.afterEach()).toThrow(/PaymentType is not a property of the published body/);
			hooks.beforeEach();
			await post(probe, '/v1/orders/1/payments', { Amount: 1, PaymentType: 'Cash' });
			harnessContract.allowContractViolations('the probe allows itself');
			expect(() => hooks.afterEach()).not.toThrow();
			await get(probe, '/v1/order/1');
			expect(() => hooks.afterAll()).toThrow(/GET \/v1\/order\/1 is not published/);
			const saved = process.env.CONTRACT_CHECK;
			process.env.CONTRACT_CHECK = 'warn';
			const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
			try {
				await get(probe, '/v1/order/1');
				expect(() => hooks.afterAll()).not.toThrow();
				expect(warn).toHaveBeenCalledWith(expect.stringContaining('/v1/order/1'));
			} finally {
				warn.mockRestore();
				if (saved === undefined) delete process.env.CONTRACT_CHECK;
				else process.env.CONTRACT_CHECK = saved;
			}
			allowContractViolations('probes the hook with a bad payment body');
		} finally {
			await probe.close();
		}
	});
});
