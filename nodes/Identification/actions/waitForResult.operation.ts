import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { DEFAULT_WAIT_MARGIN_SECONDS, toRegistrationId } from '../session';
import {
	executionCustomData,
	optionsCollection,
	readOptions,
	readResultRedirectUrl,
	runOneItem,
	SESSION_KEY,
	trustNotice,
	twoOutputs,
	waitOptions,
} from './identification';
import { expiredItem, waitForCallback } from './waiting';

const properties: INodeProperties[] = [
	{
		displayName: 'Waits for the result of an earlier Start (Send Browser Back To: This Execution). Put it after the node that sends the link.',
		name: 'waitForResultNotice',
		type: 'notice',
		default: '',
	},
	trustNotice,
	optionsCollection(waitOptions),
];

export const description = updateDisplayOptions({ show: { operation: ['waitForResult'] } }, properties);

interface RecordedSession {
	registrationID?: unknown;
	startedAt?: unknown;
	expiresAt?: unknown;
}

function readRecordedSession(ctx: IExecuteFunctions, itemIndex: number): { registrationID?: number | string; startedAt?: string; expiresAt: string } {
	const raw = executionCustomData(ctx, itemIndex).get(SESSION_KEY);
	let parsed: RecordedSession = {};
	try {
		parsed = (JSON.parse(raw ?? '') ?? {}) as RecordedSession;
	} catch {
		// Nothing readable recorded: refused below.
	}
	const { expiresAt, startedAt } = parsed;
	if (typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt))) {
		throw new NodeOperationError(ctx.getNode(), 'No identification was started in this execution to wait for', {
			description: 'Add an AccessPoint Identification Start (Send Browser Back To: This Execution) earlier on the path that leads here.',
		});
	}
	return { registrationID: toRegistrationId(parsed.registrationID), startedAt: typeof startedAt === 'string' ? startedAt : undefined, expiresAt };
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runOneItem(this, async (itemIndex) => {
		const options = readOptions(this, itemIndex);
		const resultRedirectUrl = readResultRedirectUrl(this, itemIndex, options);
		const session = readRecordedSession(this, itemIndex);
		// readOptions checked Extra Wait (0 to 3600 seconds).
		const waitTill = new Date(Date.parse(session.expiresAt) + (options.waitMarginSeconds ?? DEFAULT_WAIT_MARGIN_SECONDS) * 1000);
		const pending = { ...session, resultRedirectUrl, waitTill };
		// The window closed before this node was reached (e.g. a slow step in between): nothing can come back.
		if (waitTill.getTime() <= Date.now()) return twoOutputs([expiredItem(pending, itemIndex)], []);
		return await waitForCallback(this, pending, itemIndex);
	});
}
