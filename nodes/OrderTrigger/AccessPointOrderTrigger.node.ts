import type { INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, shownFor } from '../shared/fields/credentialFields';
import { actForPartyOption, retryOptions } from '../shared/fields/fields';
import { filterCombineField, filterConditionsField, filterModeField, rawFilterField } from '../shared/query/filterFields';
import { ORDER_TYPE_OPTIONS_BY_NAME } from '../shared/domain/orderTypes';
import { filesField, maxFileSizeOption } from '../shared/node/files';
import { pollOrders } from './poll';

const builderMode = { show: { filterMode: ['builder'] } };

/**
 * Include Files: each order read in full with the picked files (poll.ts); an unreadable file is named in FileErrors so it never
 * holds back later orders, or (On File Error › Fail the poll) the poll fails with its cursor put back.
 */
const includeFilesField: INodeProperties = filesField({
	displayName: 'Include Files',
	name: 'includeFiles',
	default: [],
	description: 'Files each emitted order carries as binary data (one request each)',
});

const triggerFileOptions: INodeProperties[] = [
	{
		...maxFileSizeOption,
		description: 'The largest file read; a larger one is handled as On File Error says',
	},
	{
		displayName: 'On File Error',
		name: 'onFileError',
		type: 'options',
		options: [
			{
				name: 'Emit the Order, Name the File in FileErrors',
				value: 'emit',
				description: 'The order comes once with the files that could be read',
			},
			{
				name: 'Fail the Poll',
				value: 'fail',
				description: 'Nothing is emitted; the next poll tries the same orders again',
			},
		],
		default: 'emit',
		description: 'What Include Files does with a file it cannot read',
	},
];

export class AccessPointOrderTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Invoices and Orders Trigger',
		name: 'accessPointOrderTrigger',
		icon: { light: 'file:../../icons/accessPointOrderTrigger.svg', dark: 'file:../../icons/accessPointOrderTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ ({ newOrUpdatedOrder: "New or updated orders", newIncomingInvoice: "New supplier invoices" })[$parameter["event"]] ?? "New orders" }}',
		// n8n's node panel lists this trigger inside the AccessPoint Invoices and Orders entry and shows this text for both.
		description: 'Create, send and read invoices and orders, and start a workflow on new or changed ones or on received supplier invoices',
		documentationUrl: 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#order-trigger',
		defaults: { name: 'AccessPoint Order Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'accessPointApi', required: true, displayOptions: shownFor('apiKey') },
			{ name: 'accessPointOAuth2Api', required: true, displayOptions: shownFor('oAuth2') },
		],
		properties: [
			authenticationProperty,
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				default: 'newOrder',
				options: [
					{
						name: 'New Order',
						value: 'newOrder',
						description: 'An order created since the last poll',
					},
					{
						name: 'New or Updated Order',
						value: 'newOrUpdatedOrder',
						description: 'Every new order and every change to an order',
					},
					{
						name: 'New Incoming Supplier Invoice',
						value: 'newIncomingInvoice',
						description: 'A received supplier invoice or credit note not yet marked with Order › Mark as Exported',
					},
				],
			},
			{
				displayName: 'Order Type',
				name: 'orderType',
				type: 'options',
				default: '',
				options: [{ name: 'Any', value: '' }, ...ORDER_TYPE_OPTIONS_BY_NAME],
				description: 'Only orders of this type (OrderType)',
			},
			{
				displayName: 'Direction',
				name: 'direction',
				type: 'options',
				default: '',
				options: [
					{ name: 'Any', value: '' },
					{ name: 'Income (Sales)', value: 'Income' },
					{ name: 'Cost (Purchases)', value: 'Cost' },
				],
				description: 'Only sales or only purchase orders (OrderDirection)',
				displayOptions: { hide: { event: ['newIncomingInvoice'] } },
			},
			filterModeField(undefined, {
				description: 'How extra conditions are given; type, direction and change time apply in both modes',
			}),
			filterConditionsField('order', builderMode),
			filterCombineField(builderMode),
			includeFilesField,
			rawFilterField(undefined, { required: false }),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					actForPartyOption,
					{
						displayName: 'Late Change Window (Seconds)',
						name: 'lateWindowSeconds',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 0,
						description: 'Re-read this many seconds back on every poll, for changes the API shows late',
					},
					...triggerFileOptions,
					...retryOptions,
					{
						displayName: 'Start From',
						name: 'startFrom',
						type: 'dateTime',
						default: '',
						description: 'On the first poll, emit orders changed since this date (Belgian time unless a zone is given); changing it starts over',
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollOrders.call(this);
	}
}
