import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { asNodeError, runPerItem } from '../../../shared/node/items';
import type { ClientProvider } from '../../../shared/node/router';
import { type CreateOrderResult, createOrder } from './orderApi';
import { orderFields } from './orderFields';
import { type CreateSettings, createHeaders, readCreateSettings, readOrderInput } from './orderInput';
import { type OwnFiles, checkOwnFiles, ownFileFields, withOwnFiles } from './ownFiles';

export const description: INodeProperties[] = [...orderFields('create'), ...ownFileFields('create')];

/** The output item of a create: the order plus AlreadyExisted. */
export function createOutput(result: CreateOrderResult): IDataObject {
	return { ...result.order, ...(result.orderId !== undefined ? { OrderID: result.orderId } : {}), AlreadyExisted: result.alreadyExisted };
}

interface Checked {
	body: IDataObject;
	settings: CreateSettings;
	files?: OwnFiles;
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	// Every item's fields and files are checked before the first request: a bad file on item 3 sends nothing.
	const checked: Array<Checked | { error: Error }> = [];
	for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
		try {
			const body = readOrderInput(this, itemIndex);
			checked.push({ body, settings: readCreateSettings(this, itemIndex), files: await checkOwnFiles(this, itemIndex, body) });
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			checked.push({ error: nodeError });
		}
	}
	return await runPerItem(this, async (itemIndex) => {
		const entry = checked[itemIndex];
		if ('error' in entry) throw entry.error;
		const { body, settings } = entry;
		const client = await clients(itemIndex, settings.partyId);
		const result = await createOrder(client, await withOwnFiles(this, itemIndex, body, entry.files), {
			node: this.getNode(),
			itemIndex,
			skipIfExists: settings.skipIfExists,
			fetchFull: settings.fetchFull,
			singleOrderPath: settings.singleOrderPath,
			headers: createHeaders(body, settings.skipIfExists, settings.idempotencyHeader),
		});
		return createOutput(result);
	});
}
