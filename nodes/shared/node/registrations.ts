import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { unwrapRegistration } from '../domain/registrationOutput';
import type { ApiClient } from '../http/transport';

/** Reads one registration (plain or `Companies`-wrapped answer) or fails the item with a NodeApiError. */
export async function fetchRegistration(
	ctx: IExecuteFunctions,
	client: ApiClient,
	registrationId: string,
	itemIndex: number,
	operation: string,
): Promise<IDataObject> {
	const body = await client.request<unknown>({
		method: 'GET',
		path: `/v1/einvoices/registrations/${encodeURIComponent(registrationId)}`,
		itemIndex,
		operation,
	});
	const registration = unwrapRegistration(body, registrationId);
	if (registration) return registration;
	throw new NodeApiError(
		ctx.getNode(),
		{ message: `The API returned no registration for RegistrationID ${registrationId}` },
		{
			message: `${operation}: the API returned no registration for RegistrationID ${registrationId}`,
			description: 'Check the ID (Registration › Get Many lists them) and that it belongs to this account.',
			itemIndex,
		},
	);
}
