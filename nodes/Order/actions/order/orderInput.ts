/** What the operations that create an order read from one item, before any request: the checked body and the create settings. */
import type { IDataObject, IExecuteFunctions, NodeOperationError } from 'n8n-workflow';

import { inputError, readBoolean, readChoice } from '../../../shared/node/input';
import type { FieldProblem } from '../../../shared/domain/validation';
import { readPartyOption } from '../options';
import { type SingleOrderPath, SINGLE_ORDER_PATHS } from '../../../shared/domain/order';
import { buildOrderBody, checkOrder, toOrderDate } from './orderBody';
import { type IdempotencyHeader, IDEMPOTENCY_HEADERS } from './sendLogic';
import { apiWords } from '../party/records';

type InputMode = 'fields' | 'json';

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
