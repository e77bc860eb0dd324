/** Integration bodies -> output items that make a pending signature obvious. Pure. */
import type { IDataObject } from 'n8n-workflow';
import { text } from '../../shared/domain/values';

/** Said once, in the run's hint (create.operation.ts); the item carries needsSignature and the API's IntegrationDocumentToSign. */
export function signatureHint(pending: string[]): string {
	return `${pending.join(', ')} ${pending.length === 1 ? 'is' : 'are'} Pending: open IntegrationDocumentToSign in the output and have the registered company sign the document; the integration becomes active after the signature (check with Get Many).`;
}

/**
 * The API's integration fields, each once and under the API's name, plus `needsSignature`:
 * Pending with a document to sign. A Pending integration without one gets `nextStep`.
 */
export function integrationOutput(registrationId: string | number, integration: IDataObject): IDataObject {
	const status = text(integration.IntegrationStatus);
	const document = text(integration.IntegrationDocumentToSign);
	const pending = status.toLowerCase() === 'pending';
	const needsSignature = pending && document !== '';
	const out: IDataObject = {
		RegistrationID: typeof registrationId === 'string' && /^\d+$/.test(registrationId) ? Number(registrationId) : registrationId,
		IntegrationID: integration.IntegrationID,
		Integration: integration.Integration,
		IntegrationStatus: integration.IntegrationStatus,
		IntegrationStatusDescription: integration.IntegrationStatusDescription ?? '',
		IntegrationDocumentToSign: integration.IntegrationDocumentToSign ?? '',
		...integration,
		needsSignature,
	};
	if (pending && !needsSignature) out.nextStep = 'The integration is pending; see IntegrationStatusDescription for what the access point waits for.';
	return out;
}
