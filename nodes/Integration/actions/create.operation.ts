import type { IExecuteFunctions, INodeExecutionData, INodeProperties, IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { isRecord } from '../../shared/domain/values';
import { registrationIdField } from '../../shared/fields/fields';
import type { ClientProvider } from '../../shared/node/router';
import { runItems } from '../../shared/node/items';
import { inputError, readRegistrationId } from '../../shared/node/input';
import type { IntegrationInput } from './integration';
import { buildIntegrationBody, integrationOutput, signatureHint } from './integration';

const properties: INodeProperties[] = [
	{ ...registrationIdField, description: 'The registered company entity that gets the integration' },
	{
		displayName: 'Network',
		name: 'network',
		type: 'options',
		default: 'Peppol',
		description: 'The e-invoicing network to activate for this registration',
		options: [
			{ name: 'Peppol', value: 'Peppol', description: 'Send and receive over Peppol' },
			{ name: 'SDI', value: 'SDI', description: 'Italian Sistema di Interscambio; Pending until the company signs a document' },
			{ name: 'Chorus Pro', value: 'ChorusPro', description: 'French public sector network' },
			{ name: 'Other Network', value: 'other', description: 'Another network the access point supports' },
		],
	},
	{
		displayName: 'Network Name',
		name: 'networkName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Peppol',
		description: 'The network name exactly as the access point spells it',
		displayOptions: { show: { network: ['other'] } },
	},
	{
		displayName: 'Technical User Key',
		name: 'technicalUserKey',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description: 'Technical user key of the Chorus Pro account',
		displayOptions: { show: { network: ['ChorusPro'] } },
	},
	{
		displayName: 'Credentials',
		name: 'credentials',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Credential',
		description: 'Name/value pairs, only for networks that need credentials',
		displayOptions: { show: { network: ['other'] } },
		options: [
			{
				displayName: 'Credential',
				name: 'credential',
				values: [
					{ displayName: 'Name', name: 'key', type: 'string', default: '', placeholder: 'e.g. TechnicalUserKey' },
					{ displayName: 'Value', name: 'value', type: 'string', typeOptions: { password: true }, default: '' },
				],
			},
		],
	},
	{
		displayName: 'If the answer is "Pending" (needsSignature), the company must open IntegrationDocumentToSign and sign it',
		name: 'signatureNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { network: ['SDI', 'other'] } },
	},
];

export const description = updateDisplayOptions({ show: { operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[]> {
	const read = (itemIndex: number) => {
		const registrationId = readRegistrationId(this, itemIndex);
		const network = this.getNodeParameter('network', itemIndex, 'Peppol') as string;
		const input: IntegrationInput = { network };
		if (network === 'ChorusPro') input.technicalUserKey = this.getNodeParameter('technicalUserKey', itemIndex, '');
		if (network === 'other') {
			input.networkName = this.getNodeParameter('networkName', itemIndex, '');
			input.credentials = this.getNodeParameter('credentials', itemIndex, {}) as IntegrationInput['credentials'];
		}
		const built = buildIntegrationBody(input);
		if ('problem' in built) throw inputError(this, itemIndex, built.problem.field, built.problem.value, built.problem.problem, built.problem.hint);
		return { registrationId, built };
	};
	const items = await runItems(this, read, async ({ registrationId, built }, itemIndex) => {
		const client = await clients(itemIndex);
		const response = await client.request<IDataObject>({
			method: 'POST',
			path: `/v1/einvoices/registrations/${encodeURIComponent(registrationId)}/integrations`,
			body: built.body,
			itemIndex,
			operation: `Create ${built.body.ExternalProvider} integration`,
		});
		return integrationOutput(registrationId, { Integration: built.body.ExternalProvider, ...(isRecord(response) ? response : {}) });
	});
	const awaiting = items.filter((item) => item.json.needsSignature === true);
	if (awaiting.length) {
		const ids = awaiting.map((item) => `${String(item.json.Integration)} #${String(item.json.IntegrationID)}`);
		this.addExecutionHints({ message: signatureHint(ids), type: 'warning', location: 'outputPane' });
	}
	return items;
}
