/**
 * Order Trigger › Include Files: each emitted order is read in full and carries the picked files.
 * A file that cannot be read is named in FileErrors and the order is emitted once with the rest,
 * so one bad file never holds back the orders after it. With On File Error › Fail the poll, the
 * poll fails with its cursor put back, and the same orders come again next poll.
 */
import type { IDataObject, INodeExecutionData, INodeProperties, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { OnFileError } from '../shared/http/files';
import { checkTriggerFiles, DEFAULT_MAX_FILE_MB, filesField, itemWithFiles, maxFileSizeOption } from '../shared/http/files';
import { requireValid } from '../shared/node/input';
import { checkChoice } from '../shared/domain/validation';
import { policyFromOptions } from '../shared/http/retry';
import { getApiClient } from '../shared/http/transport';
import { getOrder } from '../shared/domain/order';

export const includeFilesField: INodeProperties = filesField({
	displayName: 'Include Files',
	name: 'includeFiles',
	default: [],
	description:
		'Files each emitted order carries as binary data (pdf, ubl, attachment_1 …, message_1 …); each order is then read in full, one more request per order and one per file',
});

export const triggerFileOptions: INodeProperties[] = [
	{
		...maxFileSizeOption,
		description: "The largest file read with Include Files; a larger one is named in the order's FileErrors (or fails the poll, see On File Error)",
	},
	{
		displayName: 'On File Error',
		name: 'onFileError',
		type: 'options',
		options: [
			{
				name: 'Emit the Order, Name the File in FileErrors',
				value: 'emit',
				description: 'The order comes once with the files that could be read; the trigger goes on',
			},
			{
				name: 'Fail the Poll',
				value: 'fail',
				description: 'Nothing is emitted; the next poll tries the same orders again (one file that never reads stops the trigger)',
			},
		],
		default: 'emit',
		description: 'What Include Files does with a file it cannot read (over Maximum File Size, removed at the service, broken)',
	},
];

/** Runs the poll, then adds the picked files to every order it emits. */
export async function pollWithFiles(this: IPollFunctions, poll: () => Promise<INodeExecutionData[][] | null>): Promise<INodeExecutionData[][] | null> {
	const settings = checkTriggerFiles(
		this.getNode(),
		this.getNodeParameter('includeFiles', []),
		this.getNodeParameter('options.maxFileSizeMb', DEFAULT_MAX_FILE_MB),
	);
	if (!settings) return await poll();
	const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const onError = requireValid(this, undefined, 'On File Error', options.onFileError ?? 'emit', (v) => checkChoice(v, ['emit', 'fail'])) as OnFileError;
	const staticData = this.getWorkflowStaticData('node');
	const saved = JSON.stringify(staticData);
	const result = await poll();
	if (!result?.[0]?.length) return result;
	try {
		const client = await getApiClient.call(this, {
			partyId: String(options.actForParty ?? '').trim() || undefined,
			retry: policyFromOptions(options),
		});
		const items: INodeExecutionData[] = [];
		for (const item of result[0]) {
			const read = getOrder(client, item.json.OrderID as number | string, 0);
			const order = onError === 'fail' ? await read : await read.catch((error: unknown) => error as Error);
			if (order instanceof Error) {
				// Deleted since it was listed, say: the order as listed, its files named as unread.
				items.push({ ...item, json: { ...item.json, Files: [], FileErrors: [{ file: 'order', reason: order.message }] } });
				continue;
			}
			items.push(await itemWithFiles(this, client, item, order, settings.kinds, { maxBytes: settings.maxBytes, onError }));
		}
		return [items, ...result.slice(1)];
	} catch (error) {
		// The node's static data as before the poll: the cursor does not move.
		for (const key of Object.keys(staticData)) delete staticData[key];
		Object.assign(staticData, JSON.parse(saved) as IDataObject);
		// Both constructors hand an error of their own kind back unchanged.
		if (error instanceof NodeApiError) throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
		throw new NodeOperationError(this.getNode(), error as Error);
	}
}
