/** File › Get: one FileID (from an order's OrderPDF, Attachments or Messages) in, one binary item out. */
import { type IExecuteFunctions, type INodeExecutionData, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { checkFileId, describeFile, readFile, readMaxFileSize, toBinary } from '../../../shared/node/files';
import { requireValid } from '../../../shared/node/input';
import { runItems } from '../../../shared/node/items';
import type { ClientProvider } from '../../../shared/node/router';
import { checkPropertyName } from '../../../shared/domain/validation';
import { readActForParty } from '../../../shared/fields/fields';

const properties: INodeProperties[] = [
	{
		displayName: 'File ID',
		name: 'fileId',
		type: 'string',
		required: true,
		default: '={{ $json.FileID }}',
		placeholder: 'e.g. 3f2b8c1e-7d4a-4b2e-9c1f-0a6d5e4b3c2a',
		description: "By default the input item's FileID (an order's OrderPDF, Attachments and Messages name theirs)",
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The output binary field',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['file'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const read = (itemIndex: number) => {
		const fileId = requireValid(this, itemIndex, 'File ID', this.getNodeParameter('fileId', itemIndex, ''), checkFileId);
		const property = requireValid(
			this,
			itemIndex,
			'Put Output File in Field',
			this.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
			checkPropertyName,
		);
		return { fileId, property, maxBytes: readMaxFileSize(this, itemIndex) };
	};
	return await runItems(this, read, async ({ fileId, property, maxBytes }, itemIndex) => {
		const client = await clients(itemIndex, readActForParty(this, itemIndex));
		const file = await readFile(this, client, fileId, { itemIndex, maxBytes });
		const binary = await toBinary(this, file);
		return { json: describeFile({ property }, file, binary), binary: { [property]: binary } };
	});
}
