/**
 * The single order read (`GET /v1/order/{id}` with its fallback) that the Order node and the
 * Order Trigger's Include Files both make.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ApiClient } from '../http/transport';

/** Which single-order path to use: /v1/order/{id}, /v1/orders/{id}, or the first with the second as fallback. */
export const SINGLE_ORDER_PATHS = ['auto', 'order', 'orders'] as const;
export type SingleOrderPath = (typeof SINGLE_ORDER_PATHS)[number];

/** Whether an API error carries the given HTTP status. */
export function hasStatus(error: unknown, status: string): boolean {
	const withCode = error as { httpCode?: string | null; context?: IDataObject };
	return String(withCode?.httpCode ?? '') === status;
}

/**
 * `GET /v1/order/{id}`; on 404 `GET /v1/orders/{id}` (the form the service's public docs write),
 * unless one form is chosen.
 */
export async function getOrder(client: ApiClient, orderId: number | string, itemIndex: number, path: SingleOrderPath = 'auto'): Promise<IDataObject> {
	const id = encodeURIComponent(String(orderId));
	const read = async (prefix: string) =>
		await client.request<IDataObject>({ method: 'GET', path: `${prefix}/${id}`, itemIndex, operation: `Get order ${orderId}` });
	if (path === 'orders') return await read('/v1/orders');
	if (path === 'order') return await read('/v1/order');
	const first = await read('/v1/order').then(
		(body) => ({ body }),
		(error: unknown) => ({ error }),
	);
	if ('body' in first) return first.body;
	if (!hasStatus(first.error, '404')) throw first.error;
	return await read('/v1/orders');
}
