/**
 * Reading and checking parameters: the one NodeOperationError for bad input, naming field
 * and item, and the readers of each kind of value (number, text, choice, yes/no) that
 * every node uses, so a bad value is refused the same way everywhere, before any request.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Check, NumberRange } from '../domain/validation';
import { checkBoolean, checkChoice, checkNumber, checkNumericId, checkOptionalText, fieldMessage } from '../domain/validation';

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

/** The checked value, or the input error naming field and item (no item in a poll). */
export function requireValid<T = string>(
	ctx: { getNode(): INode },
	itemIndex: number | undefined,
	field: string,
	value: unknown,
	check: (value: unknown) => Check<T>,
): T {
	const result = check(value);
	if (!result.ok) throw inputError(ctx, itemIndex, field, value, result.problem, result.hint);
	return result.value;
}

/** The Registration resource locator's value (list, ID or expression), checked to be a RegistrationID. */
export function readRegistrationId(ctx: IExecuteFunctions, itemIndex: number): string {
	const raw = ctx.getNodeParameter('registrationId', itemIndex, '', { extractValue: true }) as unknown;
	return requireValid(ctx, itemIndex, 'Registration', raw, (v) => checkNumericId(v, 'RegistrationID'));
}

/** A number parameter within its range (`name` may be a path such as `options.skip`). */
export function readNumber(ctx: IExecuteFunctions, itemIndex: number, name: string, field: string, range: NumberRange, fallback: number): number {
	return requireValid(ctx, itemIndex, field, ctx.getNodeParameter(name, itemIndex, fallback) as unknown, (v) => checkNumber(v, range));
}

/** An optional text parameter, trimmed ('' when empty): text or a number, at most `max` characters (on one `line`). */
export function readText(ctx: IExecuteFunctions, itemIndex: number, name: string, field: string, max = 255, line = false): string {
	return requireValid(ctx, itemIndex, field, ctx.getNodeParameter(name, itemIndex, '') as unknown, (v) => checkOptionalText(v, max, line));
}

/** An options parameter: one of `allowed` (an expression can return anything). */
export function readChoice<T extends string>(ctx: IExecuteFunctions, itemIndex: number, name: string, field: string, allowed: readonly T[], fallback: T): T {
	return requireValid(ctx, itemIndex, field, ctx.getNodeParameter(name, itemIndex, fallback) as unknown, (v) => checkChoice(v, allowed)) as T;
}

/** A switch: true or false (also as the text "true"/"false" an expression may return). */
export function readBoolean(ctx: IExecuteFunctions, itemIndex: number, name: string, field: string, fallback: boolean): boolean {
	return requireValid(ctx, itemIndex, field, ctx.getNodeParameter(name, itemIndex, fallback) as unknown, checkBoolean);
}
