/**
 * The trigger's webhookMethods (docs/api.md "Webhooks"). checkExists: the stored webhooks still
 * exist for this URL, scope and events (n8n 2.41 calls it at publish and, the node being also an
 * in-memory trigger, at every start). create: whether the party has room, then one webhook per
 * entity/update type; a failure removes what it made; a limit refusal is remembered a minute,
 * since n8n 2.41 tries an activation 5 times. delete: one already gone is not an error.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isLoopbackHost } from '../shared/http/baseUrl';
import { readListPage } from '../shared/http/paging';
import type { RetryPolicy } from '../shared/http/retry';
import type { ApiClient } from '../shared/http/transport';
import { getApiClient } from '../shared/http/transport';
import { WEBHOOKS_PER_PARTY, describeSubscriptions } from './events';
import type { StoredWebhook, TriggerSettings } from './settings';
import { clearWebhooks, matchesWanted, problem, readRetry, readSettings, readWebhooks, recentRefusal, rememberRefusal, writeWebhooks } from './settings';

/** Most webhooks read when listing a party's (the limit is 4; a bound all the same). */
const LIST_LIMIT = 200;
const SHOWN = 6;

function statusOf(error: unknown): number | undefined {
	const n = Number((error as { httpCode?: unknown })?.httpCode);
	return Number.isInteger(n) && n > 0 ? n : undefined;
}

function textOf(error: unknown): string {
	const e = error as { message?: unknown; description?: unknown; context?: IDataObject };
	return [e?.message, e?.description, e?.context?.apiDescription].filter((x) => typeof x === 'string').join(' ');
}

/** The service's own words in an error (its Description), else the error's message. */
function serviceAnswer(error: unknown): string {
	const e = error as { message?: unknown; context?: IDataObject };
	const own = e?.context?.apiDescription;
	return String(typeof own === 'string' && own.trim() ? own : (e?.message ?? '')).slice(0, 500);
}

const SET_URL = 'Set WEBHOOK_URL to the public https address of this n8n (e.g. https://n8n.example.com/)';

/** The URL the service must call, refused before any request when the service could not call it. */
function webhookUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw problem(ctx, 'n8n gave no webhook URL for this trigger', 'Save the workflow and publish it again.');
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw problem(ctx, `n8n's webhook URL for this trigger is not a URL: ${url}`, `${SET_URL} and restart n8n.`);
	}
	if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
		throw problem(
			ctx,
			`The AccessPoint service calls only https URLs, and this trigger's URL is ${url}`,
			`${SET_URL}, restart n8n and publish again. Without one, use the AccessPoint Order Trigger, which polls.`,
		);
	}
	return url;
}

const clientFor = async (ctx: IHookFunctions, retry: RetryPolicy, partyId?: string): Promise<ApiClient> => await getApiClient.call(ctx, { partyId, retry });

/** The party's webhooks as the API lists them (a bare list; never with secrets). */
async function listWebhooks(ctx: IHookFunctions, client: ApiClient): Promise<IDataObject[]> {
	const page = readListPage(await client.request<unknown>({ method: 'GET', path: '/v1/webhooks', operation: 'List webhooks' }));
	if (page.problem) throw new NodeApiError(ctx.getNode(), { message: `List webhooks: ${page.problem}` }, { message: `List webhooks: ${page.problem}` });
	return page.items.slice(0, LIST_LIMIT);
}

/** Deletes webhooks by id; answers the ones that still exist (gone = deleted). */
async function deleteAll(ctx: IHookFunctions, client: ApiClient, retry: RetryPolicy, hooks: StoredWebhook[]): Promise<StoredWebhook[]> {
	const failed: StoredWebhook[] = [];
	for (const hook of hooks) {
		try {
			// Deleting twice is harmless, so transient failures are retried like reads.
			const answer = await client.request<unknown>({
				method: 'DELETE',
				path: `/v1/webhooks/${encodeURIComponent(hook.id)}`,
				operation: `Delete webhook ${hook.id}`,
				retry,
			});
			if (answer !== false) continue;
		} catch (error) {
			if (statusOf(error) === 404) continue;
			ctx.logger.warn(`AccessPoint Trigger: could not delete webhook ${hook.id}: ${textOf(error).slice(0, 300)}`);
		}
		failed.push(hook);
	}
	if (!failed.length) return failed;
	// An answer false, a 400 or a failure may come for a webhook already gone: the list decides.
	try {
		const listed = new Set((await listWebhooks(ctx, client)).map((w) => String(w.WebhookID)));
		return failed.filter((hook) => listed.has(hook.id));
	} catch {
		return failed;
	}
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
				typeof found.WebhookURL === 'string' &&
				found.WebhookURL.trim() === url &&
				String(found.EntityType) === hook.entityType &&
				String(found.EntityUpdateType) === hook.updateType
			);
		});
		if (alive) return true;
		this.logger.info(`AccessPoint Trigger "${this.getNode().name}": a webhook of this trigger is gone at the service; making a complete new set`);
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

const TO_DO =
	'Delete webhooks no longer used (DELETE /v1/webhooks/{id}), unpublish the workflow whose AccessPoint Trigger holds them, or select fewer events here (Delivery Status Changed needs two); then publish again.';

