/**
 * The Order Trigger's poll: asks the API only for what changed since the stored cursor and lets
 * cursor.ts decide what to emit. The cursor is written only after every page was read, so a
 * failed poll leaves it as it was. What the poll works around (a damaged cursor, records it
 * cannot place, a cursor ahead of the clock) is a warning in n8n's log, never a failure.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { OnFileError } from '../shared/node/files';
import { checkTriggerFiles, DEFAULT_MAX_FILE_MB, itemWithFiles } from '../shared/node/files';
import { listEntries, readListPage } from '../shared/http/paging';
import { getOrder } from '../shared/node/order';
import { readQuery } from '../shared/node/queryInput';
import { checkActForParty, checkRequestOptions } from '../shared/fields/fields';
import { claimPoll } from '../shared/node/inFlight';
import type { PollClaim } from '../shared/node/inFlight';
import { inputError, requireValid } from '../shared/node/input';
import { checkChoice, checkNumber, checkOptionalText } from '../shared/domain/validation';
import type { ApiClient, ApiResponse } from '../shared/http/transport';
import { getApiClient, paginateList } from '../shared/node/client';
import type { CursorState, PollClock, TriggerEvent, Unplaced } from './cursor';
import {
	afterPage,
	baselineNeedsMore,
	baselineState,
	cursorCeiling,
	cursorEvent,
	decidePoll,
	FIRST_PAGE,
	formatSeconds,
	isZoneless,
	loadState,
	lowerBound,
	NEWEST_FIRST,
	OLDEST_FIRST,
	parseHttpDate,
	parseTimestamp,
	place,
	scopeKey,
	serviceClock,
	stateFromDate,
	triggerFilter,
} from './cursor';

const ORDERS_PATH = '/v1/orders';
/** Key of the cursor in the node's static data. */
const STATE_KEY = 'orderCursor';
/** Share of the engine's poll budget spent on fetching before returning what was read. */
const BUDGET_SHARE = 0.8;
/** Requests one poll makes at most; the next poll carries on from the newest second read. */
export const MAX_PAGES_PER_POLL = 1000;

interface TriggerOptions {
	actForParty?: string;
	startFrom?: string;
	lateWindowSeconds?: number;
	maxRetries?: number;
	retryDelayMs?: number;
	timeoutSeconds?: number;
	maxResponseSizeMb?: number;
}

interface TriggerSettings {
	event: TriggerEvent;
	orderType: string;
	direction: string;
	options: TriggerOptions;
	startFrom?: number;
	lateWindowSeconds: number;
}

const hostSeconds = (): number => Math.floor(Date.now() / 1000);

function readSettings(ctx: IPollFunctions): TriggerSettings {
	const event = ctx.getNodeParameter('event', 'newOrder') as TriggerEvent;
	// An object from an expression is refused, not filtered on as "[object Object]".
	const orderType = requireValid(ctx, undefined, 'Order Type', ctx.getNodeParameter('orderType', ''), (v) => checkOptionalText(v, 50));
	if (event === 'newIncomingInvoice' && !['', 'Invoice', 'CreditNote'].includes(orderType))
		throw inputError(ctx, undefined, 'Order Type', orderType, 'is not a supplier invoice', 'Pick Any, Invoice or Credit Note, or Trigger On another event.');
	const direction = requireValid(ctx, undefined, 'Direction', ctx.getNodeParameter('direction', ''), (v) => checkOptionalText(v, 50));
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as TriggerOptions;
	const startText = String(options.startFrom ?? '').trim();
	const startFrom = startText ? parseTimestamp(startText) : undefined;
	// A cursor ahead of the clock is moved back to "now" (cursor.ts): a future start would not mean what it says.
	const problem =
		startFrom === undefined
			? startText && ['is not a valid date', 'Use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss (Belgian time unless a zone is given)']
			: startFrom > serviceClock(hostSeconds(), isZoneless(startText)) && ['is in the future', 'Use a past date'];
	if (problem) throw inputError(ctx, undefined, 'Start From', startText, problem[0], `${problem[1]}, or leave it empty to start from now.`);
	const late = requireValid(ctx, undefined, 'Late Change Window (Seconds)', options.lateWindowSeconds ?? 0, (v) =>
		checkNumber(v, { min: 0, whole: true, unit: ' seconds' }),
	);
	return { event, orderType, direction, options, startFrom, lateWindowSeconds: late };
}

