import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { inputError, requireValid } from '../../shared/node/input';
import { checkNumericId } from '../../shared/domain/validation';
import { runBatched } from '../../shared/node/items';
import { looksLikeCallback, outcomeJson, queryFromValue, readCallback, withServiceCheck } from '../session';
import { IDENTIFIED, NOT_IDENTIFIED, optionsCollection, trustNotice } from './identification';

const properties: INodeProperties[] = [
	trustNotice,
	{
		displayName: 'Callback Query',
		name: 'callbackQuery',
		type: 'json',
		default: '={{ $json.query }}',
		required: true,
		description: "The query your RedirectURL received (a Webhook node's query field), or the full callback URL",
	},
	optionsCollection([
		{
			displayName: 'Expected Registration ID',
			name: 'expectedRegistrationId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 123456',
			description: 'Only accept a callback for this RegistrationID; any other leaves through Not Identified',
		},
	]),
];

export const description = updateDisplayOptions({ show: { operation: ['parseCallback'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched<IDataObject, IDataObject>(this, {
		read: (itemIndex) => {
			const raw = this.getNodeParameter('callbackQuery', itemIndex, '') as unknown;
			const query = queryFromValue(raw);
			if (!query || !looksLikeCallback(query)) {
				throw inputError(
					this,
					itemIndex,
					'Callback Query',
					raw,
					'has no registrationID, success or error parameter',
					'Map the query your RedirectURL received, e.g. {{ $json.query }} after a Webhook node.',
				);
			}
			const options = (this.getNodeParameter('options', itemIndex, {}) ?? {}) as { expectedRegistrationId?: unknown };
			const expectedRaw = options.expectedRegistrationId;
			const expected =
				expectedRaw === undefined || expectedRaw === null || (typeof expectedRaw === 'string' && !expectedRaw.trim())
					? undefined
					: requireValid(this, itemIndex, 'Expected Registration ID', expectedRaw, (v) => checkNumericId(v, 'RegistrationID'));
			// No credential here: a success stays the browser's word, and the output says so.
			const outcome = withServiceCheck(readCallback(query, expected), 'not checked');
			return outcomeJson(outcome, { receivedAt: new Date().toISOString() }) as IDataObject;
		},
		run: async (read) => read.map((entry) => entry.value),
		emit: (json) => [json],
		outputs: 2,
		// A failed item (continueOnFail) leaves through Not Identified, the first output.
		route: (json) => (json.identified === true ? IDENTIFIED : NOT_IDENTIFIED),
	});
}
