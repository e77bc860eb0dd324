/** The single order read (`GET /v1/orders/{id}`, the only published path) that the Order node and the Order Trigger's Include Files both make. */
import type { IDataObject } from 'n8n-workflow';

import type { ApiClient } from '../http/transport';

/** Whether an API error carries the given HTTP status. */
export function hasStatus(error: unknown, status: string): boolean {
	const withCode = error as { httpCode?: string | null; context?: IDataObject };
	return String(withCode?.httpCode ?? '') === status;
}

/** `GET /v1/orders/{id}`: one request per read (openapi.json publishes no `/v1/order/{id}`). */
export async function getOrder(client: ApiClient, orderId: number | string, itemIndex: number): Promise<IDataObject> {
	const path = `/v1/orders/${encodeURIComponent(String(orderId))}`;
	return await client.request<IDataObject>({ method: 'GET', path, itemIndex, operation: `Get order ${orderId}` });
}
