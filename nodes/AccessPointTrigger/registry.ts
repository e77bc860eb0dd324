/**
 * The trigger's webhookMethods: the API webhooks that make the service call this workflow.
 *
 *  - checkExists: the stored webhooks still exist at the API, for this URL, scope and events
 *    (n8n calls it on every activation, restarts included, so nothing is created twice);
 *    stale ones are removed first.
 *  - create: one API webhook per entity/update type the events need; id + secret go to the
 *    node's static data. A failure removes what this call created before it is reported,
 *    because n8n's clean-up after a failed activation reads static data that was never saved.
 *  - delete: every stored webhook; one already gone (404) is not an error.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isLoopbackHost } from '../shared/baseUrl';
import type { ApiClient } from '../shared/transport';
import { getApiClient, paginateList } from '../shared/transport';
import type { Subscription } from './events';
import { describeSubscriptions } from './events';
import type { RetryPolicy } from '../shared/retry';
import type { TriggerSettings } from './settings';
import { readRetry, readSettings } from './settings';
import type { StoredWebhook, StoredWebhooks } from './state';
import { clearWebhooks, matchesWanted, readWebhooks, writeWebhooks } from './state';

/** The service's published limit (client libraries report it; the API answers 400 beyond it). */
export const WEBHOOKS_PER_PARTY = 4;
/** Most webhooks read when listing a party's (the limit is 4; a bound all the same). */
const LIST_LIMIT = 200;
const SHOWN = 6;

function statusOf(error: unknown): number | undefined {
	const code = (error as { httpCode?: unknown })?.httpCode;
	const n = Number(code);
	return Number.isInteger(n) && n > 0 ? n : undefined;
}

function textOf(error: unknown): string {
	const e = error as { message?: unknown; description?: unknown; context?: IDataObject };
	return [e?.message, e?.description, e?.context?.apiDescription].filter((x) => typeof x === 'string').join(' ');
}

/** The URL the service must call, refused before any request when the service could not call it. */
function webhookUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n gave no webhook URL for this trigger', { description: 'Save the workflow and publish it again.' });
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw new NodeOperationError(ctx.getNode(), `n8n's webhook URL for this trigger is not a URL: ${url}`, {
			description: 'Set WEBHOOK_URL to the public https address of this n8n (e.g. https://n8n.example.com/) and restart n8n.',
		});
	}
	if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
		throw new NodeOperationError(ctx.getNode(), `The AccessPoint service calls only https URLs, and this trigger's URL is ${url}`, {
			description:
				'Set WEBHOOK_URL to the public https address of this n8n (e.g. https://n8n.example.com/), restart n8n and publish again. Without a public https address, use the AccessPoint Order Trigger, which polls.',
		});
	}
	return url;
}

async function clientFor(ctx: IHookFunctions, retry: RetryPolicy, partyId?: string): Promise<ApiClient> {
	return await getApiClient.call(ctx, { partyId, retry });
}

function createPath(settings: TriggerSettings): string {
	return settings.registrationId === undefined
		? '/v1/webhooks'
		: `/v1/einvoices/registrations/${encodeURIComponent(settings.registrationId)}/webhooks`;
}

/** The party's webhooks as the API lists them (never with secrets). */
async function listWebhooks(ctx: IHookFunctions, client: ApiClient): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	for await (const page of paginateList.call(ctx, client, { path: '/v1/webhooks', limit: LIST_LIMIT, operation: 'List webhooks' })) all.push(...page);
	return all;
}

/** Deletes webhooks by id; answers the ones that could not be deleted (gone = deleted). */
async function deleteAll(ctx: IHookFunctions, client: ApiClient, retry: RetryPolicy, hooks: StoredWebhook[]): Promise<StoredWebhook[]> {
	const failed: StoredWebhook[] = [];
	for (const hook of hooks) {
		try {
			await client.request({
				method: 'DELETE',
				path: `/v1/webhooks/${encodeURIComponent(hook.id)}`,
				operation: `Delete webhook ${hook.id}`,
				// Deleting twice is harmless (the second is a 404), so transient failures are retried like reads.
				retry,
			});
		} catch (error) {
			if (statusOf(error) === 404) continue;
			ctx.logger.warn(`AccessPoint Trigger: could not delete webhook ${hook.id}: ${textOf(error).slice(0, 300)}`);
			failed.push(hook);
		}
	}
	return failed;
}

