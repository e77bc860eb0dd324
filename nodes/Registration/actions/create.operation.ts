import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { inputError } from '../../shared/node/input';
import { runPerItem } from '../../shared/node/items';
import type { ClientProvider } from '../../shared/node/router';
import type { RegistrationInput } from './registrationBody';
import { buildRegistrationBody } from './registrationBody';
import { registrationFields } from './registrationFields';

export const description = updateDisplayOptions({ show: { operation: ['create'] } }, registrationFields);

/** The new ID from `{ RegistrationID }`, a similar object, or a bare number. */
export function readNewRegistrationId(body: unknown): number | string | undefined {
	if (typeof body === 'number') return body;
	if (typeof body === 'string' && /^\s*\d+\s*$/.test(body)) return Number(body.trim());
	if (!body || typeof body !== 'object') return undefined;
	const record = body as IDataObject;
	const id = record.RegistrationID ?? record.RegistrationId ?? record.CompanyID ?? record.ID ?? record.Id;
	if (typeof id === 'string' && /^\d+$/.test(id)) return Number(id);
	return typeof id === 'number' || typeof id === 'string' ? id : undefined;
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const input: RegistrationInput = {
			companyName: this.getNodeParameter('companyName', itemIndex, ''),
			taxIdentifier: this.getNodeParameter('taxIdentifier', itemIndex, ''),
			email: this.getNodeParameter('email', itemIndex, ''),
			contactFirstName: this.getNodeParameter('contactFirstName', itemIndex, ''),
			contactLastName: this.getNodeParameter('contactLastName', itemIndex, ''),
			language: this.getNodeParameter('language', itemIndex, ''),
			taxLiable: this.getNodeParameter('taxLiable', itemIndex, true),
			taxDeductable: this.getNodeParameter('taxDeductable', itemIndex, true),
			addresses: this.getNodeParameter('addresses', itemIndex, {}) as RegistrationInput['addresses'],
			additionalFields: this.getNodeParameter('additionalFields', itemIndex, {}) as RegistrationInput['additionalFields'],
		};
		const built = buildRegistrationBody(input);
		if ('problem' in built) {
			const { field, value, problem, hint } = built.problem;
			throw inputError(this, itemIndex, field, value, problem, hint);
		}
		const client = await clients(itemIndex);
		const response = await client.request<unknown>({
			method: 'POST',
			path: '/v1/einvoices/registrations',
			body: built.body,
			itemIndex,
			operation: 'Create registration',
			acceptText: true,
		});
		const registrationId = readNewRegistrationId(response);
		if (registrationId === undefined) {
			throw new NodeApiError(
				this.getNode(),
				{ message: 'The API answered without a RegistrationID' },
				{
					message: 'Create registration: the API answered without a RegistrationID',
					description: 'The registration may have been created. Check with "Get Many" before retrying, to avoid a duplicate.',
					itemIndex,
				},
			);
		}
		const extra = response && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {};
		const output: IDataObject = {
			RegistrationID: registrationId,
			CompanyName: built.body.CompanyName as string,
			TaxIdentifier: built.body.TaxIdentifier as string,
			Email: built.body.Email as string,
			...extra,
		};
		output.RegistrationID = registrationId;
		return output;
	});
}
