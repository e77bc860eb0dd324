/** Integration bodies -> output items that make a pending signature obvious. Pure. */
import type { IDataObject } from 'n8n-workflow';

export const SIGNATURE_NEXT_STEP =
	'Open documentToSign and have the registered company sign the document; the integration becomes active after the signature. Check with "Get Many".';

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

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
		documentToSign: needsSignature ? document : null,
	};
	if (needsSignature) out.nextStep = SIGNATURE_NEXT_STEP;
	else if (pending) out.nextStep = 'The integration is pending; see IntegrationStatusDescription for what the access point waits for.';
	return out;
}
