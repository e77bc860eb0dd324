/** Get Many for orders, parties and products: the query builder, Return All / Limit, Skip, and paging. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeExecutionHint } from 'n8n-workflow';

import { readActForParty, readLimit, returnAllFields } from '../../shared/fields/fields';
import { readNumber, requireValid } from '../../shared/node/input';
import { checkOptionalText } from '../../shared/domain/validation';
import { queryFields } from '../../shared/query/filterFields';
import { type QueryResource, describeQuery } from '../../shared/query/queryBuilder';
import { readQuery, readValueNotes } from '../../shared/node/queryInput';
import { type ClientProvider, isToolCall } from '../../shared/node/router';
import { runItems } from '../../shared/node/items';
import { pickFields, readSimplify, SIMPLE_FIELDS, simplifyField } from '../../shared/query/simplify';
import { paginateList } from '../../shared/node/client';

/** Each list's path, unique field (a sort on another field ends with it, paging.ts) and name. */
const LISTS: Record<QueryResource, [path: string, key: string, label: string]> = {
	order: ['/v1/orders', 'OrderID', 'orders'],
	party: ['/v1/parties', 'PartyID', 'parties'],
	product: ['/v1/products', 'ProductID', 'products'],
};

/** The fields of one Get Many: Return All, Limit, (orders) Search Text, the filter and sort builder, and Simplify. */
export function listFields(resource: QueryResource): INodeProperties[] {
	// GET /v1/orders takes fullTextSearch (openapi.json): the way to find orders by number or customer.
	const search: INodeProperties = {
		displayName: 'Search Text',
		name: 'searchText',
		type: 'string',
		default: '',
		placeholder: 'e.g. ACME or INV-2026-0042',
		description: "Orders whose number, customer or other text match (the service's fullTextSearch); empty: all",
	};
	return [...returnAllFields(), ...(resource === 'order' ? [search] : []), ...queryFields(resource), simplifyField()];
}

/** Get Many of one resource: reads the fields above, then every page up to the limit. */
export function listExecute(resource: QueryResource) {
	return async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
		const hints = new Set<string>();
		const warnings = new Set<string>();
		const read = (itemIndex: number) => {
			const limit = readLimit(this, itemIndex);
			const query = readQuery(this, itemIndex, resource);
			// A whole number from 0 to a billion (sent in digits, never as 1e+300).
			const skip = readNumber(this, itemIndex, 'options.skip', 'Skip', { min: 0, max: 1e9, whole: true }, 0);
			const partyId = readActForParty(this, itemIndex);
			const simple = readSimplify(this, itemIndex) ? SIMPLE_FIELDS[resource] : undefined;
			if (query.$filter || query.$orderby) hints.add(`OData query: ${describeQuery(query)}`);
			const notes = readValueNotes(this, itemIndex, resource);
			notes.respelled.forEach((note) => hints.add(note));
			notes.unknown.forEach((note) => warnings.add(note));
			return { limit, query, skip, partyId, simple };
		};
		const output = await runItems(this, read, async ({ limit, query, skip, partyId, simple }, itemIndex) => {
			const client = await clients(itemIndex, partyId);
			const qs: Record<string, string | number> = { ...query };
			// Orders only: the others have no Search Text (read as '').
			const text = requireValid(this, itemIndex, 'Search Text', this.getNodeParameter('searchText', itemIndex, ''), (v) => checkOptionalText(v, 200));
			if (text.trim()) qs.fullTextSearch = text.trim();
			if (skip) qs.$skip = skip;
			const records: IDataObject[] = [];
			const [path, key, label] = LISTS[resource];
			const read = { path, qs, limit, itemIndex, operation: `List ${label}`, key, total: undefined as number | undefined };
			for await (const page of paginateList.call(this, client, read)) records.push(...(simple ? page.map((r) => pickFields(r, simple)) : page));
			const left = (read.total ?? Infinity) - skip - records.length; // As a tool a cut list says what is left (docs/ai.md).
			const more = `${records.length} ${label} shown, ${left === Infinity ? 'maybe' : left} more exist: call again with Skip ${skip + records.length}`;
			if (records.length === limit && left > 0 && isToolCall(this)) records.push({ message: `${more}, or narrow the filters.` });
			return records;
		});
		if ((hints.size || warnings.size) && typeof this.addExecutionHints === 'function') {
			const list: NodeExecutionHint[] = [
				...[...warnings].slice(0, 5).map((message): NodeExecutionHint => ({ message, type: 'warning', location: 'outputPane' })),
				...[...hints].slice(0, 5).map((message): NodeExecutionHint => ({ message, type: 'info', location: 'outputPane' })),
			];
			this.addExecutionHints(...list);
		}
		return output;
	};
}
