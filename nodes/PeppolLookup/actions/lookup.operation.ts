import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions, NodeApiError } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ParsedIdentifier } from '../../shared/domain/identifiers';
import { buildParticipantIdentifier, COMMON_SCHEME_CODES, findScheme, parseParticipantIdentifier } from '../../shared/domain/identifiers';
import type { ClientProvider } from '../../shared/node/router';
import { inputError, readBoolean, readChoice, requireValid } from '../../shared/node/input';
import { asNodeError, runBatched } from '../../shared/node/items';
import { pickFields, readSimplify, SIMPLE_FIELDS, simplifyField } from '../../shared/query/simplify';
import { checkBoolean, checkChoice, checkNumber } from '../../shared/domain/validation';
import type { ParticipantInformation, PeppolNetwork, RouteOn } from './capabilities';
import { canReceive, networkFor, participantResult, receiveCapabilities } from './capabilities';

const CAN_RECEIVE = 0;
const CANNOT_RECEIVE = 1;

const DEFAULT_CONCURRENCY = 5;
const MAX_CONCURRENCY = 20;

const OTHER_SCHEME = 'other';

/** The picker: the schemes of docs/api.md "Peppol lookup and identifiers", by name, then "other". */
function schemeOptions(): INodePropertyOptions[] {
	const known = COMMON_SCHEME_CODES.map((code) => {
		const scheme = findScheme(code);
		return { name: `${scheme?.name ?? code} (${code})`, value: code, description: scheme?.id };
		// Case-insensitive, without localeCompare, whose first call sets up ICU collation (~10 ms at load).
	}).sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
	return [...known, { name: 'Other Scheme Code…', value: OTHER_SCHEME, description: 'Enter any Peppol scheme code (ICD)' }];
}

/** The receiver's identifier: shown for the lookup operation (description adds it). */
const identifierFields: INodeProperties[] = [
	{
		displayName: 'Identify Receiver By',
		name: 'identifierType',
		type: 'options',
		noDataExpression: true,
		default: 'identifier',
		options: [
			{
				name: 'Identifier',
				value: 'identifier',
				description: 'A VAT number with country prefix, a Belgian company number, or &lt;scheme&gt;:&lt;identifier&gt;',
			},
			{ name: 'Scheme and Value', value: 'scheme', description: 'Pick the identifier scheme from a list and enter the value' },
		],
	},
	{
		displayName: 'Identifier',
		name: 'identifier',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. BE0123456749, 0123.456.749 or 0088:5400000000010',
		description:
			'The receiver: a VAT number with country prefix (NL123456789B01), a Belgian company number, or &lt;scheme&gt;:&lt;identifier&gt; (0208:0123456749)',
		displayOptions: { show: { identifierType: ['identifier'] } },
	},
	{
		displayName: 'Scheme',
		name: 'scheme',
		type: 'options',
		default: '9925',
		description: 'The Peppol identifier scheme of the value',
		options: schemeOptions(),
		displayOptions: { show: { identifierType: ['scheme'] } },
	},
	{
		displayName: 'Scheme Code',
		name: 'schemeCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0192',
		description: 'The four-digit Peppol scheme code (ICD), e.g. 0192',
		displayOptions: { show: { identifierType: ['scheme'], scheme: [OTHER_SCHEME] } },
	},
	{
		displayName: "A GLN cannot be derived from a VAT number: enter the receiver's own 13-digit GLN",
		name: 'glnNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { identifierType: ['scheme'], scheme: ['0088'] } },
	},
	{
		displayName: 'Value',
		name: 'schemeValue',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. BE0123456749',
		description: 'The identifier within the chosen scheme',
		displayOptions: { show: { identifierType: ['scheme'] } },
	},
];

