/** The two readers of unknown values (API answers, mapped parameters) every node uses. Pure. */
import type { IDataObject } from 'n8n-workflow';

/** A JSON object: not null, not a list. */
export function isRecord(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** A string trimmed, or a finite number as text; '' for anything else. */
export function text(value: unknown): string {
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
	return typeof value === 'string' ? value.trim() : '';
}
