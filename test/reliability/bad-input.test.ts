/**
 * Values that n8n itself flags in the editor (an empty required field, a By ID value
 * failing the locator's regex) are mapped with expressions here, as they arrive from
 * earlier nodes, so the node's own validation is what answers.
 *
 * Bad input across every node: each case runs through the engine against the emulator and
 * must stop the node with a NodeOperationError whose message starts with the item and the
 * field (`Item 0: "<Field>"`), carries the item index and a how-to-fix description, and
 * leaves the emulator's request log empty (rejected before any request). The Order
 * Trigger has no items: its messages name the field and the poll makes no request.
 * A second table puts the bad value on item 3 of 3 (items 1-2 valid, continue using error
 * output): items 1-2 are sent, item 3 is not, and its error says "Item 2" (numbered from 0, as n8n's "[item 2]").
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';
import type { Emu } from './helpers';
import { apiRequests, errorItemProblem } from './helpers';
import { printFigures } from './report';

const ORDER = 'accessPointOrder';
const REG = 'accessPointRegistration';
const INT = 'accessPointIntegration';
const PEPPOL = 'accessPointPeppolLookup';
const IDENT = 'accessPointIdentification';
const TRIGGER = 'accessPointOrderTrigger';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const line = (over: IDataObject = {}) => ({ lines: [{ description: 'Consulting', quantity: 1, unitPriceExcl: 100, vatPercentage: 21, ...over }] });
const create = (over: IDataObject = {}): IDataObject => ({
	resource: 'order',
	operation: 'create',
	orderType: 'Invoice',
	orderDirection: 'Income',
	orderDate: '2024-03-01',
	customerName: 'ACME NV',
	orderLines: line(),
	...over,
});
const json = (order: unknown): IDataObject => ({
	resource: 'order',
	operation: 'create',
	inputMode: 'json',
	orderJson: typeof order === 'string' ? order : JSON.stringify(order),
});
const validOrder = {
	OrderType: 'Invoice',
	OrderDirection: 'Income',
	OrderDate: '2024-01-31',
	Customer: { Name: 'ACME' },
	OrderLines: [{ Quantity: 1, UnitPriceExcl: 1, VATPercentage: 21 }],
};
const list = (resource: string, over: IDataObject): IDataObject => ({ resource, operation: 'getAll', returnAll: true, ...over });
const cond = (field: string, operator: string, value?: unknown, extra: IDataObject = {}) => ({
	filters: { conditions: [{ field, operator, value, ...extra }] },
});
const registration = (over: IDataObject = {}): IDataObject => ({
	operation: 'create',
	companyName: 'Acme BV',
	taxIdentifier: 'BE0481516215',
	email: 'acme@example.com',
	contactFirstName: 'Jan',
	contactLastName: 'Peeters',
	language: 'NL',
	addresses: { invoiceAddress: { street: 'Kerkstraat', streetNumber: '12', zipcode: '9000', city: 'Gent', countryCode: 'BE' } },
	...over,
});
const integration = (over: IDataObject): IDataObject => ({ operation: 'create', registrationId: byId('300001'), network: 'Peppol', ...over });
const start = (over: IDataObject): IDataObject => ({
	operation: 'start',
	registrationId: byId('300001'),
	redirectUrl: 'https://app.example.test/done',
	...over,
});

/** [label, node type, parameters, field named in the message, input items?] */
type Case = [string, string, IDataObject, string, IDataObject[]?];

