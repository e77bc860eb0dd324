/**
 * Product › Create or Update (the service's page "Products"): without a Product ID, the product with the same
 * Reference is updated, so a re-run creates nothing twice. Which body form the service takes (one Product, or
 * `{Items: [Product]}` as the Products page shows) is not confirmed, hence the choice.
 */
import { type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { readChoice, requireValid } from '../../../shared/node/input';
import type { ClientProvider } from '../../../shared/node/router';
import { checkNumber, checkText } from '../../../shared/domain/validation';
import type { DecimalSpec } from '../decimal';
import { checkDecimal, DECIMAL_FORMS, PERCENT, QUANTITY, UNIT_PRICE } from '../decimal';
import { answeredId, sendJson } from '../writes';
import { runItems } from '../../../shared/node/items';
import { fieldOptions, findRecords, getRecord, idField, noIdError, readFields, readRecordId, recordFields } from '../records';
import { readActForParty } from '../../../shared/fields/fields';

const BODY_FORMS = ['product', 'items'] as const;
const whole = (value: unknown) => checkNumber(value, { min: 0, max: 1e12, whole: true });
/** Text read as order lines read it (2,35 or 1.250,00); a number stored by an older version is taken as it is. */
const decimal = (spec: DecimalSpec) => ({ check: (value: unknown) => checkDecimal(value, spec), description: DECIMAL_FORMS });

/** The fields of the service's OpenAPI `Product` type a client sets. */
const PRODUCT_FIELDS = recordFields([
	{ api: 'AmountExcl', displayName: 'Amount Excl. VAT', ...decimal(UNIT_PRICE) },
	{ api: 'AmountIncl', displayName: 'Amount Incl. VAT', ...decimal(UNIT_PRICE) },
	{ api: 'BuyExcl', displayName: 'Purchase Price Excl. VAT', ...decimal(UNIT_PRICE) },
	{ api: 'Description', check: (value) => checkText(value, 1000) },
	{ api: 'EAN' },
	{ api: 'GLN' },
	{ api: 'GroupID', kind: 'number', check: whole },
	{ api: 'GTIN' },
	{ api: 'InternalInformation', check: (value) => checkText(value, 2000) },
	{ api: 'MinimumBilledQuantity', ...decimal(QUANTITY) },
	{ api: 'StockQuantity', ...decimal(QUANTITY) },
	{ api: 'Unit', description: 'e.g. piece, hour, kg' },
	{
		name: 'vat',
		api: 'VAT',
		displayName: 'VAT Percentage',
		check: (value) => ((read) => (read.ok ? checkNumber(read.value, { min: 0, max: 100 }) : read))(checkDecimal(value, PERCENT)),
		description: 'e.g. 21 or 5,5',
	},
]);

const properties: INodeProperties[] = [
	{
		displayName: 'Reference',
		name: 'reference',
		type: 'string',
		required: true,
		default: '',
		description: 'Your product code or name; a product with it is updated',
	},
	idField('product', { required: false, default: '', description: 'Set it to update that product' }),
	{
		displayName: 'Product Fields',
		name: 'productFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: fieldOptions(PRODUCT_FIELDS),
	},
	{
		displayName: 'Send As',
		name: 'bodyForm',
		type: 'options',
		options: [
			{ name: 'One Product', value: 'product', description: 'The body is the product' },
			{ name: 'Items List', value: 'items', description: 'The body is {"Items": [product]}' },
		],
		default: 'product',
		description: 'The published form is One Product; Items List is kept for workflows that chose it',
		// Out of sight unless a saved workflow chose Items List: the published body is the product.
		displayOptions: { show: { bodyForm: ['items'] } },
	},
];

export const description = updateDisplayOptions({ show: { resource: ['product'], operation: ['createOrUpdate'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const readItem = (itemIndex: number) => ({
		id: readRecordId(this, itemIndex, 'product', true),
		body: {
			...readFields(this, itemIndex, this.getNodeParameter('productFields', itemIndex, {}) as IDataObject, PRODUCT_FIELDS),
			Reference: requireValid(this, itemIndex, 'Reference', this.getNodeParameter('reference', itemIndex, ''), (value) => checkText(value, 255)),
		},
		form: readChoice(this, itemIndex, 'bodyForm', 'Send As', BODY_FORMS, 'product'),
		partyId: readActForParty(this, itemIndex),
	});
	return await runItems(this, readItem, async (read, itemIndex) => {
		const client = await clients(itemIndex, read.partyId);
		let id: string | number | undefined = read.id || undefined;
		if (id === undefined) {
			const reference = read.body.Reference;
			const [found] = await findRecords(
				client,
				this.getNode(),
				'product',
				{
					conditions: [{ field: 'Reference', operator: 'eq', value: reference, type: 'string' }],
					matches: (p) => p.Reference === reference,
					hint: 'Set Product ID to the product to update (look it up in the web app), or leave it empty only for a new Reference.',
				},
				itemIndex,
			);
			id = found?.ProductID as number | undefined;
		}
		const product = id === undefined ? read.body : { ProductID: Number(id), ...read.body };
		const body = read.form === 'items' ? { Items: [product] } : product;
		const operation = id === undefined ? 'Create product' : `Update product ${id}`;
		const answer = await sendJson(client, { method: 'POST', path: '/v1/products', body, itemIndex, operation });
		const saved = id ?? answeredId(answer, 'ProductID');
		if (saved === undefined) throw noIdError(this.getNode(), 'product', 'Run it again: the product is then found by its Reference.', itemIndex);
		return { ...(await getRecord(client, 'product', saved, itemIndex)), AlreadyExisted: id !== undefined };
	});
}
