import type { INodeProperties } from 'n8n-workflow';

/** The integration picker: loads the selected registration's integrations, or takes an ID. */
export const integrationIdField: INodeProperties = {
	displayName: 'Integration',
	name: 'integrationId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The integration of the registration (its IntegrationID)',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an integration...',
			typeOptions: { searchListMethod: 'searchIntegrations', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 7001',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'An IntegrationID is a number' },
				},
			],
		},
	],
};
