/**
 * Order › Create Credit Note (README "Create Credit Note"): its External Provider ID (yours, or
 * `credit-<invoice OrderID>`) is looked up first and sent as the idempotency key, so a re-run outputs
 * the credit note made before instead of crediting twice.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { checkDecimal, QUANTITY } from '../decimal';
import { inputError, readChoice, readText, requireValid } from '../../../shared/node/input';
import { buildFilter } from '../../../shared/query/odata';
import { orderIdField, readOrderId } from './orderId';
import type { ClientProvider } from '../../../shared/node/router';
import type { ApiClient } from '../../../shared/http/transport';
import { itemMessage } from '../../../shared/domain/validation';
import { createdOrder, createOrder, findOrderByExternalId, findOrders, orderProblemError, readCreateSettings } from './orderCreate';
import { getOrder } from '../../../shared/node/order';
import { type CreditNoteInput, type LinePick, buildCreditNote, checkDate, checkOrder } from './orderBody';
import { runItems } from '../../../shared/node/items';

const properties: INodeProperties[] = [
	{
		displayName: 'Find Invoice By',
		name: 'invoiceBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Order', value: 'orderId' },
			{ name: 'Invoice Number', value: 'invoiceNumber', description: 'The number on the invoice, e.g. INV-2026-0042' },
		],
		default: 'orderId',
	},
	orderIdField('The invoice to credit', { displayName: 'Invoice', displayOptions: { show: { invoiceBy: ['orderId'] } } }),
	{
		displayName: 'Invoice Number',
		name: 'invoiceNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. INV-2026-0042',
		description: 'The OrderNumber of the invoice to credit',
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
						description: "The line's position on the invoice, from 1",
					},
					{ displayName: 'Quantity', name: 'quantity', type: 'string', default: '', placeholder: 'e.g. 1,5', description: 'Empty or 0: the whole line' },
				],
			},
		],
	},
	{ displayName: 'Credit Note Date', name: 'creditNoteDate', type: 'dateTime', typeOptions: { dateOnly: true }, default: '', description: 'Empty: today' },
	{
		displayName: 'If Already Credited',
		name: 'ifCredited',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Output the Existing Credit Note', value: 'output', description: 'Output the one made before (Outcome: found)' },
			{ name: 'Fail the Item', value: 'fail' },
			{ name: 'Create Another Credit Note', value: 'another', description: 'Needs its own External Provider ID' },
		],
		default: 'output',
	},
	{
		displayName: 'External Provider ID',
		name: 'externalProviderId',
		type: 'string',
		default: '',
		placeholder: 'e.g. CN-2026-0042',
		description: "Your unique ID; empty: credit- and the invoice's OrderID",
	},
	{
		displayName: 'Additional Fields',
		name: 'creditNoteFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Credit Note Number', name: 'orderNumber', type: 'string', default: '', placeholder: 'e.g. CN-2026-0042' },
			{ displayName: 'Reference', name: 'reference', type: 'string', default: '', placeholder: 'e.g. the reason for the credit note' },
		],
	},
];

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['order'], operation: ['createCreditNote'] } }, properties);

type InvoiceRef = { orderId: number } | { invoiceNumber: string };
type IfCredited = 'output' | 'fail' | 'another';

/** Today in the workflow's time zone, as YYYY-MM-DD. */
function today(ctx: IExecuteFunctions): string {
	const format = new Intl.DateTimeFormat('en-US', { timeZone: ctx.getTimezone(), year: 'numeric', month: '2-digit', day: '2-digit' });
	const part = Object.fromEntries(format.formatToParts(new Date()).map((p) => [p.type, p.value]));
	return `${part.year}-${part.month}-${part.day}`;
}

function readPicks(ctx: IExecuteFunctions, itemIndex: number): LinePick[] {
	const raw = ctx.getNodeParameter('pickedLines.line', itemIndex, []) as unknown;
	return ((Array.isArray(raw) ? raw : [raw]) as IDataObject[]).map((entry, i) => {
		const where = `Picked Lines › Line ${i + 1}`;
		const line = entry?.lineNumber;
		if (typeof line !== 'number' || !Number.isInteger(line) || line < 1) {
			const hint = 'Enter its position: 1, 2, 3 …';
			throw inputError(ctx, itemIndex, `${where} › Line Number`, line, 'is not a line number (1 is the first line)', hint);
		}
		const given = entry?.quantity;
		const zeroOrMore = { ...QUANTITY, sign: 'zeroOrMore' } as const;
		const quantity = given === undefined || given === '' ? 0 : requireValid(ctx, itemIndex, `${where} › Quantity`, given, (v) => checkDecimal(v, zeroOrMore));
		return quantity === 0 ? { line } : { line, quantity };
	});
}

