/**
 * The Order Trigger's poll: reads the parameters, asks the API only for what changed
 * since the stored cursor, and lets cursor.ts decide what to emit. The cursor is
 * written to static data only after every page was read, so a failed poll leaves it
 * where it was and the error reaches n8n.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readQuery } from '../shared/queryInput';
import { checkActForParty, checkRequestOptions } from '../shared/fields';
import { requireValid } from '../shared/input';
import { checkNumber, checkOptionalText } from '../shared/validation';
import type { ApiClient } from '../shared/transport';
import { getApiClient, paginateList } from '../shared/transport';
import type { CursorState, OrderEvent } from './cursor';
import {
	baselineNeedsMore,
	baselineState,
	CursorError,
	decidePoll,
	lowerBound,
	parseTimestamp,
	readState,
	scopeKey,
	stateFromDate,
} from './cursor';
import { NEWEST_FIRST, OLDEST_FIRST, triggerFilter } from './query';

const ORDERS_PATH = '/v1/orders';
/** Key of the cursor in the node's static data. */
const STATE_KEY = 'orderCursor';
/** Share of the engine's poll budget spent on fetching before returning what was read. */
const BUDGET_SHARE = 0.8;

interface TriggerOptions {
	actForParty?: string;
	startFrom?: string;
	lateWindowSeconds?: number;
	rawFilter?: string;
	maxRetries?: number;
	retryDelayMs?: number;
	timeoutSeconds?: number;
}

interface TriggerSettings {
	event: OrderEvent;
	orderType: string;
	direction: string;
	options: TriggerOptions;
	startFrom?: number;
	lateWindowSeconds: number;
}

function readSettings(ctx: IPollFunctions): TriggerSettings {
	const event = ctx.getNodeParameter('event', 'newOrder') as OrderEvent;
	// An object from an expression is refused, not filtered on as "[object Object]".
	const orderType = requireValid(ctx, undefined, 'Order Type', ctx.getNodeParameter('orderType', ''), (v) => checkOptionalText(v, 50));
	const direction = requireValid(ctx, undefined, 'Direction', ctx.getNodeParameter('direction', ''), (v) => checkOptionalText(v, 50));
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as TriggerOptions;
	let startFrom: number | undefined;
	const startText = options.startFrom === undefined || options.startFrom === null ? '' : String(options.startFrom).trim();
	if (startText) {
		startFrom = parseTimestamp(startText);
		if (startFrom === undefined) {
			throw new NodeOperationError(ctx.getNode(), `"Start From" ${startText.slice(0, 60)} is not a valid date`, {
				description: 'Use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss (UTC unless a zone such as +02:00 is given), or leave it empty to start from now.',
			});
		}
	}
	const late = requireValid(ctx, undefined, 'Late Change Window (Seconds)', options.lateWindowSeconds ?? 0, (v) =>
		checkNumber(v, { min: 0, whole: true, unit: ' seconds' }),
	);
	return { event, orderType, direction, options, startFrom, lateWindowSeconds: late };
}


/** The user's conditions (builder or raw) ANDed with type, direction and, when given, the cursor bound. */
function buildFilter(ctx: IPollFunctions, settings: TriggerSettings, modifiedFrom?: string): string | undefined {
	const own = triggerFilter({ orderType: settings.orderType, direction: settings.direction, modifiedFrom });
	const query = readQuery(ctx, undefined, 'order', { filters: 'filters', combine: 'filterCombine', rawFilter: 'options.rawFilter' }, own);
	return query.$filter;
}

function cursorProblem(ctx: IPollFunctions, error: unknown): unknown {
	if (!(error instanceof CursorError)) return error;
	return new NodeOperationError(ctx.getNode(), error.message, {
		description:
			'The trigger orders changes by LastModified and OrderID; an order without them cannot be emitted exactly once. The cursor was not moved.',
	});
}

/** Manual mode ("Fetch Test Event"): the most recently changed matching order, cursor untouched. */
async function sample(ctx: IPollFunctions, client: ApiClient, settings: TriggerSettings): Promise<INodeExecutionData[][] | null> {
	const qs: IDataObject = { $orderby: NEWEST_FIRST };
	const filter = buildFilter(ctx, settings);
	if (filter) qs.$filter = filter;
	const orders: IDataObject[] = [];
	for await (const page of paginateList.call(ctx, client, { path: ORDERS_PATH, qs, limit: 1, operation: 'List orders (test event)' })) {
		orders.push(...page);
	}
	return orders.length ? [ctx.helpers.returnJsonArray(orders)] : null;
}

/** First activation without a start date: the newest change in the book is "now". */
async function baseline(ctx: IPollFunctions, client: ApiClient, settings: TriggerSettings, scope: string): Promise<CursorState> {
	const newestFirst: IDataObject[] = [];
	const pages = paginateList.call(ctx, client, {
		path: ORDERS_PATH,
		qs: { $orderby: NEWEST_FIRST },
		operation: 'List orders (trigger start)',
	});
	for await (const page of pages) {
		newestFirst.push(...page);
		if (!baselineNeedsMore(newestFirst, settings.lateWindowSeconds)) break;
	}
	return baselineState(newestFirst, scope, settings.lateWindowSeconds);
}

function pollDeadline(ctx: IPollFunctions): number | undefined {
	const budget = typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : undefined;
	return typeof budget === 'number' && Number.isFinite(budget) && budget > 0 ? Date.now() + budget * BUDGET_SHARE : undefined;
}

export async function pollOrders(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	// Validate the conditions before any request (they name the condition that is wrong).
	buildFilter(this, settings);
	const client = await getApiClient.call(this, {
		partyId: checkActForParty(this, undefined, settings.options.actForParty),
		retry: checkRequestOptions(this, undefined, settings.options),
	});

	if (this.getMode() === 'manual') return await sample(this, client, settings);

	const staticData = this.getWorkflowStaticData('node');
	const scope = scopeKey(client.partyId, settings.startFrom === undefined ? undefined : String(settings.startFrom));
	let state = readState(staticData[STATE_KEY], scope);
	if (!state) {
		if (settings.startFrom === undefined) {
			try {
				staticData[STATE_KEY] = (await baseline(this, client, settings, scope)) as unknown as IDataObject;
			} catch (error) {
				throw cursorProblem(this, error);
			}
			return null;
		}
		state = stateFromDate(settings.startFrom, scope);
	}

	const filter = buildFilter(this, settings, lowerBound(state));
	const qs: IDataObject = { $orderby: OLDEST_FIRST };
	if (filter) qs.$filter = filter;
	const deadline = pollDeadline(this);
	const fetched: IDataObject[] = [];
	let complete = true;
	for await (const page of paginateList.call(this, client, { path: ORDERS_PATH, qs, operation: 'List changed orders' })) {
		fetched.push(...page);
		// Out of time: stop at a page boundary; the cursor only moves over what was read.
		if (deadline !== undefined && Date.now() > deadline) {
			complete = false;
			break;
		}
	}

	let decision;
	try {
		decision = decidePoll(state, fetched, {
			event: settings.event,
			lateWindowSeconds: settings.lateWindowSeconds,
			complete,
		});
	} catch (error) {
		throw cursorProblem(this, error);
	}
	staticData[STATE_KEY] = decision.next as unknown as IDataObject;
	return decision.emit.length ? [this.helpers.returnJsonArray(decision.emit)] : null;
}