const CASES: Case[] = [
	// Order › Create (fields)
	['order date mapped empty', ORDER, create({ orderDate: '={{ "" }}' }), 'Order Date'],
	['order date 30 February', ORDER, create({ orderDate: '2024-02-30' }), 'Order Date'],
	['order date in d/m/y', ORDER, create({ orderDate: '31/01/2024' }), 'Order Date'],
	['customer name blank', ORDER, create({ customerName: '   ' }), 'Customer Name'],
	['no order lines', ORDER, create({ orderLines: {} }), 'Order Lines'],
	['quantity zero', ORDER, create({ orderLines: line({ quantity: 0 }) }), 'Order Lines › Line 1 › Quantity'],
	['quantity not a number', ORDER, create({ orderLines: line({ quantity: '={{ "two" }}' }) }), 'Order Lines › Line 1 › Quantity'],
	['VAT 150%', ORDER, create({ orderLines: line({ vatPercentage: 150 }) }), 'Order Lines › Line 1 › VAT Percentage'],
	['unit price not a number', ORDER, create({ orderLines: line({ unitPriceExcl: '={{ "ten" }}' }) }), 'Order Lines › Line 1 › Unit Price Excl. VAT'],
	['expiry before order date', ORDER, create({ additionalFields: { ExpiryDate: '2024-02-01' } }), 'Expiry Date'],
	['expiry not a date', ORDER, create({ additionalFields: { ExpiryDate: 'next week' } }), 'Expiry Date'],
	['order type unknown', ORDER, create({ orderType: '={{ "Bill" }}' }), 'Order Type'],
	['order direction unknown', ORDER, create({ orderDirection: '={{ "Sideways" }}' }), 'Order Direction'],
	// Order › Create (JSON)
	['order JSON not JSON', ORDER, json('{ "OrderType": '), 'Order (JSON)'],
	['order JSON a list', ORDER, json([]), 'Order'],
	['order JSON without customer', ORDER, json({ ...validOrder, Customer: undefined }), 'Customer'],
	['order JSON ExternalProviderID an object', ORDER, json({ ...validOrder, ExternalProviderID: { id: 1 } }), 'ExternalProviderID'],
	[
		'order JSON price not a number',
		ORDER,
		json({ ...validOrder, OrderLines: [{ Quantity: 1, UnitPriceExcl: 'ten', VATPercentage: 21 }] }),
		'OrderLines[0].UnitPriceExcl',
	],
	['order JSON date wrong', ORDER, json({ ...validOrder, OrderDate: '2024-13-01' }), 'OrderDate'],
	// Order › Get
	['order ID mapped empty', ORDER, { resource: 'order', operation: 'get', orderId: '={{ $json.missing }}' }, 'Order'],
	['order ID letters', ORDER, { resource: 'order', operation: 'get', orderId: 'abc' }, 'Order'],
	['order ID negative', ORDER, { resource: 'order', operation: 'get', orderId: '-5' }, 'Order'],
	['order ID decimal', ORDER, { resource: 'order', operation: 'get', orderId: '1.5' }, 'Order'],
	// Order / Party / Product › Get Many
	['order filter: date not a date', ORDER, list('order', cond('OrderDate', 'ge', 'yesterday')), 'Filters'],
	['order filter: number not a number', ORDER, list('order', cond('TotalIncl', 'gt', 'ten')), 'Filters'],
	['order filter: boolean not a boolean', ORDER, list('order', cond('Paid', 'eq', 'yes')), 'Filters'],
	['order filter: number value empty', ORDER, list('order', cond('TotalIncl', 'gt', '')), 'Filters'],
	['order filter: custom path with spaces', ORDER, list('order', cond('__custom', 'eq', 'x', { customField: 'Bad Field!' })), 'Filters'],
	[
		'order sort: same key twice',
		ORDER,
		list('order', {
			sort: {
				keys: [
					{ field: 'OrderDate', direction: 'asc' },
					{ field: 'OrderDate', direction: 'desc' },
				],
			},
		}),
		'Sort',
	],
	['order raw filter: unterminated quote', ORDER, list('order', { filterMode: 'raw', rawFilter: "OrderNumber eq 'x" }), 'OData Filter (Raw)'],
	['order raw filter: parenthesis never closed', ORDER, list('order', { filterMode: 'raw', rawFilter: "(OrderType eq 'Invoice'" }), 'OData Filter (Raw)'],
	['order skip negative', ORDER, list('order', { options: { skip: -1 } }), 'Skip'],
	['order skip decimal', ORDER, list('order', { options: { skip: 1.5 } }), 'Skip'],
	['party filter: Party ID not a number', ORDER, list('party', cond('PartyID', 'eq', 'x1')), 'Filters'],
	['order filter: Paid not a boolean', ORDER, list('order', cond('Paid', 'eq', 'maybe')), 'Filters'],
	['order filter: Customer Name saved by 1.0 (not filterable)', ORDER, list('order', cond('Customer/Name', 'eq', 'ACME')), 'Filters'],
	// Registration
	['registration VAT fails mod 97', REG, registration({ taxIdentifier: 'BE0481516216' }), 'VAT Number'],
	['registration e-mail without @', REG, registration({ email: 'finance.example.com' }), 'Email'],
	['registration language as a word', REG, registration({ language: 'Dutch' }), 'Language'],
	['registration IBAN checksum', REG, registration({ additionalFields: { iban: 'BE68 5390 0754 7035' } }), 'IBAN'],
	[
		'registration country UK',
		REG,
		registration({ addresses: { invoiceAddress: { street: 'A', zipcode: '1', city: 'B', countryCode: 'UK' } } }),
		'Invoice Address → Country Code',
	],
	['registration get: ID letters', REG, { operation: 'get', registrationId: byId('={{ "abc" }}') }, 'Registration'],
	['registration deactivate: ID 0', REG, { operation: 'deactivate', registrationId: byId('0') }, 'Registration'],
	// Integration
	['integration: registration ID 12x', INT, integration({ registrationId: byId('={{ "12x" }}') }), 'Registration'],
	['integration: Chorus Pro key mapped empty', INT, integration({ network: 'ChorusPro', technicalUserKey: '={{ " " }}' }), 'Technical User Key'],
	['integration: network name !!', INT, integration({ network: 'other', networkName: '!!' }), 'Network Name'],
	['integration delete: ID letters', INT, { operation: 'delete', registrationId: byId('300001'), integrationId: byId('={{ "abc" }}') }, 'Integration'],
	['integration list: registration 0', INT, { operation: 'getAll', registrationId: byId('0'), returnAll: true }, 'Registration'],
	// Peppol Lookup
	['peppol: identifier mapped empty', PEPPOL, { identifier: '={{ $json.missing }}' }, 'Identifier'],
	['peppol: VAT fails mod 97', PEPPOL, { identifier: 'BE0123456748' }, 'Identifier'],
	['peppol: GLN check digit', PEPPOL, { identifier: '0088:4006381333932' }, 'Identifier'],
	['peppol: unknown scheme', PEPPOL, { identifier: '1234:abc' }, 'Identifier'],
	['peppol: VAT number under the GLN scheme', PEPPOL, { identifierType: 'scheme', scheme: '0088', schemeValue: 'BE0123456749' }, 'Value'],
	['peppol: unknown scheme code', PEPPOL, { identifierType: 'scheme', scheme: 'other', schemeCode: '1234', schemeValue: 'x' }, 'Scheme Code'],
	// Identification
	['identification: redirect URL relative', IDENT, start({ redirectUrl: '/identified' }), 'Redirect URL'],
	['identification: redirect URL ftp', IDENT, start({ redirectUrl: 'ftp://app.example.test/x' }), 'Redirect URL'],
	['identification: registration letters', IDENT, start({ registrationId: byId('={{ "abc" }}') }), 'Registration'],
	['identification: custom provider code mapped empty', IDENT, start({ identificationProvider: 'custom', customProviderCode: '={{ "" }}' }), 'Provider Code'],
	['identification: callback without parameters', IDENT, { operation: 'parseCallback' }, 'Callback Query', [{ body: {} }]],
];

