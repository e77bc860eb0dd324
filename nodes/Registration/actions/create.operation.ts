import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { isRecord } from '../../shared/domain/values';
import { inputError } from '../../shared/node/input';
import { runItems } from '../../shared/node/items';
import type { ClientProvider } from '../../shared/node/router';
import type { RegistrationInput } from './registrationBody';
import { buildRegistrationBody } from './registrationBody';

/** A text field; `more` adds what differs (required, another default). */
function text(displayName: string, name: string, placeholder: string, description?: string, more: Partial<INodeProperties> = {}): INodeProperties {
	return { displayName, name, type: 'string', default: '', placeholder, ...(description ? { description } : {}), ...more };
}

const required = { required: true };

function addressFields(kind: string): INodeProperties[] {
	return [
		text('Name', 'name', 'e.g. Acme Head Office', `Name shown on the ${kind}`),
		text('Street', 'street', 'e.g. Kerkstraat', 'Required'),
		text('Street Number', 'streetNumber', 'e.g. 12'),
		text('Box', 'box', 'e.g. B2', 'Box or unit number, if any'),
		text('Zipcode', 'zipcode', 'e.g. 9000', 'Required'),
		text('City', 'city', 'e.g. Gent', 'Required'),
		text('Country Code', 'countryCode', 'e.g. BE', 'Two-letter ISO 3166-1 country code; required', { default: 'BE' }),
		text('Phone', 'phone', 'e.g. +32 9 123 45 67', 'In international format'),
	];
}

/** The Create form (docs/api.md "Registrations"): company, contact, tax switches, addresses and the optional extras. */
const registrationFields: INodeProperties[] = [
	text('Company Name', 'companyName', 'e.g. Acme BV', 'Legal name of the company', required),
	text('VAT Number', 'taxIdentifier', 'e.g. BE0123456749', 'VAT number with its two-letter country prefix', required),
	text('Email', 'email', 'name@email.com', 'A real e-mail address of the company, different from those of your other registrations', required),
	text('Contact First Name', 'contactFirstName', 'e.g. Jan', 'First name of the contact person', required),
	text('Contact Last Name', 'contactLastName', 'e.g. Peeters', 'Last name of the contact person', required),
	text('Language', 'language', 'e.g. NL', 'Two-letter ISO 639-1 language code of the company', { ...required, default: 'NL' }),
	{ displayName: 'Tax Liable', name: 'taxLiable', type: 'boolean', default: true, description: 'Whether the company is liable for VAT' },
	{ displayName: 'Tax Deductible', name: 'taxDeductable', type: 'boolean', default: true, description: 'Whether the company can deduct VAT' },
	{
		displayName: 'Addresses',
		name: 'addresses',
		type: 'fixedCollection',
		placeholder: 'Add Address',
		required: true,
		// Empty: n8n's editor cannot compute defaults for a fixedCollection with a preset entry
		// (the node would not add); the missing Invoice Address is reported at execution instead.
		default: {},
		description: 'Required: the Invoice Address. Add a Delivery Address only when it differs.',
		options: [
			{ displayName: 'Invoice Address', name: 'invoiceAddress', values: addressFields('invoice address') },
			{ displayName: 'Delivery Address', name: 'deliveryAddress', values: addressFields('delivery address') },
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Account Settings',
				name: 'accountSettings',
				type: 'fixedCollection',
				default: {},
				placeholder: 'Add Account Settings',
				description: 'How invoices are handled in the fast-input stage',
				options: [
					{
						displayName: 'Settings',
						name: 'settings',
						values: [
							{
								displayName: 'Process UBL Prepaid Amount',
								name: 'processUBLPrepaidAmount',
								type: 'boolean',
								default: false,
								description: 'Whether prepaid sent invoices skip the fast-input stage',
							},
						],
					},
				],
			},
			text('BIC', 'bic', 'e.g. GEBABEBB', 'BIC/SWIFT code of the bank (8 or 11 characters)'),
			text('Commercial Name', 'commercialName', 'e.g. Acme Shop', 'Trading name, when it differs from the legal name'),
			text('IBAN', 'iban', 'e.g. BE68 5390 0754 7034', 'Bank account as IBAN'),
			{
				displayName: 'Identifiers',
				name: 'identifiers',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Identifier',
				description: 'Extra identifiers of the company',
				options: [
					{
						displayName: 'Identifier',
						name: 'identifier',
						values: [
							text('Identifier Type', 'identifierType', 'e.g. KBO', 'The identifier type label'),
							text('Identifier', 'identifier', 'e.g. 0123456749', 'The identifier value'),
						],
					},
				],
			},
			text('Mobile', 'mobile', 'e.g. +32 470 12 34 56', 'In international format (+ and country code)'),
			text('Phone', 'phone', 'e.g. +32 9 123 45 67', 'In international format (+ and country code)'),
		],
	},
];

export const description = updateDisplayOptions({ show: { operation: ['create'] } }, registrationFields);

/** The new ID from `{ RegistrationID }`, a similar object, or a bare number. */
export function readNewRegistrationId(body: unknown): number | string | undefined {
	if (typeof body === 'number') return body;
	if (typeof body === 'string' && /^\s*\d+\s*$/.test(body)) return Number(body.trim());
	if (!isRecord(body)) return undefined;
	const id = body.RegistrationID ?? body.RegistrationId ?? body.CompanyID ?? body.ID ?? body.Id;
	if (typeof id === 'string' && /^\d+$/.test(id)) return Number(id);
	return typeof id === 'number' || typeof id === 'string' ? id : undefined;
}

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const read = (itemIndex: number) => {
		// Every Create field, under its parameter name (RegistrationInput's keys), with its default.
		const input: Record<string, unknown> = {};
		for (const field of registrationFields) input[field.name] = this.getNodeParameter(field.name, itemIndex, field.default);
		const built = buildRegistrationBody(input as RegistrationInput);
		if ('problem' in built) {
			const { field, value, problem, hint } = built.problem;
			throw inputError(this, itemIndex, field, value, problem, hint);
		}
		return built.body;
	};
	return await runItems(this, read, async (body, itemIndex) => {
		const client = await clients(itemIndex);
		const response = await client.request<unknown>({
			method: 'POST',
			path: '/v1/einvoices/registrations',
			body,
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
					description: 'The registration may have been created. Check with "Get Many" before retrying.',
					itemIndex,
				},
			);
		}
		const output: IDataObject = {
			RegistrationID: registrationId,
			CompanyName: body.CompanyName as string,
			TaxIdentifier: body.TaxIdentifier as string,
			Email: body.Email as string,
			...(isRecord(response) ? response : {}),
		};
		output.RegistrationID = registrationId;
		return output;
	});
}
