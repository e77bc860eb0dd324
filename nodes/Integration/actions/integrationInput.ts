/**
 * The Create form -> the integration request body (contract 4.5), validated first.
 * Pure: no n8n, no HTTP.
 */
import type { FieldProblem } from '../../shared/domain/validation';
import { checkText } from '../../shared/domain/validation';

/** Networks the node offers by name; anything else goes through "Other". */
export const KNOWN_NETWORKS = ['Peppol', 'SDI', 'ChorusPro'] as const;

export interface IntegrationInput {
	network?: unknown;
	networkName?: unknown;
	technicalUserKey?: unknown;
	credentials?: { credential?: Array<{ key?: unknown; value?: unknown }> };
}

export interface IntegrationBody {
	ExternalProvider: string;
	Credentials?: Record<string, string>;
}

const NETWORK_NAME = /^[A-Za-z][A-Za-z0-9 _.-]{0,49}$/;
const CREDENTIAL_KEY = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;

export function buildIntegrationBody(input: IntegrationInput): { body: IntegrationBody } | { problem: FieldProblem } {
	const network = String(input.network ?? '').trim();
	if (network === 'ChorusPro') {
		const key = checkText(input.technicalUserKey, 500);
		if (!key.ok) {
			return {
				problem: {
					field: 'Technical User Key',
					// Never echo a secret back in a message.
					value: undefined,
					problem: key.problem === 'is empty' ? 'is required for Chorus Pro' : key.problem,
					hint: 'Enter the technical user key of the Chorus Pro account (Credentials.TechnicalUserKey).',
				},
			};
		}
		return { body: { ExternalProvider: 'ChorusPro', Credentials: { TechnicalUserKey: key.value } } };
	}
	if (network === 'Peppol' || network === 'SDI') return { body: { ExternalProvider: network } };
	if (network !== 'other') {
		return {
			problem: {
				field: 'Network',
				value: input.network,
				problem: 'is not one of the offered networks',
				hint: 'Choose Peppol, SDI, Chorus Pro, or "Other Network" and type its name.',
			},
		};
	}

	const name = String(input.networkName ?? '').trim();
	if (!name || !NETWORK_NAME.test(name)) {
		return {
			problem: {
				field: 'Network Name',
				value: input.networkName,
				problem: name ? 'is not a network name (letters, digits, space, _ . - ; at most 50)' : 'is empty',
				hint: 'Enter the network name exactly as the access point names it (the ExternalProvider value).',
			},
		};
	}
	const known = KNOWN_NETWORKS.find((n) => n.toLowerCase() === name.toLowerCase());
	const entries = input.credentials?.credential ?? [];
	const credentials: Record<string, string> = {};
	for (const [index, entry] of entries.entries()) {
		const label = `Credentials #${index + 1}`;
		const key = String(entry.key ?? '').trim();
		if (!CREDENTIAL_KEY.test(key)) {
			return {
				problem: {
					field: `${label} → Name`,
					value: entry.key,
					problem: key ? 'is not a credential name (a letter, then letters, digits or _)' : 'is empty',
					hint: 'Use the credential name the network expects, e.g. TechnicalUserKey.',
				},
			};
		}
		if (key in credentials) {
			return {
				problem: {
					field: `${label} → Name`,
					value: key,
					problem: 'is given twice',
					hint: 'Give each credential name once.',
				},
			};
		}
		const value = checkText(entry.value, 500);
		if (!value.ok) {
			return {
				problem: {
					field: `${label} → Value`,
					// Never echo a secret back in a message.
					value: undefined,
					problem: `${value.problem} (credential ${key})`,
					hint: value.problem === 'is empty' ? 'Enter the value, or remove the credential.' : value.hint,
				},
			};
		}
		credentials[key] = value.value;
	}
	if (known === 'ChorusPro' && !credentials.TechnicalUserKey) {
		return {
			problem: {
				field: 'Credentials',
				value: undefined,
				problem: 'must contain TechnicalUserKey for Chorus Pro',
				hint: 'Choose the network "Chorus Pro" and fill in the Technical User Key, or add a credential named TechnicalUserKey.',
			},
		};
	}
	const body: IntegrationBody = { ExternalProvider: known ?? name };
	if (Object.keys(credentials).length) body.Credentials = credentials;
	return { body };
}
