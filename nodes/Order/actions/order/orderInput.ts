/**
 * The order's parameters as the operations that create one declare them (the ones that address an order use orderId.ts),
 * and what they read from one item before any request: the checked body and the create settings.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties, NodeOperationError } from 'n8n-workflow';

import { inputError, readBoolean, readChoice } from '../../../shared/node/input';
import type { FieldProblem } from '../../../shared/domain/validation';
import { readPartyOption } from '../options';
import { type SingleOrderPath, SINGLE_ORDER_PATHS } from '../../../shared/domain/order';
import { buildOrderBody, checkOrder, toOrderDate } from './orderBody';
import { DECIMAL_FORMS } from './decimal';
import { ORDER_DIRECTIONS, ORDER_TYPE_OPTIONS } from '../../../shared/domain/orderTypes';
import { type IdempotencyHeader, IDEMPOTENCY_HEADERS } from './sendLogic';
import { apiWords } from '../party/records';

type InputMode = 'fields' | 'json';

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

/** An API field as Fields Below labels it: OrderLines[0].VATPercentage is "Order Lines › Line 1 › VAT Percentage". */
function fieldLabel(field: string, mode: InputMode): string {
	if (mode === 'json') return field;
	const words = (name: string) => (name === 'UnitPriceExcl' ? 'Unit Price Excl. VAT' : apiWords(name));
	const line = /^OrderLines\[(\d+)\](?:\.(\w+))?$/.exec(field);
	if (line) return `Order Lines › Line ${Number(line[1]) + 1}${line[2] ? ` › ${words(line[2])}` : ''}`;
	return field === 'Customer' ? 'Customer Name' : field.split('.').map(words).join(' ');
}

/** A problem of the order body as the NodeOperationError the node throws, naming field (as the mode shows it) and item. */
export function orderProblemError(ctx: IExecuteFunctions, problem: FieldProblem, itemIndex: number, mode: InputMode = 'fields'): NodeOperationError {
	return inputError(ctx, itemIndex, fieldLabel(problem.field, mode), problem.value, problem.problem, problem.hint);
}

function readJson(ctx: IExecuteFunctions, itemIndex: number): unknown {
	const raw = ctx.getNodeParameter('orderJson', itemIndex, '') as unknown;
	if (typeof raw !== 'string') return raw;
	try {
		return JSON.parse(raw) as unknown;
	} catch (error) {
		throw inputError(
			ctx,
			itemIndex,
			'Order (JSON)',
			undefined,
			`is not valid JSON: ${(error as Error).message}`,
			'Map an object, e.g. {{ $json.order }}, or fix the JSON text.',
		);
	}
}

/** The checked create body of one item (Fields Below or JSON), or the error naming field and item. */
export function readOrderInput(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const mode = readChoice<InputMode>(ctx, itemIndex, 'inputMode', 'Input Mode', ['fields', 'json'], 'fields');
	let body: unknown;
	if (mode === 'json') body = readJson(ctx, itemIndex);
	else {
		const param = (name: string, fallback: string) => ctx.getNodeParameter(name, itemIndex, fallback) as IDataObject[string];
		const { PartyType, ExpiryDate, OrderNumber, ...extra } = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const lines = ctx.getNodeParameter('orderLines.lines', itemIndex, []) as IDataObject[];
		body = buildOrderBody({
			OrderType: param('orderType', 'Invoice'),
			OrderDirection: param('orderDirection', 'Income'),
			OrderDate: param('orderDate', ''),
			ExpiryDate,
			OrderNumber,
			ExternalProviderID: param('externalProviderId', ''),
			Customer: { Name: param('customerName', ''), VATNumber: param('customerVatNumber', ''), PartyType },
			OrderLines: (Array.isArray(lines) ? lines : [lines]).map((line) => ({
				Quantity: line.quantity,
				Description: line.description,
				VATPercentage: line.vatPercentage,
				UnitPriceExcl: line.unitPriceExcl,
			})),
			extra: Object.fromEntries(Object.entries(extra).filter(([, value]) => value !== '' && value !== undefined && value !== null)),
		});
	}
	const checked = checkOrder(body);
	if ('problem' in checked) throw orderProblemError(ctx, checked.problem, itemIndex, mode);
	return checked.body;
}

/** Options › Idempotency Header of one item. */
export function readIdempotencyHeader(ctx: IExecuteFunctions, itemIndex: number): IdempotencyHeader {
	return readChoice(ctx, itemIndex, 'options.idempotencyHeader', 'Idempotency Header', IDEMPOTENCY_HEADERS, 'Idempotency-Key');
}

/** Options › Single Order Path of one item: one of its choices, never read as Automatic. */
export function readSingleOrderPath(ctx: IExecuteFunctions, itemIndex: number): SingleOrderPath {
	return readChoice(ctx, itemIndex, 'options.singleOrderPath', 'Single Order Path', SINGLE_ORDER_PATHS, 'auto');
}

/** Skip If Already Created, Fetch Full Order, Single Order Path and Act for Party for one item. */
export function readCreateSettings(ctx: IExecuteFunctions, itemIndex: number) {
	return {
		skipIfExists: readBoolean(ctx, itemIndex, 'skipIfExists', 'Skip If Already Created', true),
		fetchFull: readBoolean(ctx, itemIndex, 'options.fetchFullOrder', 'Fetch Full Order', false),
		singleOrderPath: readSingleOrderPath(ctx, itemIndex),
		partyId: readPartyOption(ctx, itemIndex),
		idempotencyHeader: readIdempotencyHeader(ctx, itemIndex),
	};
}

/** A date parameter as YYYY-MM-DD: a real date, or `fallback()` when empty (required without one). */
export function readDate(ctx: IExecuteFunctions, itemIndex: number, name: string, label: string, hint: string, fallback?: () => string): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (raw === '' || raw === undefined || raw === null) {
		if (fallback) return fallback();
		throw inputError(ctx, itemIndex, label, raw, 'is empty', hint);
	}
	const date = toOrderDate(raw);
	if (!date) throw inputError(ctx, itemIndex, label, raw, 'is not a real date in the form YYYY-MM-DD', hint);
	return date;
}
