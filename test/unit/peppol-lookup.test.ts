import {
	canReceive,
	CREDIT_NOTE_DOCUMENT_TYPES,
	documentKindOf,
	INVOICE_DOCUMENT_TYPES,
	networkFor,
	participantResult,
	receiveCapabilities,
} from '../../nodes/PeppolLookup/actions/capabilities';
import { runPool } from '../../nodes/PeppolLookup/actions/lookup.operation';
import { PRODUCTION_BASE_URL, SANDBOX_BASE_URL } from '../../nodes/shared/domain/environments';

// Document identifiers of BIS Billing 3.0 (docs/api.md "Peppol lookup and identifiers").
const BIS3_INVOICE =
	'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const BIS3_CREDIT_NOTE =
	'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const XRECHNUNG_INVOICE =
	'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0::2.1';
const PINT_MY_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:peppol:pint:billing-1@my-1::2.1';
const SELF_BILLING_INVOICE =
	'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0::2.1';
const MLR = 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##urn:fdc:peppol.eu:poacc:trns:mlr:3::2.1';

const detail = (DocumentIdentifier: string) => ({
	DocumentIdentifier,
	DocumentIdentifierScheme: 'busdox-docid-qns',
	Processes: [{ ProcessIdentifier: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', ProcessIdentifierScheme: 'cenbii-procid-ubl' }],
});

describe('documentKindOf', () => {
	it('recognises invoice and credit-note URNs of BIS 3 and its variants', () => {
		expect(documentKindOf(BIS3_INVOICE)).toBe('invoice');
		expect(documentKindOf(BIS3_CREDIT_NOTE)).toBe('creditNote');
		expect(documentKindOf(XRECHNUNG_INVOICE)).toBe('invoice');
		expect(documentKindOf(PINT_MY_CREDIT_NOTE)).toBe('creditNote');
		expect(documentKindOf(`busdox-docid-qns::${BIS3_INVOICE}`)).toBe('invoice');
	});
	it('ignores self-billing, responses and non-strings', () => {
		expect(documentKindOf(SELF_BILLING_INVOICE)).toBeUndefined();
		expect(documentKindOf(MLR)).toBeUndefined();
		expect(documentKindOf(undefined)).toBeUndefined();
		expect(documentKindOf('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice')).toBeUndefined();
	});
});

describe('receiveCapabilities', () => {
	it('reads the DocumentTypes labels (BISv3, SI, MYPint)', () => {
		expect(INVOICE_DOCUMENT_TYPES).toEqual(['BISv3Invoice', 'SIInvoice', 'MYPintInvoice']);
		expect(CREDIT_NOTE_DOCUMENT_TYPES).toEqual(['BISv3CreditNote', 'SICreditNote', 'MYPintCreditNote']);
		for (let i = 0; i < INVOICE_DOCUMENT_TYPES.length; i++) {
			expect(receiveCapabilities({ Registered: true, DocumentTypes: [INVOICE_DOCUMENT_TYPES[i], CREDIT_NOTE_DOCUMENT_TYPES[i]] })).toEqual({
				canReceiveInvoice: true,
				canReceiveCreditNote: true,
				canReceiveInvoicesAndCreditNotes: true,
			});
		}
		expect(receiveCapabilities({ Registered: true, DocumentTypes: ['BISv3Invoice', 'MLR'] })).toEqual({
			canReceiveInvoice: true,
			canReceiveCreditNote: false,
			canReceiveInvoicesAndCreditNotes: false,
		});
		expect(receiveCapabilities({ Registered: true, DocumentTypes: ['IMR', 'MLR'] }).canReceiveInvoice).toBe(false);
	});
	it('falls back to the ServiceDetails URNs when the labels are missing or unknown', () => {
		const info = { Registered: true, DocumentTypes: ['SomethingNew'], ServiceDetails: [detail(BIS3_INVOICE), detail(BIS3_CREDIT_NOTE)] };
		expect(receiveCapabilities(info).canReceiveInvoicesAndCreditNotes).toBe(true);
		expect(receiveCapabilities({ Registered: true, ServiceDetails: [detail(SELF_BILLING_INVOICE), detail(MLR)] }).canReceiveInvoice).toBe(false);
	});
	it('is all false for an unregistered receiver, whatever else the answer says', () => {
		expect(receiveCapabilities({ Registered: false, DocumentTypes: ['BISv3Invoice', 'BISv3CreditNote'] })).toEqual({
			canReceiveInvoice: false,
			canReceiveCreditNote: false,
			canReceiveInvoicesAndCreditNotes: false,
		});
		expect(receiveCapabilities({}).canReceiveInvoice).toBe(false);
		expect(receiveCapabilities({ Registered: 'true', DocumentTypes: ['BISv3Invoice'] }).canReceiveInvoice).toBe(true);
	});
	it('routes on the chosen capability', () => {
		const invoiceOnly = { canReceiveInvoice: true, canReceiveCreditNote: false, canReceiveInvoicesAndCreditNotes: false };
		expect(canReceive(invoiceOnly)).toBe(false);
		expect(canReceive(invoiceOnly, 'invoices')).toBe(true);
		expect(canReceive(invoiceOnly, 'creditNotes')).toBe(false);
	});
});

describe('networkFor and participantResult', () => {
	it('names the network from the base URL', () => {
		expect(networkFor(SANDBOX_BASE_URL)).toBe('Peppol test network');
		expect(networkFor(`${SANDBOX_BASE_URL}/`)).toBe('Peppol test network');
		expect(networkFor(PRODUCTION_BASE_URL)).toBe('Peppol production');
		expect(networkFor('http://127.0.0.1:3000')).toBe('custom');
	});
	it('fills missing arrays and adds the derived fields', () => {
		expect(participantResult({ Registered: false }, '0208:0123456749', 'custom')).toEqual({
			Registered: false,
			Identifier: '0208:0123456749',
			DocumentTypes: [],
			ServiceDetails: [],
			canReceiveInvoice: false,
			canReceiveCreditNote: false,
			canReceiveInvoicesAndCreditNotes: false,
			lookupIdentifier: '0208:0123456749',
			network: 'custom',
		});
		const full = participantResult(
			{ Registered: true, Identifier: '9925:BE0123456749', DocumentTypes: ['BISv3Invoice'], ServiceDetails: [], ServiceProviderID: 'PBE000001' },
			'BE0123456749',
			'Peppol production',
		);
		expect(full).toMatchObject({ Identifier: '9925:BE0123456749', ServiceProviderID: 'PBE000001', lookupIdentifier: 'BE0123456749' });
	});
});

describe('runPool', () => {
	async function ticks(n: number) {
		for (let i = 0; i < n; i++) await Promise.resolve();
	}

	it('never runs more than the limit at once and keeps outcomes in task order', async () => {
		let inFlight = 0;
		let most = 0;
		const started: number[] = [];
		const outcomes = await runPool(25, { concurrency: 4 }, async (index) => {
			started.push(index);
			inFlight++;
			most = Math.max(most, inFlight);
			await ticks((index * 7) % 5);
			inFlight--;
			return index * 2;
		});
		expect(most).toBe(4);
		expect(started.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
		expect(outcomes).toEqual(Array.from({ length: 25 }, (_, i) => ({ ok: true, value: i * 2 })));
	});

	it('records failures and, with stopOnError, starts nothing after one', async () => {
		const kept = await runPool(4, { concurrency: 1 }, async (index) => {
			if (index === 1) throw new Error('boom');
			return index;
		});
		expect(kept.map((o) => o?.ok)).toEqual([true, false, true, true]);

		const started: number[] = [];
		const stopped = await runPool(4, { concurrency: 1, stopOnError: true }, async (index) => {
			started.push(index);
			if (index === 1) throw new Error('boom');
			return index;
		});
		expect(started).toEqual([0, 1]);
		expect(stopped[2]).toBeUndefined();
		expect(stopped[1]).toMatchObject({ ok: false });
	});

	it('treats a silly limit as 1 and an empty list as nothing to do', async () => {
		let most = 0;
		let inFlight = 0;
		await runPool(3, { concurrency: 0 }, async () => {
			inFlight++;
			most = Math.max(most, inFlight);
			await ticks(2);
			inFlight--;
		});
		expect(most).toBe(1);
		expect(await runPool(0, { concurrency: 5 }, async () => 1)).toEqual([]);
	});
});
