import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ClientProvider } from '../../../shared/router';
import { runPerItem } from '../../../shared/items';
import { readPartyOption } from '../options';
import type { CreateOrderResult, SingleOrderPath } from './orderApi';
import { createOrder } from './orderApi';
import type { OrderFieldsInput, OrderLineInput, OrderProblem } from './orderBody';
import { buildOrderBody, checkOrder, ORDER_DIRECTIONS, ORDER_TYPES } from './orderBody';
import type { IdempotencyHeader } from './sendApi';
import { createIdempotencyKey } from './sendLogic';

/** Display options for Create; other operations that create (e.g. Create and Send) pass theirs. */
export function createFields(operations: string[] = ['create']): INodeProperties[] {
	const show = { resource: ['order'], operation: operations };
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
		{
			displayName: 'Order Type',
			name: 'orderType',
			type: 'options',
			options: ORDER_TYPES.map((value) => ({
				name: value.replace(/([a-z])([A-Z])/g, '$1 $2'),
				value,
			})),
			default: 'Invoice',
			displayOptions: fieldsMode,
		},
		{
			displayName: 'Order Direction',
			name: 'orderDirection',
			type: 'options',
			options: ORDER_DIRECTIONS.map((value) => ({
				name: value === 'Income' ? 'Income (Sale)' : 'Cost (Purchase)',
				value,
			})),
			default: 'Income',
			displayOptions: fieldsMode,
		},
		{
			displayName: 'Order Date',
			name: 'orderDate',
			type: 'dateTime',
			required: true,
			default: '',
			description: 'Date of the order, sent as YYYY-MM-DD (a time part is ignored)',
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
						{
							displayName: 'Description',
							name: 'description',
							type: 'string',
							default: '',
							placeholder: 'e.g. Consulting, March',
						},
						{
							displayName: 'Quantity',
							name: 'quantity',
							type: 'number',
							typeOptions: { numberPrecision: 4 },
							default: 1,
						},
						{
							displayName: 'Unit Price Excl. VAT',
							name: 'unitPriceExcl',
							type: 'number',
							typeOptions: { numberPrecision: 4 },
							default: 0,
						},
						{
							displayName: 'VAT Percentage',
							name: 'vatPercentage',
							type: 'number',
							typeOptions: { minValue: 0, maxValue: 100 },
							default: 21,
							description: 'VAT rate in percent, e.g. 21',
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
			placeholder: 'e.g. INV-2024-0042',
			description: 'Your own unique ID for this order (e.g. the invoice ID in your system); lets a retried run find the order it already created',
			displayOptions: fieldsMode,
		},
		{
			displayName: 'Order (JSON)',
			name: 'orderJson',
			type: 'json',
			required: true,
			default:
				'{\n  "OrderType": "Invoice",\n  "OrderDirection": "Income",\n  "OrderDate": "2024-01-31",\n  "ExpiryDate": "2024-02-29",\n  "ExternalProviderID": "",\n  "Customer": { "Name": "", "VATNumber": "", "PartyType": "Customer" },\n  "OrderLines": [{ "Quantity": 1, "Description": "", "VATPercentage": 21, "UnitPriceExcl": 0 }]\n}',
			description: 'The whole order as the API expects it (OrderType, OrderDirection, OrderDate, ExpiryDate, OrderNumber, ExternalProviderID, Customer, OrderLines)',
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
				{ displayName: 'Delivery Date', name: 'DeliveryDate', type: 'dateTime', default: '' },
				{
					displayName: 'Expiry Date',
					name: 'ExpiryDate',
					type: 'dateTime',
					default: '',
					description: 'Due date, on or after the order date',
				},
				{ displayName: 'Order Number', name: 'OrderNumber', type: 'string', default: '', placeholder: 'e.g. INV-2024-0042' },
				{ displayName: 'Payment Reference', name: 'PaymentReference', type: 'string', default: '' },
				{ displayName: 'Reference', name: 'Reference', type: 'string', default: '' },
			],
		},
	];
}

/** Create and Create and Send share these fields (declared once, or parameters duplicate). */
export const description: INodeProperties[] = createFields(['create', 'createAndSend']);

type InputMode = 'fields' | 'json';

/** Labels of API fields as the Fields Below mode shows them. */
function fieldLabel(field: string, mode: InputMode): string {
	if (mode === 'json') return field;
	const line = /^OrderLines\[(\d+)\](?:\.(\w+))?$/.exec(field);
	if (line) {
		const names: Record<string, string> = {
			Quantity: 'Quantity',
			UnitPriceExcl: 'Unit Price Excl. VAT',
			VATPercentage: 'VAT Percentage',
			Description: 'Description',
		};
		return `Order Lines › Line ${Number(line[1]) + 1}${line[2] ? ` › ${names[line[2]] ?? line[2]}` : ''}`;
	}
	const labels: Record<string, string> = {
		OrderType: 'Order Type',
		OrderDirection: 'Order Direction',
		OrderDate: 'Order Date',
		ExpiryDate: 'Expiry Date',
		DeliveryDate: 'Delivery Date',
		OrderNumber: 'Order Number',
		ExternalProviderID: 'External Provider ID',
		Customer: 'Customer Name',
		'Customer.Name': 'Customer Name',
		OrderLines: 'Order Lines',
	};
	return labels[field] ?? field;
}

function showValue(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (Array.isArray(value) && value.length === 0) return '';
	const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
	const trimmed = text.trim();
	return trimmed.length > 60 ? `${trimmed.slice(0, 60)}…` : trimmed;
}