/** A list query: the user's conditions (builder or raw) ANDed with type, direction and, when given, the cursor bound. */
function listQuery(ctx: IPollFunctions, settings: TriggerSettings, $orderby: string, modifiedFrom?: string): IDataObject {
	const { $filter } = readQuery(ctx, undefined, 'order', triggerFilter({ ...settings, modifiedFrom }));
	return $filter ? { $orderby, $filter } : { $orderby };
}

function warn(ctx: IPollFunctions, text: string): void {
	const node = ctx.getNode();
	ctx.logger.warn(`AccessPoint Order Trigger "${node.name}": ${text}`, { nodeName: node.name, nodeType: node.type });
}

function reportSkipped(ctx: IPollFunctions, skipped: Unplaced[]): void {
	if (!skipped.length) return;
	const shown = skipped.slice(0, 5).map((s) => s.problem);
	const more = skipped.length > shown.length ? `, and ${skipped.length - shown.length} more` : '';
	warn(ctx, `skipped ${skipped.length} record(s) it cannot place in LastModified/OrderID order: ${shown.join('; ')}${more}. They are not emitted.`);
}

/** Manual mode ("Fetch Test Event"): the most recently changed matching order, cursor untouched. */
async function sample(ctx: IPollFunctions, client: ApiClient, qs: IDataObject): Promise<IDataObject[]> {
	const orders: IDataObject[] = [];
	for await (const page of paginateList.call(ctx, client, { path: ORDERS_PATH, qs, limit: 1, operation: 'List orders (test event)' })) {
		orders.push(...page.filter((record) => 'id' in place(record)));
	}
	return orders;
}

function headerValue(headers: ApiResponse['headers'], name: string): string | undefined {
	const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === name);
	const value = key ? headers[key] : undefined;
	return Array.isArray(value) ? value[0] : value;
}

interface ListRun {
	records: unknown[];
	/** The earliest `Date` the API answered with, epoch seconds. */
	apiNow?: number;
	/** False when the run stopped before the end of the list (time budget, page cap, a stalled list). */
	complete: boolean;
	shifts: number;
}

interface RunSpec {
	operation: string;
	qs: IDataObject;
	deadline?: number;
	beat?: () => void; // A page was read (the in-flight marker is refreshed).
	/** After a shift: the query that starts the run again, and which records read so far stay. */
	restart: (read: unknown[]) => { qs: IDataObject; keep: unknown[] };
	enough?: (read: unknown[], apiNow: number | undefined) => boolean;
}

/** Pages through a sorted list with one record of overlap per page (cursor.ts afterPage). */
async function readRun(client: ApiClient, spec: RunSpec): Promise<ListRun> {
	let qs = spec.qs;
	let plan = FIRST_PAGE;
	let read: unknown[] = [];
	let apiNow: number | undefined;
	let shifts = 0;
	const end = (complete: boolean): ListRun => ({ records: read, apiNow, complete, shifts });
	for (let pages = 0; ; ) {
		if (pages >= MAX_PAGES_PER_POLL) return end(false);
		const response = await client.requestFull({
			method: 'GET',
			path: ORDERS_PATH,
			qs: plan.skip > 0 ? { ...qs, $skip: plan.skip } : qs,
			operation: spec.operation,
		});
		pages++;
		spec.beat?.();
		const date = parseHttpDate(headerValue(response.headers, 'date'));
		if (date !== undefined) apiNow = apiNow === undefined ? date : Math.min(apiNow, date);
		// Odd entries keep their place: paging counts positions, and the cursor skips them with a notice.
		const outcome = afterPage(plan, listEntries(response.body), readListPage(response.body).nextLink !== undefined);
		if (outcome.kind === 'shifted') {
			shifts++;
			({ qs, keep: read } = spec.restart(read));
			plan = FIRST_PAGE;
		} else {
			for (const record of outcome.records) read.push(record);
			if (!outcome.next) return end(!outcome.stalled);
			if (spec.enough?.(read, apiNow)) return end(true);
			plan = outcome.next;
		}
		// Out of time: stop at a page boundary; the cursor only moves over what was read.
		if (spec.deadline !== undefined && Date.now() > spec.deadline) return end(false);
	}
}

