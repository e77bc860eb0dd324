/**
 * Order › Send: the order IDs of all input items, sent in as few send commands as the API
 * allows (one per party, transport type and strictness, up to Batch Size each); one
 * output item per order, paired with the item that named it.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ClientProvider } from '../../../shared/router';
import { asNodeError, errorItem, toItems } from '../../../shared/items';
import { readPartyOption } from '../options';
import type { SendReport, SendRequest } from './sendRun';
import { readSendChoice, readSendSettings, sendAll, sendFields, sendOutput } from './sendRun';
import { parseOrderIdList } from './sendLogic';

export const description: INodeProperties[] = [
	{
		displayName: 'Order IDs',
		name: 'orderIds',
		type: 'string',
		required: true,
		default: '={{ $json.OrderID }}',
		placeholder: 'e.g. 123456 or 123456, 123457',
		description:
			'OrderID of the order to send, or several separated by commas (an array works too). The orders of all input items are sent together.',
		displayOptions: { show: { resource: ['order'], operation: ['send'] } },
	},
	...sendFields(['send', 'createAndSend']),
];

/** The Order IDs parameter of one item, or a NodeOperationError naming it. */
export function readOrderIds(ctx: IExecuteFunctions, itemIndex: number): number[] {
	const raw = ctx.getNodeParameter('orderIds', itemIndex, '') as unknown;
	const parsed = parseOrderIdList(raw);
	if ('ids' in parsed) return parsed.ids;
	const shown = parsed.value === undefined ? '' : ` ${String(parsed.value).slice(0, 60)}`;
	throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1}: "Order IDs"${shown} ${parsed.problem}`, {
		itemIndex,
		description: 'An OrderID is a positive whole number, e.g. 123456; map it with {{ $json.OrderID }} or list several as 123456, 123457.',
	});
}

/** Output items for the reports of one item: outcomes, or errors (thrown unless continueOnFail). */
export function reportItems(
	ctx: IExecuteFunctions,
	reports: SendReport[],
	itemIndex: number,
	toJson: (report: SendReport) => ReturnType<typeof sendOutput>,
): INodeExecutionData[] {
	const out: INodeExecutionData[] = [];
	for (const report of reports) {
		if (report.outcome.status === 'failed') {
			const error = asNodeError(ctx, report.outcome.error, itemIndex) as NodeApiError | NodeOperationError;
			if (!ctx.continueOnFail()) {
				error.context.itemIndex = itemIndex;
				throw error;
			}
			out.push(errorItem(ctx, error, itemIndex));
			continue;
		}
		out.push(...toItems(toJson(report), itemIndex));
	}
	return out;
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const settings = readSendSettings(this);
	const perItem: Array<{ requests: SendRequest[] } | { error: Error }> = [];
	// Every item is read and checked before any request.
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const orderIds = readOrderIds(this, itemIndex);
			const choice = readSendChoice(this, itemIndex);
			const partyId = readPartyOption(this, itemIndex);
			perItem.push({ requests: orderIds.map((orderId) => ({ itemIndex, orderId, partyId, ...choice })) });
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			perItem.push({ error: nodeError });
		}
	}

	const requests = perItem.flatMap((entry) => ('requests' in entry ? entry.requests : []));
	const reports = await sendAll(this, clients, requests, settings);

	const output: INodeExecutionData[] = [];
	let next = 0;
	perItem.forEach((entry, itemIndex) => {
		if ('error' in entry) {
			output.push(errorItem(this, entry.error, itemIndex));
			return;
		}
		const mine = reports.slice(next, next + entry.requests.length);
		next += entry.requests.length;
		output.push(...reportItems(this, mine, itemIndex, (report) => sendOutput(report, settings)));
	});
	return output;
}
