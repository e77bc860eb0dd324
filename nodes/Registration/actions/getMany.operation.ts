import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllFields } from '../../shared/fields';
import type { ClientProvider } from '../../shared/router';
import { runPerItem } from '../../shared/router';

export const description: INodeProperties[] = [...returnAllFields({ operation: ['getMany'] })];

/** A list entry names its id CompanyID; outputs always carry RegistrationID too. */
export function flattenCompany(company: IDataObject): IDataObject {
	const id = company.RegistrationID ?? company.CompanyID;
	return { RegistrationID: id, ...company };
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	return await runPerItem(this, async (itemIndex) => {
		const limit = readLimit(this, itemIndex);
		const client = await clients(itemIndex);
		const body = await client.request<IDataObject | IDataObject[]>({
			method: 'GET',
			path: '/v1/einvoices/registrations',
			itemIndex,
			operation: 'List registrations',
		});
		const companies = (Array.isArray(body) ? body : (body?.Companies as IDataObject[])) ?? [];
		const selected = limit === undefined ? companies : companies.slice(0, limit);
		return selected.map(flattenCompany);
	});
}
