/** What both credentials show and test (the Environment → URL rule itself: http/baseUrl.ts). */
import type { ICredentialTestRequest, Icon, IDataObject, INodeProperties } from 'n8n-workflow';

import { credentialTestBaseUrl, HTTPS_RULE } from '../http/baseUrl';

/** Both credentials' icon. */
export const CREDENTIAL_ICON: Icon = { light: 'file:../icons/accessPoint.svg', dark: 'file:../icons/accessPoint.dark.svg' };

/** Both credentials' Environment (`sandbox` and `custom` describe those choices) and the Custom Base URL. */
export function environmentFields(sandbox: string, custom: string, description?: string): INodeProperties[] {
	return [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			default: 'sandbox',
			...(description ? { description } : {}),
			options: [
				{ name: 'Sandbox', value: 'sandbox', description: sandbox },
				{ name: 'Production', value: 'production', description: 'Live environment and Peppol production' },
				{ name: 'Custom', value: 'custom', description: custom },
			],
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://proxy.example.com',
			description: 'Must use https (http only for localhost/127.0.0.1)',
			displayOptions: { show: { environment: ['custom'] } },
		},
		{
			// Shown while the Base URL breaks the https rule: the Test can then only say "Invalid URL" (nothing is sent).
			displayName: 'This Base URL is refused: it must start with https:// (http:// only for localhost or 127.0.0.1); nothing is sent to it',
			name: 'httpsNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { environment: ['custom'], baseUrl: [{ _cnd: { regex: `^\\s*(?!${HTTPS_RULE})\\S` } }] } },
		},
	];
}

/**
 * A credential's Test button: one GET on the Base URL the nodes use (credentialTestBaseUrl), 30 s; each status in
 * `messages`, and each redirect (n8n does not follow it: `disableFollowRedirect`), refused with what to check.
 */
export function credentialTest(request: { url: string; qs?: IDataObject }, secret: string, messages: Record<number, string>): ICredentialTestRequest {
	const redirect = (status: number) =>
		`HTTP ${status}: a redirect, not followed, so the ${secret} stayed here. If the API has moved, set its new address as the Base URL (Environment: Custom).`;
	const rules = [...Object.entries(messages), ...[301, 302, 303, 307, 308].map((status) => [status, redirect(status)])];
	return {
		request: {
			baseURL: credentialTestBaseUrl(),
			...request,
			method: 'GET',
			headers: { Accept: 'application/json' },
			disableFollowRedirect: true,
			timeout: 30_000,
		},
		rules: rules.map(([value, message]) => ({ type: 'responseCode', properties: { value: Number(value), message: String(message) } })),
	};
}
