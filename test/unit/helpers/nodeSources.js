'use strict';

/** The TypeScript sources under nodes/, for tests that check a convention across every file. */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..', '..', 'nodes');

/** @returns {Array<{ file: string, text: string }>} paths relative to nodes/, with their text */
function nodeSources() {
	return fs
		.readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.ts'))
		.map((file) => ({ file: file.split(path.sep).join('/'), text: fs.readFileSync(path.join(ROOT, file), 'utf8') }));
}

module.exports = { nodeSources };
