/**
 * Order › Send UBL Document (the service's page "Send UBL to Peppol"): a ready UBL Invoice or CreditNote sent as
 * it is, over Peppol only; checked here first (shared/domain/ubl.ts), validated by the service, no order made.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { inputError, requireValid } from '../../../shared/node/input';
import { runItems } from '../../../shared/node/items';
import type { ClientProvider } from '../../../shared/node/router';
import { checkSendableUbl } from '../../../shared/domain/ubl';
import { type Check, checkNumber, checkPropertyName } from '../../../shared/domain/validation';
import { hasStatus } from '../../../shared/node/order';
import { fingerprint, idempotencyKey } from './sendRules';
import { readActForParty } from '../../../shared/fields/fields';

const MB = 1024 * 1024;
const SEND_XML_PATH = '/v1/peppol/sendxml';

const properties: INodeProperties[] = [
	{
		displayName: 'Sent as it is, over Peppol only; a re-run of the same document carries the same idempotency key.',
		name: 'sendUblNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'Holds the UBL Invoice or CreditNote',
	},
	{
		displayName: 'UBL Options',
		name: 'ublOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Maximum Document Size (MB)',
				name: 'maxSizeMb',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 50 },
				default: 10,
			},
			{
				displayName: 'Send Path',
				name: 'sendPath',
				type: 'string',
				default: SEND_XML_PATH,
				description: 'Leave it as is (the published path); change it only when your access point support gives you another',
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['sendUbl'] } }, properties);

function checkSendPath(value: unknown): Check {
	const path = typeof value === 'string' ? value.trim() : '';
	if (/^\/v1\/[A-Za-z0-9_/-]+$/.test(path) && !path.includes('//')) return { ok: true, value: path };
	return {
		ok: false,
		problem: 'is not an API path such as /v1/peppol/sendxml',
		hint: 'Use letters, digits, / - and _ after /v1/.',
	};
}

/** What the service answered: the new InboxItemID (a number, or in an object), else the answer as given. */
function readAnswer(body: unknown): IDataObject {
	const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as IDataObject).InboxItemID : body;
	if (typeof id === 'number' || (typeof id === 'string' && /^\d{1,15}$/.test(id.trim()))) return { InboxItemID: Number(id) };
	return body === undefined || body === '' ? {} : { Answer: body as IDataObject };
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const input = this.getInputData();
	const field = 'Input Binary Field';
	// Every item's document is read and checked before the first is sent; each is read again to send it (one in memory at a time).
	const readUbl = async (itemIndex: number) => {
		const property = requireValid(this, itemIndex, field, this.getNodeParameter('binaryPropertyName', itemIndex, 'data'), checkPropertyName);
		const options = (this.getNodeParameter('ublOptions', itemIndex, {}) ?? {}) as IDataObject;
		const maxBytes = requireValid(this, itemIndex, 'Maximum Document Size (MB)', options.maxSizeMb ?? 10, (v) => checkNumber(v, { min: 1, max: 50 })) * MB;
		const path = requireValid(this, itemIndex, 'Send Path', options.sendPath ?? SEND_XML_PATH, checkSendPath);
		const binary = input[itemIndex]?.binary?.[property];
		const hint = 'Name the binary field holding the UBL file.';
		if (!binary) throw inputError(this, itemIndex, field, property, 'is not a binary field of this item', hint);
		const tooLarge = (size: number) => {
			const hint = 'Raise UBL Options › Maximum Document Size.';
			if (size > maxBytes) throw inputError(this, itemIndex, field, property, `holds ${(size / MB).toFixed(1)} MB, above Maximum Document Size`, hint);
		};
		if (typeof binary.bytes === 'number') tooLarge(binary.bytes);
		const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, property);
		tooLarge(bytes.length);
		const checked = checkSendableUbl(bytes, maxBytes);
		if (!checked.ok) throw inputError(this, itemIndex, field, property, `holds a file that ${checked.problem}`, checked.hint);
		return { ubl: checked.ubl, path, party: readActForParty(this, itemIndex) };
	};
	const check = async (itemIndex: number) => void (await readUbl(itemIndex));
	return await runItems(this, check, async (_, itemIndex) => {
		const { ubl, path, party } = await readUbl(itemIndex);
		const client = await clients(itemIndex, party);
		const sent = { DocumentKind: ubl.kind, DocumentNumber: ubl.number ?? null };
		// The same document run again is not sent again: its key is the same (a changed document is another key).
		const headers = { 'Idempotency-Key': idempotencyKey('ubl', `${ubl.kind}-${ubl.number ?? ''}-${fingerprint(ubl.xml)}`) };
		try {
			const body = { XML: ubl.xml };
			const answer = await client.request({ method: 'POST', path, body, headers, acceptText: true, itemIndex, operation: 'Send UBL document' });
			return { Sent: true, ...sent, ...readAnswer(answer) };
		} catch (error) {
			if (hasStatus(error, '409')) return { Sent: false, AlreadySent: true, ...sent };
			// A NodeApiError from the client comes back unchanged.
			throw new NodeApiError(this.getNode(), error as JsonObject);
		}
	});
}
