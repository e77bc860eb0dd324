/**
 * What the operations that create an order share (Create, Create and Send, Create Credit Note): the order's fields
 * (the ones that address an order use orderId.ts), what they read from one item before any request (the checked body,
 * the create settings, your own PDF and attachments: all checked before any request of the run, the bytes read again
 * only when the order is sent, so a run never holds every item's files), and the create call that finds an order made before.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { inputError, readBoolean, readChoice } from '../../../shared/node/input';
import { type FieldProblem, itemMessage } from '../../../shared/domain/validation';
import { readIdempotencyHeader } from '../options';
import { ORDER_DIRECTIONS, ORDER_TYPE_OPTIONS } from '../../../shared/domain/orderTypes';
import { getOrder, hasStatus } from '../../../shared/node/order';
import type { ApiClient } from '../../../shared/http/transport';
import { readListPage } from '../../../shared/http/paging';
import { readMaxFileSize } from '../../../shared/node/files';
import { buildOrderBody, checkOrder, externalIdFilter, readOrderId } from './orderBody';
import { DECIMAL_FORMS } from '../decimal';
import { type IdempotencyHeader, createIdempotencyKey } from './sendRules';
import { apiWords } from '../records';
import { answerError, sendJson } from '../writes';
import { readActForParty } from '../../../shared/fields/fields';

type InputMode = 'fields' | 'json';

/** The order's fields (Fields Below or JSON), Skip If Already Created, Own PDF and Attachments, for an operation that creates. */
export function orderFields(): INodeProperties[] {
	const fieldsMode = { show: { inputMode: ['fields'] } };
	return [
		{
			displayName: 'Input Mode',
			name: 'inputMode',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Fields Below', value: 'fields' },
				{ name: 'JSON', value: 'json' },
			],
			default: 'fields',
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
							description: `Up to 4 decimals, negative for a correction, ${DECIMAL_FORMS}`,
						},
						{
							displayName: 'Unit Price Excl. VAT',
							name: 'unitPriceExcl',
							type: 'string',
							default: '0',
							placeholder: 'e.g. 1250,50',
							description: `Up to 4 decimals, ${DECIMAL_FORMS}`,
						},
						{ displayName: 'VAT Percentage', name: 'vatPercentage', type: 'string', default: '21', description: 'In percent, e.g. 21 or 5,5' },
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
			description: 'Your unique ID; a re-run finds the order by it',
			displayOptions: fieldsMode,
		},
		{
			displayName: 'Order (JSON)',
			name: 'orderJson',
			type: 'json',
			required: true,
			default:
				'{\n  "OrderType": "Invoice",\n  "OrderDirection": "Income",\n  "OrderDate": "2026-01-31",\n  "ExpiryDate": "2026-02-28",\n  "ExternalProviderID": "",\n  "Customer": { "Name": "", "VATNumber": "", "PartyType": "Customer" },\n  "OrderLines": [{ "Quantity": 1, "Description": "", "VATPercentage": 21, "UnitPriceExcl": 0 }]\n}',
			displayOptions: { show: { inputMode: ['json'] } },
		},
		{
			displayName: 'Skip If Already Created',
			name: 'skipIfExists',
			type: 'boolean',
			default: true,
			description: 'Whether to output the order with this External Provider ID, not create another',
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
				{ displayName: 'Customer Party Type', name: 'PartyType', type: 'string', default: 'Customer' },
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
		{
			displayName: 'Own PDF',
			name: 'ownPdf',
			type: 'string',
			default: '',
			placeholder: 'e.g. data',
			description: 'Binary property of your PDF; empty: the service makes one',
		},
		{
			displayName: 'Attachments',
			name: 'attachmentProperties',
			type: 'string',
			default: '',
			placeholder: 'e.g. timesheet, terms',
			description: 'Binary properties to attach, separated by commas',
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
			extra,
		});
	}
	const checked = checkOrder(body);
	if ('problem' in checked) throw orderProblemError(ctx, checked.problem, itemIndex, mode);
	return checked.body;
}

/** Skip If Already Created, Fetch Full Order and Act for Party for one item. */
export function readCreateSettings(ctx: IExecuteFunctions, itemIndex: number) {
	return {
		skipIfExists: readBoolean(ctx, itemIndex, 'skipIfExists', 'Skip If Already Created', true),
		fetchFull: readBoolean(ctx, itemIndex, 'options.fetchFullOrder', 'Fetch Full Order', false),
		partyId: readActForParty(ctx, itemIndex),
		idempotencyHeader: readIdempotencyHeader(ctx, itemIndex),
	};
}

