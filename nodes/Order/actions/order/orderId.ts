/** The one Order field (a resource locator: list with search, ID, or mapped), its reader and the run of an operation on one order per item, so every OrderID is checked the same way. */
import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult, INodeProperties } from 'n8n-workflow';

import { requireValid } from '../../../shared/node/input';
import { andFilters } from '../../../shared/query/odata';
import { readListPage, resolveNextLink } from '../../../shared/http/paging';
import { getApiClient } from '../../../shared/node/client';
import { hasStatus } from '../../../shared/node/order';
import type { Check } from '../../../shared/domain/validation';
import { type ItemResult, runItems } from '../../../shared/node/items';
import type { ApiClient } from '../../../shared/http/transport';
import type { ClientProvider } from '../../../shared/node/router';
import { readActForParty } from '../../../shared/fields/fields';

/** The Order locator; `what` says which order the operation takes. */
export function orderIdField(what = 'The order', overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Order',
		name: 'orderId',
		type: 'resourceLocator',
		// The ID convention (docs/nodes.md): the input item's OrderID, as Get, Create and the Order Trigger output it.
		default: { mode: 'id', value: '={{ $json.OrderID }}' },
		required: true,
		description: `${what}: by default the input item's OrderID (Get, Create and the Order Trigger give it); or pick it From List`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Search a number, customer or amount',
				typeOptions: { searchListMethod: 'searchOrders', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 123456',
				validation: [{ type: 'regex', properties: { regex: '^\\s*#?\\d+\\s*$', errorMessage: 'An OrderID is a whole number' } }],
			},
		],
		...overrides,
	};
}

/** A positive whole number held exactly: a longer one would be read as a neighbouring order, so it is refused, not rounded. */
export function checkOrderId(value: unknown): Check {
	const fail = (problem: string): Check => ({
		ok: false,
		problem,
		hint: 'Pick the order, or enter a positive whole number, e.g. 123456.',
	});
	if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? { ok: true, value: String(value) } : fail('is not an OrderID');
	if (typeof value !== 'string') return fail(value === undefined || value === null ? 'is empty' : 'is not an OrderID');
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

/** The execute of an operation on one order per item (Get, Delete, Mark as (Not) Exported): every item's OrderID checked first, then `run` with the item's client. */
export function orderOperation(run: (ctx: IExecuteFunctions, client: ApiClient, orderId: number, itemIndex: number) => Promise<ItemResult>) {
	return async function execute(this: IExecuteFunctions, clients: ClientProvider) {
		const read = (itemIndex: number) => ({ orderId: readOrderId(this, itemIndex), party: readActForParty(this, itemIndex) });
		return await runItems(this, read, async ({ orderId, party }, itemIndex) => run(this, await clients(itemIndex, party), orderId, itemIndex));
	};
}

function orderLabel(order: IDataObject): string {
	const party = (order.CounterParty ?? order.Customer) as IDataObject | undefined;
	const name = party?.DisplayName ?? party?.Name;
	const total =
		typeof order.TotalIncl === 'number' ? `${order.TotalIncl.toFixed(2)}${typeof order.Currency === 'string' ? ` ${order.Currency}` : ''}` : undefined;
	// Number, amount and #OrderID first: the picker cuts a long label at its end.
	return [order.OrderNumber, total, `#${String(order.OrderID)}`, name, order.OrderDate]
		.filter((part) => typeof part === 'string' || typeof part === 'number')
		.join(' · ');
}

/**
 * The Order picker (README "The Order picker"): without a search, every order, newest change first; a search is the
 * service's fullTextSearch (number, customer, …; openapi.json), plus the order with that OrderID when the text is one.
 */
export async function searchOrders(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const client = await getApiClient.call(this);
	const needle = (filter ?? '').trim().slice(0, 100);
	const results: INodeListSearchItems[] = [];
	// Record Payment's picker: sales invoices and credit notes only.
	const payable = this.getCurrentNodeParameter?.('operation') === 'recordPayment';
	const scope = payable ? "OrderDirection eq 'Income' and (OrderType eq 'Invoice' or OrderType eq 'CreditNote')" : undefined;
	const add = (orders: IDataObject[]) => {
		for (const order of orders) {
			if (!order || typeof order !== 'object' || order.OrderID === undefined) continue;
			if (payable && (order.OrderDirection !== 'Income' || !['Invoice', 'CreditNote'].includes(String(order.OrderType)))) continue;
			if (!results.some((r) => r.value === String(order.OrderID))) results.push({ name: orderLabel(order), value: String(order.OrderID) });
		}
	};
	const list = async (qs: IDataObject) => {
		const $filter = andFilters(qs.$filter as string | undefined, scope);
		const query = { ...qs, ...($filter ? { $filter } : {}), $orderby: 'LastModified desc' };
		return readListPage(await client.request({ method: 'GET', path: '/v1/orders', qs: query, operation: 'Search orders' }));
	};
	const id = /^#?(\d{1,15})$/.exec(needle)?.[1];
	if (id && !paginationToken)
		add((await list({ $filter: `OrderID eq ${id}` }).catch((error: unknown) => (hasStatus(error, '400') ? { items: [] } : Promise.reject(error)))).items);
	let page;
	if (paginationToken === undefined) page = await list(needle ? { fullTextSearch: needle } : {});
	else {
		const link = resolveNextLink(paginationToken, client.baseUrl);
		if (!('url' in link)) return { results };
		page = readListPage(await client.request({ method: 'GET', path: link.url, operation: 'Search orders' }));
	}
	add(page.items);
	return { results, paginationToken: page.nextLink };
}
