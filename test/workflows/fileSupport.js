'use strict';
/**
 * Plain-JS side of the file tests (order-files, templates, file-answer; JS files are not
 * linted, so the file system, temp folders, n8n-core's binary data service and stdout are
 * reached here).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** @param {Uint8Array} bytes @returns {string} */
const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

/** A new empty folder under the OS temp folder. @param {string} prefix @returns {string} */
const tempFolder = (prefix) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
/** @param {string} dir */
const removeFolder = (dir) => fs.rmSync(dir, { recursive: true, force: true });
/** File names in a folder, sorted. @param {string} dir @returns {string[]} */
const listFolder = (dir) => fs.readdirSync(dir).sort();
/** @param {...string} parts @returns {string} */
const joinPath = (...parts) => path.join(...parts);
/** SHA-256 of a file's bytes. @param {...string} parts @returns {string} */
const fileSha256 = (...parts) => sha256(fs.readFileSync(path.join(...parts)));
/**
 * `dir/name` as a link to a file in a new temp folder (outside what n8n may write): a write there
 * is refused. @param {string} dir @param {string} name @returns {string} the outside folder, to remove
 */
function linkOutside(dir, name) {
	const outside = tempFolder('ap-outside-');
	fs.writeFileSync(path.join(outside, 'elsewhere.txt'), 'not an invoice');
	fs.symlinkSync(path.join(outside, 'elsewhere.txt'), path.join(dir, name));
	return outside;
}

/**
 * Switches n8n-core's BinaryDataService of this process (the harness's) to mode 'filesystem'
 * on a temp folder, as `N8N_DEFAULT_BINARY_DATA_MODE=filesystem` does; `restore()` goes back
 * to keeping binary data in memory and removes the folder.
 * @returns {Promise<{ service: any, restore: () => void }>}
 */
async function useFilesystemBinaryMode() {
	const { core, Container } = require('../harness').boot();
	const service = Container.get(core.BinaryDataService);
	const dir = tempFolder('ap-files-binary-');
	service.config.localStoragePath = dir;
	service.config.mode = 'filesystem';
	await service.init();
	return {
		service,
		restore() {
			service.managers = {};
			removeFolder(dir);
		},
	};
}

/** A test's figures on stdout. @param {string} title @param {Record<string, unknown>} figures */
function printFigures(title, figures) {
	const lines = Object.entries(figures).map(([k, v]) => `    ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
	process.stdout.write(`\n[files] ${title}\n${lines.join('\n')}\n`);
}

module.exports = { sha256, tempFolder, removeFolder, listFolder, joinPath, fileSha256, linkOutside, useFilesystemBinaryMode, printFigures };
