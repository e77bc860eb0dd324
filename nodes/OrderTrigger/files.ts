/**
 * Order Trigger › Include Files: each emitted order is read in full and carries the files
 * picked (as binary data, listed in its JSON under Files). A poll that cannot read a file
 * fails with its cursor put back where it was, so the same orders come again next poll;
 * an order without a picked file (no UBL for an offer) is emitted without it, listed in
 * MissingFiles, since failing would stop the trigger at that order for good.
 */
import type { IDataObject, INodeExecutionData, INodeProperties, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { checkTriggerFiles, DEFAULT_MAX_FILE_MB, filesField, itemWithFiles, maxFileSizeOption } from '../shared/files';
import { policyFromOptions } from '../shared/retry';
import { getApiClient } from '../shared/transport';
import { getOrder } from '../Order/actions/order/orderApi';

export const includeFilesField: INodeProperties = filesField({
	displayName: 'Include Files',
	name: 'includeFiles',
	default: [],
	description:
		'Files each emitted order carries as binary data (pdf, ubl, attachment_1 …, message_1 …); each order is then read in full, one more request per order and one per file',
});

export const triggerMaxFileSizeOption: INodeProperties = { ...maxFileSizeOption, description: 'The largest file read with Include Files; a larger one fails the poll' };

function snapshot(data: IDataObject): string {
	return JSON.stringify(data);
}

/** Puts the node's static data back as it was before the poll (the cursor did not move). */
function restore(data: IDataObject, saved: string): void {
	for (const key of Object.keys(data)) delete data[key];
	Object.assign(data, JSON.parse(saved) as IDataObject);
}

/** Runs the poll, then adds the picked files to every order it emits. */
export async function pollWithFiles(
	this: IPollFunctions,
	poll: () => Promise<INodeExecutionData[][] | null>,
): Promise<INodeExecutionData[][] | null> {
	const settings = checkTriggerFiles(this.getNode(), this.getNodeParameter('includeFiles', []), this.getNodeParameter('options.maxFileSizeMb', DEFAULT_MAX_FILE_MB));
	if (!settings) return await poll();
	const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;
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
			const order = await getOrder(client, item.json.OrderID as number | string, 0);
			items.push(await itemWithFiles(this, client, item, order, settings.kinds, { maxBytes: settings.maxBytes }));
		}
		return [items, ...result.slice(1)];
	} catch (error) {
		restore(staticData, saved);
		// Both constructors hand an error of their own kind back unchanged.
		if (error instanceof NodeApiError) throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
		throw new NodeOperationError(this.getNode(), error as Error);
	}
}
