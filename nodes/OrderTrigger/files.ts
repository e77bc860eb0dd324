/**
 * Order Trigger › Include Files: each emitted order is read in full and carries the files
 * picked (as binary data, listed in its JSON under Files). A file that cannot be read (over
 * Maximum File Size, gone, broken) is named in the order's FileErrors and the order is
 * emitted once with the rest, so one bad file never holds back the orders after it; an order
 * without a picked file (no UBL for an offer) is emitted without it, listed in MissingFiles.
 * With On File Error › Fail the poll instead, a poll that cannot read a file fails with its
 * cursor put back where it was, and the same orders come again next poll.
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

function snapshot(data: IDataObject): string {
	return JSON.stringify(data);
}

/** Puts the node's static data back as it was before the poll (the cursor did not move). */
function restore(data: IDataObject, saved: string): void {
	for (const key of Object.keys(data)) delete data[key];
	Object.assign(data, JSON.parse(saved) as IDataObject);
}

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
	const saved = snapshot(staticData);
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
		restore(staticData, saved);
		// Both constructors hand an error of their own kind back unchanged.
		if (error instanceof NodeApiError) throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
		throw new NodeOperationError(this.getNode(), error as Error);
	}
}
