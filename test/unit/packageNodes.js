'use strict';
/**
 * Plain-JS side of the editor tests (JS is not linted, so this is where fs, paths and
 * stdout are reached): the nodes package.json's "n8n" section lists, loaded from their
 * TypeScript sources (jest transforms them, so no build is needed), each with the codex
 * file n8n's loader reads next to it (<node file>.json).
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/**
 * @typedef {{ alias?: string[], categories?: string[] }} Codex
 * @returns {Array<{ file: string, nodeType: import('n8n-workflow').INodeType, description: import('n8n-workflow').INodeTypeDescription, codex: Codex | undefined }>}
 */
function loadPackageNodes() {
	return PACKAGE.n8n.nodes.map((distFile) => {
		const base = path.join(ROOT, distFile.replace(/^dist\//, '').replace(/\.js$/, ''));
		const exported = require(`${base}.ts`);
		const classes = Object.values(exported).filter((value) => typeof value === 'function');
		if (classes.length !== 1) throw new Error(`${distFile}: expected one node class, found ${classes.length}`);
		const nodeType = new classes[0]();
		const codexFile = `${base}.json`;
		const codex = fs.existsSync(codexFile) ? JSON.parse(fs.readFileSync(codexFile, 'utf8')) : undefined;
		return { file: distFile, nodeType, description: nodeType.description, codex };
	});
}

/** Writes a test's figures to stdout, next to the test names in jest's output. */
/** @param {string} title @param {string[]} lines */
function printFigures(title, lines) {
	process.stdout.write(`\n[editor] ${title}\n${lines.map((l) => `    ${l}`).join('\n')}\n`);
}

module.exports = { PACKAGE_NAME: PACKAGE.name, loadPackageNodes, printFigures };