/** Trigger cases: [label, parameters, field]. */
const TRIGGER_CASES: Array<[string, IDataObject, string]> = [
	['trigger: start date not a date', { options: { startFrom: 'yesterday' } }, 'Start From'],
	['trigger: late window negative', { options: { lateWindowSeconds: -5 } }, 'Late Change Window (Seconds)'],
	['trigger: filter date not a date', cond('OrderDate', 'ge', 'someday'), 'Filters'],
	['trigger: raw filter unbalanced', { filterMode: 'raw', rawFilter: "(OrderType eq 'Invoice'" }, 'OData Filter (Raw)'],
];

/**
 * Request options out of range: [label, node type, parameters, exact message]. Refused before
 * any request by the shared policy (retry.ts policyFromOptions). Until the nodes read their
 * options through limits.ts readRequestPolicy (the integrator's wiring in fields.ts
 * readRetryPolicy), the error is the policy's own RequestOptionError without the item prefix;
 * after it, a NodeOperationError with `Item 0: ` in front: both forms are accepted here.
 * Maximum Response Size is not declared on the nodes yet (n8n drops undeclared options): its
 * range is tested in test/unit/limits.test.ts.
 */
const REQUEST_OPTION_CASES: Array<[string, string, IDataObject, string]> = [
	[
		'read retries 1e9',
		ORDER,
		{ resource: 'order', operation: 'get', orderId: '1000001', options: { maxRetries: 1e9 } },
		'"Read Retries" 1000000000 is not a whole number from 0 to 10',
	],
	['read retries 2.5', REG, { operation: 'getAll', returnAll: true, options: { maxRetries: 2.5 } }, '"Read Retries" 2.5 is not a whole number from 0 to 10'],
	['read retries -1', PEPPOL, { identifier: 'BE0123456749', options: { maxRetries: -1 } }, '"Read Retries" -1 is not a whole number from 0 to 10'],
	[
		'request timeout 1e12 s',
		ORDER,
		{ resource: 'order', operation: 'getAll', returnAll: true, options: { timeoutSeconds: 1e12 } },
		'"Request Timeout (Seconds)" 1000000000000 is not a number from 1 to 600 seconds',
	],
	[
		'request timeout 0 s',
		INT,
		{ operation: 'getAll', registrationId: byId('300001'), returnAll: true, options: { timeoutSeconds: 0 } },
		'"Request Timeout (Seconds)" 0 is not a number from 1 to 600 seconds',
	],
	[
		'first retry delay -5 ms',
		ORDER,
		{ resource: 'order', operation: 'get', orderId: '1000001', options: { retryDelayMs: -5 } },
		'"First Retry Delay (Milliseconds)" -5 is not a number of 0 or more milliseconds',
	],
	[
		'trigger: read retries 1e9',
		TRIGGER,
		{ event: 'newOrUpdatedOrder', orderType: '', direction: '', options: { maxRetries: 1e9 } },
		'"Read Retries" 1000000000 is not a whole number from 0 to 10',
	],
];

