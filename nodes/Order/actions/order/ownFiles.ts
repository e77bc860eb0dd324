/**
 * Create / Create and Send: your own PDF (OrderPDF) and attachments from the item's binary properties,
 * all checked before any request of the run; the bytes are read again only when the order is sent,
 * so a run never holds every item's files.
 */
import { type IBinaryData, type IDataObject, type IExecuteFunctions, type INodeProperties, NodeOperationError } from 'n8n-workflow';

import { readMaxFileSize } from '../../../shared/http/files';
import { itemMessage } from '../../../shared/domain/validation';

/** Extensions the service takes as attachments (docs/api.md "Files and attachments"). */
const ATTACHMENT_EXTENSIONS = ['pdf', 'xls', 'xlsx', 'csv'];
const MB = 1024 * 1024;

export function ownFileFields(operation: string): INodeProperties[] {
	const show = { resource: ['order'], operation: [operation] };
	return [
		{
			displayName: 'Own PDF',
			name: 'ownPdf',
			type: 'string',
			default: '',
			placeholder: 'e.g. data',
			description:
				"Name of the input item's binary property holding your own PDF of the order, sent instead of the one the service makes. Leave empty to let the service make it.",
			displayOptions: { show },
		},
		{
			displayName: 'Attachments',
			name: 'attachmentProperties',
			type: 'string',
			default: '',
			placeholder: 'e.g. timesheet, terms',
			description: "Names of the input item's binary properties to attach, separated by commas. The service takes PDF, XLS, XLSX and CSV files.",
			displayOptions: { show },
		},
	];
}

type PlannedFile = { property: string; fileName: string };
/** What one item sends besides its order fields; checked, without the bytes. */
export type OwnFiles = { pdf?: PlannedFile; attachments: PlannedFile[] };

function propertyNames(value: unknown): string[] | undefined {
	if (value === undefined || value === null) return [];
	if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? (value as string[]).map((v) => v.trim()).filter(Boolean) : undefined;
	if (typeof value !== 'string') return undefined;
	return value
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean);
}

