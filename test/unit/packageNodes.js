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

/**
 * The node panel's search (n8n 2.41 editor-ui, node creator `searchNodes`): a trailing word
 * that starts "trigger" is dropped, the rest lower-cased and run through @n8n/utils'
 * sublimeSearch (the copy n8n-workflow depends on, the same code the editor bundles) over
 * each node's displayName (weight 1.3) and codex alias list (weight 1). Node descriptions
 * are not searched. The editor's popularity boosts of some built-in nodes are not modelled.
 * @param {string} term
 * @param {Array<{ key: string, properties: { displayName: string, codex?: Codex } }>} items
 * @returns {Array<{ key: string, score: number }>} best first
 */
function searchNodePanel(term, items) {
	const { sublimeSearch } = require(require.resolve('@n8n/utils/search/sublime-search', { paths: [path.dirname(require.resolve('n8n-workflow'))] }));
	const words = term.split(' ');
	const trimmed =
		words.length > 1 && 'trigger'.startsWith(words[words.length - 1].toLowerCase())
			? words
					.slice(0, -1)
					.filter((w) => w)
					.join(' ')
					.trimEnd()
			: term;
	return sublimeSearch(trimmed.toLowerCase(), items).map(({ item, score }) => ({ key: item.key, score }));
}

/** The built-in nodes of n8n-nodes-base (one entry per node name), as the panel's other candidates. */
function builtInNodes() {
	const all = JSON.parse(fs.readFileSync(require.resolve('n8n-nodes-base/dist/types/nodes.json'), 'utf8'));
	const seen = new Map();
	for (const d of all) if (!d.hidden && !seen.has(d.name)) seen.set(d.name, d);
	return [...seen.values()].map((d) => ({ key: d.name, properties: { displayName: d.displayName, codex: d.codex } }));
}

module.exports.searchNodePanel = searchNodePanel;
module.exports.builtInNodes = builtInNodes;

/**
 * The SVG a node's or credential's `icon` points at ("file:<path>" relative to the class's
 * file; the sources sit where dist/ mirrors them, so the same relative path holds).
 * @param {string} ref @param {string} fromDir directory of the source file, relative to the repo root
 * @returns {{ file: string, exists: boolean, text: string }}
 */
function readIcon(ref, fromDir) {
	const file = path.resolve(ROOT, fromDir, ref.replace(/^file:/, ''));
	const exists = fs.existsSync(file);
	return { file: path.relative(ROOT, file), exists, text: exists ? fs.readFileSync(file, 'utf8') : '' };
}

/** Every file in icons/ (names only). */
function iconFiles() {
	return fs.readdirSync(path.join(ROOT, 'icons')).sort();
}

module.exports.readIcon = readIcon;
module.exports.iconFiles = iconFiles;
