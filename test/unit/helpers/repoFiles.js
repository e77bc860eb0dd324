'use strict';

/** The repository's source files under some folders, for tests that check a convention across them (plain JS: files are read here). */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..', '..');

/**
 * @param {string[]} folders repo-relative
 * @returns {Array<{ path: string, text: string }>} repo-relative paths (node_modules and fixtures left out), with their text
 */
function repoFiles(folders) {
	return folders.flatMap((folder) =>
		fs
			.readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
			.map((file) => `${folder}/${file.split(path.sep).join('/')}`)
			.filter((file) => /\.(ts|js|mjs)$/.test(file) && !/(^|\/)(node_modules|fixtures)\//.test(file))
			.map((file) => ({ path: file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') })),
	);
}

module.exports = { repoFiles };