/** The bad value on item 3 of 3 only: [label, node, parameters (expression picks per item), field, input]. */
const THIRD_ITEM: Case[] = [
	['order ID', ORDER, { resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }, 'Order', [{ id: 1000001 }, { id: 1000002 }, { id: 'x' }]],
	['order date', ORDER, create({ orderDate: '={{ $json.d }}' }), 'Order Date', [{ d: '2024-01-01' }, { d: '2024-01-02' }, { d: '2024-02-30' }]],
	[
		'filter value',
		ORDER,
		list('order', { returnAll: false, limit: 1, ...cond('TotalIncl', 'gt', '={{ $json.n }}') }),
		'Filters',
		[{ n: '1' }, { n: '2' }, { n: 'lots' }],
	],
	[
		'registration e-mail',
		REG,
		registration({ email: '={{ $json.e }}', taxIdentifier: '={{ $json.vat }}' }),
		'Email',
		[
			{ e: 'a@example.com', vat: 'BE0417497106' },
			{ e: 'b@example.com', vat: 'BE0403170701' },
			{ e: 'c@', vat: 'BE0202239951' },
		],
	],
	[
		'redirect URL',
		IDENT,
		start({ redirectUrl: '={{ $json.u }}' }),
		'Redirect URL',
		[{ u: 'https://a.example.test' }, { u: 'https://b.example.test' }, { u: 'mailto:x@y.z' }],
	],
];

/** A text nested `depth` levels deep: `{"a":{"a":…1…}}`. */
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const BAD_VAT = 'BE0123456748';
const VAT_PROBLEM = 'BE0123456748 is not a valid Belgian VAT number (mod-97 check digits 48 do not match 49)';
const getMany = (over: IDataObject): IDataObject => list('order', { returnAll: false, limit: 5, ...over });
const send = (over: IDataObject = {}): IDataObject => ({ resource: 'order', operation: 'send', orderIds: '1000001', ...over });
const lookup = (over: IDataObject = {}): IDataObject => ({ identifier: 'BE0123456749', ...over });

/** [label, node type, parameters, the exact message, input items?] */
type Exact = [string, string, IDataObject, string, IDataObject[]?];

/** Issue #18, point 7: each value that used to pass silently. */
const SILENT_VALUES: Exact[] = [
	['Limit -5', ORDER, getMany({ limit: -5 }), 'Item 0: "Limit" -5 is not a whole number of 1 or more'],
	['Limit 0', ORDER, getMany({ limit: 0 }), 'Item 0: "Limit" 0 is not a whole number of 1 or more'],
	['Limit "abc"', ORDER, getMany({ limit: '={{ "abc" }}' }), 'Item 0: "Limit" abc is not a whole number of 1 or more'],
	['Limit 1.5', ORDER, getMany({ limit: 1.5 }), 'Item 0: "Limit" 1.5 is not a whole number of 1 or more'],
	[
		'Limit 0 (Integration, the same reader)',
		INT,
		{ operation: 'getAll', registrationId: byId('300001'), returnAll: false, limit: 0 },
		'Item 0: "Limit" 0 is not a whole number of 1 or more',
	],
	['Customer Name an object', ORDER, create({ customerName: '={{ { name: "ACME" } }}' }), 'Item 0: "Customer Name" {"name":"ACME"} is an object, not text'],
	[
		'line Description an object',
		ORDER,
		create({ orderLines: line({ description: '={{ { text: "Work" } }}' }) }),
		'Item 0: "Order Lines › Line 1 › Description" {"text":"Work"} is an object, not text',
	],
	['Company Name an object', REG, registration({ companyName: '={{ { name: "Acme" } }}' }), 'Item 0: "Company Name" {"name":"Acme"} is an object, not text'],
	['Read Retries 1e9', ORDER, getMany({ options: { maxRetries: 1e9 } }), 'Item 0: "Read Retries" 1000000000 is not a whole number from 0 to 10'],
	[
		'Read Retries 1e9 (Registration, the same reader)',
		REG,
		{ operation: 'get', registrationId: byId('300001'), options: { maxRetries: 1e9 } },
		'Item 0: "Read Retries" 1000000000 is not a whole number from 0 to 10',
	],
	[
		'Request Timeout 1e12',
		PEPPOL,
		lookup({ options: { timeoutSeconds: 1e12 } }),
		'Item 0: "Request Timeout (Seconds)" 1000000000000 is not a number from 1 to 600 seconds',
	],
	[
		'Act for Party an object',
		ORDER,
		getMany({ options: { actForParty: '={{ { id: 300001 } }}' } }),
		'Item 0: "Act for Party" {"id":300001} is an object, not text',
	],
	[
		'Act for Party with CR/LF',
		ORDER,
		getMany({ options: { actForParty: '={{ "300001\\r\\n" }}' } }),
		'Item 0: "Act for Party" 300001\\r\\n contains a line break or another control or non-ASCII character',
	],
	[
		'Master Party ID with CR/LF',
		IDENT,
		start({ options: { masterPartyId: '={{ "100001\\r\\nX: 1" }}' } }),
		'Item 0: "Master Party ID" 100001\\r\\nX: 1 contains a line break or another control or non-ASCII character',
	],
	['Combine "xor"', ORDER, getMany({ filterCombine: 'xor', ...cond('OrderNumber', 'eq', 'INV-1') }), 'Item 0: "Combine Conditions" xor is not one of and, or'],
	['OrderID above 2^53 (Send)', ORDER, send({ orderIds: '9007199254740993' }), 'Item 0: "Order IDs" 9007199254740993 is too large to be an OrderID'],
	[
		'OrderID above 2^53 (Get)',
		ORDER,
		{ resource: 'order', operation: 'get', orderId: '9007199254740993' },
		'Item 0: "Order" 9007199254740993 is too large to be an OrderID',
	],
	[
		'External Provider ID of 1 MB',
		ORDER,
		create({ externalProviderId: '={{ "x".repeat(1048576) }}' }),
		`Item 0: "External Provider ID" ${'x'.repeat(60)}… is too long (1048576 characters; at most 255)`,
	],
	['order JSON nested 10,000 deep', ORDER, json(nested(10_000)), 'Item 0: "Order" is nested more than 32 levels deep'],
	[
		'OData Filter (Raw) an object',
		ORDER,
		getMany({ filterMode: 'raw', rawFilter: '={{ { OrderNumber: "x" } }}' }),
		'Item 0: "OData Filter (Raw)" {"OrderNumber":"x"} is an object, not text',
	],
];