/** The clocks of a run in the frame of the stamps read (zoneless LastModified is Belgian time: cursor.ts serviceClock). */
function clockOf(run: Pick<ListRun, 'records' | 'apiNow'>): PollClock {
	const stamp = run.records.find((record) => typeof (record as IDataObject | null)?.LastModified === 'string') as IDataObject | undefined;
	const zoneless = isZoneless(stamp?.LastModified);
	return { api: run.apiNow === undefined ? undefined : serviceClock(run.apiNow, zoneless), host: serviceClock(hostSeconds(), zoneless) };
}

/** First activation (or a cursor beyond repair) without a start date: the newest change in the book is "now". */
async function baseline(client: ApiClient, settings: TriggerSettings, scope: string, deadline?: number, beat?: () => void): Promise<CursorState> {
	const late = settings.lateWindowSeconds;
	const qs = { $orderby: NEWEST_FIRST };
	const run = await readRun(client, {
		operation: 'List orders (trigger start)',
		qs,
		deadline,
		beat,
		// Newest first, a shift can hide a record the start must mark as handled: read again from the top.
		restart: () => ({ qs, keep: [] }),
		enough: (read, apiNow) => !baselineNeedsMore(read, { clock: clockOf({ records: read, apiNow }), lateWindowSeconds: late }),
	});
	return baselineState(run.records, scope, { clock: clockOf(run), lateWindowSeconds: late });
}

function pollDeadline(ctx: IPollFunctions): number | undefined {
	const budget = ctx.getPollBudgetMs?.(); // older n8n versions have none
	return Number.isFinite(budget) && budget > 0 ? Date.now() + budget * BUDGET_SHARE : undefined;
}

/** The newest LastModified second among records read (they come oldest first, but unplaceable ones sit anywhere). */
function newestSecond(read: unknown[]): number | undefined {
	let newest: number | undefined;
	for (const record of read) {
		const placed = place(record);
		if ('id' in placed) newest = newest === undefined ? placed.modified : Math.max(newest, placed.modified);
	}
	return newest;
}

/** One poll (or the manual-mode sample); with Include Files, every order it emits carries the picked files. */
export async function pollOrders(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const files = checkTriggerFiles(
		this.getNode(),
		this.getNodeParameter('includeFiles', []),
		this.getNodeParameter('options.maxFileSizeMb', DEFAULT_MAX_FILE_MB),
	);
	const onError = (
		files
			? requireValid(this, undefined, 'On File Error', this.getNodeParameter('options.onFileError', 'emit'), (v) => checkChoice(v, ['emit', 'fail']))
			: 'emit'
	) as OnFileError;
	const settings = readSettings(this);
	const newestFirst = listQuery(this, settings, NEWEST_FIRST); // the conditions are checked before any request
	const client = await getApiClient.call(this, {
		partyId: checkActForParty(this, undefined, settings.options.actForParty),
		retry: checkRequestOptions(this, undefined, settings.options),
	});
	const staticData = this.getWorkflowStaticData('node');
	const saved = JSON.stringify(staticData);
	const orders = this.getMode() === 'manual' ? await sample(this, client, newestFirst) : await stepAside(this, client, settings, staticData);
	if (!orders.length) return null;
	const items = this.helpers.returnJsonArray(orders);
	if (!files) return [items];
	try {
		const withFiles: INodeExecutionData[] = [];
		for (const item of items) {
			const read = getOrder(client, item.json.OrderID as number | string, 0);
			const order = onError === 'fail' ? await read : await read.catch((error: unknown) => error as Error);
			withFiles.push(
				order instanceof Error
					? // Deleted since it was listed, say: the order as listed, its files named as unread.
						{ ...item, json: { ...item.json, Files: [], FileErrors: [{ file: 'order', reason: order.message }] } }
					: await itemWithFiles(this, client, item, order, files.kinds, { maxBytes: files.maxBytes, onError }),
			);
		}
		return [withFiles];
	} catch (error) {
		// The node's static data as before the poll: the cursor does not move.
		for (const key of Object.keys(staticData)) delete staticData[key];
		Object.assign(staticData, JSON.parse(saved) as IDataObject);
		throw error instanceof NodeApiError ? error : new NodeOperationError(this.getNode(), error as Error);
	}
}

