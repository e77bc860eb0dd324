/**
 * The API's enumerated order and party values (docs/api.md "Orders"), one list each, so a
 * picker, a filter and a check never disagree.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

export const ORDER_TYPES = ['Invoice', 'CreditNote', 'Offer', 'DeliveryNote', 'OrderForm'] as const;
export const ORDER_DIRECTIONS = ['Income', 'Cost'] as const;
export const ORDER_STATUSES = ['Draft', 'ToSend', 'ToPay', 'Sent', 'Paid', 'Credited', 'Refused', 'Canceled', 'ApprovalNeeded'] as const;
export const PARTY_TYPES = ['Customer', 'Supplier'] as const;

/** "CreditNote" → "Credit Note": the label of an API value. */
export function valueLabel(value: string): string {
	return value.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** The order types as picker options ("CreditNote" shown as "Credit Note"), in the API's order. */
export const ORDER_TYPE_OPTIONS: INodePropertyOptions[] = ORDER_TYPES.map((value) => ({ name: valueLabel(value), value }));

/** The same, sorted by name, as the editor lists options. */
export const ORDER_TYPE_OPTIONS_BY_NAME: INodePropertyOptions[] = [...ORDER_TYPE_OPTIONS].sort((a, b) => (a.name < b.name ? -1 : 1));

/** Spaces, _ and - dropped, lower-cased: "credit note", "Credit_Note" and "CREDITNOTE" compare equal. */
function looseKey(text: string): string {
	return text.replace(/[\s_-]+/g, '').toLowerCase();
}

/** The API's spelling of a value typed another way ("credit note" → "CreditNote"): the API compares exactly. Undefined for none. */
export function canonicalValue(values: readonly string[], typed: unknown): string | undefined {
	if (typeof typed !== 'string') return undefined;
	const key = looseKey(typed);
	return key ? values.find((value) => looseKey(value) === key) : undefined;
}
