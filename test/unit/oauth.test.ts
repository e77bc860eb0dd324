/**
 * OAuth2 (#22) without HTTP: every node's Authentication parameter and credential pair (what
 * the editor shows for each choice, through n8n's own NodeHelpers), the credential's URLs per
 * Environment (resolved by n8n's expression engine with `$self`, as n8n's CLI does), how a
 * failed refresh is told apart (n8n 2.x and 1.x shapes), and the masking of OAuth secrets.
 */
import type { ICredentialDataDecryptedObject, INode, INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeHelpers, NodeOperationError, Workflow } from 'n8n-workflow';

import { AccessPointApi } from '../../credentials/AccessPointApi.credentials';
import { AccessPointOAuth2Api } from '../../credentials/AccessPointOAuth2Api.credentials';
import { DELEGATED_CREDENTIAL, API_KEY_CREDENTIAL } from '../../nodes/shared/node/credential';
import { stripSecrets } from '../../nodes/shared/http/secrets';
import ACCOUNT_EXAMPLE from '../../emulator/fixtures/account-information.json';
import { authenticationProperty, OAUTH_ENDPOINTS } from '../../nodes/shared/fields/credentialFields';
import { pickAccountParty } from '../../nodes/shared/node/client';
import { classifyRefreshFailure } from '../../nodes/shared/http/transport';
import { readmeAnchors } from '../harness/oauth';
import { loadPackageNodes } from './packageNodes';

const nodes = loadPackageNodes();

describe('every node: Authentication and the matching credential', () => {
	it.each(nodes.map((n) => [n.description.displayName, n] as const))('%s', (_name, { description }) => {
		expect(description.properties[0]).toBe(authenticationProperty);
		expect(authenticationProperty).toMatchObject({ name: 'authentication', type: 'options', default: 'apiKey' });
		expect((authenticationProperty.options ?? []).map((o) => ('value' in o ? o.value : undefined))).toEqual(['apiKey', 'oAuth2']);
		const credentials = description.credentials ?? [];
		expect(credentials.map((c) => c.name)).toEqual([API_KEY_CREDENTIAL, DELEGATED_CREDENTIAL]);
		const node: INode = { id: '1', name: description.displayName, type: description.name, typeVersion: 1, position: [0, 0], parameters: {} };
		// The operation a credential needs (Identification's Parse Callback needs none).
		const operation = description.name === 'accessPointIdentification' ? { operation: 'start' } : {};
		const shown = (parameters: INodeParameters) =>
			credentials
				.filter((c) =>
					NodeHelpers.displayParameter(
						NodeHelpers.getNodeParameters(description.properties, { ...operation, ...parameters }, true, false, node, description) ?? {},
						c,
						node,
						description,
					),
				)
				.map((c) => c.name);
		expect(shown({})).toEqual([API_KEY_CREDENTIAL]);
		expect(shown({ authentication: 'apiKey' })).toEqual([API_KEY_CREDENTIAL]);
		expect(shown({ authentication: 'oAuth2' })).toEqual([DELEGATED_CREDENTIAL]);
		if (description.name === 'accessPointIdentification') {
			expect(shown({ operation: 'parseCallback', authentication: 'oAuth2' })).toEqual([]);
		}
	});
});

