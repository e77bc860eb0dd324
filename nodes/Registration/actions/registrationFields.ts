/** The parameters of Registration › Create (contract 2.1), in the form's order. */
import type { INodeProperties } from 'n8n-workflow';

function addressFields(kind: string): INodeProperties[] {
	return [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Acme Head Office',
			description: `Name shown on the ${kind}`,
		},
		{
			displayName: 'Street',
			name: 'street',
			type: 'string',
			default: '',
			placeholder: 'e.g. Kerkstraat',
			description: 'Required',
		},
		{
			displayName: 'Street Number',
			name: 'streetNumber',
			type: 'string',
			default: '',
			placeholder: 'e.g. 12',
		},
		{
			displayName: 'Box',
			name: 'box',
			type: 'string',
			default: '',
			placeholder: 'e.g. B2',
			description: 'Box or unit number, if any',
		},
		{
			displayName: 'Zipcode',
			name: 'zipcode',
			type: 'string',
			default: '',
			placeholder: 'e.g. 9000',
			description: 'Required',
		},
		{
			displayName: 'City',
			name: 'city',
			type: 'string',
			default: '',
			placeholder: 'e.g. Gent',
			description: 'Required',
		},
		{
			displayName: 'Country Code',
			name: 'countryCode',
			type: 'string',
			default: 'BE',
			placeholder: 'e.g. BE',
			description: 'Two-letter ISO 3166-1 country code (BE, NL, FR, DE, ...); required',
		},
		{
			displayName: 'Phone',
			name: 'phone',
			type: 'string',
			default: '',
			placeholder: 'e.g. +32 9 123 45 67',
			description: 'Phone number for this address, in international format',
		},
	];
}

/** The Create form: company, contact, tax switches, addresses and the optional extras. */
export const registrationFields: INodeProperties[] = [
	{
		displayName: 'Company Name',
		name: 'companyName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme BV',
		description: 'Legal name of the company to register (CompanyName)',
	},
	{
		displayName: 'VAT Number',
		name: 'taxIdentifier',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. BE0123456749',
		description:
			'VAT number with its two-letter country prefix (TaxIdentifier). Spaces and dots are removed; Belgian numbers are checked with mod 97.',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description:
			'A real e-mail address of the company. It must differ from the e-mail addresses of the other registrations of your account.',
	},
	{
		displayName: 'Contact First Name',
		name: 'contactFirstName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Jan',
		description: 'First name of the contact person (ContactFirstName)',
	},
	{
		displayName: 'Contact Last Name',
		name: 'contactLastName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Peeters',
		description: 'Last name of the contact person (ContactLastName)',
	},
	{
		displayName: 'Language',
		name: 'language',
		type: 'string',
		required: true,
		default: 'NL',
		placeholder: 'e.g. NL',
		description: 'Two-letter ISO 639-1 language code of the company, e.g. NL, FR, EN or DE',
	},
	{
		displayName: 'Tax Liable',
		name: 'taxLiable',
		type: 'boolean',
		default: true,
		description: 'Whether the company is liable for VAT (TaxLiable)',
	},
	{
		displayName: 'Tax Deductible',
		name: 'taxDeductable',
		type: 'boolean',
		default: true,
		description: 'Whether the company can deduct VAT (TaxDeductable)',
	},
	{
		displayName: 'Addresses',
		name: 'addresses',
		type: 'fixedCollection',
		placeholder: 'Add Address',
		required: true,
		// Empty: n8n's editor cannot compute defaults for a fixedCollection with a preset entry
		// (the node would not add); the missing Invoice Address is reported at execution instead.
		default: {},
		description:
			'Required: add the Invoice Address (Street, Zipcode, City and Country Code). Add a Delivery Address only when deliveries go to another address.',
		options: [
			{
				displayName: 'Invoice Address',
				name: 'invoiceAddress',
				values: addressFields('invoice address'),
			},
			{
				displayName: 'Delivery Address',
				name: 'deliveryAddress',
				values: addressFields('delivery address'),
			},
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
				description: 'How invoices are handled in the fast-input stage (AccountSettings)',
				options: [
					{
						displayName: 'Settings',
						name: 'settings',
						values: [
							{
								displayName: 'Bulk Input Cost UBL Fast Forward',
								name: 'bulkInputCostUBLFastForward',
								type: 'boolean',
								default: false,
								description:
									'Whether received invoices skip the fast-input stage (only when the account also receives invoices)',
							},
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
			{
				displayName: 'BIC',
				name: 'bic',
				type: 'string',
				default: '',
				placeholder: 'e.g. GEBABEBB',
				description: 'BIC/SWIFT code of the bank (8 or 11 characters)',
			},
			{
				displayName: 'Commercial Name',
				name: 'commercialName',
				type: 'string',
				default: '',
				placeholder: 'e.g. Acme Shop',
				description: 'Trading name, when it differs from the legal name',
			},
			{
				displayName: 'IBAN',
				name: 'iban',
				type: 'string',
				default: '',
				placeholder: 'e.g. BE68 5390 0754 7034',
				description: 'Bank account as IBAN; spaces are removed and the checksum is verified',
			},
			{
				displayName: 'Identifiers',
				name: 'identifiers',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Identifier',
				description: 'Extra identifiers of the company; fill only when they are needed',
				options: [
					{
						displayName: 'Identifier',
						name: 'identifier',
						values: [
							{
								displayName: 'Identifier Type',
								name: 'identifierType',
								type: 'string',
								default: '',
								placeholder: 'e.g. KBO',
								description: 'The identifier type label (IdentifierType), e.g. the Belgian company register',
							},
							{
								displayName: 'Identifier',
								name: 'identifier',
								type: 'string',
								default: '',
								placeholder: 'e.g. 0123456749',
								description: 'The identifier value',
							},
						],
					},
				],
			},
			{
				displayName: 'Mobile',
				name: 'mobile',
				type: 'string',
				default: '',
				placeholder: 'e.g. +32 470 12 34 56',
				description: 'Mobile number in international format (+ and country code)',
			},
			{
				displayName: 'Phone',
				name: 'phone',
				type: 'string',
				default: '',
				placeholder: 'e.g. +32 9 123 45 67',
				description: 'Phone number in international format (+ and country code)',
			},
		],
	},
];
