/**
 * Order › Create Credit Note: reads the invoice (by OrderID or invoice number), builds the
 * credit note that refers to it (creditNote.ts: lines all or picked, never more than the
 * invoice) and creates it with Create's "skip if already created" and idempotency key
 * (orderApi.ts createOrder), so a retried run with the same External Provider ID creates
 * nothing twice.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../../shared/display';
import { inputError } from '../../../shared/input';
import { runPerItem } from '../../../shared/items';
import { buildFilter } from '../../../shared/odata';
import { orderIdField, readOrderId } from '../../../shared/orderId';
import { readListPage } from '../../../shared/paging';
import type { ClientProvider } from '../../../shared/router';
import type { ApiClient } from '../../../shared/transport';
import { createOutput } from './create.operation';
import type { CreditNoteInput, LinePick } from './creditNote';
import { buildCreditNote } from './creditNote';
import { createOrder, getOrder } from './orderApi';
import type { SingleOrderPath } from './orderApi';
import { checkOrder, toNumber, toOrderDate } from './orderBody';
import { readEveryItem } from './orderChanges';
import type { CreateSettings } from './orderInput';
import { createHeaders, orderProblemError, readCreateSettings } from './orderInput';

const properties: INodeProperties[] = [
	{
		displayName: 'Find Invoice By',
		name: 'invoiceBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Order', value: 'orderId', description: 'Pick the invoice, enter its OrderID, or map it' },
			{ name: 'Invoice Number', value: 'invoiceNumber', description: 'The number on the invoice, e.g. INV-2024-0042' },
		],
		default: 'orderId',
	},
	orderIdField({
		displayName: 'Invoice',
		description: 'The invoice to credit: pick it, enter its OrderID, or map {{ $json.OrderID }}',
		displayOptions: { show: { invoiceBy: ['orderId'] } },
	}),
	{
		displayName: 'Invoice Number',
		name: 'invoiceNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. INV-2024-0042',
		description: 'The OrderNumber of the invoice to credit (exactly one invoice must have it)',
		displayOptions: { show: { invoiceBy: ['invoiceNumber'] } },
	},
	{
		displayName: 'Lines',
		name: 'creditLines',
		type: 'options',
		options: [
			{ name: 'All Lines', value: 'all', description: 'Credit the whole invoice' },
			{ name: 'Picked Lines', value: 'pick', description: 'Credit some lines, or part of a line' },
		],
		default: 'all',
	},
	{
		displayName: 'Picked Lines',
		name: 'pickedLines',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Line',
		default: {},
		displayOptions: { show: { creditLines: ['pick'] } },
		options: [
			{
				displayName: 'Line',
				name: 'line',
				values: [
					{
						displayName: 'Line Number',
						name: 'lineNumber',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 1,
						description: "The line's position on the invoice: 1 is the first line",
					},
					{
						displayName: 'Quantity',
						name: 'quantity',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 4 },
						default: 0,
						description: 'How much of the line to credit; 0 credits the whole line. At most the quantity invoiced.',
					},
				],
			},
		],
	},
	{
		displayName: 'Credit Note Date',
		name: 'creditNoteDate',
		type: 'dateTime',
		default: '',
		description: "Date of the credit note, sent as YYYY-MM-DD; empty is today (in the workflow's time zone)",
	},
	{
		displayName: 'External Provider ID',
		name: 'externalProviderId',
		type: 'string',
		default: '',
		placeholder: 'e.g. CN-2024-0042',
		description: 'Your own unique ID for this credit note; lets a retried run find the credit note it already created',
	},
	{
		displayName: 'Skip If Already Created',
		name: 'skipIfExists',
		type: 'boolean',
		default: true,
		description:
			'Whether to look the External Provider ID up first and output the existing credit note instead of creating a second one. Applies only when an External Provider ID is set.',
	},
	{
		displayName: 'Additional Fields',
		name: 'creditNoteFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Credit Note Number', name: 'orderNumber', type: 'string', default: '', placeholder: 'e.g. CN-2024-0042' },
			{ displayName: 'Reference', name: 'reference', type: 'string', default: '', description: 'Your reference, e.g. the reason for the credit note' },
		],
	},
];

export const description: INodeProperties[] = forOperation(
	'createCreditNote',
	properties.map((property) => ({
		...property,
		displayOptions: { ...property.displayOptions, show: { ...property.displayOptions?.show, resource: ['order'] } },
	})),
);

type InvoiceRef = { orderId: number } | { invoiceNumber: string };

interface Read {
	invoice: InvoiceRef;
	input: CreditNoteInput;
	settings: CreateSettings;
}

/** Today in the workflow's time zone, as YYYY-MM-DD. */
function today(ctx: IExecuteFunctions): string {
	const parts = new Intl.DateTimeFormat('en-US', { timeZone: ctx.getTimezone(), year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date());
	const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
	return `${part('year')}-${part('month')}-${part('day')}`;
}

function optionalText(ctx: IExecuteFunctions, itemIndex: number, label: string, value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value !== 'string') throw inputError(ctx, itemIndex, label, value, 'is not text', 'Enter text, or map a text value.');
	return value.trim() || undefined;
}

