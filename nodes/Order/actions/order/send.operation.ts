/** Order › Send: the order IDs of all input items in as few send commands as the API allows; one output item per order, paired with its item. */
import { type IExecuteFunctions, type INodeExecutionData, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { inputError } from '../../../shared/node/input';
import { runBatched } from '../../../shared/node/items';
import type { ClientProvider } from '../../../shared/node/router';
import { type SendRequest, readSendChoice, readSendSettings, sendAll, sendFields, sendOutputs } from './sendRequests';
import { parseOrderIdList } from './sendRules';
import { readActForParty } from '../../../shared/fields/fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Order IDs',
		name: 'orderIds',
		type: 'string',
		required: true,
		default: '={{ $json.OrderID }}',
		placeholder: 'e.g. 123456 or 123456, 123457',
		description: 'One OrderID, or several separated by commas',
	},
	...sendFields(),
];

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['send'] } }, properties);

/** The Order IDs parameter of one item, or a NodeOperationError naming it. */
function readOrderIds(ctx: IExecuteFunctions, itemIndex: number): number[] {
	const raw = ctx.getNodeParameter('orderIds', itemIndex, '') as unknown;
	const parsed = parseOrderIdList(raw);
	if ('ids' in parsed) return parsed.ids;
	throw inputError(ctx, itemIndex, 'Order IDs', parsed.value, parsed.problem, 'Enter OrderIDs such as 123456, 123457.');
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[][]> {
	const settings = readSendSettings(this);
	return await runBatched(this, {
		// Every item is read and checked before any request.
		read: (itemIndex): SendRequest[] => {
			const orderIds = readOrderIds(this, itemIndex);
			const choice = readSendChoice(this, itemIndex);
			const partyId = readActForParty(this, itemIndex);
			return orderIds.map((orderId) => ({ itemIndex, orderId, partyId, ...choice }));
		},
		run: async (read) => {
			const reports = await sendAll(
				this,
				clients,
				read.flatMap((entry) => entry.value),
				settings,
			);
			let next = 0;
			return read.map((entry) => reports.slice(next, (next += entry.value.length)));
		},
		emit: (reports) => sendOutputs(reports, settings),
	});
}