function sameUrl(a: unknown, b: string): boolean {
	return typeof a === 'string' && a.trim() === b;
}

export async function checkWebhooks(this: IHookFunctions): Promise<boolean> {
	const settings = readSettings(this);
	const url = webhookUrl(this);
	const staticData = this.getWorkflowStaticData('node');
	const stored = readWebhooks(staticData);
	if (!stored || stored.webhooks.length === 0) return false;
	const client = await clientFor(this, settings.retry, stored.partyId);
	if (matchesWanted(stored, url, settings.scope, settings.subscriptions)) {
		const listed = new Map((await listWebhooks(this, client)).map((w) => [String(w.WebhookID), w]));
		const alive = stored.webhooks.every((hook) => {
			const found = listed.get(hook.id);
			return (
				found !== undefined &&
				sameUrl(found.WebhookURL, url) &&
				String(found.EntityType) === hook.entityType &&
				String(found.EntityUpdateType) === hook.updateType
			);
		});
		if (alive) return true;
	}
	// Events, registration or n8n's URL changed, or some webhook was deleted at the service:
	// start over with a complete set (the ones left would otherwise count against the limit).
	await deleteAll(this, client, settings.retry, stored.webhooks);
	clearWebhooks(staticData);
	return false;
}

function describeExisting(list: IDataObject[]): string {
	const shown = list.slice(0, SHOWN).map((w) => {
		let target = String(w.WebhookURL ?? '');
		try {
			const u = new URL(target);
			target = `${u.host}${u.pathname}`;
		} catch {
			target = target.slice(0, 80);
		}
		return `#${String(w.WebhookID)} ${String(w.EntityType)} ${String(w.EntityUpdateType ?? 'all')} -> ${target}`;
	});
	return shown.join('; ') + (list.length > SHOWN ? `; and ${list.length - SHOWN} more` : '');
}

function isLimitAnswer(error: unknown, existing: IDataObject[] | undefined, needed: number): boolean {
	if (statusOf(error) !== 400) return false;
	const text = textOf(error);
	if (/webhook/i.test(text) && /(at most|limit|maximum|already has)/i.test(text)) return true;
	return existing !== undefined && existing.length + needed > WEBHOOKS_PER_PARTY;
}

/** The activation error for the per-party limit: how many exist, which, and what to do. */
function limitError(
	ctx: IHookFunctions,
	error: unknown,
	settings: TriggerSettings,
	existing: IDataObject[] | undefined,
	party: string,
): NodeOperationError {
	const needed = settings.subscriptions.length;
	const counted = existing?.length ?? Number(/already has (\d+)/i.exec(textOf(error))?.[1] ?? NaN);
	const has = Number.isFinite(counted) ? `already has ${counted} webhook${counted === 1 ? '' : 's'}` : 'has reached its limit of webhooks';
	const message =
		`Party ${party} ${has} at the AccessPoint service, which allows at most ${WEBHOOKS_PER_PARTY} per party; ` +
		`this trigger needs ${needed} (${describeSubscriptions(settings.subscriptions)})`;
	const description = [
		existing?.length ? `Existing webhooks: ${describeExisting(existing)}.` : '',
		'To free a place: unpublish other workflows whose AccessPoint Trigger listens to this party (each holds one webhook per event type; ' +
			'a "Listen for test event" in the editor holds its own until it stops), delete webhooks no other tool uses (DELETE /v1/webhooks/{id}), ' +
			'or select fewer events here (Delivery Status Changed needs two: Message I and U).',
	]
		.filter(Boolean)
		.join(' ');
	return new NodeOperationError(ctx.getNode(), message, { description });
}