function readPicks(ctx: IExecuteFunctions, itemIndex: number): LinePick[] {
	const raw = ctx.getNodeParameter('pickedLines.line', itemIndex, []) as unknown;
	const entries = (Array.isArray(raw) ? raw : [raw]) as IDataObject[];
	return entries.map((entry, i) => {
		const where = `Picked Lines › Line ${i + 1}`;
		const line = toNumber(entry?.lineNumber);
		if (line === undefined || !Number.isInteger(line) || line < 1) {
			throw inputError(ctx, itemIndex, `${where} › Line Number`, entry?.lineNumber, 'is not a line number (1 is the first line)', 'Enter the position of the line on the invoice: 1, 2, 3 …');
		}
		const quantity = entry?.quantity === undefined || entry.quantity === '' ? 0 : toNumber(entry.quantity);
		if (quantity === undefined || quantity < 0) {
			throw inputError(ctx, itemIndex, `${where} › Quantity`, entry?.quantity, 'is not a quantity of 0 or more', 'Enter how much of the line to credit, or 0 for the whole line.');
		}
		return quantity === 0 ? { line } : { line, quantity };
	});
}

function readItem(ctx: IExecuteFunctions, itemIndex: number): Read {
	let invoice: InvoiceRef;
	if (ctx.getNodeParameter('invoiceBy', itemIndex, 'orderId') === 'invoiceNumber') {
		const raw = ctx.getNodeParameter('invoiceNumber', itemIndex, '') as unknown;
		const invoiceNumber = optionalText(ctx, itemIndex, 'Invoice Number', raw);
		if (!invoiceNumber) throw inputError(ctx, itemIndex, 'Invoice Number', raw, 'is empty', 'Enter the number of the invoice to credit, e.g. INV-2024-0042.');
		if (invoiceNumber.length > 100) throw inputError(ctx, itemIndex, 'Invoice Number', raw, 'is longer than 100 characters', 'Enter the invoice number only.');
		invoice = { invoiceNumber };
	} else {
		invoice = { orderId: readOrderId(ctx, itemIndex, 'orderId', 'Invoice') };
	}
	const lines = ctx.getNodeParameter('creditLines', itemIndex, 'all') === 'pick' ? readPicks(ctx, itemIndex) : 'all';
	const rawDate = ctx.getNodeParameter('creditNoteDate', itemIndex, '') as unknown;
	let orderDate = today(ctx);
	if (rawDate !== '' && rawDate !== undefined && rawDate !== null) {
		const date = toOrderDate(rawDate);
		if (!date) throw inputError(ctx, itemIndex, 'Credit Note Date', rawDate, 'is not a real date in the form YYYY-MM-DD', 'Enter a date such as 2024-03-31, or leave it empty for today.');
		orderDate = date;
	}
	const extra = ctx.getNodeParameter('creditNoteFields', itemIndex, {}) as IDataObject;
	const input: CreditNoteInput = {
		lines,
		orderDate,
		externalProviderId: optionalText(ctx, itemIndex, 'External Provider ID', ctx.getNodeParameter('externalProviderId', itemIndex, '')),
		orderNumber: optionalText(ctx, itemIndex, 'Credit Note Number', extra.orderNumber),
		reference: optionalText(ctx, itemIndex, 'Reference', extra.reference),
	};
	return { invoice, input, settings: readCreateSettings(ctx, itemIndex) };
}

/** The one invoice with this number: listed by number, then read whole (a list holds summaries). */
async function findInvoice(ctx: IExecuteFunctions, client: ApiClient, invoiceNumber: string, itemIndex: number, path: SingleOrderPath): Promise<IDataObject> {
	const filter = buildFilter(
		[
			{ field: 'OrderNumber', operator: 'eq', value: invoiceNumber, type: 'string' },
			{ field: 'OrderType', operator: 'eq', value: 'Invoice', type: 'string' },
		],
		'and',
	);
	const body = await client.request<unknown>({ method: 'GET', path: '/v1/orders', qs: { $filter: filter, $top: 2 }, itemIndex, operation: `Look up invoice ${invoiceNumber}` });
	// A server that ignores $filter would return other orders: only exact matches count.
	const matches = readListPage(body).items.filter((order) => order.OrderType === 'Invoice' && String(order.OrderNumber ?? '').trim() === invoiceNumber);
	if (matches.length !== 1) {
		const problem = matches.length ? 'matches more than one invoice' : 'is not the number of an invoice of this party';
		throw inputError(ctx, itemIndex, 'Invoice Number', invoiceNumber, problem, 'Check the number (and Options › Act for Party), or pick the invoice by its OrderID.');
	}
	return await getOrder(client, String(matches[0].OrderID), itemIndex, path);
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const reads = readEveryItem(this, (itemIndex) => readItem(this, itemIndex));
	return await runPerItem(this, async (itemIndex) => {
		const read = reads[itemIndex];
		if (read instanceof Error) throw read;
		const { settings } = read;
		const client = await clients(itemIndex, settings.partyId);
		const invoice =
			'orderId' in read.invoice
				? await getOrder(client, read.invoice.orderId, itemIndex, settings.singleOrderPath)
				: await findInvoice(this, client, read.invoice.invoiceNumber, itemIndex, settings.singleOrderPath);
		const built = buildCreditNote(invoice, read.input);
		if ('problem' in built) throw orderProblemError(this, built.problem, itemIndex, 'json');
		const checked = checkOrder(built.body);
		if ('problem' in checked) throw orderProblemError(this, checked.problem, itemIndex, 'json');
		const result = await createOrder(client, checked.body, {
			node: this.getNode(),
			itemIndex,
			skipIfExists: settings.skipIfExists,
			fetchFull: settings.fetchFull,
			singleOrderPath: settings.singleOrderPath,
			headers: createHeaders(checked.body, settings.skipIfExists, settings.idempotencyHeader),
		});
		return { ...createOutput(result), AboutInvoiceNumber: built.aboutInvoiceNumber, InvoiceOrderID: invoice.OrderID ?? null };
	});
}
