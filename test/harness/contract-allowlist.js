// @ts-check
'use strict';
/**
 * Tests that send requests the service does not take as sent ON PURPOSE (hostile servers, bad input, the
 * emulator's own tests of how it refuses them), each named: its file (from the repository root), its full test
 * name (describe blocks and test, space-separated, as jest prints it; or a RegExp for a test.each family), and why.
 * Keep this list short: a test that is here only because the package sends a wrong request hides a bug.
 * Inside a test, `allowContractViolations(reason)` (./contract.js) does the same for that test (preferred where the
 * test file is ours to edit).
 * @type {Array<{ file: string, test: string | RegExp, reason: string }>}
 */
module.exports = [
	{
		file: 'test/emulator/oauth.test.ts',
		test: 'OAuth 2.0 authorization server client authentication: HTTP Basic or form parameters; RFC 6749 errors otherwise',
		reason: 'posts a token request that is not a form, to see invalid_request',
	},
	{
		file: 'test/workflows/order-query.test.ts',
		test: 'AccessPoint Order › Get Many against the emulator filter builder on orders a property the API does not know comes back as the API error',
		reason: "filters on NoSuchField on purpose, to show the service's 400 reaches the user",
	},
	{
		file: 'test/emulator/orders.test.ts',
		test: 'orders reads one order by /v1/orders/{id}; /v1/order/{id} is not a path of the service (issue 36.5)',
		reason: 'reads the unpublished /v1/order/{id} to see the 404',
	},
	{
		file: 'test/emulator/send.test.ts',
		test: 'send command validates the body',
		reason: 'sends transport types that are not published (Email, Fax, 7) to see the refusal',
	},
];
