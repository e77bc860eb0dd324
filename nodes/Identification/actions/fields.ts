/** Parameter descriptions several Identification operations share. */
import type { INodeProperties } from 'n8n-workflow';

import { registrationIdField } from '../../shared/fields/fields';

import { DEFAULT_PROVIDER_CODE, DEFAULT_WAIT_MARGIN_SECONDS, MAX_WAIT_MARGIN_SECONDS } from '../session';

/** The brand writes its name in lower case; the editor's title-case convention would show "Itsme". */
const ITSME = 'itsme';

export const providerFields: INodeProperties[] = [
	{
		displayName: 'Identification Provider',
		name: 'identificationProvider',
		type: 'options',
		default: DEFAULT_PROVIDER_CODE,
		description:
			'The identity provider whose terms apply (sent as IdentificationProviderTC). One provider is supported today; choose Custom Code for a provider announced later.',
		options: [
			{ name: 'Custom Code', value: 'custom', description: 'Enter a provider terms code yourself' },
			{ name: ITSME, value: DEFAULT_PROVIDER_CODE, description: 'Mobile identity app (code "itsme")' },
		],
	},
	{
		displayName: 'Provider Code',
		name: 'customProviderCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. itsme',
		description: 'The IdentificationProviderTC code of the provider, as announced by the access point',
		displayOptions: { show: { identificationProvider: ['custom'] } },
	},
];

/** The trust limit, shown where a result comes in: the service offers no way to check a result (docs/api.md "Identification"). */
export const trustNotice: INodeProperties = {
	displayName:
		"The result is the browser's word, not the service's: anyone holding the resume URL (or your Redirect URL) can report success. Each item says so (resultSource) and, where the registration read shows an identification status, whether it agrees (serviceCheck); a success it contradicts leaves through Not Identified.",
	name: 'trustNotice',
	type: 'notice',
	default: '',
};

export const masterPartyOption: INodeProperties = {
	displayName: 'Master Party ID',
	name: 'masterPartyId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 100001',
	description:
		"PartyID of the master account that is whitelisted for identification, sent as the PartyID header. Leave empty to use the credential's Party ID.",
};

export const waitOptions: INodeProperties[] = [
	{
		displayName: 'After the Result, Send Browser To',
		name: 'resultRedirectUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://app.example.com/identity-done',
		description:
			"Where the user's browser goes once the result is in (registrationID and success are appended). Leave empty to show a small neutral result page.",
	},
	{
		displayName: 'Extra Wait After the Window (Seconds)',
		name: 'waitMarginSeconds',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_WAIT_MARGIN_SECONDS },
		default: DEFAULT_WAIT_MARGIN_SECONDS,
		description:
			'The provider session lasts 5 minutes from the start. The execution waits this much longer for a late redirect, then leaves through "Not Identified" with reason "expired".',
	},
];

export const registrationField: INodeProperties = { ...registrationIdField, description: 'The registered company entity whose authorised user is identified' };

/** The Options collection of an operation. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options };
}