/** Other silent coercions found by reading every getNodeParameter: each was clamped, defaulted or cast. */
const SWEEP: Exact[] = [
	['Return All "yes" (read as true)', ORDER, list('order', { returnAll: '={{ "yes" }}' }), 'Item 0: "Return All" yes is not true or false'],
	['Skip "5" (text taken as a number)', ORDER, getMany({ options: { skip: '={{ "5" }}' } }), 'Item 0: "Skip" 5 is not a whole number from 0 to 1000000000'],
	['Batch Size 0 (clamped to 1)', ORDER, send({ options: { batchSize: 0 } }), 'Item 0: "Batch Size" 0 is not a whole number of 1 or more'],
	['Strict "yes" (read as false)', ORDER, send({ strictTransportType: '={{ "yes" }}' }), 'Item 0: "Strict (No Fallback)" yes is not true or false'],
	[
		'Idempotency Header unknown (defaulted)',
		ORDER,
		send({ options: { idempotencyHeader: '={{ "Idem-Key" }}' } }),
		'Item 0: "Idempotency Header" Idem-Key is not one of Idempotency-Key, Idempotent-Key, none',
	],
	[
		'Currency an object (sent as an object)',
		ORDER,
		create({ additionalFields: { Currency: '={{ { code: "EUR" } }}' } }),
		'Item 0: "Currency" {"code":"EUR"} is an object, not text',
	],
	[
		'Concurrent Lookups 1e9 (clamped to 20)',
		PEPPOL,
		lookup({ options: { concurrency: 1e9 } }),
		'Item 0: "Concurrent Lookups" 1000000000 is not a whole number from 1 to 20',
	],
	[
		'Can Receive When unknown (defaulted)',
		PEPPOL,
		lookup({ options: { routeOn: '={{ "everything" }}' } }),
		'Item 0: "Can Receive When" everything is not one of invoicesAndCreditNotes, invoices, creditNotes',
	],
	[
		'Identify Receiver By unknown (fell back)',
		PEPPOL,
		lookup({ identifierType: 'gln' }),
		'Item 0: "Identify Receiver By" gln is not one of identifier, scheme',
	],
	[
		'scheme value an object (sent as "[object Object]")',
		PEPPOL,
		{ identifierType: 'scheme', scheme: '0204', schemeValue: '={{ { id: 1 } }}' },
		'Item 0: "Value" {"id":1} is an object, not an identifier',
	],
	[
		'Provider Code an object',
		IDENT,
		start({ identificationProvider: 'custom', customProviderCode: '={{ { code: "x" } }}' }),
		'Item 0: "Provider Code" {"code":"x"} is an object, not text',
	],
	[
		'Extra Wait -5 (clamped to 0)',
		IDENT,
		{ operation: 'startAndWait', registrationId: byId('300001'), options: { waitMarginSeconds: -5 } },
		'Item 0: "Extra Wait After the Window (Seconds)" -5 is not a number from 0 to 3600 seconds',
	],
	[
		'Expected Registration ID an object',
		IDENT,
		{ operation: 'parseCallback', options: { expectedRegistrationId: '={{ { id: 1 } }}' } },
		'Item 0: "Expected Registration ID" {"id":1} is an object, not a RegistrationID',
		[{ query: { registrationID: '1', success: 'true' } }],
	],
	['Input Mode unknown (read as Fields Below)', ORDER, create({ inputMode: 'yaml' }), 'Item 0: "Input Mode" yaml is not one of fields, json'],
	[
		'Send Browser Back To unknown (read as A URL)',
		IDENT,
		start({ redirectTo: 'email' }),
		'Item 0: "Send Browser Back To" email is not one of url, thisExecution',
	],
	[
		'Integration credential value an object',
		INT,
		integration({ network: 'other', networkName: 'Acme Net', credentials: { credential: [{ key: 'Token', value: '={{ { t: 1 } }}' }] } }),
		'Item 0: "Credentials #1 → Value" is an object, not text (credential Token)',
	],
];

