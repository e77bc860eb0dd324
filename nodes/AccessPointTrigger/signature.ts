/**
 * The `Billit-Signature` header (pure): `t=<unix seconds>,s=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Computed over the raw request bytes, never over re-serialised JSON, and compared in
 * constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'billit-signature';
/** How far a timestamp may be ahead of n8n's clock (clock skew between the service and n8n). */
export const MAX_FUTURE_SKEW_MS = 60_000;

export interface SignatureHeader {
	/** Unix seconds. */
	t: number;
	/** Every `s=` value (a service rotating its secret may send more than one). */
	signatures: Buffer[];
}

const MAX_HEADER_LENGTH = 2048;
const MAX_SIGNATURES = 8;

/** The parsed header, or undefined when it is missing or not of the documented form. */
export function parseSignatureHeader(value: unknown): SignatureHeader | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' || text.length === 0 || text.length > MAX_HEADER_LENGTH) return undefined;
	let t: number | undefined;
	const signatures: Buffer[] = [];
	for (const part of text.split(',')) {
		const eq = part.indexOf('=');
		if (eq < 0) continue;
		const key = part.slice(0, eq).trim();
		const val = part.slice(eq + 1).trim();
		if (key === 't' && /^\d{1,12}$/.test(val)) t = Number(val);
		else if (key === 's' && /^[0-9a-fA-F]{64}$/.test(val) && signatures.length < MAX_SIGNATURES) signatures.push(Buffer.from(val, 'hex'));
	}
	return t === undefined || signatures.length === 0 ? undefined : { t, signatures };
}

/** HMAC-SHA256(secret, "<t>.<raw body>") over the bytes as received. */
function computeSignature(secret: string, t: number, rawBody: Uint8Array): Buffer {
	return createHmac('sha256', secret).update(`${t}.`, 'utf8').update(rawBody).digest();
}

/** Whether any `s=` of the header was made with any of the secrets (constant-time per comparison). */
export function signedWithAny(header: SignatureHeader, rawBody: Uint8Array, secrets: readonly string[]): boolean {
	let match = false;
	for (const secret of secrets) {
		if (!secret) continue;
		const expected = computeSignature(secret, header.t, rawBody);
		for (const given of header.signatures) {
			// Both are 32 bytes (the header parser accepts only 64 hex digits); no early exit on a match.
			if (given.length === expected.length && timingSafeEqual(given, expected)) match = true;
		}
	}
	return match;
}

export type TimestampVerdict = 'ok' | 'stale' | 'future';

/** A timestamp older than the maximum age is a replay; one more than a minute ahead is refused too. */
export function checkTimestamp(t: number, nowMs: number, maxAgeMs: number): TimestampVerdict {
	const atMs = t * 1000;
	if (atMs > nowMs + MAX_FUTURE_SKEW_MS) return 'future';
	if (nowMs - atMs > maxAgeMs) return 'stale';
	return 'ok';
}
