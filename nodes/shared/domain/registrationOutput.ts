/** Registration read bodies -> flat output items. Pure. */
import type { IDataObject } from 'n8n-workflow';
import { isRecord as isObject } from './values';

/** The companies in a list body: `{ Companies: [...] }`, `{ Items: [...] }` or a bare array. */
export function readCompanies(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body.filter(isObject);
	if (!isObject(body)) return [];
	const list = body.Companies ?? body.companies ?? body.Items ?? body.items;
	return Array.isArray(list) ? list.filter(isObject) : [];
}

function idOf(company: IDataObject): unknown {
	return company.RegistrationID ?? company.CompanyID;
}

/** A single read answers the registration or `{ Companies: [it] }`: the same entity; undefined when the body holds none. */
export function unwrapRegistration(body: unknown, registrationId?: string): IDataObject | undefined {
	if (isObject(body) && (body.RegistrationID !== undefined || body.CompanyID !== undefined || isObject(body.CompanyDetails))) return body;
	const companies = readCompanies(body);
	if (!companies.length) return undefined;
	if (registrationId !== undefined) {
		const match = companies.find((company) => String(idOf(company)) === String(registrationId));
		if (match) return match;
	}
	return companies[0];
}

/** One flat item: RegistrationID first (else CompanyID), CompanyDetails lifted to the top, then Integrations and the rest. */
export function flattenRegistration(company: IDataObject, fallbackId?: string): IDataObject {
	const { CompanyDetails, RegistrationID, Integrations, ...rest } = company;
	const rawId = RegistrationID ?? company.CompanyID ?? fallbackId;
	const id = typeof rawId === 'string' && /^\d+$/.test(rawId) ? Number(rawId) : rawId;
	const details = isObject(CompanyDetails) ? CompanyDetails : {};
	return { RegistrationID: id, ...details, ...rest, Integrations: Array.isArray(Integrations) ? Integrations : [] };
}
