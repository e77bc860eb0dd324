/** listSearch / loadOptions methods shared by nodes. */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { getApiClient } from '../node/client';

interface CompanySummary {
	CompanyID?: number | string;
	RegistrationID?: number | string;
	CompanyDetails?: { CompanyName?: string; TaxIdentifier?: string };
}

export async function searchRegistrations(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const client = await getApiClient.call(this);
	const body = await client.request<IDataObject | CompanySummary[]>({
		method: 'GET',
		path: '/v1/einvoices/registrations',
		operation: 'List registrations',
	});
	const companies = (Array.isArray(body) ? body : ((body as IDataObject).Companies as CompanySummary[])) ?? [];
	const needle = (filter ?? '').toLowerCase();
	const results = companies
		.map((company) => {
			const id = String(company.RegistrationID ?? company.CompanyID ?? '');
			const details = company.CompanyDetails ?? {};
			const name = [details.CompanyName, details.TaxIdentifier, `#${id}`].filter(Boolean).join(' · ');
			return { name, value: id };
		})
		.filter((entry) => entry.value && (!needle || entry.name.toLowerCase().includes(needle)));
	return { results };
}
