/**
 * Order › Create and Send: each item creates its order (Create's fields, validation and
 * "skip if already created", with an idempotency key), then the new orders go out in
 * batched send commands. One item in, one item out. An order found already sent is not
 * sent again, so a retried run sends nothing new.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ClientProvider } from '../../../shared/router';
import { asNodeError, errorItem } from '../../../shared/items';
import { createOrder } from './orderApi';
import { createHeaders, readCreateSettings, readOrderInput } from './create.operation';
import { reportItems } from './send.operation';
import type { SendRequest } from './sendRun';
import { readSendChoice, readSendSettings, sendAll, sendOutput } from './sendRun';

/** Create's fields and the send fields are declared by Create and Send; nothing of its own. */
export const description: INodeProperties[] = [];

interface Prepared {
	body: IDataObject;
	request: Omit<SendRequest, 'orderId'>;
	skipIfExists: boolean;
}

interface Created {
	request: SendRequest;
	alreadyExisted: boolean;
	externalId?: string;
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const settings = readSendSettings(this);
	const entries: Array<Prepared | Created | { error: Error }> = [];

	// Every item is read and validated before any request.
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const body = readOrderInput(this, itemIndex);
			const create = readCreateSettings(this, itemIndex);
			const choice = readSendChoice(this, itemIndex);
			entries.push({ body, skipIfExists: create.skipIfExists, request: { itemIndex, partyId: create.partyId, ...choice } });
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			entries.push({ error: nodeError });
		}
	}

	// Creates one by one, so a later item finds the order an earlier one created.
	for (let itemIndex = 0; itemIndex < entries.length; itemIndex++) {
		const entry = entries[itemIndex];
		if (!('body' in entry)) continue;
		try {
			const client = await clients(itemIndex, entry.request.partyId);
			const result = await createOrder(client, entry.body, {
				node: this.getNode(),
				itemIndex,
				skipIfExists: entry.skipIfExists,
				fetchFull: false,
				singleOrderPath: settings.singleOrderPath,
				headers: createHeaders(entry.body, entry.skipIfExists, settings.idempotencyHeader),
			});
			if (result.orderId === undefined) {
				const message = 'Create order answered without an OrderID, so the order cannot be sent';
				throw new NodeApiError(this.getNode(), { message } as JsonObject, {
					message,
					description: 'Check the order in the web app; send it with the Send operation once it has an OrderID.',
					itemIndex,
				});
			}
			const request: SendRequest = { ...entry.request, orderId: result.orderId };
			// Found and already sent: a retried run must not send it again.
			if (result.alreadyExisted && result.order.IsSent === true) request.known = { status: 'alreadySent', reason: 'IsSent' };
			const externalId = typeof entry.body.ExternalProviderID === 'string' ? entry.body.ExternalProviderID : undefined;
			entries[itemIndex] = { request, alreadyExisted: result.alreadyExisted, externalId };
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			entries[itemIndex] = { error: nodeError };
		}
	}

	const created = entries.filter((entry): entry is Created => 'alreadyExisted' in entry);
	const reports = await sendAll(
		this,
		clients,
		created.map((entry) => entry.request),
		settings,
	);

	const output: INodeExecutionData[] = [];
	let next = 0;
	entries.forEach((entry, itemIndex) => {
		if ('error' in entry) {
			output.push(errorItem(this, entry.error, itemIndex));
			return;
		}
		const { alreadyExisted, externalId } = entry as Created;
		output.push(
			...reportItems(this, [reports[next++]], itemIndex, (report) => {
				const json = sendOutput(report, settings);
				const head: IDataObject = { OrderID: json.OrderID };
				if (externalId !== undefined) head.ExternalProviderID = externalId;
				return { ...head, ...json, AlreadyExisted: alreadyExisted };
			}),
		);
	});
	return output;
}
