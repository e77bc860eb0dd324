/** The Order node's Options collection: shared options plus per-operation ones. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { actForPartyOption, retryOptions } from '../../shared/fields/fields';
import { maxFileSizeOption } from '../../shared/node/files';
import { readChoice } from '../../shared/node/input';
import { type IdempotencyHeader, IDEMPOTENCY_HEADERS } from './order/sendRules';

/** Shown for these operations of the Order resource. */
const forOrder = (...operations: string[]) => ({ show: { '/resource': ['order'], '/operation': operations } });
const downloading = forOrder('downloadFiles');
const sending = forOrder('send', 'createAndSend');

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
			description: 'Whether an order without a picked file passes on (in MissingFiles)',
			displayOptions: downloading,
		},
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 100,
			description: 'Most orders per send request',
			displayOptions: sending,
		},
		{
			displayName: 'Check Delivery',
			name: 'checkDelivery',
			type: 'boolean',
			default: true,
			description: 'Whether to read each order after sending to report its delivery',
			displayOptions: sending,
		},
		{
			displayName: 'Fetch Full Order',
			name: 'fetchFullOrder',
			type: 'boolean',
			default: false,
			description: 'Whether to output the whole order (one more request each)',
			displayOptions: forOrder('create', 'send', 'createAndSend', 'createCreditNote'),
		},
		{
			displayName: 'Idempotency Header',
			name: 'idempotencyHeader',
			type: 'options',
			options: [
				{ name: 'Idempotency-Key', value: 'Idempotency-Key' },
				{ name: 'Idempotent-Key', value: 'Idempotent-Key', description: 'The spelling some deployments document' },
				{ name: 'None', value: 'none' },
			],
			default: 'Idempotency-Key',
			description: 'Makes a repeated create, send or payment harmless',
			displayOptions: forOrder('create', 'send', 'createAndSend', 'createCreditNote', 'recordPayment'),
		},
		// Twice, as the operations that use it are Order's Download Files, Create, Create and Send and File's Get.
		{ ...maxFileSizeOption, displayOptions: forOrder('downloadFiles', 'create', 'createAndSend') },
		{ ...maxFileSizeOption, displayOptions: { show: { '/resource': ['file'], '/operation': ['get'] } } },
		{
			displayName: 'One Item per File',
			name: 'oneItemPerFile',
			type: 'boolean',
			default: false,
			description: 'Whether each file becomes its own item (binary property "data")',
			displayOptions: downloading,
		},
		...retryOptions,
		{
			displayName: 'Skip',
			name: 'skip',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Number of matching records to skip',
			displayOptions: { show: { '/operation': ['getAll'] } },
		},
	],
};

/** Options › Idempotency Header of one item. */
export function readIdempotencyHeader(ctx: IExecuteFunctions, itemIndex: number): IdempotencyHeader {
	return readChoice(ctx, itemIndex, 'options.idempotencyHeader', 'Idempotency Header', IDEMPOTENCY_HEADERS, 'Idempotency-Key');
}