/** Issue #24, point 9: one VAT number gets one verdict and one message in every node that takes it. */
const ONE_IDENTIFIER_CHECK: Exact[] = [
	['Peppol Lookup › Identifier', PEPPOL, lookup({ identifier: BAD_VAT }), `Item 0: "Identifier" ${VAT_PROBLEM}`],
	['Peppol Lookup › Scheme 9925 and Value', PEPPOL, { identifierType: 'scheme', scheme: '9925', schemeValue: BAD_VAT }, `Item 0: "Value" ${VAT_PROBLEM}`],
	['Order › Create › Customer VAT Number', ORDER, create({ customerVatNumber: BAD_VAT }), `Item 0: "Customer VAT Number" ${VAT_PROBLEM}`],
	[
		'Order › Create (JSON) › Customer.VATNumber',
		ORDER,
		json({ ...validOrder, Customer: { Name: 'ACME', VATNumber: BAD_VAT } }),
		`Item 0: "Customer.VATNumber" ${VAT_PROBLEM}`,
	],
	['Registration › Create › VAT Number', REG, registration({ taxIdentifier: BAD_VAT }), `Item 0: "VAT Number" ${VAT_PROBLEM}`],
	[
		'Registration › Create › Identifiers (type VAT)',
		REG,
		registration({ additionalFields: { identifiers: { identifier: [{ identifierType: 'VAT', identifier: BAD_VAT }] } } }),
		`Item 0: "Identifiers → Identifier" ${VAT_PROBLEM}`,
	],
];

const payment = (over: IDataObject): IDataObject => ({
	resource: 'order',
	operation: 'recordPayment',
	orderId: '1000001',
	amount: '10',
	paymentDate: '2026-02-28',
	...over,
});
const credit = (over: IDataObject): IDataObject => ({ resource: 'order', operation: 'createCreditNote', orderId: '1000001', ...over });
const download = (options: IDataObject): IDataObject => ({ resource: 'order', operation: 'downloadFiles', orderId: '1000001', options });
const ONE_MB = '={{ "x".repeat(1048576) }}';
const TOO_LONG = `${'x'.repeat(60)}… is too long (1048576 characters; at most 255)`;

/** Issue #33, point 5: each value that was accepted or silently changed, and the message it gets now. */
const ISSUE_33_5: Exact[] = [
	['Record Payment Amount 1e21', ORDER, payment({ amount: '={{ 1e21 }}' }), 'Item 0: "Amount" 1e+21 is too large (at most 999999999999.99)'],
	['Record Payment Amount 1e300', ORDER, payment({ amount: '={{ 1e300 }}' }), 'Item 0: "Amount" 1e+300 is too large (at most 999999999999.99)'],
	[
		'Record Payment Amount "12345678901234567.89"',
		ORDER,
		payment({ amount: '12345678901234567.89' }),
		'Item 0: "Amount" 12345678901234567.89 is too large (at most 999999999999.99)',
	],
	[
		'Record Payment Amount "90071992547409.93"',
		ORDER,
		payment({ amount: '90071992547409.93' }),
		'Item 0: "Amount" 90071992547409.93 is too large (at most 999999999999.99)',
	],
	[
		'Record Payment Payment Date 2026-02-28T99:99',
		ORDER,
		payment({ paymentDate: '2026-02-28T99:99' }),
		'Item 0: "Payment Date" 2026-02-28T99:99 is not a real date in the form YYYY-MM-DD',
	],
	['Download Files One Item per File "yes"', ORDER, download({ oneItemPerFile: '={{ "yes" }}' }), 'Item 0: "One Item per File" yes is not true or false'],
	[
		'Download Files Allow Missing Files "yes"',
		ORDER,
		download({ allowMissingFiles: '={{ "yes" }}' }),
		'Item 0: "Allow Missing Files" yes is not true or false',
	],
	[
		'Create Credit Note External Provider ID of 1 MB, before the invoice is read',
		ORDER,
		credit({ externalProviderId: ONE_MB }),
		`Item 0: "External Provider ID" ${TOO_LONG}`,
	],
	[
		'Create Credit Note Credit Note Number of 1 MB, before the invoice is read',
		ORDER,
		credit({ creditNoteFields: { orderNumber: ONE_MB } }),
		`Item 0: "Credit Note Number" ${TOO_LONG}`,
	],
	[
		'Create Credit Note Reference of 1 MB, before the invoice is read',
		ORDER,
		credit({ creditNoteFields: { reference: ONE_MB } }),
		`Item 0: "Reference" ${TOO_LONG}`,
	],
	['Order Get Many Skip 1e300', ORDER, getMany({ options: { skip: 1e300 } }), 'Item 0: "Skip" 1e+300 is not a whole number from 0 to 1000000000'],
	[
		'Custom Transport Type Pe€ppol',
		ORDER,
		send({ transportType: 'custom', customTransportType: 'Pe€ppol' }),
		'Item 0: "Custom Transport Type" Pe€ppol contains a line break or another control or non-ASCII character',
	],
	[
		'Custom Transport Type Peppol\\u0000',
		ORDER,
		send({ transportType: 'custom', customTransportType: '={{ "Peppol\\u0000" }}' }),
		'Item 0: "Custom Transport Type" Peppol\\u0000 contains a line break or another control or non-ASCII character',
	],
	[
		'External Provider ID with a line break (Create)',
		ORDER,
		create({ externalProviderId: '={{ "INV-1\\nINV-2" }}' }),
		'Item 0: "External Provider ID" INV-1\\nINV-2 contains a line break or another control character',
	],
	[
		'External Provider ID with a line break (Create Credit Note)',
		ORDER,
		credit({ externalProviderId: '={{ "CN-1\\n" }}' }),
		'Item 0: "External Provider ID" CN-1\\n contains a line break or another control character',
	],
	[
		'Order line Unit Price "1,250" (thousands or decimals?)',
		ORDER,
		create({ orderLines: line({ unitPriceExcl: '1,250' }) }),
		'Item 0: "Order Lines › Line 1 › Unit Price Excl. VAT" 1,250 is ambiguous ("," may separate thousands or decimals)',
	],
	[
		'Update Approval Status added but not chosen',
		ORDER,
		{ resource: 'order', operation: 'update', orderId: '1000001', updateFields: { approvalStatus: '' } },
		'Item 0: "Approval Status" is not chosen',
	],
];

