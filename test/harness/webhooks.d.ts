/** Types for test/harness/webhooks.js: a published webhook trigger served on 127.0.0.1. */
import type { IDataObject } from 'n8n-workflow';

import type { Harness, HarnessResult, WorkflowJson } from './index';

export interface WebhookCall {
	at: number;
	path: string;
	/** HTTP status answered (set once the answer was sent). */
	status?: number;
	/** Whether the call started an execution. */
	started: boolean;
	/** What webhook() threw (n8n answers 500 and records an error execution). */
	error?: Error;
}

/** An execution the trigger started, with when its call arrived and when it started (Date.now()). */
export type WebhookExecution = HarnessResult & { receivedAt?: number; startedAt: number };

export interface WebhookPostResult {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
	text: string;
	/** The executions this call started, finished. */
	executions: WebhookExecution[];
}

export interface WebhookTrigger {
	readonly workflow: WorkflowJson;
	readonly nodeName: string;
	readonly baseUrl: string;
	/** The node's production webhook URL (`<base>/webhook/<webhookId>/<path>`). */
	readonly url: string;
	/** checkExists, then create when needed (n8n's activation); rejects with the node's error after n8n's clean-up. */
	activate(activation?: 'activate' | 'init' | 'update'): Promise<void>;
	/** delete (n8n's deactivation); resolves with what each delete returned. */
	deactivate(): Promise<unknown[]>;
	post(
		body: unknown,
		options?: { headers?: Record<string, string>; method?: string; contentType?: string; path?: string },
	): Promise<WebhookPostResult>;
	waitForExecutions(count: number, options?: { timeoutMs?: number }): Promise<WebhookExecution[]>;
	close(): Promise<void>;
	readonly active: boolean;
	readonly executions: WebhookExecution[];
	readonly calls: WebhookCall[];
	readonly errors: Error[];
	/** The workflow's static data as n8n saved it (settable, e.g. to simulate another process's copy). */
	staticData: IDataObject;
	readonly nodeStaticData: IDataObject;
	/** How often static data was saved. */
	readonly saves: number;
}

export function webhookTrigger(
	h: Harness,
	nodeOrWorkflow: { type: string; parameters?: IDataObject; name?: string } | WorkflowJson,
	options?: { nodeName?: string; staticData?: IDataObject; credentialsOverride?: IDataObject; webhookBaseUrl?: string },
): Promise<WebhookTrigger>;

/** `t=<seconds>,s=<hex HMAC-SHA256(secret, "<t>.<body>")>` over the exact bytes of `body` (objects as JSON.stringify). */
export function signature(secret: string, body: unknown, t?: number): string;
export const REQUEST_TAG: string;
