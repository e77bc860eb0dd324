/** Order › Create and Send: Create per item, then the orders go out in batched send commands; one found already sent is not sent again. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { asNodeError, runBatched } from '../../../shared/node/items';
import type { ClientProvider } from '../../../shared/node/router';
import { type OwnFiles, checkOwnFiles, createOrder, orderFields, readCreateSettings, readOrderInput, withOwnFiles } from './orderCreate';
import { type SendReport, type SendRequest, readSendChoice, readSendSettings, sendAll, sendFields, sendOutput, sendOutputs } from './sendRequests';
import { answerError } from '../writes';

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['createAndSend'] } }, [...orderFields(), ...sendFields()]);

interface Prepared {
	body: IDataObject;
	request: Omit<SendRequest, 'orderId'>;
	skipIfExists: boolean;
	files?: OwnFiles;
}

interface Created {
	request: SendRequest;
	alreadyExisted: boolean;
	externalId?: string;
}

type Result = { error: Error } | (Created & { report: SendReport });

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[][]> {
	const settings = readSendSettings(this);

	/** Creates one order; a retried run finds it (Skip If Already Created) instead of creating it twice. */
	const create = async (entry: Prepared, itemIndex: number): Promise<Created> => {
		const client = await clients(itemIndex, entry.request.partyId);
		const options = { node: this.getNode(), itemIndex, ...settings, skipIfExists: entry.skipIfExists, fetchFull: false };
		const result = await createOrder(client, await withOwnFiles(this, itemIndex, entry.body, entry.files), options);
		if (result.orderId === undefined) {
			const message = 'Create order answered without an OrderID: not sent';
			throw answerError(this.getNode(), message, 'Check the order in the web app, then send it with the Send operation.', itemIndex);
		}
		const request: SendRequest = { ...entry.request, orderId: result.orderId };
		// Found and already sent: a retried run must not send it again.
		if (result.alreadyExisted && result.order.IsSent === true) request.known = { status: 'alreadySent', reason: 'IsSent' };
		const externalId = typeof entry.body.ExternalProviderID === 'string' ? entry.body.ExternalProviderID : undefined;
		return { request, alreadyExisted: result.alreadyExisted, externalId };
	};

	return await runBatched<Prepared, Result>(this, {
		// Every item is read and validated before any request.
		read: (itemIndex) => {
			const body = readOrderInput(this, itemIndex);
			const createSettings = readCreateSettings(this, itemIndex);
			const choice = readSendChoice(this, itemIndex);
			return { body, skipIfExists: createSettings.skipIfExists, request: { itemIndex, partyId: createSettings.partyId, ...choice } };
		},
		run: async (read) => {
			const attempt = async <T>(itemIndex: number, step: () => Promise<T>): Promise<T | { error: Error }> => {
				try {
					return await step();
				} catch (error) {
					const nodeError = asNodeError(this, error, itemIndex);
					if (!this.continueOnFail()) throw nodeError;
					return { error: nodeError };
				}
			};
			// Own files are checked for every item before the first create (reading them needs await).
			const checked: Array<Prepared | { error: Error }> = [];
			for (const { itemIndex, value } of read)
				checked.push(await attempt(itemIndex, async () => ({ ...value, files: await checkOwnFiles(this, itemIndex, value.body) })));
			// Creates one by one, so a later item finds the order an earlier one created.
			const created: Array<Created | { error: Error }> = [];
			for (const [i, { itemIndex }] of read.entries()) {
				const entry = checked[i];
				created.push('error' in entry ? entry : await attempt(itemIndex, async () => await create(entry, itemIndex)));
			}
			const requests = created.filter((entry): entry is Created => 'request' in entry).map((entry) => entry.request);
			const reports = await sendAll(this, clients, requests, settings);
			let next = 0;
			return created.map((entry) => ('error' in entry ? entry : { ...entry, report: reports[next++] }));
		},
		emit: (result) => {
			if ('error' in result) return [result.error];
			const { alreadyExisted, externalId } = result;
			return sendOutputs([result.report], settings, (report) => {
				const json = sendOutput(report, settings);
				const head: IDataObject = { OrderID: json.OrderID };
				if (externalId !== undefined) head.ExternalProviderID = externalId;
				return { ...head, ...json, AlreadyExisted: alreadyExisted };
			});
		},
	});
}
