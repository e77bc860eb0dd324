/** The order's parameters as the operations that create one declare them (the ones that address an order use orderId.ts). */
import type { INodeProperties } from 'n8n-workflow';

import { DECIMAL_FORMS } from './decimal';
import { ORDER_DIRECTIONS, ORDER_TYPE_OPTIONS } from '../../../shared/domain/orderTypes';

/** The order's fields (Fields Below or JSON) and Skip If Already Created, shown for one operation that creates. */
export function orderFields(operation: string): INodeProperties[] {
	const show = { resource: ['order'], operation: [operation] };
	const fieldsMode = { show: { ...show, inputMode: ['fields'] } };
	return [
		{
			displayName: 'Input Mode',
			name: 'inputMode',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Fields Below', value: 'fields', description: 'Fill in the order field by field' },
				{ name: 'JSON', value: 'json', description: 'Map a whole order object from an earlier node' },
			],
			default: 'fields',
			displayOptions: { show },
		},
		{ displayName: 'Order Type', name: 'orderType', type: 'options', options: ORDER_TYPE_OPTIONS, default: 'Invoice', displayOptions: fieldsMode },
		{
			displayName: 'Order Direction',
			name: 'orderDirection',
			type: 'options',
			options: ORDER_DIRECTIONS.map((value) => ({ name: value === 'Income' ? 'Income (Sale)' : 'Cost (Purchase)', value })),
			default: 'Income',
			displayOptions: fieldsMode,
		},
		{
			displayName: 'Order Date',
			name: 'orderDate',
			type: 'dateTime',
			typeOptions: { dateOnly: true },
			required: true,
			default: '',
			description: 'Date of the order, sent as YYYY-MM-DD',
			displayOptions: fieldsMode,
		},
		{
			displayName: 'Customer Name',
			name: 'customerName',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. ACME NV',
			displayOptions: fieldsMode,
		},
		{
			displayName: 'Customer VAT Number',
			name: 'customerVatNumber',
			type: 'string',
			default: '',
			placeholder: 'e.g. BE0123456749',
			description: 'VAT number with country prefix',
			displayOptions: fieldsMode,
		},
		{
			displayName: 'Order Lines',
			name: 'orderLines',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Order Line',
			default: {},
			required: true,
			description: 'At least one line',
			displayOptions: fieldsMode,
			options: [
				{
					displayName: 'Line',
					name: 'lines',
					values: [
						{ displayName: 'Description', name: 'description', type: 'string', default: '', placeholder: 'e.g. Consulting, March' },
						{
							displayName: 'Quantity',
							name: 'quantity',
							type: 'string',
							default: '1',
							description: `Up to 4 decimals, negative for a correction; "." or "," for decimals (${DECIMAL_FORMS})`,
						},
						{
							displayName: 'Unit Price Excl. VAT',
							name: 'unitPriceExcl',
							type: 'string',
							default: '0',
							placeholder: 'e.g. 1250,50',
							description: `Up to 4 decimals; "." or "," for decimals (${DECIMAL_FORMS}). Read one way only: 1,250 is refused as ambiguous.`,
						},
						{
							displayName: 'VAT Percentage',
							name: 'vatPercentage',
							type: 'string',
							default: '21',
							description: 'VAT rate in percent from 0 to 100, e.g. 21 or 5,5',
						},
					],
				},
			],
		},
		{
			displayName: 'External Provider ID',
			name: 'externalProviderId',
			type: 'string',
			default: '',
			placeholder: 'e.g. INV-2026-0042',
			description: 'Your own unique ID for this order (e.g. the invoice ID in your system); lets a retried run find the order it already created',
			displayOptions: fieldsMode,
		},
		{
			displayName: 'Order (JSON)',
			name: 'orderJson',
			type: 'json',
			required: true,
			default:
				'{\n  "OrderType": "Invoice",\n  "OrderDirection": "Income",\n  "OrderDate": "2026-01-31",\n  "ExpiryDate": "2026-02-28",\n  "ExternalProviderID": "",\n  "Customer": { "Name": "", "VATNumber": "", "PartyType": "Customer" },\n  "OrderLines": [{ "Quantity": 1, "Description": "", "VATPercentage": 21, "UnitPriceExcl": 0 }]\n}',
			description:
				'The whole order as the API expects it (OrderType, OrderDirection, OrderDate, ExpiryDate, OrderNumber, ExternalProviderID, Customer, OrderLines)',
			displayOptions: { show: { ...show, inputMode: ['json'] } },
		},
		{
			displayName: 'Skip If Already Created',
			name: 'skipIfExists',
			type: 'boolean',
			default: true,
			description:
				'Whether to look the External Provider ID up first and output the existing order instead of creating a second one. Applies only when an External Provider ID is set.',
			displayOptions: { show },
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: fieldsMode,
			options: [
				{ displayName: 'Currency', name: 'Currency', type: 'string', default: '', placeholder: 'e.g. EUR' },
				{ displayName: 'Customer Party Type', name: 'PartyType', type: 'string', default: 'Customer', description: 'Party type of the customer' },
				{ displayName: 'Delivery Date', name: 'DeliveryDate', type: 'dateTime', typeOptions: { dateOnly: true }, default: '' },
				{
					displayName: 'Expiry Date',
					name: 'ExpiryDate',
					type: 'dateTime',
					typeOptions: { dateOnly: true },
					default: '',
					description: 'Due date, on or after the order date',
				},
				{ displayName: 'Order Number', name: 'OrderNumber', type: 'string', default: '', placeholder: 'e.g. INV-2026-0042' },
				{ displayName: 'Payment Reference', name: 'PaymentReference', type: 'string', default: '' },
				{ displayName: 'Reference', name: 'Reference', type: 'string', default: '' },
			],
		},
	];
}
