/** The one router of every action node: the description and the router both read each resource's list (`actions/…/index.ts`). */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions, NodeExecutionHint } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readRequestPolicy } from '../fields/requestOptions';
import type { RetryPolicy } from '../http/retry';
import type { ApiClient, ApiClientOptions } from '../http/transport';
import { getApiClient } from './client';

/** Gives each item the API client for its party, creating one per party per execution. */
export type ClientProvider = (itemIndex: number, partyId?: string) => Promise<ApiClient>;

/** Clients are made on first use: an operation that sends nothing (e.g. Parse Callback) reads neither the credential nor the request options. */
function clientProvider(ctx: IExecuteFunctions): ClientProvider {
	const clients = new Map<string, Promise<ApiClient>>();
	let retry: RetryPolicy | undefined;
	return async (itemIndex, partyId) => {
		const key = (partyId ?? '').trim();
		let client = clients.get(key);
		if (!client) {
			retry ??= readRequestPolicy(ctx);
			const options: ApiClientOptions = { partyId: key || undefined, retry };
			client = getApiClient.call(ctx, options, itemIndex);
			clients.set(key, client);
			// Not cached when it fails (e.g. an unusable Base URL): each item then gets its own error, stamped with its index.
			const created = client;
			created.catch(() => clients.get(key) === created && clients.delete(key));
		}
		return await client;
	};
}

/** What an operation outputs: the items of the node's one output, or one list per output. */
export type OperationResult = INodeExecutionData[] | INodeExecutionData[][];

/** One `<name>.operation.ts` file: its fields and what it does. */
export interface OperationModule {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, clients: ClientProvider): Promise<OperationResult>;
}

/** One entry of a resource's list: the option the editor shows and the file that runs it. */
export interface OperationEntry extends INodePropertyOptions {
	value: string;
	description: string;
	action: string;
	module: OperationModule;
}

export interface ResourceOperations {
	/** The Resource option; absent on a node without a Resource parameter. */
	resource?: { name: string; value: string };
	/** The operation a new node starts with. */
	default: string;
	/** In the order the editor lists them (alphabetical, as n8n's linter wants). */
	operations: OperationEntry[];
	/** Refuses an operation before it runs (e.g. one that cannot run as an AI tool call). */
	guard?: (ctx: IExecuteFunctions, operation: string) => void;
}

/** The Resource parameter (when there are resources), then per resource its Operation parameter and its operations' fields. */
export function describeOperations(resources: ResourceOperations[]): INodeProperties[] {
	const properties: INodeProperties[] = [];
	const named = resources.flatMap((list) => (list.resource ? [list.resource] : []));
	if (named.length) {
		const defaultResource = named[0].value;
		const options = named.map(({ name, value }) => ({ name, value }));
		properties.push({ displayName: 'Resource', name: 'resource', type: 'options', noDataExpression: true, options, default: defaultResource });
	}
	for (const list of resources) {
		const defaultOperation = list.default;
		properties.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			...(list.resource ? { displayOptions: { show: { resource: [list.resource.value] } } } : {}),
			options: list.operations.map(({ name, value, description, action }) => ({ name, value, description, action })),
			default: defaultOperation,
		});
		for (const entry of list.operations) properties.push(...entry.module.description);
	}
	return properties;
}

/** The canvas subtitle: the chosen action in words ("Get many orders"); `suffix` is appended inside the expression. */
export function actionSubtitle(resources: ResourceOperations[], suffix = ''): string {
	const byResource = resources.some((list) => list.resource);
	const entries = resources.flatMap((list) => list.operations.map(({ value, action }) => [byResource ? `${list.resource?.value}:${value}` : value, action]));
	const actions = Object.fromEntries(entries);
	const key = byResource ? '$parameter["resource"] + ":" + $parameter["operation"]' : '$parameter["operation"]';
	return `={{ (${JSON.stringify(actions)})[${key}]${suffix} }}`;
}

function isOutputs(result: OperationResult): result is INodeExecutionData[][] {
	return result.length > 0 && Array.isArray(result[0]);
}

/** An AI tool call: the agent runs the node's `…Tool` type (isToolExecution() false there), MCP a supply-data context. */
export function isToolCall(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool') || (typeof ctx.isToolExecution === 'function' && ctx.isToolExecution());
}

const itemOf = ({ pairedItem }: INodeExecutionData) => (typeof pairedItem === 'object' && !Array.isArray(pairedItem) ? pairedItem.item : 0);

/** A model reads a tool's first output and an error's message only (docs/ai.md): all outputs to the first, "nothing" said (with the editor's warnings), the hint in the message. */
async function runAsTool(ctx: IExecuteFunctions, entry: OperationEntry): Promise<INodeExecutionData[][]> {
	const result = await entry.module.execute.call(ctx, clientProvider(ctx)).catch((error: Error & { description?: unknown }) => {
		if (typeof error.description === 'string' && !error.message.includes(error.description))
			error.message = `${error.message.replace(/[.\s]*$/, '')}. ${error.description}`;
		throw error;
	});
	const items = isOutputs(result) ? result.flat().sort((a, b) => itemOf(a) - itemOf(b)) : result;
	let bytes = 0; // Bounded per call: at most 100 items and 100 kB of JSON, then a line saying how many more.
	const cut = items.findIndex((item, index) => index >= 100 || (bytes += JSON.stringify(item.json).length) > 100_000);
	const more = { json: { message: `${items.length - cut} more items not shown (100 items or 100 kB per call): narrow the request` }, pairedItem: { item: 0 } };
	if (items.length) return [cut < 0 ? items : [...items.slice(0, cut), more]];
	const why = ((ctx as { hints?: NodeExecutionHint[] }).hints ?? []).flatMap((hint) => (hint.type === 'warning' ? [` ${hint.message}`] : [])).join('');
	return [[{ json: { message: `Nothing found: "${entry.action}" returned no result for these parameters.${why}` }, pairedItem: { item: 0 } }]];
}

/** Runs the chosen operation of the chosen resource and returns the node's outputs. */
export async function router(this: IExecuteFunctions, resources: ResourceOperations[]): Promise<INodeExecutionData[][]> {
	const resource = resources.length === 1 && !resources[0].resource ? undefined : (this.getNodeParameter('resource', 0) as string);
	const list = resource === undefined ? resources[0] : resources.find((entry) => entry.resource?.value === resource);
	const operation = this.getNodeParameter('operation', 0, list?.default) as string;
	const entry = list?.operations.find((candidate) => candidate.value === operation);
	if (!list || !entry) {
		const where = resource === undefined ? '' : ` for "${resource}"`;
		// Version 0.1 called Get Many "getMany"; n8n drops the fields of an operation it does not know, so it is picked again.
		const description = operation === 'getMany' ? 'Saved by version 0.1 of this node: pick Get Many and set its fields again.' : undefined;
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported${where}`, { description });
	}
	list.guard?.(this, operation);
	if (isToolCall(this)) return await runAsTool(this, entry);
	const result = await entry.module.execute.call(this, clientProvider(this));
	return isOutputs(result) ? result : [result];
}
