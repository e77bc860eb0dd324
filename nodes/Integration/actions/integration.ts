/**
 * Integration bodies both ways (docs/api.md "Integrations"): the Create form -> the request body, validated first;
 * the API's integrations -> output items that make a pending signature obvious. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import type { FieldProblem } from '../../shared/domain/validation';
import { checkText } from '../../shared/domain/validation';
import { text } from '../../shared/domain/values';

/** Networks the node offers by name; anything else goes through "Other". */
const KNOWN_NETWORKS = ['Peppol', 'SDI', 'ChorusPro'];

export interface IntegrationInput {
	network?: unknown;
	networkName?: unknown;
	technicalUserKey?: unknown;
	credentials?: { credential?: Array<{ key?: unknown; value?: unknown }> };
}

type Built = { body: { ExternalProvider: string; Credentials?: Record<string, string> } } | { problem: FieldProblem };

const NETWORK_NAME = /^[A-Za-z][A-Za-z0-9 _.-]{0,49}$/;
const CREDENTIAL_KEY = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;

// A secret (key or credential value) is never echoed back: its problem carries value undefined.
const fail = (field: string, value: unknown, problem: string, hint: string): Built => ({ problem: { field, value, problem, hint } });

export function buildIntegrationBody(input: IntegrationInput): Built {
	const network = String(input.network ?? '').trim();
	if (network === 'ChorusPro') {
		const key = checkText(input.technicalUserKey, 500);
		if (key.ok) return { body: { ExternalProvider: 'ChorusPro', Credentials: { TechnicalUserKey: key.value } } };
		const problem = key.problem === 'is empty' ? 'is required for Chorus Pro' : key.problem;
		return fail('Technical User Key', undefined, problem, 'Enter the technical user key of the Chorus Pro account.');
	}
	if (network === 'Peppol' || network === 'SDI') return { body: { ExternalProvider: network } };
	if (network !== 'other') {
		return fail('Network', input.network, 'is not one of the offered networks', 'Choose Peppol, SDI, Chorus Pro, or "Other Network".');
	}

	const name = String(input.networkName ?? '').trim();
	if (!NETWORK_NAME.test(name)) {
		const problem = name ? 'is not a network name (letters, digits, space, _ . - ; at most 50)' : 'is empty';
		return fail('Network Name', input.networkName, problem, 'Enter the network name exactly as the access point names it.');
	}
	const known = KNOWN_NETWORKS.find((n) => n.toLowerCase() === name.toLowerCase());
	const credentials: Record<string, string> = {};
	for (const [index, entry] of (input.credentials?.credential ?? []).entries()) {
		const label = `Credentials #${index + 1}`;
		const key = String(entry.key ?? '').trim();
		if (!CREDENTIAL_KEY.test(key)) {
			const problem = key ? 'is not a credential name (a letter, then letters, digits or _)' : 'is empty';
			return fail(`${label} → Name`, entry.key, problem, 'Use the credential name the network expects, e.g. TechnicalUserKey.');
		}
		if (key in credentials) return fail(`${label} → Name`, key, 'is given twice', 'Give each credential name once.');
		const value = checkText(entry.value, 500);
		if (!value.ok) {
			const hint = value.problem === 'is empty' ? 'Enter the value, or remove the credential.' : value.hint;
			return fail(`${label} → Value`, undefined, `${value.problem} (credential ${key})`, hint);
		}
		credentials[key] = value.value;
	}
	if (known === 'ChorusPro' && !credentials.TechnicalUserKey) {
		const hint = 'Choose the network "Chorus Pro", or add a credential named TechnicalUserKey.';
		return fail('Credentials', undefined, 'must contain TechnicalUserKey for Chorus Pro', hint);
	}
	return { body: { ExternalProvider: known ?? name, ...(Object.keys(credentials).length ? { Credentials: credentials } : {}) } };
}

/** Said once, in the run's hint (create.operation.ts); the item carries needsSignature and the API's IntegrationDocumentToSign. */
export function signatureHint(pending: string[]): string {
	return `${pending.join(', ')} ${pending.length === 1 ? 'is' : 'are'} Pending: open IntegrationDocumentToSign in the output and have the registered company sign the document.`;
}

/** The API's integration fields under its names, plus `needsSignature` (Pending with a document to sign), else `nextStep` when Pending. */
export function integrationOutput(registrationId: string | number, integration: IDataObject): IDataObject {
	const status = text(integration.IntegrationStatus);
	const document = text(integration.IntegrationDocumentToSign);
	const pending = status.toLowerCase() === 'pending';
	const needsSignature = pending && document !== '';
	const out: IDataObject = {
		RegistrationID: typeof registrationId === 'string' && /^\d+$/.test(registrationId) ? Number(registrationId) : registrationId,
		IntegrationID: integration.IntegrationID,
		Integration: integration.Integration,
		IntegrationStatus: integration.IntegrationStatus,
		IntegrationStatusDescription: integration.IntegrationStatusDescription ?? '',
		IntegrationDocumentToSign: integration.IntegrationDocumentToSign ?? '',
		...integration,
		needsSignature,
	};
	if (pending && !needsSignature) out.nextStep = 'Pending: see IntegrationStatusDescription.';
	return out;
}
