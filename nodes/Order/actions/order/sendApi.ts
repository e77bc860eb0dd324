/**
 * The send command on the shared client: one call per batch, and when the API rejects a
 * batch for some of its orders (strict transport, already sent, unknown or foreign order),
 * those orders get their own outcome and the rest go out in one more call.
 */
import { type INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiClient, ApiErrorEntry } from '../../../shared/http/transport';
import { apiError } from './orderChanges';
import { type SendBatch, attributeErrors, isAlreadySent, sendIdempotencyKey } from './sendLogic';

/** Which header carries idempotency keys (production pages spell it both ways), or none. */
export const IDEMPOTENCY_HEADERS = ['Idempotency-Key', 'Idempotent-Key', 'none'] as const;
export type IdempotencyHeader = (typeof IDEMPOTENCY_HEADERS)[number];

export type SendOutcome =
	| { status: 'sent' }
	/** Sent before: the API said AlreadySent, or the idempotency key was used (409). */
	| { status: 'alreadySent'; reason: 'AlreadySent' | 'Conflict' | 'IsSent' }
	| { status: 'failed'; error: NodeApiError | NodeOperationError };

function hintFor(entry: ApiErrorEntry, batch: SendBatch, status: string): string {
	const text = `${entry.code ?? ''} ${entry.description ?? ''}`;
	if (status === '401' || status === '403') {
		return "The order does not belong to the party the call acts for; check Options › Act for Party and the credential's Party ID.";
	}
	if (batch.strict && /peppol|receiver|transport/i.test(text)) {
		return 'The receiver cannot be reached over Peppol. Turn off "Strict (No Fallback)" to let the service deliver it by e-mail or post, or check the customer\'s VAT number with the Peppol Lookup node.';
	}
	if (/not\s*found|unknown order|does not exist/i.test(text)) {
		return 'Check the Order ID and that the order belongs to the party the node acts for (Options › Act for Party).';
	}
	return 'The API rejected sending this order; check the order and the Transport Type.';
}

/** A NodeApiError for one order of a rejected batch, from the API's entry for it. */
function orderSendError(node: INode, orderId: number, entry: ApiErrorEntry, batch: SendBatch, status: string): NodeApiError {
	const message = `Send order ${orderId} failed with HTTP ${status}${entry.code ? ` (${entry.code})` : ''}${entry.description ? `: ${entry.description}` : ''}`;
	const error = apiError(node, message, hintFor(entry, batch, status), status, batch.itemIndex, entry.code, entry.description);
	error.context.orderId = orderId;
	return error;
}

/**
 * Sends one batch; returns the outcome of every order in it. Never throws for API
 * answers: a failure becomes a `failed` outcome of the orders it concerns.
 */
export async function sendBatch(
	node: INode,
	client: ApiClient,
	batch: SendBatch,
	idempotencyHeader: IdempotencyHeader = 'Idempotency-Key',
): Promise<Map<number, SendOutcome>> {
	const outcomes = new Map<number, SendOutcome>();
	let pending = [...batch.orderIds];
	while (pending.length) {
		const headers: Record<string, string> = { 'Content-Type': 'application/json' };
		if (batch.strict) headers.StrictTransportType = 'true';
		if (idempotencyHeader !== 'none') headers[idempotencyHeader] = sendIdempotencyKey(batch.transportType, batch.strict, pending);
		try {
			await client.request<unknown>({
				method: 'POST',
				path: '/v1/orders/commands/send',
				body: { Transporttype: batch.transportType, OrderIDs: pending },
				headers,
				itemIndex: batch.itemIndex,
				operation: `Send order${pending.length > 1 ? 's' : ''} ${pending.join(', ')}`,
				acceptText: true,
			});
			for (const id of pending) outcomes.set(id, { status: 'sent' });
			return outcomes;
		} catch (error) {
			const status = String((error as NodeApiError)?.httpCode ?? '');
			if (status === '409' && idempotencyHeader !== 'none') {
				for (const id of pending) outcomes.set(id, { status: 'alreadySent', reason: 'Conflict' });
				return outcomes;
			}
			// A refusal naming some of the batch's orders (strict transport, already sent,
			// unknown or foreign order) concerns only those.
			if (/^4\d\d$/.test(status) && status !== '409' && status !== '429') {
				const entries = ((error as NodeApiError).context?.apiErrors ?? []) as ApiErrorEntry[];
				const { perOrder, unattributed } = attributeErrors(entries, pending);
				if (perOrder.size > 0 && unattributed.length === 0) {
					for (const [id, entry] of perOrder) {
						outcomes.set(
							id,
							isAlreadySent(entry)
								? { status: 'alreadySent', reason: 'AlreadySent' }
								: { status: 'failed', error: orderSendError(node, id, entry, batch, status) },
						);
					}
					// The API sends none of a rejected batch: the others go out in one more call.
					pending = pending.filter((id) => !perOrder.has(id));
					continue;
				}
			}
			const failure =
				error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(node, error as Error, { itemIndex: batch.itemIndex });
			for (const id of pending) outcomes.set(id, { status: 'failed', error: failure });
			return outcomes;
		}
	}
	return outcomes;
}