/** Reads and checks one item's identifier; throws a NodeOperationError before any request. */
function readIdentifier(ctx: IExecuteFunctions, itemIndex: number): ParsedIdentifier {
	const type = readChoice(ctx, itemIndex, 'identifierType', 'Identify Receiver By', ['identifier', 'scheme'], 'identifier');
	if (type === 'scheme') {
		const picked = String(ctx.getNodeParameter('scheme', itemIndex, '') ?? '').trim();
		const code = picked === OTHER_SCHEME ? String(ctx.getNodeParameter('schemeCode', itemIndex, '') ?? '').trim() : picked;
		const value = ctx.getNodeParameter('schemeValue', itemIndex, '') as unknown;
		const check = buildParticipantIdentifier(code, value);
		if (check.ok) return check;
		if (check.inScheme) throw inputError(ctx, itemIndex, picked === OTHER_SCHEME ? 'Scheme Code' : 'Scheme', code, check.problem, check.hint);
		throw inputError(ctx, itemIndex, 'Value', value, check.problem, check.hint);
	}
	const raw = ctx.getNodeParameter('identifier', itemIndex, '') as unknown;
	const check = parseParticipantIdentifier(raw);
	if (check.ok) return check;
	throw inputError(ctx, itemIndex, 'Identifier', raw, check.problem, check.hint);
}

export const description = updateDisplayOptions({ show: { operation: ['lookup'] } }, [...identifierFields, simplifyField()]);

/** The fields that decide where an item goes: first in every output item. */
const DECIDING = ['canReceiveInvoice', 'canReceiveCreditNote', 'canReceiveInvoicesAndCreditNotes'];

export const TEST_NETWORK_HINT = 'Looked up on the Peppol test network (sandbox credential), which has far fewer receivers than production';

export const lookupOptions: INodeProperties[] = [
	{
		displayName: 'Can Receive When',
		name: 'routeOn',
		type: 'options',
		default: 'invoicesAndCreditNotes',
		description: 'Which capability sends an item to the Can Receive output',
		options: [
			{
				name: 'Invoices and Credit Notes',
				value: 'invoicesAndCreditNotes',
				description: 'Registered and accepts both an invoice and a credit-note type',
			},
			{ name: 'Invoices', value: 'invoices', description: 'Registered and accepts an invoice type' },
			{ name: 'Credit Notes', value: 'creditNotes', description: 'Registered and accepts a credit-note type' },
		],
	},
	{
		displayName: 'Concurrent Lookups',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
		default: DEFAULT_CONCURRENCY,
		description: 'How many distinct identifiers are looked up at the same time (each once per run)',
	},
	{
		displayName: 'Include Input Fields',
		name: 'includeInputFields',
		type: 'boolean',
		default: false,
		description: "Whether to keep the input item's fields and binary data next to the lookup result",
	},
];

/** An identifier to look up, and the first item carrying it (its index goes on the request and on errors). */
type Lookup = { identifier: ParsedIdentifier; itemIndex: number };

type Answer = { result: IDataObject; receives: boolean } | { error: Error };

const ROUTE_ON: readonly RouteOn[] = ['invoicesAndCreditNotes', 'invoices', 'creditNotes'];

/** The run's options (item 1's values), each checked before any request: never clamped or defaulted away. */
function readLookupOptions(ctx: IExecuteFunctions): { routeOn: RouteOn; concurrency: number; includeInputFields: boolean } {
	const options = (ctx.getNodeParameter('options', 0, {}) ?? {}) as IDataObject;
	const concurrency = { min: 1, max: MAX_CONCURRENCY, whole: true };
	return {
		routeOn: requireValid(ctx, 0, 'Can Receive When', options.routeOn ?? ROUTE_ON[0], (v) => checkChoice(v, ROUTE_ON)) as RouteOn,
		concurrency: requireValid(ctx, 0, 'Concurrent Lookups', options.concurrency ?? DEFAULT_CONCURRENCY, (v) => checkNumber(v, concurrency)),
		includeInputFields: requireValid(ctx, 0, 'Include Input Fields', options.includeInputFields ?? false, checkBoolean),
	};
}

type PoolOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise pool, no timers: worker(0..count-1), `concurrency` at once, outcomes in task order. With stopOnError
 * no task starts after one failed (running ones finish); an unstarted task has no outcome. */
export async function runPool<T>(
	count: number,
	options: { concurrency: number; stopOnError?: boolean },
	worker: (index: number) => Promise<T>,
): Promise<Array<PoolOutcome<T> | undefined>> {
	const outcomes: Array<PoolOutcome<T> | undefined> = new Array(count).fill(undefined);
	let next = 0;
	let failed = false;
	const runner = async (): Promise<void> => {
		while (next < count && !(failed && options.stopOnError)) {
			const index = next++;
			try {
				outcomes[index] = { ok: true, value: await worker(index) };
			} catch (error) {
				outcomes[index] = { ok: false, error };
				failed = true;
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(Math.max(1, Math.floor(options.concurrency) || 1), count) }, runner));
	return outcomes;
}