/** The limit error. n8n 2.41 shows only an activation error's message, so it holds it all: the service's answer, what exists, what is needed, what to do. */
function limitError(ctx: IHookFunctions, settings: TriggerSettings, party: string, existing: IDataObject[] | undefined, answer?: string): NodeOperationError {
	const needed = `this trigger needs ${settings.subscriptions.length} (${describeSubscriptions(settings.subscriptions)})`;
	const has = existing === undefined ? '' : existing.length ? `the party has ${existing.length}: ${describeExisting(existing)}` : 'the party has none listed';
	const message =
		answer === undefined
			? `Party ${party} already has ${existing?.length ?? 0} webhook${existing?.length === 1 ? '' : 's'} at the AccessPoint service (${describeExisting(existing ?? [])}), which allows ${WEBHOOKS_PER_PARTY} per party; ${needed}. ${TO_DO}`
			: `The AccessPoint service refused a webhook for party ${party}: "${answer}". ${needed[0].toUpperCase()}${needed.slice(1)}${has ? `; ${has}` : ''}. ${TO_DO}`;
	return problem(
		ctx,
		message,
		'Each published workflow with an AccessPoint Trigger holds one webhook per event type, and so does a "Listen for test event" in the editor until it stops; other tools of the same party count too.',
	);
}

function isLimitAnswer(error: unknown): boolean {
	const text = textOf(error);
	return statusOf(error) === 400 && /webhook/i.test(text) && /(at most|limit|maximum|already has|max)/i.test(text);
}

function readCreated(answer: unknown): { id?: string; secret?: string; partyId?: string } {
	const body = (answer && typeof answer === 'object' ? answer : {}) as IDataObject;
	const rawId = body.WebhookID ?? body.WebhookId ?? body.ID ?? body.Id;
	const id = typeof rawId === 'number' || (typeof rawId === 'string' && rawId.trim()) ? String(rawId).trim() : undefined;
	const secret = typeof body.Secret === 'string' && body.Secret ? body.Secret : undefined;
	return { id, secret, partyId: body.PartyID === undefined || body.PartyID === null ? undefined : String(body.PartyID) };
}

export async function createWebhooks(this: IHookFunctions): Promise<boolean> {
	const settings = readSettings(this);
	const url = webhookUrl(this);
	const staticData = this.getWorkflowStaticData('node');
	const wanted = `${url} ${settings.scope} ${describeSubscriptions(settings.subscriptions)}`;
	const earlier = recentRefusal(staticData, wanted, Date.now());
	if (earlier) throw problem(this, earlier.message, earlier.description);

	const client = await clientFor(this, settings.retry);
	const party = settings.registrationId ?? client.partyId;
	let existing: IDataObject[] | undefined;
	try {
		existing = await listWebhooks(this, settings.registrationId === undefined ? client : await clientFor(this, settings.retry, party));
	} catch (error) {
		// Not fatal: the service's own answer to the create still tells when there is no room.
		this.logger.warn(`AccessPoint Trigger: could not list the webhooks of party ${party} before creating: ${textOf(error).slice(0, 300)}`);
	}
	const refuse = (error: NodeOperationError) => {
		rememberRefusal(staticData, { wanted, at: Date.now(), message: error.message, description: String(error.description ?? '') });
		return error;
	};
	if (existing && existing.length + settings.subscriptions.length > WEBHOOKS_PER_PARTY) throw refuse(limitError(this, settings, party, existing));

	const created: StoredWebhook[] = [];
	let partyId: string | undefined;
	try {
		for (const sub of settings.subscriptions) {
			const answer = await client.request<unknown>({
				method: 'POST',
				path: settings.registrationId === undefined ? '/v1/webhooks' : `/v1/einvoices/registrations/${encodeURIComponent(settings.registrationId)}/webhooks`,
				body: { EntityType: sub.entityType, EntityUpdateType: sub.updateType, WebhookURL: url },
				operation: `Create webhook (${sub.entityType} ${sub.updateType})`,
			});
			const got = readCreated(answer);
			partyId ??= got.partyId;
			// One made without its secret is unusable: it is removed with the others.
			if (got.id) created.push({ id: got.id, ...sub, secret: got.secret ?? '' });
			if (!got.id || !got.secret) {
				throw new NodeApiError(
					this.getNode(),
					{ message: 'The API answered no WebhookID or Secret' },
					{
						message: `Create webhook (${sub.entityType} ${sub.updateType}): the API answered no ${got.id ? 'Secret' : 'WebhookID'}`,
						description: 'Without both the trigger cannot verify the calls. Check the Base URL points at the access-point API.',
					},
				);
			}
		}
	} catch (error) {
		const leftOver = await deleteAll(this, client, settings.retry, created);
		const reported = isLimitAnswer(error) ? refuse(limitError(this, settings, partyId ?? party, existing, serviceAnswer(error))) : error;
		if (leftOver.length && reported && typeof reported === 'object') {
			const target = reported as { description?: string | null };
			target.description =
				`${target.description ?? ''} Webhooks made before the failure could not be removed: ${leftOver.map((h) => `#${h.id}`).join(', ')}; delete them at the service.`.trim();
		}
		throw reported;
	}
	rememberRefusal(staticData, undefined);
	writeWebhooks(staticData, { version: 1, url, scope: settings.scope, partyId: partyId ?? (party || undefined), webhooks: created });
	return true;
}

export async function deleteWebhooks(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readWebhooks(staticData);
	let failed = stored?.webhooks ?? [];
	try {
		if (failed.length) failed = await deleteAll(this, await clientFor(this, readRetry(this), stored?.partyId), readRetry(this), failed);
	} catch (error) {
		// Not thrown: n8n would then skip removing the workflow's own webhook records.
		this.logger.warn(`AccessPoint Trigger: could not delete its webhooks: ${textOf(error).slice(0, 300)}`);
	}
	if (!stored || !failed.length) {
		clearWebhooks(staticData);
		return true;
	}
	// Kept, so the next activation finds them (and reuses or removes them).
	writeWebhooks(staticData, { ...stored, webhooks: failed });
	return false;
}
