/** The trigger's parameters, read and checked the same way at activation and on every delivery. */
import type { IHookFunctions, INode, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TriggerFiles } from '../shared/http/files';
import { checkTriggerFiles } from '../shared/http/files';
import type { RequestOptionValues, RetryPolicy } from '../shared/http/retry';
import { policyFromOptions } from '../shared/http/retry';
import { checkNumericId, showValue } from '../shared/domain/validation';
import { requireValid } from '../shared/node/input';
import type { Subscription, TriggerEvent } from './events';
import { isTriggerEvent, subscriptionsFor } from './events';

export const DEFAULT_MAX_AGE_MINUTES = 5;

interface TriggerOptions extends RequestOptionValues {
	fetchFullOrder?: boolean;
	maxEventAgeMinutes?: number;
	includeFiles?: unknown;
	maxFileSizeMb?: unknown;
}

export interface TriggerSettings {
	events: TriggerEvent[];
	subscriptions: Subscription[];
	/** Undefined: the account itself (`/v1/webhooks`). */
	registrationId?: string;
	/** `account` or `registration:<id>`. */
	scope: string;
	fetchFullOrder: boolean;
	/** Include Files: the kinds each event's order carries, and the size bound; undefined when none. */
	files?: TriggerFiles;
	maxAgeMs: number;
	retry: RetryPolicy;
}

type Context = IHookFunctions | IWebhookFunctions;

export function problem(ctx: { getNode(): INode }, message: string, description: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { description });
}

/** Offered by 0.1; the service calls no webhook when an order is deleted (README, "AccessPoint Trigger"). */
const ORDER_DELETED = 'orderDeleted';

/**
 * The trigger's parameters, checked. At activation (`strict`) a selection still holding 0.1's
 * Order Deleted is refused with what to do, before any request; webhook() (`strict` false)
 * reads the other events, so a workflow published before the upgrade keeps receiving them.
 */
export function readSettings(ctx: Context, { strict = true }: { strict?: boolean } = {}): TriggerSettings {
	const rawEvents = ctx.getNodeParameter('events', []) as unknown;
	let list = Array.isArray(rawEvents) ? rawEvents : [rawEvents];
	if (list.includes(ORDER_DELETED)) {
		if (strict) {
			throw problem(
				ctx,
				'"Events" holds Order Deleted, which this trigger no longer offers: the AccessPoint service calls no webhook when an order is deleted. Remove it from Events and publish again.',
				'A deleted order is listed by the API at GET /v1/orders/deleted; the Order node or the Order Trigger can watch its other changes.',
			);
		}
		list = list.filter((e) => e !== ORDER_DELETED);
	}
	const unknown = list.filter((e) => !isTriggerEvent(e));
	if (unknown.length) {
		throw problem(ctx, `"Events" holds ${showValue(unknown[0])}, which is not an event of this trigger`, 'Pick the events from the list.');
	}
	const events = list as TriggerEvent[];
	if (!events.length) throw problem(ctx, '"Events" is empty', 'Select at least one event, e.g. Delivery Status Changed.');

	const source = ctx.getNodeParameter('source', 'account') as string;
	if (source !== 'account' && source !== 'registration') {
		throw problem(ctx, `"Receive Events Of" ${showValue(source)} is not a choice of this trigger`, 'Pick "This Account" or "A Registered Entity".');
	}
	const registrationId =
		source === 'registration'
			? requireValid(ctx, undefined, 'Registration', ctx.getNodeParameter('registrationId', '', { extractValue: true }), (v) =>
					checkNumericId(v, 'RegistrationID'),
				)
			: undefined;

	const options = (ctx.getNodeParameter('options', {}) ?? {}) as TriggerOptions;
	const minutes = options.maxEventAgeMinutes ?? DEFAULT_MAX_AGE_MINUTES;
	if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60) {
		throw problem(
			ctx,
			`"Maximum Event Age (Minutes)" must be a number above 0 and at most 1440, not ${showValue(options.maxEventAgeMinutes)}`,
			'Leave it at 5 unless n8n and the service disagree about the time or deliveries are delayed.',
		);
	}
	if (options.fetchFullOrder !== undefined && typeof options.fetchFullOrder !== 'boolean') {
		throw problem(
			ctx,
			`"Fetch Full Order" must be on or off, not ${showValue(options.fetchFullOrder)}`,
			'Use the toggle, or an expression that gives true or false.',
		);
	}
	const files = checkTriggerFiles(ctx.getNode(), options.includeFiles ?? [], options.maxFileSizeMb);
	return {
		events,
		subscriptions: subscriptionsFor(events),
		registrationId,
		scope: registrationId === undefined ? 'account' : `registration:${registrationId}`,
		fetchFullOrder: options.fetchFullOrder === true,
		files,
		maxAgeMs: Math.round(minutes * 60_000),
		retry: policyFromOptions(options),
	};
}

/** Only the request options: removing webhooks must not depend on the other parameters still being valid. */
export function readRetry(ctx: Context): RetryPolicy {
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as TriggerOptions;
	return policyFromOptions(options && typeof options === 'object' ? options : {});
}
