/**
 * The Inbox Trigger: its description and its poll, which lists the inbox, confirms what an earlier
 * poll emitted (Confirm After Emitting), emits each item not emitted before with its document
 * (state.ts decides). The state is written only once everything is read. What it works around (a damaged state, a blocked
 * inbox, a failed confirm) is a warning in n8n's log, never a failure.
 */
import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { authenticationProperty, shownFor } from '../shared/fields/credentialFields';
import { actForPartyOption, checkActForParty, checkRequestOptions, retryOptions } from '../shared/fields/fields';
import { checkFileId, checkMaxFileSize, DEFAULT_MAX_FILE_MB, maxFileSizeOption } from '../shared/node/files';
import { inputError, requireValid } from '../shared/node/input';
import type { ApiClient } from '../shared/http/transport';
import { getApiClient } from '../shared/node/client';
import { checkBoolean } from '../shared/domain/validation';
import { INBOX_WINDOW, itemKey, listInbox, readableFirst, readInboxDocument, settleItem, withDocumentFields } from '../shared/node/inbox';
import { claimPoll } from '../shared/node/inFlight';
import type { PollClaim } from '../shared/node/inFlight';
import type { InboxState, Listed } from './state';
import { dueConfirms, isBlocked, loadState, newItems, nextState } from './state';

const STATE_KEY = 'inboxState';
/** New items one poll reads and emits at most (the list holds 10; a server listing more is read on in later polls). */
const MAX_PER_POLL = 20;

interface Settings {
	autoConfirm: boolean;
	keepEnvelope: boolean;
	maxBytes: number;
	partyId?: string;
	options: IDataObject;
}

function readSettings(ctx: IPollFunctions): Settings {
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const autoConfirm = requireValid(ctx, undefined, 'Confirm After Emitting', ctx.getNodeParameter('confirmAfterEmitting', false), checkBoolean);
	const keepEnvelope = requireValid(ctx, undefined, 'Keep Peppol Envelope', options.keepEnvelope ?? false, checkBoolean);
	const size = checkMaxFileSize(options.maxFileSizeMb);
	if ('problem' in size) {
		throw inputError(
			ctx,
			undefined,
			'Maximum File Size (MB)',
			undefined,
			size.problem,
			`Enter the largest file to accept, in MB (default ${DEFAULT_MAX_FILE_MB}).`,
		);
	}
	return { autoConfirm, keepEnvelope, maxBytes: size.bytes, partyId: checkActForParty(ctx, undefined, options.actForParty), options };
}

function warn(ctx: IPollFunctions, text: string): void {
	const node = ctx.getNode();
	ctx.logger.warn(`AccessPoint Peppol Inbox Trigger "${node.name}": ${text}`, { nodeName: node.name, nodeType: node.type });
}

const BLOCKED =
	'the inbox lists only its 10 oldest items until they are confirmed or refused, and all 10 were emitted: confirm or refuse them, or turn on Confirm After Emitting.';

async function listed(ctx: IPollFunctions, client: ApiClient): Promise<Listed[]> {
	const { items, notice } = await listInbox(ctx, client);
	if (notice) warn(ctx, notice);
	return items.map((item) => ({ key: itemKey(item) as string, item }));
}

/** A failure that may pass (no answer, the service busy or down, the credential refused): the poll fails and is tried again. */
function mayPass(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return !(error instanceof NodeOperationError);
	const status = Number(error.httpCode ?? NaN);
	return Number.isNaN(status) ? Boolean(error.context.apiCode) : [401, 403, 408, 429].includes(status) || status >= 500;
}

/**
 * An item with its document; a document that cannot be had for good (over Maximum File Size by any amount, an answer
 * that is not its file: no or no base64 FileContent, another FileID; gone) is named in DocumentProblem, and the poll goes on.
 */
async function withDocument(ctx: IPollFunctions, client: ApiClient, item: IDataObject, settings: Settings): Promise<{ out: INodeExecutionData; ok: boolean }> {
	const fileId = checkFileId(item.PeppolFileID);
	if (!fileId.ok) {
		return { out: { json: readableFirst({ ...item, DocumentProblem: 'No usable PeppolFileID; the document was not read.' }) }, ok: false };
	}
	try {
		const { maxBytes, keepEnvelope } = settings;
		const document = await readInboxDocument(ctx, client, fileId.value, { maxBytes, keepEnvelope, property: 'data', hint: item.PeppolDocumentType });
		return { out: { ...document, json: withDocumentFields(item, document.json) }, ok: !document.json.DocumentProblem };
	} catch (error) {
		if (mayPass(error)) throw error instanceof NodeApiError ? error : new NodeOperationError(ctx.getNode(), error as Error);
		return { out: { json: readableFirst({ ...item, DocumentProblem: `The document could not be read: ${(error as Error).message}` }) }, ok: false };
	}
}

