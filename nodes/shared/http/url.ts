// Every query string is written here, never by n8n's `qs` serializer, which splits an emoji straddling its chunk boundary.
/** RFC 3986 percent-encoding: everything but letters, digits and `-._~` (also `!'()*`, which encodeURIComponent leaves). */
export function encodeQueryValue(value: string): string {
	return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The query string the client sends for `qs`, undefined and null left out; URIError for an unpaired surrogate (the builders refuse it earlier). */
export function toQueryString(qs: Record<string, unknown>): string {
	return Object.entries(qs)
		.filter(([, value]) => value !== undefined && value !== null)
		.map(([key, value]) => {
			const type = typeof value;
			if (type !== 'string' && type !== 'number' && type !== 'boolean') {
				throw new TypeError(`Query option ${key} must be text, a number or a boolean, not ${Array.isArray(value) ? 'a list' : type}`);
			}
			return `${encodeQueryValue(key).replace(/%24/g, '$')}=${encodeQueryValue(String(value))}`;
		})
		.join('&');
}

/** `url` with the query options appended (after its own query, if it has one). */
export function appendQuery(url: string, qs: Record<string, unknown> | undefined): string {
	const query = qs ? toQueryString(qs) : '';
	return query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
}
