/** The start request (docs/api.md "Identification") and the identification-specific advice on its failures. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ClientProvider } from '../../shared/node/router';
import { startFailureHint } from '../hints';
import type { SessionTimes } from '../session';
import { readProviderUrl, sessionTimes } from '../session';

interface StartedSession extends SessionTimes {
	registrationID: number;
	providerUrl: string;
	identificationProviderTC: string;
	masterPartyId: string;
}

/**
 * POST /v1/einvoices/registrations/{RegistrationID}/identification with the
 * master account's PartyID header (the client's partyID header, overridable),
 * the provider code and the RedirectURL; reads the provider URL from the answer.
 */
export async function startIdentification(
	ctx: IExecuteFunctions,
	clients: ClientProvider,
	itemIndex: number,
	input: { registrationId: string; providerCode: string; redirectUrl: string; masterPartyId?: string; marginSeconds?: number },
): Promise<StartedSession> {
	const client = await clients(itemIndex, input.masterPartyId);
	const startedAtMs = Date.now();
	let body: unknown;
	try {
		body = await client.request<unknown>({
			method: 'POST',
			path: `/v1/einvoices/registrations/${encodeURIComponent(input.registrationId)}/identification`,
			body: { IdentificationProviderTC: input.providerCode, RedirectURL: input.redirectUrl },
			itemIndex,
			operation: 'Start identification',
		});
	} catch (error) {
		throw withStartHint(error, { partyId: client.partyId, registrationId: input.registrationId });
	}
	const providerUrl = readProviderUrl(body);
	if (!providerUrl) {
		throw new NodeApiError(
			ctx.getNode(),
			{ message: 'The identification answer has no provider URL' },
			{
				message: 'Start identification returned no provider URL (neither RedirectURL nor URL)',
				description: 'The session may have been opened anyway; wait 5 minutes before retrying. If it persists, contact the access point support.',
				itemIndex,
			},
		);
	}
	return {
		...sessionTimes(startedAtMs, input.marginSeconds),
		registrationID: Number(input.registrationId),
		providerUrl,
		identificationProviderTC: input.providerCode,
		masterPartyId: client.partyId,
	};
}

/** Puts identification-specific advice on the transport's NodeApiError, which keeps its message, HTTP status and API code. */
function withStartHint(error: unknown, context: { partyId: string; registrationId: string }): unknown {
	if (!(error instanceof NodeApiError)) return error;
	const { apiCode, apiDescription } = error.context;
	const code = typeof apiCode === 'string' ? apiCode : undefined;
	const text = [error.message, typeof apiDescription === 'string' ? apiDescription : ''].filter(Boolean).join(' ');
	const hint = startFailureHint({ status: error.httpCode ? Number(error.httpCode) : undefined, code, text }, context);
	if (hint) error.description = hint;
	return error;
}