/** Everything of one item, checked before any request (the invoice is read only after). */
function readItem(ctx: IExecuteFunctions, itemIndex: number) {
	let invoice: InvoiceRef;
	if (ctx.getNodeParameter('invoiceBy', itemIndex, 'orderId') === 'invoiceNumber') {
		const invoiceNumber = readText(ctx, itemIndex, 'invoiceNumber', 'Invoice Number', 100, true);
		const hint = 'Enter the number of the invoice to credit, e.g. INV-2026-0042.';
		if (!invoiceNumber) throw inputError(ctx, itemIndex, 'Invoice Number', undefined, 'is empty', hint);
		invoice = { invoiceNumber };
	} else invoice = { orderId: readOrderId(ctx, itemIndex, 'orderId', 'Invoice') };
	const lines = ctx.getNodeParameter('creditLines', itemIndex, 'all') === 'pick' ? readPicks(ctx, itemIndex) : 'all';
	const date = ctx.getNodeParameter('creditNoteDate', itemIndex, '') as unknown;
	const orderDate = date === '' || date === undefined || date === null ? today(ctx) : requireValid(ctx, itemIndex, 'Credit Note Date', date, checkDate);
	const ifCredited = readChoice<IfCredited>(ctx, itemIndex, 'ifCredited', 'If Already Credited', ['output', 'fail', 'another'], 'output');
	const externalProviderId = readText(ctx, itemIndex, 'externalProviderId', 'External Provider ID', 255, true) || undefined;
	if (ifCredited === 'another' && !externalProviderId) {
		const hint = 'Give the further credit note its own External Provider ID.';
		throw inputError(ctx, itemIndex, 'External Provider ID', undefined, 'is empty', hint);
	}
	const input: CreditNoteInput = {
		lines,
		orderDate,
		externalProviderId,
		orderNumber: readText(ctx, itemIndex, 'creditNoteFields.orderNumber', 'Credit Note Number', 255, true) || undefined,
		reference: readText(ctx, itemIndex, 'creditNoteFields.reference', 'Reference', 255) || undefined,
	};
	return { invoice, input, ifCredited, settings: readCreateSettings(ctx, itemIndex) };
}

/** The one invoice with this number: listed by number, then read whole (a list holds summaries). */
async function findInvoice(ctx: IExecuteFunctions, client: ApiClient, invoiceNumber: string, itemIndex: number): Promise<IDataObject> {
	const filter = buildFilter(
		['OrderNumber', 'OrderType'].map((field, i) => ({ field, operator: 'eq' as const, value: i ? 'Invoice' : invoiceNumber, type: 'string' as const })),
		'and',
	);
	const isIt = (order: IDataObject) => order.OrderType === 'Invoice' && String(order.OrderNumber ?? '').trim() === invoiceNumber;
	const matches = await findOrders(client, filter, isIt, { itemIndex, top: 2, operation: `Look up invoice ${invoiceNumber}` });
	if (matches.length !== 1) {
		const problem = matches.length ? 'matches more than one invoice' : 'matches no invoice of this party';
		const hint = 'Check the number, or pick the invoice by its OrderID.';
		throw inputError(ctx, itemIndex, 'Invoice Number', invoiceNumber, problem, hint);
	}
	return await getOrder(client, String(matches[0].OrderID), itemIndex);
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runItems(this, readItem.bind(null, this), async (read, itemIndex) => {
		const { settings } = read;
		const client = await clients(itemIndex, settings.partyId);
		const invoice =
			'orderId' in read.invoice
				? await getOrder(client, read.invoice.orderId, itemIndex)
				: await findInvoice(this, client, read.invoice.invoiceNumber, itemIndex);
		const key = read.input.externalProviderId ?? `credit-${String(invoice.OrderID)}`;
		const built = buildCreditNote(invoice, { ...read.input, externalProviderId: key });
		if ('problem' in built) throw orderProblemError(this, built.problem, itemIndex, 'json');
		const checked = checkOrder(built.body);
		if ('problem' in checked) throw orderProblemError(this, checked.problem, itemIndex, 'json');
		const found = await findOrderByExternalId(client, key, itemIndex);
		const refuse = (what: string) =>
			new NodeOperationError(this.getNode(), itemMessage(itemIndex, `invoice ${built.aboutInvoiceNumber} ${what}; nothing was created`), {
				itemIndex,
				description: 'To credit it again, set If Already Credited to Create Another Credit Note.',
			});
		if (found && read.ifCredited === 'fail') throw refuse(`already has credit note ${String(found.OrderID)} (External Provider ID ${key})`);
		if (!found && read.ifCredited !== 'another' && invoice.OrderStatus === 'Credited') throw refuse('is already credited, not by this node');
		const options = { node: this.getNode(), itemIndex, ...settings, skipIfExists: true, found: found ?? null };
		const result = await createOrder(client, checked.body, options);
		// One shape whether created or found: the full order only with Fetch Full Order, in both cases.
		return {
			...(await createdOrder(client, result, options)),
			OrderID: result.orderId ?? result.order.OrderID ?? null,
			ExternalProviderID: key,
			AboutInvoiceNumber: built.aboutInvoiceNumber,
			InvoiceOrderID: invoice.OrderID ?? null,
			Outcome: result.alreadyExisted ? 'found' : 'created',
			AlreadyExisted: result.alreadyExisted,
		};
	});
}
