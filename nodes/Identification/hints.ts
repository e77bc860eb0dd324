/**
 * What to do about a failed start of identification (docs/api.md "Identification", "Errors and limits"),
 * as plain text on top of the transport's error. Pure, unit-tested without n8n.
 */

/** The HTTP status, the API's error Code (e.g. TooManyTrials) and its message or description. */
type StartFailure = { status?: number; code?: string; text?: string };

type HintKind = 'tooManyTrials' | 'notWhitelisted' | 'notRegistered' | 'unauthorized' | 'redirectRejected' | 'providerCode';

const WHITELIST_WORDS =
	/whitelist|white-list|allow-?list|not (?:authori[sz]ed|allowed|permitted) (?:to|for) (?:use )?identif|identification (?:is )?not (?:enabled|allowed)/i;

/** Which known situation a failure is, or undefined to keep the transport's generic hint. */
export function classifyStartFailure(failure: StartFailure): HintKind | undefined {
	const code = (failure.code ?? '').toLowerCase();
	const text = failure.text ?? '';
	if (code === 'toomanytrials' || /too many (?:attempts|trials)/i.test(text)) return 'tooManyTrials';
	if (failure.status === 403 || ((failure.status === 401 || failure.status === 400) && WHITELIST_WORDS.test(text))) {
		return 'notWhitelisted';
	}
	if (failure.status === 404) return 'notRegistered';
	if (failure.status === 401) return 'unauthorized';
	if (failure.status === 400 && /redirect ?url/i.test(text)) return 'redirectRejected';
	if (failure.status === 400 && /IdentificationProviderTC|provider/i.test(text)) return 'providerCode';
	return undefined;
}

/** The description a user can act on, or undefined when nothing specific is known. */
export function startFailureHint(failure: StartFailure, { partyId, registrationId }: { partyId: string; registrationId: string }): string | undefined {
	switch (classifyStartFailure(failure)) {
		case 'tooManyTrials':
			return `The sandbox allows 5 identification attempts per entity, and registration ${registrationId} has used them. Register a new sandbox entity to test again.`;
		case 'notWhitelisted':
			return `The master account (PartyID ${partyId}) is not whitelisted for identification. Ask support to whitelist it, or put a whitelisted PartyID in Options > Master Party ID.`;
		case 'notRegistered':
			return `Registration ${registrationId} is not registered or not active under this master account, or its registration step was skipped or failed. Check it with the AccessPoint Registration node (Get).`;
		case 'unauthorized':
			return `Registration ${registrationId} is not registered or not active, or its registration step was skipped or failed. Otherwise check the API key and that PartyID ${partyId} is the whitelisted master account.`;
		case 'redirectRejected':
			return "The API rejected the RedirectURL. Use an absolute https:// address the user's browser can reach.";
		case 'providerCode':
			return 'The API did not accept the Identification Provider code. Choose the supported provider.';
		default:
			return undefined;
	}
}