/** Extensions the service takes as attachments (docs/api.md "Files and attachments"). */
const ATTACHMENT_EXTENSIONS = ['pdf', 'xls', 'xlsx', 'csv'];
const MB = 1024 * 1024;

type PlannedFile = { property: string; fileName: string };
/** What one item sends besides its order fields; checked, without the bytes. */
export type OwnFiles = { pdf?: PlannedFile; attachments: PlannedFile[] };

/** Names from a comma-separated text or a list of texts; undefined for anything else. */
function propertyNames(value: unknown): string[] | undefined {
	const names = typeof value === 'string' ? value.split(',') : (value ?? []);
	return Array.isArray(names) && names.every((v) => typeof v === 'string') ? names.map((v: string) => v.trim()).filter(Boolean) : undefined;
}

const extensionOf = (name: string) => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** Checks one item's Own PDF and Attachments (reading each file once, then letting it go); undefined when it sends none. */
export async function checkOwnFiles(ctx: IExecuteFunctions, itemIndex: number, body: IDataObject): Promise<OwnFiles | undefined> {
	const fail = (message: string, hint: string) => new NodeOperationError(ctx.getNode(), itemMessage(itemIndex, message), { itemIndex, description: hint });
	const pdfNames = propertyNames(ctx.getNodeParameter('ownPdf', itemIndex, ''));
	const attachmentNames = propertyNames(ctx.getNodeParameter('attachmentProperties', itemIndex, ''));
	if (!pdfNames) throw fail('"Own PDF" is not the name of a binary property', 'Enter a binary property name, e.g. data.');
	if (!attachmentNames) throw fail('"Attachments" is not a list of binary property names', 'Enter names separated by commas, e.g. timesheet, terms.');
	const one = 'Name one; send the others as Attachments.';
	if (pdfNames.length > 1) throw fail(`"Own PDF" names ${pdfNames.length} properties (${pdfNames.join(', ')})`, one);
	if (!pdfNames.length && !attachmentNames.length) return undefined;
	for (const [field, names, key] of [
		['Own PDF', pdfNames, 'OrderPDF'],
		['Attachments', attachmentNames, 'Attachments'],
	] as const) {
		if (names.length && body[key] !== undefined)
			throw fail(`"${field}" is set and the order JSON has ${key} too`, `Clear ${field}, or remove ${key} from the JSON.`);
	}
	const twice = attachmentNames.find((name, i) => attachmentNames.indexOf(name) !== i);
	if (twice) throw fail(`"Attachments" names binary property "${twice}" twice`, 'Name each file once.');

	const maxBytes = readMaxFileSize(ctx, itemIndex);
	const limit = `Maximum File Size (${(maxBytes / MB).toFixed(0)} MB)`;
	const tooMuch = 'Send fewer or smaller files, or raise Options › Maximum File Size.';
	const binaries = ctx.getInputData()[itemIndex]?.binary ?? {};
	const available = Object.keys(binaries);

	/** The property's metadata, checked before its bytes are read. */
	const plan = (field: string, property: string, pdf: boolean): PlannedFile & { binary: IBinaryData; named: string; pdf: boolean } => {
		const binary = binaries[property];
		const named = `"${field}" (binary property "${property}")`;
		if (!binary) {
			const hint = available.length ? `The item's binary properties: ${available.join(', ')}.` : 'Read or download the file in an earlier node.';
			throw fail(`"${field}" names binary property "${property}", which the item does not have`, hint);
		}
		const fileName = (binary.fileName ?? '').trim() || (pdf ? `${property}.pdf` : binary.fileExtension ? `${property}.${binary.fileExtension}` : '');
		const shown = fileName.slice(0, 60);
		if (!fileName) throw fail(`${named} has no file name`, `Give the file a name with one of the extensions ${ATTACHMENT_EXTENSIONS.join(', ')}.`);
		if (fileName.length > 255 || /[\\/]/.test(fileName) || Array.from(fileName).some((c) => c.charCodeAt(0) < 0x20))
			throw fail(
				`${named} has the file name "${shown}", which the service refuses`,
				'A file name has at most 255 characters and no / \\ or control characters.',
			);
		if (!pdf && !ATTACHMENT_EXTENSIONS.includes(extensionOf(fileName))) {
			const hint = `Attachments must be ${ATTACHMENT_EXTENSIONS.map((e) => `.${e}`).join(', ')} files; convert it first.`;
			throw fail(`${named} is the file "${shown}", a type the service does not take as an attachment`, hint);
		}
		// Its size from the metadata, else from the base64 it is held as in memory (not decoded for this).
		const size =
			typeof binary.bytes === 'number' ? binary.bytes : !binary.id && typeof binary.data === 'string' ? Buffer.byteLength(binary.data, 'base64') : undefined;
		if (size !== undefined && size > maxBytes) throw fail(`${named} is ${(size / MB).toFixed(1)} MB, above ${limit}`, tooMuch);
		return { property, fileName, binary, named, pdf };
	};
	const planned = [...pdfNames.map((p) => plan('Own PDF', p, true)), ...attachmentNames.map((p) => plan('Attachments', p, false))];

	let total = 0;
	for (const { binary, property, named, pdf } of planned) {
		// Without a size in its metadata, a file in n8n's binary store is read only up to the limit.
		const stored = binary.id && typeof binary.bytes !== 'number';
		const content = stored ? await readUpTo(ctx, binary.id as string, maxBytes - total) : await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
		if (!content) throw fail(`${named} takes the own PDF and attachments above ${limit}; it was not read further`, tooMuch);
		if (!content.length) throw fail(`${named} is empty`, 'Check the node that made the file.');
		if (pdf && content.subarray(0, 5).toString('latin1') !== '%PDF-')
			throw fail(`${named} is not a PDF: its content does not start with %PDF-`, 'Send other files as Attachments.');
		total += content.length;
		if (total > maxBytes) throw fail(`the own PDF and attachments add up to ${(total / MB).toFixed(1)} MB or more, above ${limit}`, tooMuch);
	}
	const strip = ({ property, fileName }: PlannedFile): PlannedFile => ({ property, fileName });
	return { pdf: planned.filter((f) => f.pdf).map(strip)[0], attachments: planned.filter((f) => !f.pdf).map(strip) };
}