/** The trigger's options through the same readers (no item: the message names the field). */
const TRIGGER_EXACT: Array<[string, IDataObject, string]> = [
	['trigger: Read Retries 1e9', { options: { maxRetries: 1e9 } }, '"Read Retries" 1000000000 is not a whole number from 0 to 10'],
	[
		'trigger: Act for Party with a line break',
		{ options: { actForParty: '={{ "300001\\n" }}' } },
		'"Act for Party" 300001\\n contains a line break or another control or non-ASCII character',
	],
	['trigger: Order Type an object (filtered on as "[object Object]")', { orderType: '={{ { t: 1 } }}' }, '"Order Type" {"t":1} is an object, not text'],
	[
		'trigger: Late Change Window 1.5 (floored)',
		{ options: { lateWindowSeconds: 1.5 } },
		'"Late Change Window (Seconds)" 1.5 is not a whole number of 0 or more seconds',
	],
];

describe('bad input is rejected before any request, naming the field and the item', () => {
	let h: Harness;
	let emu: Emu;
	const seen: string[] = [];

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 20 }, quiet: true });
		emu = h.emulator as Emu;
	});
	afterAll(async () => {
		printFigures('bad-input table', {
			'cases (action nodes, item named)': CASES.length,
			'cases (trigger, field named)': TRIGGER_CASES.length,
			'cases on item 3 of 3': THIRD_ITEM.length,
			'request option cases (range checked before any request)': REQUEST_OPTION_CASES.length,
			'nodes covered': [...new Set([...CASES.map((c) => c[1]), TRIGGER, ...THIRD_ITEM.map((c) => c[1])])].length,
			'messages checked': seen.length,
			'exact-message cases, issue #18.7': SILENT_VALUES.length,
			'exact-message cases, other silent coercions found (sweep)': SWEEP.length + TRIGGER_EXACT.length,
			'exact-message cases, one identifier check (#24.9)': ONE_IDENTIFIER_CHECK.length,
			'exact-message cases, inputs accepted or changed (#33.5)': ISSUE_33_5.length,
			'requests made by rejected items': 0,
			'sample messages': seen.filter((_, i) => i % 17 === 3).slice(0, 4),
		});
		await h?.close();
	});
	beforeEach(() => emu.clearRequests());

	it('has at least 50 cases over all six nodes', () => {
		expect(CASES.length + TRIGGER_CASES.length).toBeGreaterThanOrEqual(50);
		expect(new Set([...CASES.map((c) => c[1]), TRIGGER]).size).toBe(6);
	});

	// Rest parameters: jest would take a fifth declared parameter for a done callback on 4-element rows.
	it.each(CASES)('%s', async (...[, type, parameters, field, input]: Case) => {
		const result = await h.runNode(type, parameters, input ?? [{}]);
		expect(result.status).toBe('error');
		const error = result.nodeError(result.nodeName as string) as unknown as NodeOperationError;
		if (!error) throw new Error(`workflow error: ${JSON.stringify(result.error).slice(0, 600)}`);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message.startsWith(`Item 0: "${field}"`)).toBe(true);
		expect(error.context.itemIndex).toBe(0);
		expect(String(error.description ?? '').length).toBeGreaterThan(10);
		expect(apiRequests(emu)).toEqual([]);
		seen.push(error.message);
	});

	describe.each([
		['issue #18.7', SILENT_VALUES],
		['sweep', SWEEP],
		['one identifier check', ONE_IDENTIFIER_CHECK],
		['issue #33.5', ISSUE_33_5],
	] as Array<[string, Exact[]]>)('%s: the exact message, no request', (_group, table) => {
		it.each(table)('%s', async (...[, type, parameters, message, input]: Exact) => {
			const result = await h.runNode(type, parameters, input ?? [{}]);
			const error = result.nodeError(result.nodeName as string) as unknown as NodeOperationError;
			if (!error) throw new Error(`no node error: ${result.status} ${JSON.stringify(result.error).slice(0, 600)}`);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(message);
			expect(error.context.itemIndex).toBe(0);
			expect(String(error.description ?? '').length).toBeGreaterThan(10);
			expect(apiRequests(emu)).toEqual([]);
			seen.push(error.message);
		});
	});

	it('issue #33.5: Download Files reads "true" as its other options do (one reader): one item per file, missing files allowed', async () => {
		const result = await h.runNode(ORDER, {
			...download({ oneItemPerFile: '={{ "true" }}', allowMissingFiles: '={{ "true" }}' }),
			files: ['pdf', 'ubl', 'messages'],
		});
		result.assertSuccess();
		const items = result.output(result.nodeName as string) as IDataObject[];
		expect(items.length).toBeGreaterThanOrEqual(1);
		expect(items.every((item) => item.Property === 'data' || Array.isArray(item.Files))).toBe(true);
		expect(items[0]).toEqual(expect.objectContaining({ OrderID: 1000001 }));
		expect(items.some((item) => item.Property === 'data')).toBe(true);
	});

	it('one identifier check: every node gives BE0123456748 the same problem', () => {
		const problems = ONE_IDENTIFIER_CHECK.map(([, , , message]) => message.replace(/^Item 0: "[^"]+" /, ''));
		expect(new Set(problems)).toEqual(new Set([VAT_PROBLEM]));
		expect(new Set(ONE_IDENTIFIER_CHECK.map(([, type]) => type))).toEqual(new Set([PEPPOL, ORDER, REG]));
	});

	it.each(TRIGGER_EXACT)('%s', async (_label, parameters, message) => {
		const failure = await h.poll({ type: TRIGGER, parameters: { event: 'newOrUpdatedOrder', orderType: '', direction: '', ...parameters } }).then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(failure).toBeInstanceOf(NodeOperationError);
		expect((failure as NodeOperationError).message).toBe(message);
		expect(apiRequests(emu)).toEqual([]);
		seen.push((failure as NodeOperationError).message);
	});

	it.each(TRIGGER_CASES)('%s', async (_label, parameters, field) => {
		const failure = await h.poll({ type: TRIGGER, parameters: { event: 'newOrUpdatedOrder', orderType: '', direction: '', ...parameters } }).then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(failure).toBeInstanceOf(NodeOperationError);
		const error = failure as NodeOperationError;
		expect(error.message).toMatch(new RegExp(`^"${field.replace(/[()]/g, '\\$&')}"`));
		expect(String(error.description ?? '').length).toBeGreaterThan(10);
		expect(apiRequests(emu)).toEqual([]);
		seen.push(error.message);
	});

	it.each(REQUEST_OPTION_CASES)('%s: refused before any request', async (_label, type, parameters, message) => {
		const failure =
			type === TRIGGER
				? await h.poll({ type, parameters }).then(
						() => undefined,
						(error: unknown) => error as Error,
					)
				: await h.runNode(type, parameters).then((result) => {
						expect(result.status).toBe('error');
						return result.nodeError(result.nodeName as string);
					});
		expect(failure).toBeDefined();
		expect([message, `Item 0: ${message}`]).toContain((failure as Error).message);
		expect(apiRequests(emu)).toEqual([]);
		seen.push((failure as Error).message);
	});

	it.each(THIRD_ITEM)(
		'bad %s on item 3: items 1-2 are sent, item 3 is not and its error says "Item 2", as n8n numbers it',
		async (...[, type, parameters, field, input]: Case) => {
			const result = await h.runNode(type, parameters, input, { onError: 'continueErrorOutput' });
			result.assertSuccess();
			const outputs = result.runData[result.nodeName as string][0].data?.main ?? [];
			const errors = outputs[outputs.length - 1] ?? [];
			expect(errors).toHaveLength(1);
			const [failed] = errors;
			expect(failed.pairedItem).toEqual({ item: 2 });
			expect(errorItemProblem(failed, 'operation')).toBeUndefined();
			expect(String(failed.json.error).startsWith(`Item 2: "${field}"`)).toBe(true);
			const sent = apiRequests(emu);
			expect(sent.length).toBeGreaterThanOrEqual(2); // items 1 and 2 went through
			const [, , third] = input as IDataObject[];
			const bad = String(Object.values(third)[0]);
			expect(sent.filter((r) => decodeURIComponent(JSON.stringify([r.path, r.query, r.body ?? null])).includes(bad))).toEqual([]);
			seen.push(String(failed.json.error));
		},
	);
});