/** An OrderProblem as the NodeOperationError the node throws, naming field and item. */
export function orderProblemError(
	ctx: IExecuteFunctions,
	problem: OrderProblem,
	itemIndex: number,
	mode: InputMode = 'fields',
): NodeOperationError {
	const shown = showValue(problem.value);
	const label = fieldLabel(problem.field, mode);
	return new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1}: "${label}"${shown ? ` ${shown}` : ''} ${problem.problem}`, {
		itemIndex,
		description: problem.fix,
	});
}

function readJson(ctx: IExecuteFunctions, itemIndex: number): unknown {
	const raw = ctx.getNodeParameter('orderJson', itemIndex, '') as unknown;
	if (typeof raw !== 'string') return raw;
	try {
		return JSON.parse(raw) as unknown;
	} catch (error) {
		return new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1}: "Order (JSON)" is not valid JSON: ${(error as Error).message}`, {
			itemIndex,
			description: 'Map an object, e.g. {{ $json.order }}, or fix the JSON text.',
		});
	}
}

/**
 * The validated create body for one item, from Fields Below or JSON, or a
 * NodeOperationError naming the field and the item (before any request).
 */
export function readOrderInput(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const mode = ctx.getNodeParameter('inputMode', itemIndex, 'fields') as InputMode;
	let body: unknown;
	if (mode === 'json') {
		body = readJson(ctx, itemIndex);
		if (body instanceof NodeOperationError) throw body;
	} else {
		const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const { PartyType, ExpiryDate, OrderNumber, ...extra } = additional;
		const lines = ctx.getNodeParameter('orderLines.lines', itemIndex, []) as IDataObject[];
		const input: OrderFieldsInput = {
			OrderType: ctx.getNodeParameter('orderType', itemIndex, 'Invoice'),
			OrderDirection: ctx.getNodeParameter('orderDirection', itemIndex, 'Income'),
			OrderDate: ctx.getNodeParameter('orderDate', itemIndex, ''),
			ExpiryDate,
			OrderNumber,
			ExternalProviderID: ctx.getNodeParameter('externalProviderId', itemIndex, ''),
			Customer: {
				Name: ctx.getNodeParameter('customerName', itemIndex, ''),
				VATNumber: ctx.getNodeParameter('customerVatNumber', itemIndex, ''),
				PartyType,
			},
			OrderLines: (Array.isArray(lines) ? lines : [lines]).map(
				(line): OrderLineInput => ({
					Quantity: line.quantity,
					Description: line.description,
					VATPercentage: line.vatPercentage,
					UnitPriceExcl: line.unitPriceExcl,
				}),
			),
			extra: Object.fromEntries(Object.entries(extra).filter(([, value]) => value !== '' && value !== undefined && value !== null)),
		};
		body = buildOrderBody(input);
	}
	const checked = checkOrder(body);
	if ('problem' in checked) throw orderProblemError(ctx, checked.problem, itemIndex, mode);
	return checked.body;
}

export interface CreateSettings {
	skipIfExists: boolean;
	fetchFull: boolean;
	singleOrderPath: SingleOrderPath;
	partyId?: string;
	idempotencyHeader: IdempotencyHeader;
}

/** The create headers: an idempotency key from the ExternalProviderID when the create de-duplicates. */
export function createHeaders(body: IDataObject, skipIfExists: boolean, header: IdempotencyHeader): Record<string, string> {
	const externalId = typeof body.ExternalProviderID === 'string' ? body.ExternalProviderID : '';
	if (!skipIfExists || !externalId || header === 'none') return {};
	return { [header]: createIdempotencyKey(externalId) };
}

function readIdempotencyHeader(ctx: IExecuteFunctions, itemIndex: number): IdempotencyHeader {
	const value = ctx.getNodeParameter('options.idempotencyHeader', itemIndex, 'Idempotency-Key') as unknown;
	return value === 'Idempotent-Key' || value === 'none' ? value : 'Idempotency-Key';
}

/** Skip If Already Created, Fetch Full Order, Single Order Path and Act for Party for one item. */
export function readCreateSettings(ctx: IExecuteFunctions, itemIndex: number): CreateSettings {
	return {
		skipIfExists: ctx.getNodeParameter('skipIfExists', itemIndex, true) as boolean,
		fetchFull: ctx.getNodeParameter('options.fetchFullOrder', itemIndex, false) as boolean,
		singleOrderPath: ctx.getNodeParameter('options.singleOrderPath', itemIndex, 'auto') as SingleOrderPath,
		partyId: readPartyOption(ctx, itemIndex),
		idempotencyHeader: readIdempotencyHeader(ctx, itemIndex),
	};
}

/** The output item of a create: the order plus AlreadyExisted. */
export function createOutput(result: CreateOrderResult): IDataObject {
	return { ...result.order, ...(result.orderId !== undefined ? { OrderID: result.orderId } : {}), AlreadyExisted: result.alreadyExisted };
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const body = readOrderInput(this, itemIndex);
		const settings = readCreateSettings(this, itemIndex);
		const client = await clients(itemIndex, settings.partyId);
		const result = await createOrder(client, body, {
			node: this.getNode(),
			itemIndex,
			skipIfExists: settings.skipIfExists,
			fetchFull: settings.fetchFull,
			singleOrderPath: settings.singleOrderPath,
			headers: createHeaders(body, settings.skipIfExists, settings.idempotencyHeader),
		});
		return createOutput(result);
	});
}
