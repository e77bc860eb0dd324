/** The API client as the nodes get it: OAuth2 without a Party ID acts for the account's one company; list paging errors on the item. */
import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { paginate, PagingError } from '../http/paging';
import { openClient } from '../http/transport';
import { loadAuth } from './credential';
import type { ApiClient, ApiClientOptions, ApiContext, PaginateOptions } from '../http/types';

/** Where the signed-in account's companies are read when the OAuth2 credential names no Party ID. */
export const ACCOUNT_INFORMATION_PATH = '/v1/account/accountInformation';

/** One line without control, format (bidi) or separator characters, at most 80 characters: a name or VAT number as the API wrote it. */
function label(value: unknown): string {
	const text = typeof value === 'string' || typeof value === 'number' ? String(value).replace(/[\p{C}\p{Z}]+/gu, ' ') : '';
	return text.trim().slice(0, 80);
}

/**
 * The party an OAuth2 call acts for when the credential names none, from `AccountInformation`'s `Companies`, else
 * `UserCompanyRoles`: one company, that one; none or several, what to set, naming each (at most 50).
 */
export function pickAccountParty(info: unknown): { partyId: string } | { message: string; description: string } {
	const record = (info && typeof info === 'object' ? info : {}) as Record<string, unknown>;
	const found = new Map<string, string>();
	for (const list of [record.Companies, record.UserCompanyRoles]) {
		if (found.size || !Array.isArray(list)) continue;
		for (const entry of list.slice(0, 10_000) as Array<Record<string, unknown> | null>) {
			const raw = entry && typeof entry === 'object' ? entry.PartyID : undefined;
			const id = typeof raw === 'number' || typeof raw === 'string' ? String(raw).trim() : '';
			if (!/^\d{1,18}$/.test(id) || found.has(id)) continue;
			const name = label(entry?.Name) || label(entry?.CommercialName) || 'no name';
			found.set(id, `${name} (${label(entry?.VATNumber) || 'no VAT number'}, PartyID ${id})`);
		}
	}
	const set = "Set the company's PartyID as the OAuth2 credential's Party ID, or per node in Options › Act for Party.";
	if (found.size === 1) return { partyId: [...found.keys()][0] };
	if (!found.size) {
		return {
			message: 'The signed-in account lists no company to act for, and the credential names no Party ID',
			description: set,
		};
	}
	const names = [...found.values()];
	const shown = (n: number) => names.slice(0, n).join('; ') + (names.length > n ? `; and ${names.length - n} more` : '');
	return {
		message: `The signed-in account may act for ${names.length} companies and the credential names no Party ID: ${shown(3)}`,
		description: `${set} The account's companies: ${shown(50)}.`,
	};
}

/** The client of the node's credential, acting for `options.partyId`, else the credential's Party ID, else (OAuth2) the account's one company. */
export async function getApiClient(this: ApiContext, options: ApiClientOptions = {}, itemIndex?: number): Promise<ApiClient> {
	const client = openClient.call(this, await loadAuth(this, itemIndex), options);
	if (client.partyId || client.method !== 'oAuth2') return client;
	const info = await client.request({ method: 'GET', path: ACCOUNT_INFORMATION_PATH, operation: "Read the account's companies", itemIndex });
	const picked = pickAccountParty(info);
	if (!('partyId' in picked)) throw new NodeOperationError(this.getNode(), picked.message, { itemIndex, description: picked.description });
	client.partyId = picked.partyId;
	return client;
}

/**
 * One list read's repeated strings held once (docs/performance.md, 2a): `JSON.parse` copies every value
 * over 10 characters (V8 shares shorter ones). Own record values of 11 to 64 characters become the equal
 * string in `table` (one read's, emptied at 8,192 entries; depth 8 at most), in place: values, keys and
 * prototypes unchanged (an own `__proto__` key is a data property: assigning it writes that property).
 */
export function shareStrings(value: unknown, table: Map<string, string>, depth = 0): void {
	if (depth > 8 || value === null || typeof value !== 'object') return;
	if (Array.isArray(value)) {
		for (const entry of value) shareStrings(entry, table, depth + 1);
		return;
	}
	const record = value as Record<string, unknown>;
	for (const key in record) {
		const entry = record[key];
		if (typeof entry !== 'string') shareStrings(entry, table, depth + 1);
		else if (entry.length > 10 && entry.length <= 64 && Object.prototype.hasOwnProperty.call(record, key)) {
			const known = table.get(entry);
			if (known) record[key] = known;
			else if (table.size < 8_192) table.set(entry, entry);
			else table.clear();
		}
	}
}

/** Pages through a list (http/paging.ts), its strings shared (shareStrings), paging problems as NodeApiErrors on the item. */
export async function* paginateList(this: ApiContext, client: Pick<ApiClient, 'baseUrl' | 'request'>, options: PaginateOptions): AsyncGenerator<IDataObject[]> {
	const strings = new Map<string, string>();
	try {
		for await (const page of paginate(client, options)) {
			shareStrings(page, strings);
			yield page;
		}
	} catch (error) {
		if (!(error instanceof PagingError)) throw new NodeApiError(this.getNode(), error as JsonObject, { itemIndex: options.itemIndex });
		const description = error.hint ?? 'Retry; if it persists, check the Base URL.';
		throw new NodeApiError(this.getNode(), { message: error.message }, { message: error.message, description, itemIndex: options.itemIndex });
	}
}