describe('the AccessPoint OAuth2 API credential', () => {
	const credential = new AccessPointOAuth2Api();
	const prop = (name: string) => credential.properties.find((p) => p.name === name);

	it("extends n8n's OAuth2 credential with the Authorization Code grant and the secret in the form", () => {
		expect(credential.name).toBe(DELEGATED_CREDENTIAL);
		expect(credential.extends).toEqual(['oAuth2Api']);
		expect(prop('grantType')).toMatchObject({ type: 'hidden', default: 'authorizationCode' });
		expect(prop('authentication')).toMatchObject({ type: 'hidden', default: 'body' });
		expect(prop('scope')).toMatchObject({ type: 'hidden', default: '' });
		// n8n reads these; the Environment sets them unless the user types other addresses (the docs disagree on the sign-in host).
		expect(prop('authUrl')?.type).toBe('hidden');
		expect(prop('accessTokenUrl')?.type).toBe('hidden');
		expect(prop('signInUrl')).toMatchObject({ type: 'string', default: '' });
		expect(prop('tokenUrl')).toMatchObject({ type: 'string', default: '' });
		expect(prop('partyId')?.required).toBeFalsy();
		expect(credential.test.request.url).toBe('/v1/account/accountInformation');
		expect(credential.test.request.disableFollowRedirect).toBe(true);
	});

	/** The credential's defaults for these fields with n8n's getNodeParameters, then its expressions resolved as n8n's CLI does (`$self`). */
	function resolve(fields: Record<string, string>): ICredentialDataDecryptedObject {
		const data = NodeHelpers.getNodeParameters(credential.properties, fields, true, false, null, null) as ICredentialDataDecryptedObject;
		const mockNode: INode = { id: 'm', name: 'mock', type: 'mock', typeVersion: 1, position: [0, 0], parameters: {} };
		const nodeTypes = { getByName: () => undefined, getByNameAndVersion: () => undefined, getKnownTypes: () => ({}) };
		const workflow = new Workflow({ nodes: [mockNode], connections: {}, active: false, nodeTypes: nodeTypes as never });
		return workflow.expression.getComplexParameterValue(
			mockNode,
			data as INodeParameters,
			'internal',
			{},
			undefined,
			undefined,
			data as INodeParameters,
		) as ICredentialDataDecryptedObject;
	}

	it.each([
		['sandbox (default)', {}, OAUTH_ENDPOINTS.sandbox.authUrl, 'https://api.sandbox.billit.be/OAuth2/token'],
		['production', { environment: 'production' }, 'https://my.billit.be/Account/Logon', 'https://api.billit.be/OAuth2/token'],
		['custom', { environment: 'custom', baseUrl: ' http://127.0.0.1:4010/ ' }, 'http://127.0.0.1:4010/Account/Logon', 'http://127.0.0.1:4010/OAuth2/token'],
	])('Environment %s sets the sign-in and token URLs', (_label, fields, authUrl, tokenUrl) => {
		const resolved = resolve(fields as Record<string, string>);
		expect(resolved.authUrl).toBe(authUrl);
		expect(resolved.accessTokenUrl).toBe(tokenUrl);
	});

	it.each([
		[{ environment: 'sandbox' }, 'https://api.sandbox.billit.be'],
		[{ environment: 'production' }, 'https://api.billit.be'],
		[{ environment: 'custom', baseUrl: 'http://127.0.0.1:4010/' }, 'http://127.0.0.1:4010'],
		[{ environment: 'custom', baseUrl: 'https://proxy.example.test' }, 'https://proxy.example.test'],
		[{ environment: 'custom', baseUrl: 'http://proxy.example.test' }, 'Base URL must use https'],
	])('the credential test for %j goes to %s (the https rule of the nodes; otherwise no URL, so nothing is sent)', (fields, expected) => {
		const mockNode: INode = { id: 'm', name: 'mock', type: 'mock', typeVersion: 1, position: [0, 0], parameters: {} };
		const nodeTypes = { getByName: () => undefined, getByNameAndVersion: () => undefined, getKnownTypes: () => ({}) };
		const workflow = new Workflow({ nodes: [mockNode], connections: {}, active: false, nodeTypes: nodeTypes as never });
		const baseURL = workflow.expression.getSimpleParameterValue(mockNode, credential.test.request.baseURL as string, 'internal', { $credentials: fields });
		expect(baseURL).toBe(expected);
	});

	it.each(['sandbox', 'production', 'custom'])('Environment %s: the Sign-In and Token URL fields name only its own addresses (issue #28)', (environment) => {
		const fields = ['signInUrl', 'tokenUrl'].map((name) => {
			const shown = credential.properties.filter((p) => p.name === name && NodeHelpers.displayParameter({ environment }, p, null, null));
			expect(shown).toHaveLength(1);
			return `${shown[0].placeholder} ${shown[0].description}`;
		});
		const others = { sandbox: /sandbox/, production: /\/\/(my|api)\.billit\.be/, custom: /<Base URL>/ } as Record<string, RegExp>;
		for (const [other, pattern] of Object.entries(others)) {
			for (const text of fields) expect(pattern.test(text)).toBe(other === environment);
		}
	});

	it('its default name differs from the API key credential\'s (n8n drops "API", "OAuth2" from the display name and adds "account")', () => {
		// n8n 2.41's editor (workflows.store getNewCredentialName): the display name's words other than API, OAuth1, OAuth2, MCP.
		const defaultName = (displayName: string) =>
			`${displayName
				.split(' ')
				.filter((w) => !['API', 'OAuth1', 'OAuth2', 'MCP'].includes(w))
				.join(' ')} account`;
		expect(defaultName(new AccessPointApi().displayName)).toBe('AccessPoint account');
		expect(defaultName(credential.displayName)).toBe('AccessPoint Sign-In account');
	});

	it("both credentials' documentation links point at README headings that exist", () => {
		const anchors = readmeAnchors();
		for (const url of [new AccessPointApi().documentationUrl, credential.documentationUrl]) {
			expect(anchors).toContain(new URL(url).hash.slice(1));
		}
		expect(new URL(credential.documentationUrl).hash).toBe('#oauth2');
	});

	it("a Sign-In URL or Token URL typed by the user wins over the Environment's", () => {
		const signIn = resolve({ environment: 'production', signInUrl: ' https://my.billit.eu/Account/Logon ' });
		expect(signIn.authUrl).toBe('https://my.billit.eu/Account/Logon');
		expect(signIn.accessTokenUrl).toBe('https://api.billit.be/OAuth2/token');
		const token = resolve({ environment: 'sandbox', tokenUrl: 'https://proxy.example.test/OAuth2/token' });
		expect(token.authUrl).toBe(OAUTH_ENDPOINTS.sandbox.authUrl);
		expect(token.accessTokenUrl).toBe('https://proxy.example.test/OAuth2/token');
	});
});