/** n8n 2.41 may start the next poll while a slow one still runs, on the same static data: one at a time (inFlight.ts). */
async function stepAside(ctx: IPollFunctions, client: ApiClient, settings: TriggerSettings, staticData: IDataObject): Promise<IDataObject[]> {
	const claim = claimPoll(staticData);
	if (!claim) return [];
	try {
		return await pollFrom.call(ctx, client, settings, staticData, claim);
	} finally {
		claim.release();
	}
}

/** One poll from the stored cursor: read what changed, emit what is new, move the cursor. */
async function pollFrom(this: IPollFunctions, client: ApiClient, settings: TriggerSettings, staticData: IDataObject, claim: PollClaim): Promise<IDataObject[]> {
	const scope = scopeKey(client.partyId, settings.startFrom === undefined ? undefined : String(settings.startFrom));
	const deadline = pollDeadline(this);
	const stored = loadState(staticData[STATE_KEY], scope);
	if (stored.kind === 'repaired')
		warn(
			this,
			`its stored cursor was damaged (${stored.problem}). It carries on from ${lowerBound(stored.state) ?? 'the start of the order book'} (the service's time).`,
		);
	if (stored.kind === 'unusable')
		warn(this, `its stored cursor could not be read (${stored.problem}); it restarts from now ("Start From" replays earlier changes).`);
	if (!('state' in stored) && (stored.kind === 'unusable' || settings.startFrom === undefined)) {
		const start = await baseline(client, settings, scope, deadline, claim.beat);
		if (claim.owned()) staticData[STATE_KEY] = start as unknown as IDataObject;
		return [];
	}
	const state = 'state' in stored ? stored.state : stateFromDate(settings.startFrom!, scope);

	const changesSince = (bound: string | undefined): IDataObject => listQuery(this, settings, OLDEST_FIRST, bound);
	const run = await readRun(client, {
		operation: 'List changed orders',
		qs: changesSince(lowerBound(state)),
		deadline,
		beat: claim.beat,
		// Everything before the last record read was read; ask again from its second.
		restart: (read) => {
			const newest = newestSecond(read);
			const from = newest === undefined ? state.from : Math.max(newest, state.from ?? -Infinity);
			return { qs: changesSince(from === null ? undefined : formatSeconds(from)), keep: read };
		},
	});

	const clock = clockOf(run);
	const decision = decidePoll(state, run.records, {
		event: cursorEvent(settings.event),
		lateWindowSeconds: settings.lateWindowSeconds,
		complete: run.complete,
		clock,
	});
	reportSkipped(this, decision.skipped);
	if (decision.rewound) {
		const by = clock.api === undefined ? "n8n's clock (the API sent no Date header)" : `the API's clock (${formatSeconds(clock.api)}, the service's time)`;
		warn(this, `its stored cursor (${lowerBound(state) ?? '-'}) was ahead of ${by}; it was moved back to ${formatSeconds(cursorCeiling(clock))}.`);
	}
	if (run.shifts) this.logger.debug(`AccessPoint Order Trigger: the order list shifted ${run.shifts} time(s) while paging`);
	if (!claim.owned()) return []; // taken over by a later poll, which emits these (inFlight.ts)
	staticData[STATE_KEY] = decision.next as unknown as IDataObject;
	return decision.emit;
}