function readCreated(answer: unknown, sub: Subscription): { hook?: StoredWebhook; partyId?: string; id?: string } {
	const body = (answer && typeof answer === 'object' ? answer : {}) as IDataObject;
	const rawId = body.WebhookID ?? body.WebhookId ?? body.ID ?? body.Id;
	const id = typeof rawId === 'number' || (typeof rawId === 'string' && rawId.trim()) ? String(rawId).trim() : undefined;
	const secret = typeof body.Secret === 'string' && body.Secret ? body.Secret : undefined;
	const partyId = body.PartyID === undefined || body.PartyID === null ? undefined : String(body.PartyID);
	if (!id || !secret) return { id, partyId };
	return { hook: { id, entityType: sub.entityType, updateType: sub.updateType, secret }, partyId, id };
}

export async function createWebhooks(this: IHookFunctions): Promise<boolean> {
	const settings = readSettings(this);
	const url = webhookUrl(this);
	const staticData = this.getWorkflowStaticData('node');
	const client = await clientFor(this, settings.retry);
	const created: StoredWebhook[] = [];
	let partyId: string | undefined;
	try {
		for (const sub of settings.subscriptions) {
			const answer = await client.request<unknown>({
				method: 'POST',
				path: createPath(settings),
				body: { EntityType: sub.entityType, EntityUpdateType: sub.updateType, WebhookURL: url },
				operation: `Create webhook (${sub.entityType} ${sub.updateType})`,
			});
			const got = readCreated(answer, sub);
			partyId ??= got.partyId;
			if (!got.hook) {
				// Made, but unusable without its secret: remove it with the others.
				if (got.id) created.push({ id: got.id, entityType: sub.entityType, updateType: sub.updateType, secret: '' });
				throw new NodeApiError(
					this.getNode(),
					{ message: 'The API answered no WebhookID or Secret' },
					{
						message: `Create webhook (${sub.entityType} ${sub.updateType}): the API answered no ${got.id ? 'Secret' : 'WebhookID'}`,
						description: 'Without both the trigger cannot verify the calls. Check the Base URL points at the access-point API.',
					},
				);
			}
			created.push(got.hook);
		}
	} catch (error) {
		const party = partyId ?? settings.registrationId ?? client.partyId;
		const leftOver = await deleteAll(this, client, settings.retry, created);
		let existing: IDataObject[] | undefined;
		if (statusOf(error) === 400) {
			try {
				const listClient = settings.registrationId === undefined ? client : await clientFor(this, settings.retry, party);
				existing = await listWebhooks(this, listClient);
			} catch {
				existing = undefined; // the error about the create is the one to report
			}
		}
		const reported = isLimitAnswer(error, existing, settings.subscriptions.length)
			? limitError(this, error, settings, existing, party)
			: error;
		if (leftOver.length && reported && typeof reported === 'object') {
			const target = reported as { description?: string | null };
			target.description = `${target.description ?? ''} Webhooks made before the failure could not be removed: ${leftOver.map((h) => `#${h.id}`).join(', ')}; delete them at the service.`.trim();
		}
		throw reported;
	}
	const stored: StoredWebhooks = {
		version: 1,
		url,
		scope: settings.scope,
		partyId: partyId ?? settings.registrationId,
		webhooks: created,
	};
	writeWebhooks(staticData, stored);
	return true;
}

export async function deleteWebhooks(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readWebhooks(staticData);
	if (!stored || stored.webhooks.length === 0) {
		clearWebhooks(staticData);
		return true;
	}
	let failed: StoredWebhook[];
	try {
		const client = await clientFor(this, readRetry(this), stored.partyId);
		failed = await deleteAll(this, client, readRetry(this), stored.webhooks);
	} catch (error) {
		// Not thrown: n8n would then skip removing the workflow's own webhook records.
		this.logger.warn(`AccessPoint Trigger: could not delete its webhooks: ${textOf(error).slice(0, 300)}`);
		failed = stored.webhooks;
	}
	if (failed.length === 0) {
		clearWebhooks(staticData);
		return true;
	}
	// Kept, so the next activation finds them (and reuses or removes them).
	writeWebhooks(staticData, { ...stored, webhooks: failed });
	return false;
}