const extensionOf = (name: string) => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** Checks one item's Own PDF and Attachments (reading each file once, then letting it go); undefined when it sends none. */
export async function checkOwnFiles(ctx: IExecuteFunctions, itemIndex: number, body: IDataObject): Promise<OwnFiles | undefined> {
	const fail = (message: string, hint: string) => new NodeOperationError(ctx.getNode(), itemMessage(itemIndex, message), { itemIndex, description: hint });
	const pdfNames = propertyNames(ctx.getNodeParameter('ownPdf', itemIndex, ''));
	const attachmentNames = propertyNames(ctx.getNodeParameter('attachmentProperties', itemIndex, ''));
	if (!pdfNames) throw fail('"Own PDF" is not the name of a binary property', 'Enter the name of a binary property of the input item, e.g. data.');
	if (!attachmentNames)
		throw fail('"Attachments" is not a list of binary property names', 'Enter binary property names separated by commas, e.g. timesheet, terms.');
	const one = 'An order has one PDF: name one binary property; send the others as Attachments.';
	if (pdfNames.length > 1) throw fail(`"Own PDF" names ${pdfNames.length} properties (${pdfNames.join(', ')})`, one);
	if (!pdfNames.length && !attachmentNames.length) return undefined;
	if (pdfNames.length && body.OrderPDF !== undefined)
		throw fail('"Own PDF" is set and the order JSON has an OrderPDF too', 'Keep one of them: clear Own PDF, or remove OrderPDF from the JSON.');
	if (attachmentNames.length && body.Attachments !== undefined)
		throw fail('"Attachments" is set and the order JSON has Attachments too', 'Keep one of them: clear Attachments, or remove Attachments from the JSON.');
	const twice = attachmentNames.find((name, i) => attachmentNames.indexOf(name) !== i);
	if (twice) throw fail(`"Attachments" names binary property "${twice}" twice`, 'Name each file once.');

	const maxBytes = readMaxFileSize(ctx, itemIndex);
	const limit = `Maximum File Size (${(maxBytes / MB).toFixed(0)} MB)`;
	const binaries = ctx.getInputData()[itemIndex]?.binary ?? {};
	const available = Object.keys(binaries);

	/** The property's metadata, checked before its bytes are read. */
	const plan = (field: string, property: string, pdf: boolean): PlannedFile & { binary: IBinaryData; named: string; pdf: boolean } => {
		const binary = binaries[property];
		const named = `"${field}" (binary property "${property}")`;
		if (!binary) {
			const hint = available.length
				? `The item's binary properties: ${available.join(', ')}.`
				: 'The item has no binary data: read or download the file in an earlier node.';
			throw fail(`"${field}" names binary property "${property}", which the item does not have`, hint);
		}
		const fileName = (binary.fileName ?? '').trim() || (pdf ? `${property}.pdf` : binary.fileExtension ? `${property}.${binary.fileExtension}` : '');
		const shown = fileName.slice(0, 60);
		if (!fileName) throw fail(`${named} has no file name`, `Give the file a name with one of the extensions ${ATTACHMENT_EXTENSIONS.join(', ')}.`);
		if (fileName.length > 255 || /[\\/]/.test(fileName) || Array.from(fileName).some((c) => c.charCodeAt(0) < 0x20))
			throw fail(
				`${named} has the file name "${shown}", which the service refuses`,
				'A file name has at most 255 characters and no / \\ or control characters.',
			);
		if (!pdf && !ATTACHMENT_EXTENSIONS.includes(extensionOf(fileName))) {
			const hint = `Attachments must be ${ATTACHMENT_EXTENSIONS.map((e) => `.${e}`).join(', ')} files; convert it first (e.g. to PDF).`;
			throw fail(`${named} is the file "${shown}", a type the service does not take as an attachment`, hint);
		}
		// Its size from the metadata, else from the base64 it is held as in memory (not decoded for this).
		const size =
			typeof binary.bytes === 'number' ? binary.bytes : !binary.id && typeof binary.data === 'string' ? Buffer.byteLength(binary.data, 'base64') : undefined;
		if (size !== undefined && size > maxBytes)
			throw fail(`${named} is ${(size / MB).toFixed(1)} MB, above ${limit}`, 'Send a smaller file, or raise Options › Maximum File Size.');
		return { property, fileName, binary, named, pdf };
	};
	const planned = [...pdfNames.map((p) => plan('Own PDF', p, true)), ...attachmentNames.map((p) => plan('Attachments', p, false))];

	let total = 0;
	const hint = "Send fewer or smaller files, or raise Options › Maximum File Size (the service's own request limit is not published; base64 adds a third).";
	for (const { binary, property, named, pdf } of planned) {
		// Without a size in its metadata, a file in n8n's binary store is read only up to the limit.
		const stored = binary.id && typeof binary.bytes !== 'number';
		const content = stored ? await readUpTo(ctx, binary.id as string, maxBytes - total) : await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
		if (!content) throw fail(`${named} takes the own PDF and attachments above ${limit}; it was not read further`, hint);
		if (!content.length) throw fail(`${named} is empty`, 'The file has no content: check the node that made it.');
		if (pdf && content.subarray(0, 5).toString('latin1') !== '%PDF-')
			throw fail(`${named} is not a PDF: its content does not start with %PDF-`, 'Own PDF must be a PDF file; send other files as Attachments.');
		total += content.length;
		if (total > maxBytes) throw fail(`the own PDF and attachments add up to ${(total / MB).toFixed(1)} MB or more, above ${limit}`, hint);
	}
	const strip = ({ property, fileName }: PlannedFile): PlannedFile => ({ property, fileName });
	return { pdf: planned.filter((f) => f.pdf).map(strip)[0], attachments: planned.filter((f) => !f.pdf).map(strip) };
}

/** A stored binary's bytes, or undefined as soon as it proves longer than `limit` (the rest is never read). */
async function readUpTo(ctx: IExecuteFunctions, id: string, limit: number): Promise<Buffer | undefined> {
	const chunks: Buffer[] = [];
	let length = 0;
	for await (const chunk of await ctx.helpers.getBinaryStream(id)) {
		length += (chunk as Buffer).length;
		if (length > limit) return undefined;
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

/** The create body with the item's files, base64 as the API takes them (read now, at send time). */
export async function withOwnFiles(ctx: IExecuteFunctions, itemIndex: number, body: IDataObject, files: OwnFiles | undefined): Promise<IDataObject> {
	if (!files) return body;
	const encode = async ({ property, fileName }: PlannedFile) => ({
		FileName: fileName,
		FileContent: (await ctx.helpers.getBinaryDataBuffer(itemIndex, property)).toString('base64'),
	});
	const out: IDataObject = { ...body };
	if (files.pdf) out.OrderPDF = await encode(files.pdf);
	if (files.attachments.length) {
		const attachments: IDataObject[] = [];
		for (const file of files.attachments) attachments.push(await encode(file));
		out.Attachments = attachments;
	}
	return out;
}