describe('the party an OAuth2 credential without a Party ID acts for (account information, issue #32)', () => {
	const company = (PartyID: unknown, Name: unknown, VATNumber?: unknown) => ({ PartyID, Name, VATNumber });

	it('the published shape (no top-level PartyID, one company under Companies): that company', () => {
		expect(Object.keys(ACCOUNT_EXAMPLE)).not.toContain('PartyID');
		expect(pickAccountParty(ACCOUNT_EXAMPLE)).toEqual({ partyId: '314159' });
	});

	it('no Companies: the one PartyID of UserCompanyRoles', () => {
		expect(pickAccountParty({ UserCompanyRoles: [{ PartyID: 7, UserRoleTypes: ['Admin'] }, { PartyID: '7' }] })).toEqual({ partyId: '7' });
	});

	it('several companies: each named with its VAT number and PartyID, and what to set', () => {
		const picked = pickAccountParty({ Companies: [company(1001, 'Acme NV', 'BE0123456749'), company(1002, 'Beta\u0000 BV'), company(1001, 'Acme NV again')] });
		expect(picked).toEqual({
			message:
				'The signed-in account may act for 2 companies and the credential names no Party ID: Acme NV (BE0123456749, PartyID 1001); Beta BV (no VAT number, PartyID 1002)',
			description:
				"Set the company's PartyID as the OAuth2 credential's Party ID, or per node in Options › Act for Party. The account's companies: Acme NV (BE0123456749, PartyID 1001); Beta BV (no VAT number, PartyID 1002).",
		});
	});

	it('many companies: three in the message, fifty in the description, the rest counted', () => {
		const picked = pickAccountParty({ Companies: Array.from({ length: 60 }, (_, i) => company(i + 1, `C${i + 1}`)) }) as {
			message: string;
			description: string;
		};
		expect(picked.message).toMatch(/60 companies .*C3 \(no VAT number, PartyID 3\); and 57 more$/);
		expect(picked.description).toMatch(/C50 \(no VAT number, PartyID 50\); and 10 more\.$/);
	});

	it.each([
		['nothing', undefined],
		['no company', { Email: 'x@example.test', Companies: [] }],
		['companies without a usable PartyID', { Companies: [null, 'x', company('12a', 'X'), company(1.5, 'Y'), company({}, 'Z')] }],
		['a top-level PartyID only (no source shows it)', { PartyID: 5 }],
	])('%s: no party, and what to set', (_label, info) => {
		expect(pickAccountParty(info)).toEqual({
			message: 'The signed-in account lists no company to act for, and the credential names no Party ID',
			description: "Set the company's PartyID as the OAuth2 credential's Party ID, or per node in Options › Act for Party.",
		});
	});
});

describe('a refresh that failed', () => {
	const node: INode = { id: '1', name: 'AccessPoint Order', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} };

	it('n8n 2.x: its "needs to be reconnected" error, raw or wrapped, is a reconnect', () => {
		const reconnect = new NodeOperationError(node, 'The credential "X" needs to be reconnected.', { failure: { cause: 'credential-invalid' } } as never);
		expect(classifyRefreshFailure(reconnect).kind).toBe('reconnect');
		expect(classifyRefreshFailure(new NodeApiError(node, reconnect as never)).kind).toBe('reconnect');
	});

	it("n8n 1.x: the OAuth client's error with invalid_grant in the body is a reconnect", () => {
		const authError = Object.assign(new Error('The provided authorization grant is invalid'), { code: 'EAUTH', body: { error: 'invalid_grant' } });
		expect(classifyRefreshFailure(authError)).toMatchObject({ kind: 'reconnect', code: 'invalid_grant' });
	});

	it('another OAuth error keeps its code and words; a network failure keeps its code', () => {
		const invalidClient = Object.assign(new Error('Client authentication failed'), {
			code: 'EAUTH',
			body: { error: 'invalid_client', error_description: 'Unknown client' },
		});
		expect(classifyRefreshFailure(invalidClient)).toMatchObject({ kind: 'failed', code: 'invalid_client', message: 'invalid_client: Unknown client' });
		const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
		expect(classifyRefreshFailure(refused)).toMatchObject({ kind: 'failed', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' });
	});
});

describe('masking OAuth secrets in texts', () => {
	it.each([
		['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def', 'Authorization: Bearer ***'],
		['{"access_token":"at-1234567890","refresh_token":"rt-0987654321"}', '{"access_token":"***","refresh_token":"***"}'],
		['client_secret=s3cr3t&grant_type=refresh_token', 'client_secret=***&grant_type=refresh_token'],
		['Bearer authentication failed', 'Bearer authentication failed'],
	])('%s', (text, masked) => {
		expect(stripSecrets(text)).toBe(masked);
	});
});
