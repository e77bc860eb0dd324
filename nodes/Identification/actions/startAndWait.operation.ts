import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ClientProvider } from '../../shared/node/router';
import {
	masterPartyOption,
	optionsCollection,
	providerFields,
	readResultRedirectUrl,
	registrationField,
	requireSingleItem,
	resumeUrl,
	runOneItem,
	readStart,
	startIdentification,
	trustNotice,
	waitOptions,
} from './identification';
import { waitForCallback } from './waiting';

const properties: INodeProperties[] = [
	{
		displayName:
			"The execution waits until the user's browser comes back; its output pane shows the link meanwhile. To e-mail the link instead, use Start (Send Browser Back To: This Execution), then Wait for Result.",
		name: 'startAndWaitNotice',
		type: 'notice',
		default: '',
	},
	trustNotice,
	registrationField,
	...providerFields,
	optionsCollection([...waitOptions, masterPartyOption]),
];

export const description = updateDisplayOptions({ show: { operation: ['startAndWait'] } }, properties);

export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[][]> {
	requireSingleItem(this, 'Start and Wait for Result');
	return await runOneItem(this, async (itemIndex) => {
		let resultRedirectUrl: string | undefined;
		const start = readStart(this, itemIndex, (options) => {
			resultRedirectUrl = readResultRedirectUrl(this, itemIndex, options);
			return resumeUrl(this, itemIndex);
		});
		const session = await startIdentification(this, clients, itemIndex, start);
		return await waitForCallback(this, { ...session, resultRedirectUrl }, itemIndex);
	});
}
