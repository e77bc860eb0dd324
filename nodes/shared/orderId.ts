/**
 * The one Order field: a resource locator (pick from the latest orders, search by
 * number or customer, enter an ID, or map one) and its reader. Every operation that
 * takes an OrderID uses it, so every OrderID is checked the same way.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import { requireValid } from './input';
import { readListPage, resolveNextLink } from './paging';
import { getApiClient } from './transport';
import type { Check } from './validation';

export function orderIdField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Order',
		name: 'orderId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The order (its OrderID): pick it from the list, enter its ID, or map the OrderID of an earlier node',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select an order...',
				typeOptions: { searchListMethod: 'searchOrders', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 123456',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*#?\\d+\\s*$', errorMessage: 'An OrderID is a whole number' },
					},
				],
			},
		],
		...overrides,
	};
}

/**
 * A positive whole number JavaScript holds exactly: a longer one would silently be read
 * as a neighbouring order, so it is refused rather than rounded.
 */
export function checkOrderId(value: unknown): Check {
	const fail = (problem: string): Check => ({
		ok: false,
		problem,
		hint: 'An OrderID is a positive whole number, e.g. 123456: pick the order, or map {{ $json.OrderID }}.',
	});
	if (typeof value === 'number') {
		return Number.isSafeInteger(value) && value > 0 ? { ok: true, value: String(value) } : fail('is not an OrderID');
	}
	if (typeof value !== 'string') return value === undefined || value === null ? fail('is empty') : fail('is not an OrderID');
	const digits = value.trim().replace(/^#/, '');
	if (!digits) return fail('is empty');
	if (!/^\d+$/.test(digits) || /^0+$/.test(digits)) return fail('is not an OrderID');
	const id = Number(digits);
	if (!Number.isSafeInteger(id)) return fail('is too large to be an OrderID');
	return { ok: true, value: String(id) };
}

/** The Order locator's value (list, ID, expression, or a plain value from older workflows) as an OrderID. */
export function readOrderId(ctx: IExecuteFunctions, itemIndex: number, name = 'orderId', label = 'Order'): number {
	const raw = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	return Number(requireValid(ctx, itemIndex, label, raw, checkOrderId));
}

function orderLabel(order: IDataObject): string {
	const party = (order.CounterParty ?? order.Customer) as IDataObject | undefined;
	const name = party?.DisplayName ?? party?.Name;
	return [order.OrderNumber, name, order.OrderDate, `#${String(order.OrderID)}`]
		.filter((part) => typeof part === 'string' || typeof part === 'number')
		.join(' · ');
}

/**
 * The latest orders, newest first, a page at a time; a search keeps those whose number,
 * customer or OrderID contains the text (the API offers no "contains" filter).
 */
export async function searchOrders(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = await getApiClient.call(this);
	let path = '/v1/orders';
	let qs: IDataObject | undefined = { $orderby: 'LastModified desc' };
	if (paginationToken) {
		const next = resolveNextLink(paginationToken, client.baseUrl);
		if ('url' in next) {
			path = next.url;
			qs = undefined;
		}
	}
	const page = readListPage(await client.request({ method: 'GET', path, qs, operation: 'List orders' }));
	const needle = (filter ?? '').trim().toLowerCase();
	const results: INodeListSearchItems[] = [];
	for (const order of page.items) {
		if (!order || typeof order !== 'object' || order.OrderID === undefined) continue;
		const name = orderLabel(order);
		if (needle && !name.toLowerCase().includes(needle)) continue;
		results.push({ name, value: String(order.OrderID) });
	}
	return { results, paginationToken: page.nextLink };
}
