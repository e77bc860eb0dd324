/** What a participant-information answer (docs/api.md "Peppol lookup and identifiers") means for sending invoices. Pure. */
import type { IDataObject } from 'n8n-workflow';

import { PRODUCTION_BASE_URL, SANDBOX_BASE_URL } from '../../shared/domain/environments';

/** Participant information as the lookup answers it; tolerant of missing arrays. */
export interface ParticipantInformation {
	Registered?: boolean | string;
	Identifier?: string;
	DocumentTypes?: string[] | null;
	ServiceDetails?: Array<{ DocumentIdentifier?: string; [key: string]: unknown }> | null;
	[key: string]: unknown;
}

/** DocumentTypes labels of invoices and credit notes: BIS Billing 3 and the known variants. */
export const INVOICE_DOCUMENT_TYPES: readonly string[] = ['BISv3Invoice', 'SIInvoice', 'MYPintInvoice'];
export const CREDIT_NOTE_DOCUMENT_TYPES: readonly string[] = ['BISv3CreditNote', 'SICreditNote', 'MYPintCreditNote'];

const UBL_INVOICE_ROOT = 'urn:oasis:names:specification:ubl:schema:xsd:invoice-2::invoice##';
const UBL_CREDIT_NOTE_ROOT = 'urn:oasis:names:specification:ubl:schema:xsd:creditnote-2::creditnote##';
/** Customisations of billing (not self-billing, not responses): BIS 3, XRechnung, PINT. */
const BILLING_CUSTOMIZATIONS = [
	'urn:fdc:peppol.eu:2017:poacc:billing:3.0',
	'urn:xeinkauf.de:kosit:xrechnung',
	'urn:xoev-de:kosit:standard:xrechnung',
	'urn:peppol:pint:billing-1',
];

/** Invoice or credit note from a document identifier URN (with or without the busdox-docid-qns:: prefix). */
export function documentKindOf(documentIdentifier: unknown): 'invoice' | 'creditNote' | undefined {
	if (typeof documentIdentifier !== 'string') return undefined;
	const urn = documentIdentifier
		.trim()
		.replace(/^busdox-docid-qns::/i, '')
		.toLowerCase();
	const customization = urn.split('##')[1] ?? '';
	if (!BILLING_CUSTOMIZATIONS.some((c) => customization.startsWith(c) || customization.includes(`#${c}`))) {
		return undefined;
	}
	if (urn.startsWith(UBL_INVOICE_ROOT)) return 'invoice';
	if (urn.startsWith(UBL_CREDIT_NOTE_ROOT)) return 'creditNote';
	return undefined;
}

type ReceiveCapabilities = Record<'canReceiveInvoice' | 'canReceiveCreditNote' | 'canReceiveInvoicesAndCreditNotes', boolean>;

function isRegistered(info: ParticipantInformation): boolean {
	return info.Registered === true || String(info.Registered).toLowerCase() === 'true';
}

/** Registered, and an invoice / credit-note type in DocumentTypes or ServiceDetails. */
export function receiveCapabilities(info: ParticipantInformation): ReceiveCapabilities {
	if (!isRegistered(info)) {
		return { canReceiveInvoice: false, canReceiveCreditNote: false, canReceiveInvoicesAndCreditNotes: false };
	}
	const labels = new Set((Array.isArray(info.DocumentTypes) ? info.DocumentTypes : []).map((t) => String(t).toLowerCase()));
	const kinds = new Set((Array.isArray(info.ServiceDetails) ? info.ServiceDetails : []).map((d) => documentKindOf(d?.DocumentIdentifier)));
	const canReceiveInvoice = INVOICE_DOCUMENT_TYPES.some((t) => labels.has(t.toLowerCase())) || kinds.has('invoice');
	const canReceiveCreditNote = CREDIT_NOTE_DOCUMENT_TYPES.some((t) => labels.has(t.toLowerCase())) || kinds.has('creditNote');
	return {
		canReceiveInvoice,
		canReceiveCreditNote,
		canReceiveInvoicesAndCreditNotes: canReceiveInvoice && canReceiveCreditNote,
	};
}

export type RouteOn = 'invoicesAndCreditNotes' | 'invoices' | 'creditNotes';

/** Which capability sends an item to the "Can Receive" output. */
export function canReceive(capabilities: ReceiveCapabilities, routeOn: RouteOn = 'invoicesAndCreditNotes'): boolean {
	if (routeOn === 'invoices') return capabilities.canReceiveInvoice;
	if (routeOn === 'creditNotes') return capabilities.canReceiveCreditNote;
	return capabilities.canReceiveInvoicesAndCreditNotes;
}

export type PeppolNetwork = 'Peppol test network' | 'Peppol production' | 'custom';

/** The network the lookup asked: the sandbox address queries the Peppol test network (docs/api.md "Peppol lookup and identifiers"). */
export function networkFor(baseUrl: string): PeppolNetwork {
	const url = String(baseUrl).trim().replace(/\/+$/, '').toLowerCase();
	if (url === SANDBOX_BASE_URL.toLowerCase()) return 'Peppol test network';
	if (url === PRODUCTION_BASE_URL.toLowerCase()) return 'Peppol production';
	return 'custom';
}

/** The output JSON: the deciding canReceive… fields, then the answer as the API names it (arrays never missing), then what was asked. */
export function participantResult(info: ParticipantInformation | null | undefined, lookupIdentifier: string, network: PeppolNetwork): IDataObject {
	const body: ParticipantInformation = info && typeof info === 'object' ? info : {};
	const capabilities = receiveCapabilities(body);
	return {
		...capabilities,
		...(body as IDataObject),
		Registered: isRegistered(body),
		Identifier: body.Identifier ?? lookupIdentifier,
		DocumentTypes: Array.isArray(body.DocumentTypes) ? body.DocumentTypes : [],
		ServiceDetails: (Array.isArray(body.ServiceDetails) ? body.ServiceDetails : []) as IDataObject[],
		// Derived, so never taken from the body.
		...capabilities,
		lookupIdentifier,
		network,
	};
}
