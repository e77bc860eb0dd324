/**
 * n8n's usual Simplify option for the list and lookup operations: key fields first, one
 * flat level, each field under the API's name (a nested one under its path without the
 * slash: CounterParty/DisplayName → CounterPartyDisplayName). Off, the records are the
 * API's, whole. Pure but for the parameter reader.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** The Simplify switch of one operation (n8n's wording), shown under the given conditions. */
export function simplifyField(show: Record<string, string[]> = {}): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		displayOptions: { show },
	};
}

export function readSimplify(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return ctx.getNodeParameter('simplify', itemIndex, true) !== false;
}

/** `CounterParty/DisplayName` → `CounterPartyDisplayName`. */
export function flatName(path: string): string {
	return path.split('/').join('');
}

function valueAt(record: IDataObject, path: string): unknown {
	let value: unknown = record;
	for (const key of path.split('/')) {
		if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

/** The listed fields a record has, in the listed order, flat; fields it lacks are left out, not invented. */
export function pickFields(record: IDataObject, paths: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const path of paths) {
		const value = valueAt(record, path);
		if (value !== undefined) out[flatName(path)] = value as IDataObject[string];
	}
	return out;
}

/** A registration's integrations on one line ("Peppol: Active, SDI: Pending"; '' for none): a simplified registration stays flat. */
export function integrationSummary(integrations: unknown): string {
	if (!Array.isArray(integrations)) return '';
	return integrations
		.filter((entry): entry is IDataObject => !!entry && typeof entry === 'object')
		.map((entry) => [entry.Integration, entry.IntegrationStatus].filter((part) => part !== undefined && part !== null && part !== '').join(': '))
		.filter(Boolean)
		.join(', ');
}

const words = (list: string) => list.split(' ');

/** The key fields of each list the nodes read, in the order a person scans a table. */
export const SIMPLE_FIELDS = {
	order: words(
		'OrderID OrderNumber OrderType OrderDirection OrderStatus OrderDate ExpiryDate CounterParty/DisplayName CounterParty/VATNumber Currency ' +
			'TotalExcl TotalVAT TotalIncl ToPay Paid IsSent ExternalProviderID Reference LastModified',
	),
	party: words('PartyID DisplayName PartyType VATNumber Email City CountryCode LastModified'),
	product: words('ProductID Reference Description AmountExcl VAT AmountIncl Unit GroupName LastModified'), // the published Product (openapi.json)
	registration: words('RegistrationID CompanyName TaxIdentifier Email PartyID Active Status Identified'),
	integration: words('RegistrationID IntegrationID Integration IntegrationStatus IntegrationStatusDescription IntegrationDocumentToSign needsSignature'),
	peppolLookup: words('canReceiveInvoice canReceiveCreditNote canReceiveInvoicesAndCreditNotes Registered Identifier DocumentTypes lookupIdentifier network'),
};
