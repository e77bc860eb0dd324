/**
 * The credential's Test button, run by n8n as the nodes' `methods.credentialTest`
 * (`testedBy` on each node's credential). n8n's declarative test can only say
 * "Unauthorized" or "ENOTFOUND"; this one says what the API said, or which rule the Base
 * URL breaks, before anything is sent.
 *
 * n8n hands a credential test only ICredentialTestFunctions, whose one HTTP helper is the
 * legacy `helpers.request` (httpRequestWithAuthentication, used everywhere else through
 * transport.ts, does not exist there). This request keeps transport.ts's rules: the Base
 * URL rule of baseUrl.ts checked first, the key sent only to that host, no redirect
 * followed, one deadline for the whole exchange, a successful body never read, and the key
 * masked in every message.
 */
import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

import type { AccessPointCredentials } from './baseUrl';
import { resolveBaseUrl } from './baseUrl';
import { beforeDeadline, BodyLimitError, discardBody, readBody } from './body';
import { describeApiError, describeNetworkError, secretForms, stripSecrets } from './errors';
import { networkFailure, parseIfJson, redirectTarget } from './response';

/** The read the test makes: every account may list its registrations. */
export const CREDENTIAL_TEST_PATH = '/v1/einvoices/registrations';
export const CREDENTIAL_TEST_TIMEOUT_MS = 30_000;
/** An error answer is read up to this size for the API's message; a success is not read. */
const ERROR_BODY_MAX_BYTES = 64 * 1024;
const OPERATION = 'Credential test';

/** What to check when the test is refused: the credential's fields, not IDs of a call. */
const STATUS_HINTS: Record<number, string> = {
	401: "Check the API Key and the Party ID (your master account's), and the Environment: sandbox and production keys differ.",
	403: 'The account may not use the API this way; contact the access point support, quoting your Party ID.',
	404: 'Nothing answers at this address: check the Environment (or the custom Base URL).',
};

interface LegacyResponse {
	statusCode: number;
	headers?: Record<string, string | string[] | undefined>;
	body?: unknown;
}

function text(value: unknown): string {
	return value === undefined || value === null ? '' : String(value).trim();
}

/** Tests the API key and Party ID against the environment's Base URL; the message is what the user reads. */
export async function testAccessPointCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = (credential.data ?? {}) as unknown as AccessPointCredentials;
	const apiKey = text(data.apiKey);
	const partyId = text(data.partyId);
	const secrets = [String(data.apiKey ?? ''), ...secretForms(String(data.apiKey ?? ''))];
	const fail = (message: string): INodeCredentialTestResult => ({ status: 'Error', message: stripSecrets(message, secrets) });
	if (!apiKey) return fail('The API Key is empty. Paste the API key of the master account.');
	if (!partyId) return fail('The Party ID is empty. Enter the PartyID of the master account.');
	const resolved = resolveBaseUrl(data);
	if ('problem' in resolved) return fail(`${resolved.problem}. Nothing was sent.`);

	const url = `${resolved.url}${CREDENTIAL_TEST_PATH}`;
	// The one HTTP helper n8n gives a credential test (see the header).
	const { request } = this.helpers;
	const deadline = AbortSignal.timeout(CREDENTIAL_TEST_TIMEOUT_MS);
	let response: LegacyResponse;
	try {
		response = await beforeDeadline(
			request({
				method: 'GET',
				uri: url,
				headers: { apikey: apiKey, partyID: partyId, Accept: 'application/json' },
				resolveWithFullResponse: true,
				simple: false,
				followRedirect: false,
				followAllRedirects: false,
				// The body as a stream: a success is not read at all, an error answer within a bound.
				useStream: true,
				timeout: CREDENTIAL_TEST_TIMEOUT_MS,
			}) as Promise<LegacyResponse>,
			deadline,
		);
	} catch (error) {
		const failure = error instanceof BodyLimitError ? { code: 'ETIMEDOUT' } : networkFailure(error);
		const details = describeNetworkError(failure, OPERATION);
		return fail(`${details.message} (${new URL(url).host}). ${details.description}`);
	}

	const status = Number(response.statusCode);
	if (status >= 200 && status < 300) {
		discardBody(response.body);
		return { status: 'OK', message: 'Connection successful: the API accepted the API key and Party ID' };
	}
	if (status >= 300 && status < 400) {
		discardBody(response.body);
		const location = response.headers?.location;
		const where = redirectTarget(Array.isArray(location) ? location[0] : location, url);
		return fail(
			`${OPERATION} failed: the API answered HTTP ${status}, a redirect to ${where}; it was not followed, so the key stays on ${new URL(url).host}. If the API has moved, set its new address as the Base URL.`,
		);
	}
	const body = await readBody(response.body, { maxBytes: ERROR_BODY_MAX_BYTES, deadline, tail: false, watch: [] }).then(
		(read) => ('text' in read ? parseIfJson(read.text) : read.value),
		// Too large or too slow: the status alone still says what to check.
		() => '',
	);
	const details = describeApiError(status, body, OPERATION);
	return fail(`${details.message}. ${STATUS_HINTS[status] ?? details.description}`);
}
