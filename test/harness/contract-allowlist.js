// @ts-check
'use strict';
/**
 * Tests that send requests the service does not take as sent ON PURPOSE (hostile servers, bad input, the
 * emulator's own tests of how it refuses them). Each is named: its file (from the repository root), its full
 * test name (describe blocks and test, space-separated, as jest prints it; or a RegExp for a test.each family),
 * and why. Keep this list short: a test that is here only because the package sends a wrong request hides a bug.
 * Inside a test, `allowContractViolations(reason)` (./contract.js) does the same for that test.
 * @type {Array<{ file: string, test: string | RegExp, reason: string }>}
 */
module.exports = [];
