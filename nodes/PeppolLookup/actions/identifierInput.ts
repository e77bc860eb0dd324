/** Reading the receiver's identifier from one item's parameters, with errors naming field and item. */
import type { IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { inputError, readChoice } from '../../shared/node/input';
import type { ParsedIdentifier } from '../../shared/domain/identifiers';
import { buildParticipantIdentifier, COMMON_SCHEME_CODES, findScheme, parseParticipantIdentifier } from '../../shared/domain/identifiers';

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

/** Shown for the lookup operation (lookup.operation.ts adds it). */
export const identifierFields: INodeProperties[] = [
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
			'The receiver: a VAT number with country prefix (BE0123456749, NL123456789B01), a bare Belgian company number (0123.456.749), or &lt;scheme&gt;:&lt;identifier&gt; (9925:BE0123456749, 0208:0123456749, 0088:5400000000010). Spaces and dots are removed and the number is checked before the lookup.',
		displayOptions: { show: { identifierType: ['identifier'] } },
	},
	{
		displayName: 'Scheme',
		name: 'scheme',
		type: 'options',
		default: '9925',
		description: 'The Peppol identifier scheme (ICD code) the value belongs to',
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
		description: 'The four-digit Peppol scheme code (ICD), e.g. 0192 for a Norwegian organisation number',
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
		description: 'The identifier within the chosen scheme, e.g. the VAT number for a VAT scheme or the 13-digit GLN for 0088',
		displayOptions: { show: { identifierType: ['scheme'] } },
	},
];

/** Reads and checks one item's identifier; throws a NodeOperationError before any request. */
export function readIdentifier(ctx: IExecuteFunctions, itemIndex: number): ParsedIdentifier {
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
