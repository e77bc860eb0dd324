/** Order › Download Files: the order's picked files as binary data; an order without one fails its item unless Allow Missing Files. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { type FileKind, checkFileKinds, describeMissing, filesField, pickFiles, readMaxFileSize, readOrderFiles } from '../../../shared/node/files';
import { runItems } from '../../../shared/node/items';
import { orderIdField, readOrderId } from './orderId';
import type { ClientProvider } from '../../../shared/node/router';
import { getOrder } from '../../../shared/node/order';
import { inputError, readBoolean } from '../../../shared/node/input';
import { itemMessage } from '../../../shared/domain/validation';
import { readActForParty } from '../../../shared/fields/fields';

const properties: INodeProperties[] = [orderIdField(), filesField({ hint: 'Binary properties: pdf, ubl, attachment_1 …, message_1 …' })];

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['downloadFiles'] } }, properties);

interface Settings {
	kinds: FileKind[];
	maxBytes: number;
	oneItemPerFile: boolean;
	allowMissing: boolean;
}

function readSettings(ctx: IExecuteFunctions, itemIndex: number): Settings {
	const kinds = checkFileKinds(ctx.getNodeParameter('files', itemIndex, ['pdf', 'ubl']));
	const hint = 'Pick one or more files.';
	if ('problem' in kinds) throw inputError(ctx, itemIndex, 'Files', undefined, kinds.problem, hint);
	if (!kinds.kinds.length) throw inputError(ctx, itemIndex, 'Files', undefined, 'is empty', hint);
	return {
		kinds: kinds.kinds,
		maxBytes: readMaxFileSize(ctx, itemIndex),
		oneItemPerFile: readBoolean(ctx, itemIndex, 'options.oneItemPerFile', 'One Item per File', false),
		allowMissing: readBoolean(ctx, itemIndex, 'options.allowMissingFiles', 'Allow Missing Files', false),
	};
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const read = (itemIndex: number) => ({ orderId: readOrderId(this, itemIndex), settings: readSettings(this, itemIndex) });
	return await runItems(this, read, async ({ orderId, settings }, itemIndex) => {
		const client = await clients(itemIndex, readActForParty(this, itemIndex));
		const order = await getOrder(client, orderId, itemIndex);
		const head: IDataObject = { OrderID: order.OrderID ?? orderId, OrderNumber: order.OrderNumber };

		const picked = pickFiles(order, settings.kinds);
		if (picked.problem) {
			throw new NodeOperationError(this.getNode(), itemMessage(itemIndex, `order ${orderId} ${picked.problem}`), {
				itemIndex,
				description: 'Check the order in the web app.',
			});
		}
		if (picked.missing.length && !settings.allowMissing) {
			throw new NodeOperationError(
				this.getNode(),
				itemMessage(itemIndex, `order ${orderId}${order.OrderNumber ? ` (${String(order.OrderNumber)})` : ''} has no ${describeMissing(picked.missing)} file`),
				{
					itemIndex,
					description: 'Turn on Options › Allow Missing Files.',
				},
			);
		}

		const files = await readOrderFiles(this, client, picked.refs, { itemIndex, maxBytes: settings.maxBytes });
		const missing = picked.missing.length ? { MissingFiles: picked.missing } : {};
		if (settings.oneItemPerFile) {
			// Each file on its own item, in "data" as n8n's file nodes expect; an order without files still says so.
			if (!files.length) return { json: { ...head, Files: [], ...missing } };
			return files.map((file): INodeExecutionData => ({ json: { ...head, ...file.json, Property: 'data', ...missing }, binary: { data: file.binary } }));
		}
		const binary = Object.fromEntries(files.map((file) => [file.ref.property, file.binary]));
		const item: INodeExecutionData = { json: { ...head, Files: files.map((file) => file.json), ...missing } };
		if (files.length) item.binary = binary;
		return item;
	});
}
