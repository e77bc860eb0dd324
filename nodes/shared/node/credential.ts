/** The credential a node's client signs with: API key (a personal integration) or OAuth 2.0 (required by the service for anything serving several users). */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type AccessPointCredentials, allowedScheme, resolveBaseUrl } from '../domain/environments';
import { rememberSecrets, stripSecrets } from '../http/secrets';
import type { ApiContext, Auth, AuthenticationMethod } from '../http/types';

export const API_KEY_CREDENTIAL = 'accessPointApi';
/** OAuth 2.0: access delegated by the signed-in account (named so the secrets lint does not take the name for a secret). */
export const DELEGATED_CREDENTIAL = 'accessPointOAuth2Api';

const tokenSecrets = (tokenData: unknown) => ['access_token', 'refresh_token', 'id_token'].map((name) => (tokenData as IDataObject | undefined)?.[name]);

/** Reads the credential the Authentication picks and checks, before any request, that its Base URL (and Token URL) use https. */
export async function loadAuth(ctx: ApiContext, itemIndex?: number): Promise<Auth> {
	const node = ctx.getNode();
	// The node's Authentication, read raw: it takes no expression, and every kind of node context has the node.
	const method = (node.parameters.authentication ?? 'apiKey') as AuthenticationMethod;
	if (method !== 'apiKey' && method !== 'oAuth2') {
		throw new NodeOperationError(node, `The Authentication "${String(method)}" is not supported`, { description: 'Pick API Key or OAuth2.' });
	}
	const credentialType = method === 'oAuth2' ? DELEGATED_CREDENTIAL : API_KEY_CREDENTIAL;
	const getCredentials = ctx.getCredentials as (type: string, index?: number) => Promise<ICredentialDataDecryptedObject>;
	type Raw = AccessPointCredentials & { accessTokenUrl?: string; clientSecret?: string; oauthTokenData?: IDataObject };
	const raw = (await getCredentials.call(ctx, credentialType, itemIndex)) as unknown as Raw;
	const secrets: string[] = [];
	rememberSecrets(secrets, method === 'oAuth2' ? [raw.clientSecret, ...tokenSecrets(raw.oauthTokenData)] : [raw.apiKey]);
	const credentialName = method === 'oAuth2' ? 'AccessPoint Sign-In OAuth2 API' : 'AccessPoint API';
	const refuse = (problem: string, description: string) => new NodeOperationError(node, stripSecrets(problem, secrets), { itemIndex, description });

	const resolved = resolveBaseUrl(raw);
	// A key pasted into the Base URL must not travel in the message.
	if ('problem' in resolved) throw refuse(resolved.problem, `Open the ${credentialName} credential and fix its Environment / Base URL.`);
	const partyId = String(raw.partyId ?? '').trim();
	let accessToken = raw.oauthTokenData?.access_token as string | undefined;
	const common = {
		method,
		credentialType,
		baseUrl: resolved.url,
		partyId,
		secrets,
		itemIndex,
		learn(tokenData: unknown) {
			const access = (tokenData as IDataObject | undefined)?.access_token;
			if (typeof access === 'string') accessToken = access;
			rememberSecrets(secrets, tokenSecrets(tokenData));
		},
	};

	if (method === 'apiKey') {
		// Trimmed once here: n8n's generic authenticate sends exactly what the masking knows.
		const data = { ...(raw as unknown as ICredentialDataDecryptedObject), apiKey: String(raw.apiKey ?? '').trim() };
		return {
			...common,
			unauthorizedHint: 'Check the API key and Party ID in the credential, and that the ID used belongs to this account.',
			sign: (actFor) => ({
				headers: {},
				options: { credentialsDecrypted: { id: '', name: credentialType, type: credentialType, data: { ...data, partyId: actFor } } },
			}),
		};
	}

	if (typeof raw.oauthTokenData?.access_token !== 'string') {
		throw refuse(`The ${credentialName} credential is not connected`, 'Open the credential and click "Connect my account"; then rerun.');
	}
	const tokenUrl = String(raw.accessTokenUrl ?? '').trim();
	// n8n refreshes the token (SECURITY.md "OAuth2 refresh"): the client secret and refresh token go only to the API's own host.
	const rule =
		!URL.canParse(tokenUrl) || !allowedScheme(tokenUrl)
			? 'use https (http only for localhost/127.0.0.1)'
			: new URL(tokenUrl).origin !== new URL(resolved.url).origin && `be on the API's host ${new URL(resolved.url).host}`;
	if (rule) throw refuse(`The credential's Token URL must ${rule}, got "${tokenUrl}"`, "Fix the credential's Token URL and reconnect.");
	return {
		...common,
		tokenUrl,
		get accessToken() {
			return accessToken;
		},
		unauthorizedHint: 'Reconnect the credential; check its Party ID and that the ID used belongs to this account.',
		// n8n signs with the Bearer token; a 401 comes back to the client (http/transport.ts), which has n8n refresh once per expiry.
		sign: (actFor) => ({ headers: actFor ? { partyID: actFor } : ({} as Record<string, string>), options: { oauth2: { skipTokenRefresh: true } } }),
	};
}
