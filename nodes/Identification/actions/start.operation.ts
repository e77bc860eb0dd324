import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { readChoice, requireValid } from '../../shared/node/input';
import { runItems } from '../../shared/node/items';
import type { ClientProvider } from '../../shared/node/router';
import { checkRedirectUrl } from '../session';
import {
	executionCustomData,
	masterPartyOption,
	optionsCollection,
	providerFields,
	registrationField,
	requireSingleItem,
	resumeUrl,
	SESSION_KEY,
	readStart,
	startIdentification,
} from './identification';

const properties: INodeProperties[] = [
	registrationField,
	{
		displayName: 'Send Browser Back To',
		name: 'redirectTo',
		type: 'options',
		default: 'url',
		description: "Where the service sends the user's browser after the identity check",
		options: [
			{ name: 'A URL', value: 'url', description: 'Your own page or Webhook node; read its query with Parse Callback' },
			{ name: 'This Execution', value: 'thisExecution', description: "This execution's resume URL; a later Wait for Result receives the outcome" },
		],
	},
	{
		displayName: 'Redirect URL',
		name: 'redirectUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://app.example.com/identified',
		description: 'Absolute http(s) address; the service appends registrationID and success',
		displayOptions: { show: { redirectTo: ['url'] } },
	},
	{
		displayName: 'Send providerUrl to the user (e.g. by e-mail), then add Wait for Result. The link works for 5 minutes.',
		name: 'thisExecutionNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { redirectTo: ['thisExecution'] } },
	},
	...providerFields,
	optionsCollection([masterPartyOption]),
];

export const description = updateDisplayOptions({ show: { operation: ['start'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[][]> {
	const toThisExecution = readChoice(this, 0, 'redirectTo', 'Send Browser Back To', ['url', 'thisExecution'], 'url') === 'thisExecution';
	if (toThisExecution) requireSingleItem(this, 'Start (Send Browser Back To: This Execution)');
	const read = (itemIndex: number) =>
		readStart(this, itemIndex, () =>
			toThisExecution
				? resumeUrl(this, itemIndex)
				: requireValid(this, itemIndex, 'Redirect URL', this.getNodeParameter('redirectUrl', itemIndex, ''), checkRedirectUrl),
		);
	const items = await runItems(this, read, async (start, itemIndex) => {
		const session = await startIdentification(this, clients, itemIndex, start);
		if (toThisExecution) {
			try {
				executionCustomData(this, itemIndex).set(
					SESSION_KEY,
					JSON.stringify({ registrationID: session.registrationID, startedAt: session.startedAt, expiresAt: session.expiresAt }),
				);
			} catch (error) {
				throw new NodeOperationError(this.getNode(), error as Error, { itemIndex, description: 'The session could not be recorded for Wait for Result.' });
			}
		}
		const json: IDataObject = {
			RegistrationID: session.registrationID,
			providerUrl: session.providerUrl,
			startedAt: session.startedAt,
			expiresAt: session.expiresAt,
			IdentificationProviderTC: session.identificationProviderTC,
			masterPartyId: session.masterPartyId,
			redirectTo: toThisExecution ? 'thisExecution' : 'url',
		};
		// The resume URL carries this execution's resume token: it is not copied into outputs.
		if (!toThisExecution) json.redirectUrl = session.redirectUrl;
		return json;
	});
	return [items];
}
