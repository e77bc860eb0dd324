/** Peppol Inbox › Get Document: the item's file as binary data (envelope removed unless kept), its fields in JSON. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkFileId, readMaxFileSize } from '../../shared/node/files';
import { readBoolean, requireValid } from '../../shared/node/input';
import { runItems } from '../../shared/node/items';
import type { ClientProvider } from '../../shared/node/router';
import { checkPropertyName } from '../../shared/domain/validation';
import { itemFields, readInboxDocument, withDocumentFields } from '../../shared/node/inbox';
import { readActForParty } from '../../shared/fields/fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Peppol File ID',
		name: 'peppolFileId',
		type: 'string',
		required: true,
		default: '={{ $json.PeppolFileID }}',
		placeholder: 'e.g. 8758f630-1fbe-478c-b872-77f5652e2999',
		description: "By default the input item's PeppolFileID (List and the Peppol Inbox Trigger give it)",
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the document in',
	},
	{
		displayName: "For fields beyond the document's kind and an IMR/MLR response, use n8n's XML node.",
		name: 'documentNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions({ show: { operation: ['getDocument'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const input = this.getInputData();
	const read = (itemIndex: number) => {
		const fileId = requireValid(this, itemIndex, 'Peppol File ID', this.getNodeParameter('peppolFileId', itemIndex, ''), checkFileId);
		const property = requireValid(
			this,
			itemIndex,
			'Put Output File in Field',
			this.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
			checkPropertyName,
		);
		const keepEnvelope = readBoolean(this, itemIndex, 'options.keepEnvelope', 'Keep Peppol Envelope', false);
		return { fileId, property, keepEnvelope, maxBytes: readMaxFileSize(this, itemIndex) };
	};
	return await runItems(this, read, async ({ fileId, property, keepEnvelope, maxBytes }, itemIndex) => {
		const client = await clients(itemIndex, readActForParty(this, itemIndex));
		const fields = itemFields(input[itemIndex]?.json ?? {});
		const document = await readInboxDocument(this, client, fileId, { itemIndex, maxBytes, keepEnvelope, property, hint: fields.PeppolDocumentType });
		return { ...document, json: withDocumentFields(fields, document.json) };
	});
}
