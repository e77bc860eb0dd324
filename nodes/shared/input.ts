/** Reading and checking parameters: the one NodeOperationError for bad input, naming field and item. */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Check } from './validation';
import { checkNumericId, fieldMessage } from './validation';

/** A NodeOperationError naming the field and the item (none in a poll), raised before any request. */
export function inputError(
	ctx: { getNode(): INode },
	itemIndex: number | undefined,
	field: string,
	value: unknown,
	problem: string,
	hint: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), fieldMessage(itemIndex, field, value, problem), {
		itemIndex,
		description: hint,
	});
}

/** The checked value, or the input error naming field and item. */
export function requireValid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	check: (value: unknown) => Check,
): string {
	const result = check(value);
	if (!result.ok) throw inputError(ctx, itemIndex, field, value, result.problem, result.hint);
	return result.value;
}

/** The Registration resource locator's value (list, ID or expression), checked to be a RegistrationID. */
export function readRegistrationId(ctx: IExecuteFunctions, itemIndex: number): string {
	const raw = ctx.getNodeParameter('registrationId', itemIndex, '', { extractValue: true }) as unknown;
	return requireValid(ctx, itemIndex, 'Registration', raw, (v) => checkNumericId(v, 'RegistrationID'));
}
