/** The Order node's Options collection: shared options plus per-operation ones. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { actForPartyOption, checkActForParty, retryOptions } from '../../shared/fields/fields';
import { maxFileSizeOption } from '../../shared/http/files';

const getAllOnly = { show: { '/operation': ['getAll'] } };
const downloading = { show: { '/resource': ['order'], '/operation': ['downloadFiles'] } };
const sending = { show: { '/resource': ['order'], '/operation': ['send', 'createAndSend'] } };

export const optionsCollection: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		actForPartyOption,
		{
			displayName: 'Allow Missing Files',
			name: 'allowMissingFiles',
			type: 'boolean',
			default: false,
			description:
				'Whether an order without a picked file (e.g. no UBL for an offer) passes on without it, listed in MissingFiles; otherwise its item fails naming what is missing',
			displayOptions: downloading,
		},
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 100,
			description: 'Most orders per send request. Orders of all input items with the same transport type, strictness and party go out together.',
			displayOptions: sending,
		},
		{
			displayName: 'Check Delivery',
			name: 'checkDelivery',
			type: 'boolean',
			default: true,
			description:
				'Whether to read each order after sending (one request per order) to report how it went out (deliveredVia) and whether the service fell back to another method (fallback)',
			displayOptions: sending,
		},
		{
			displayName: 'Fetch Full Order',
			name: 'fetchFullOrder',
			type: 'boolean',
			default: false,
			description:
				'Whether to read and output the whole order after creating or sending it (one more request per order); otherwise the output is the OrderID and the outcome',
			displayOptions: { show: { '/resource': ['order'], '/operation': ['create', 'send', 'createAndSend', 'createCreditNote'] } },
		},
		{
			displayName: 'Idempotency Header',
			name: 'idempotencyHeader',
			type: 'options',
			options: [
				{ name: 'Idempotency-Key', value: 'Idempotency-Key' },
				{ name: 'Idempotent-Key', value: 'Idempotent-Key', description: 'The spelling some deployments document' },
				{ name: 'None', value: 'none', description: 'Send no idempotency key' },
			],
			default: 'Idempotency-Key',
			description:
				'Header that makes a repeated create or send harmless: a create with an External Provider ID (and Skip If Already Created on) sends "create-" plus that ID, a send sends "send-" plus the transport type and order IDs, a payment with a Reference "payment-" plus order, amount, date and reference. A reused key answers 409 Conflict, read as "already done".',
			displayOptions: { show: { '/resource': ['order'], '/operation': ['create', 'send', 'createAndSend', 'createCreditNote', 'recordPayment'] } },
		},
		// Twice, as the operations that use it are Order's Download Files, Create, Create and Send and File's Get.
		{ ...maxFileSizeOption, displayOptions: { show: { '/resource': ['order'], '/operation': ['downloadFiles', 'create', 'createAndSend'] } } },
		{ ...maxFileSizeOption, displayOptions: { show: { '/resource': ['file'], '/operation': ['get'] } } },
		{
			displayName: 'One Item per File',
			name: 'oneItemPerFile',
			type: 'boolean',
			default: false,
			description: 'Whether each file becomes its own item (in binary property "data"), instead of one item per order with a property per file',
			displayOptions: downloading,
		},
		...retryOptions,
		{
			displayName: 'Single Order Path',
			name: 'singleOrderPath',
			type: 'options',
			options: [
				{ name: 'Automatic', value: 'auto', description: 'GET /v1/order/{ID} as the API reference names it; on 404 GET /v1/orders/{ID}' },
				{ name: '/v1/order/{ID}', value: 'order', description: "The API reference's form only" },
				{ name: '/v1/orders/{ID}', value: 'orders', description: "Production documentation's form only" },
			],
			default: 'auto',
			description: 'Which path reads one order',
			displayOptions: {
				show: {
					'/resource': ['order'],
					'/operation': ['get', 'create', 'send', 'createAndSend', 'createCreditNote', 'getDeliveryStatus', 'recordPayment', 'downloadFiles'],
				},
			},
		},
		{
			displayName: 'Skip',
			name: 'skip',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Number of matching records to skip before the first one returned (OData $skip)',
			displayOptions: getAllOnly,
		},
	],
};

/** Options › Act for Party, or undefined to use the credential's Party ID. */
export function readPartyOption(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	return checkActForParty(ctx, itemIndex, ctx.getNodeParameter('options.actForParty', itemIndex, '') as unknown);
}
