// @ts-check
'use strict';
/**
 * The harness's own files, for types.test.ts (kept in JS: the lint rules for
 * node code forbid node:fs in TypeScript files).
 */
const fs = require('node:fs');
const path = require('node:path');

/**
 * Files directly in test/harness/ with their text.
 * @returns {Array<{ name: string, text: string }>}
 */
function harnessFiles() {
	return fs
		.readdirSync(__dirname, { withFileTypes: true })
		.filter((e) => e.isFile())
		.map((e) => ({ name: e.name, text: fs.readFileSync(path.join(__dirname, e.name), 'utf8') }));
}

module.exports = { harnessFiles };