/** Manual mode ("Fetch Test Event"): the oldest item with its document; nothing confirmed, state untouched. */
async function sample(ctx: IPollFunctions, client: ApiClient, settings: Settings): Promise<INodeExecutionData[][] | null> {
	const list = await listed(ctx, client);
	if (!list.length) return null;
	const { out } = await withDocument(ctx, client, list[0].item, settings);
	const { state } = loadState(ctx.getWorkflowStaticData('node')[STATE_KEY], client.partyId);
	if (isBlocked(state, list, INBOX_WINDOW)) out.json.InboxNotice = `The active trigger emits nothing new: ${BLOCKED}`;
	return [[out]];
}

async function pollInbox(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	const client = await getApiClient.call(this, { partyId: settings.partyId, retry: checkRequestOptions(this, undefined, settings.options) });
	if (this.getMode() === 'manual') return await sample(this, client, settings);
	const staticData = this.getWorkflowStaticData('node');
	const claim = claimPoll(staticData); // inFlight.ts: one poll at a time emits
	if (!claim) return null;
	try {
		return await pollOnce(this, client, settings, claim);
	} finally {
		claim.release();
	}
}

async function pollOnce(ctx: IPollFunctions, client: ApiClient, settings: Settings, claim: PollClaim): Promise<INodeExecutionData[][] | null> {
	const staticData = ctx.getWorkflowStaticData('node');
	const loaded = loadState(staticData[STATE_KEY], client.partyId);
	if (loaded.problem) warn(ctx, `its stored state could not be used (${loaded.problem}); listed items are emitted again.`);
	const state: InboxState = settings.autoConfirm ? loaded.state : { ...loaded.state, toConfirm: [] };

	let list = await listed(ctx, client);
	const confirmed: string[] = [];
	for (const key of dueConfirms(state, list)) {
		claim.beat();
		try {
			await settleItem(client, key, 'confirm');
			confirmed.push(key);
		} catch (error) {
			warn(ctx, `confirming inbox item ${key} failed (${(error as Error).message}); retried next poll.`);
		}
	}
	// Confirmed items make room: a full list is read again to see the items behind them.
	if (confirmed.length && list.length >= INBOX_WINDOW) list = await listed(ctx, client);
	else list = list.filter((entry) => !confirmed.includes(entry.key));

	const fresh = newItems(state, list).slice(0, MAX_PER_POLL);
	const out: INodeExecutionData[] = [];
	const confirmLater: string[] = [];
	for (const { key, item } of fresh) {
		claim.beat();
		const { out: emitted, ok } = await withDocument(ctx, client, item, settings);
		out.push(emitted);
		if (settings.autoConfirm && ok) confirmLater.push(key);
	}
	if (!claim.owned()) {
		warn(ctx, 'a poll that made no step for 10 minutes was taken over by a later one, which emits its items; it emits nothing.');
		return null;
	}
	const next = nextState(state, { listed: list, emitted: fresh.map((entry) => entry.key), confirmLater, confirmed });
	if (!fresh.length && isBlocked(next, list, INBOX_WINDOW)) warn(ctx, BLOCKED);
	staticData[STATE_KEY] = next as unknown as IDataObject;
	return out.length ? [out] : null;
}

export class AccessPointInboxTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AccessPoint Peppol Inbox Trigger',
		name: 'accessPointInboxTrigger',
		icon: { light: 'file:../../icons/accessPointInboxTrigger.svg', dark: 'file:../../icons/accessPointInboxTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["confirmAfterEmitting"] ? "New inbox items, confirmed" : "New inbox items" }}',
		// n8n's node panel lists this trigger inside the AccessPoint Peppol Inbox entry and shows this text for both.
		description: 'Work the Peppol inbox and start a workflow for each new document',
		documentationUrl: 'https://github.com/n8n-nodes-access-point/n8n-nodes-access-point#peppol-inbox-trigger',
		defaults: { name: 'AccessPoint Peppol Inbox Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'accessPointApi', required: true, displayOptions: shownFor('apiKey') },
			{ name: 'accessPointOAuth2Api', required: true, displayOptions: shownFor('oAuth2') },
		],
		properties: [
			authenticationProperty,
			{
				displayName: 'The inbox lists only its 10 oldest items until they are confirmed or refused: turn on Confirm After Emitting or confirm in the workflow.',
				name: 'windowNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { confirmAfterEmitting: [false] } }, // not a to-do once it is on
			},
			{
				displayName: 'Confirm After Emitting',
				name: 'confirmAfterEmitting',
				type: 'boolean',
				default: false,
				description: 'Whether to confirm each emitted item at the next poll, unless its document could not be read',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					actForPartyOption,
					{
						displayName: 'Keep Peppol Envelope',
						name: 'keepEnvelope',
						type: 'boolean',
						default: false,
						description: 'Whether the document keeps its Peppol routing envelope (SBDH)',
					},
					{ ...maxFileSizeOption, description: 'The largest document read; a larger one is emitted without it' },
					...retryOptions,
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollInbox.call(this);
	}
}