/** Items sharing an identifier share its failed lookup: each gets its own copy of the error, stamped with its index. */
function forItem(error: Error, itemIndex: number): Error {
	const { context } = error as NodeApiError;
	if (!context || context.itemIndex === itemIndex) return error;
	const copy = Object.create(Object.getPrototypeOf(error) as object, Object.getOwnPropertyDescriptors(error)) as NodeApiError;
	copy.context = { ...context, itemIndex };
	return copy;
}

/** Checks every identifier first (no request before all pass, or became error items with continueOnFail), asks each
 * distinct one once with bounded concurrency, answers per item in input order: [Can Receive, Cannot Receive] or one. */
export async function execute(this: IExecuteFunctions, clients: ClientProvider): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const options = readLookupOptions(this);
	const singleOutput = readBoolean(this, 0, 'singleOutput', 'Single Output', false);
	const continueOnFail = this.continueOnFail();
	let asked: PeppolNetwork | undefined;

	const lookUp = async (distinct: Lookup[]): Promise<Map<string, Answer>> => {
		const answers = new Map<string, Answer>();
		const firstClient = clients(distinct[0].itemIndex);
		const outcomes = await runPool(distinct.length, { concurrency: options.concurrency, stopOnError: !continueOnFail }, async (index) => {
			const { identifier, itemIndex } = distinct[index];
			const client = await firstClient;
			const network = networkFor(client.baseUrl);
			asked = network;
			const body = await client.request<ParticipantInformation>({
				method: 'GET',
				path: `/v1/peppol/participantInformation/${encodeURIComponent(identifier.lookup)}`,
				itemIndex,
				operation: 'Peppol participant lookup',
			});
			const receives = canReceive(receiveCapabilities(body ?? {}), options.routeOn);
			return { result: participantResult(body, identifier.lookup, network), receives };
		});
		outcomes.forEach((outcome, index) => {
			const { identifier, itemIndex } = distinct[index];
			if (outcome?.ok) answers.set(identifier.key, outcome.value);
			else if (outcome) answers.set(identifier.key, { error: asNodeError(this, outcome.error, itemIndex) });
		});
		return answers;
	};

	const outputs = await runBatched<ParsedIdentifier, Answer | undefined>(this, {
		read: (itemIndex) => readIdentifier(this, itemIndex),
		run: async (read) => {
			const distinct = new Map<string, Lookup>();
			for (const { itemIndex, value } of read) if (!distinct.has(value.key)) distinct.set(value.key, { identifier: value, itemIndex });
			const answers = await lookUp([...distinct.values()]);
			// Without continueOnFail a lookup left unstarted has no answer; an earlier item's failure stops the run first.
			return read.map(({ value }) => answers.get(value.key));
		},
		emit: (answer, itemIndex) => {
			if (!answer) return [];
			if ('error' in answer) return [forItem(answer.error, itemIndex)];
			const input = items[itemIndex];
			const result = readSimplify(this, itemIndex) ? pickFields(answer.result, SIMPLE_FIELDS.peppolLookup) : answer.result;
			// Key order: the deciding fields (first in result too), the input's (when kept), the rest; the lookup's values win.
			const item: INodeExecutionData = {
				json: options.includeInputFields ? { ...pickFields(result, DECIDING), ...input.json, ...result } : { ...result },
				pairedItem: { item: itemIndex },
			};
			if (options.includeInputFields && input.binary) item.binary = input.binary;
			return [item];
		},
		outputs: singleOutput ? 1 : 2,
		route: (answer) => (answer && 'result' in answer && !answer.receives && !singleOutput ? CANNOT_RECEIVE : CAN_RECEIVE),
		// A failed lookup never leaves through Can Receive, whose branch sends the invoice.
		errorOutput: singleOutput ? 0 : CANNOT_RECEIVE,
		errorFields: (itemIndex) => (options.includeInputFields ? items[itemIndex].json : undefined),
	});
	// Said only when it applies (not with a production or custom Base URL), once per run.
	if (asked === 'Peppol test network' && typeof this.addExecutionHints === 'function') {
		this.addExecutionHints({ message: TEST_NETWORK_HINT, type: 'info', location: 'outputPane' });
	}
	return outputs;
}
