/** The order types and directions of the API (contract 2.4), for every node that offers or checks them. */
import type { INodePropertyOptions } from 'n8n-workflow';

export const ORDER_TYPES = ['Invoice', 'CreditNote', 'Offer', 'DeliveryNote', 'OrderForm'] as const;
export const ORDER_DIRECTIONS = ['Income', 'Cost'] as const;

/** The order types as picker options ("CreditNote" shown as "Credit Note"), in the API's order. */
export const ORDER_TYPE_OPTIONS: INodePropertyOptions[] = ORDER_TYPES.map((value) => ({
	name: value.replace(/([a-z])([A-Z])/g, '$1 $2'),
	value,
}));

/** The same, sorted by name, as the editor lists options. */
export const ORDER_TYPE_OPTIONS_BY_NAME: INodePropertyOptions[] = [...ORDER_TYPE_OPTIONS].sort((a, b) => (a.name < b.name ? -1 : 1));