/** A stored binary's bytes, or undefined as soon as it proves longer than `limit` (the rest is never read). */
async function readUpTo(ctx: IExecuteFunctions, id: string, limit: number): Promise<Buffer | undefined> {
	const chunks: Buffer[] = [];
	let length = 0;
	for await (const chunk of await ctx.helpers.getBinaryStream(id)) {
		length += (chunk as Buffer).length;
		if (length > limit) return undefined;
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

/** The create body with the item's files, base64 as the API takes them (read now, at send time). */
export async function withOwnFiles(ctx: IExecuteFunctions, itemIndex: number, body: IDataObject, files: OwnFiles | undefined): Promise<IDataObject> {
	if (!files) return body;
	const encode = async ({ property, fileName }: PlannedFile) => ({
		FileName: fileName,
		FileContent: (await ctx.helpers.getBinaryDataBuffer(itemIndex, property)).toString('base64'),
	});
	const out: IDataObject = { ...body };
	if (files.pdf) out.OrderPDF = await encode(files.pdf);
	if (files.attachments.length) {
		const attachments: IDataObject[] = [];
		for (const file of files.attachments) attachments.push(await encode(file));
		out.Attachments = attachments;
	}
	return out;
}

/** The orders matching all conditions, of the first `top`: a server that ignores $filter would answer others, so `matches` has the last word. */
export async function findOrders(
	client: ApiClient,
	filter: string,
	matches: (order: IDataObject) => boolean,
	{ itemIndex, top, operation }: { itemIndex: number; top: number; operation: string },
): Promise<IDataObject[]> {
	const qs = { $filter: filter, $top: top };
	return readListPage(await client.request<unknown>({ method: 'GET', path: '/v1/orders', qs, itemIndex, operation })).items.filter(matches);
}

/** The first order whose ExternalProviderID equals the given one, or undefined. */
export async function findOrderByExternalId(client: ApiClient, externalProviderId: string, itemIndex: number): Promise<IDataObject | undefined> {
	const operation = `Look up order with ExternalProviderID ${externalProviderId}`;
	const [found] = await findOrders(client, externalIdFilter(externalProviderId), (order) => String(order.ExternalProviderID ?? '') === externalProviderId, {
		itemIndex,
		top: 1,
		operation,
	});
	return found;
}

export interface CreateOrderOptions {
	node: INode;
	itemIndex: number;
	/** Look the ExternalProviderID up first and return that order instead of creating one (and send the create's idempotency key). */
	skipIfExists: boolean;
	/** Read the whole order after creating (the create answer is only its OrderID). */
	fetchFull: boolean;
	idempotencyHeader: IdempotencyHeader;
	/** The lookup's result when the caller made it already (null: nothing found). */
	found?: IDataObject | null;
}

export interface CreateOrderResult {
	/** The order as output: `{ OrderID }`, the full order, or the existing order. */
	order: IDataObject;
	orderId?: number;
	alreadyExisted: boolean;
}

/** How a create answer without an OrderID looked, without echoing long text (it could carry anything). */
function describeAnswer(answer: unknown): string {
	const text = typeof answer === 'string' ? answer.trim() : answer;
	if (text === undefined || text === null || text === '') return 'an empty answer';
	if (typeof text === 'string') return text.length <= 12 && /^[\w .!-]+$/.test(text) ? `the text "${text}"` : 'a text answer';
	if (typeof text === 'object') return Array.isArray(text) ? 'a list' : 'an object without OrderID';
	return `the value ${String(text).slice(0, 12)}`;
}

/** A 2xx create without a readable OrderID confirmed nothing: the item fails, so a re-run with Skip If Already Created is safe. */
function noOrderIdError(node: INode, answer: unknown, itemIndex: number, externalId: string): NodeApiError {
	const message = `Create order answered with ${describeAnswer(answer)}: the order may or may not exist`;
	const find = externalId ? `to find it by External Provider ID ${externalId.slice(0, 80)}` : 'and an External Provider ID';
	const description = `Check the order in the web app, or re-run with "Skip If Already Created" on ${find}.`;
	return answerError(node, message, description, itemIndex);
}

const SUMMARY_FIELDS = ['OrderID', 'OrderNumber', 'OrderDate', 'TotalExcl', 'TotalVAT', 'TotalIncl', 'Currency'];

/** What a made order outputs without Fetch Full Order: its number and totals as the service holds them; a failed read leaves them out. */
export async function createdOrder(client: ApiClient, result: CreateOrderResult, options: CreateOrderOptions): Promise<IDataObject> {
	if (options.fetchFull) return result.order;
	const read = result.alreadyExisted || result.orderId === undefined ? undefined : getOrder(client, result.orderId, options.itemIndex);
	const order = (await read?.catch((): IDataObject => result.order)) ?? result.order;
	return Object.fromEntries(SUMMARY_FIELDS.filter((key) => order[key] !== undefined).map((key) => [key, order[key]]));
}

/** Creates an order from a checked body (see checkOrder), honouring "skip if already created". */
export async function createOrder(client: ApiClient, body: IDataObject, options: CreateOrderOptions): Promise<CreateOrderResult> {
	const { itemIndex, skipIfExists, idempotencyHeader } = options;
	const externalId = typeof body.ExternalProviderID === 'string' ? body.ExternalProviderID : '';
	const existingResult = async (existing: IDataObject): Promise<CreateOrderResult> => {
		const orderId = readOrderId(existing);
		const order = options.fetchFull && orderId !== undefined ? await getOrder(client, orderId, itemIndex) : existing;
		return { order, orderId, alreadyExisted: true };
	};
	const keyed = skipIfExists && externalId !== '';
	const existing = options.found !== undefined ? options.found : keyed ? await findOrderByExternalId(client, externalId, itemIndex) : undefined;
	if (existing) return await existingResult(existing);
	const headers: Record<string, string> = keyed && idempotencyHeader !== 'none' ? { [idempotencyHeader]: createIdempotencyKey(externalId) } : {};
	const attempt = await sendJson(client, { method: 'POST', path: '/v1/orders', body, headers, itemIndex, operation: 'Create order' }).then(
		(answer) => ({ answer }),
		(error: unknown) => ({ error }),
	);
	if ('error' in attempt) {
		// 409: the idempotency key (or ExternalProviderID) was used before: the order exists.
		const found = hasStatus(attempt.error, '409') && externalId ? await findOrderByExternalId(client, externalId, itemIndex) : undefined;
		if (!found) throw attempt.error;
		return await existingResult(found);
	}
	const { answer } = attempt;
	const orderId = readOrderId(answer);
	if (orderId === undefined) throw noOrderIdError(options.node, answer, itemIndex, externalId);
	const order = options.fetchFull ? await getOrder(client, orderId, itemIndex) : { OrderID: orderId };
	return { order, orderId, alreadyExisted: false };
}
