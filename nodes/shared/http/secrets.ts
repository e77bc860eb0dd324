/** The secret mask (SECURITY.md): no API key, token or client secret in an output, error or log. */

/** Adds each secret as held and in every form a server may echo it: trimmed, JSON-escaped, percent-encoded (`+` for a space too); none under 4 characters. */
export function rememberSecrets(secrets: string[], values: unknown[]): void {
	for (const value of values) {
		const trimmed = typeof value === 'string' ? value.trim() : '';
		if (trimmed.length < 4) continue;
		const forms = [value as string, trimmed, JSON.stringify(trimmed).slice(1, -1)];
		try {
			const encoded = encodeURIComponent(trimmed);
			forms.push(encoded, encoded.replace(/%20/g, '+'));
		} catch {
			// An unpaired surrogate cannot be percent-encoded, so it is never sent that way either.
		}
		for (const form of forms) if (!secrets.includes(form)) secrets.push(form);
	}
}

/** Masks apikey/token/client secret fields, a Bearer token (16 characters or more: not a word of prose), and every given secret. */
export function stripSecrets(text: string, secrets: string[] = []): string {
	let out = text
		.replace(/((?:apikey|access_token|refresh_token|client_secret|id_token)["']?\s*[:=]\s*["']?)[^"',\s}&]+/gi, '$1***')
		.replace(/(\bbearer\s+)[A-Za-z0-9\-._~+/]{16,}=*/gi, '$1***');
	for (const secret of secrets) if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('***');
	return out;
}
