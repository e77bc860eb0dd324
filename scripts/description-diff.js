#!/usr/bin/env node
'use strict';
/**
 * What a saved workflow would lose between two builds of the package: for each node, the
 * stored parameters that were removed, changed type, or lost option values (n8n drops what a
 * node no longer describes when it loads a workflow). Run it before a release; anything it
 * lists needs a new node version (docs/release.md "Versioning"; docs/development.md says how to run it).
 *
 *   node scripts/description-diff.js <old package root> [<new package root, default .>]
 *
 * Each root is a built checkout (package.json with its n8n.nodes, and dist/).
 */
const path = require('node:path');

function load(root) {
	const pkg = require(path.join(root, 'package.json'));
	const out = {};
	for (const file of pkg.n8n.nodes) {
		const Cls = Object.values(require(path.join(root, file)))[0];
		const description = new Cls().description;
		out[description.name] = description;
	}
	return out;
}

/** Parameter path -> its types and option values, through collections and fixed collections. */
function flatten(props, prefix = '', acc = {}) {
	for (const p of props) {
		const key = prefix + p.name;
		const entry = acc[key] || (acc[key] = { types: new Set(), values: new Set() });
		entry.types.add(p.type);
		if (p.type === 'options' || p.type === 'multiOptions') for (const o of p.options || []) if (o.value !== undefined) entry.values.add(String(o.value));
		if (p.type === 'collection' || p.type === 'fixedCollection') {
			for (const o of p.options || []) {
				if (o.values) flatten(o.values, `${key}.${o.name}.`, acc);
				else if (o.name && o.type) flatten([o], `${key}.`, acc);
			}
		}
	}
	return acc;
}

const [oldRoot, newRoot = '.'] = process.argv.slice(2);
if (!oldRoot) {
	console.error('usage: node scripts/description-diff.js <old package root> [<new package root>]');
	process.exit(2);
}
const before = load(path.resolve(oldRoot));
const after = load(path.resolve(newRoot));
let changes = 0;
for (const [name, old] of Object.entries(before)) {
	const now = after[name];
	if (!now) {
		console.log(`\n${name}: node removed`);
		changes++;
		continue;
	}
	const a = flatten(old.properties);
	const b = flatten(now.properties);
	const lines = [];
	for (const [key, was] of Object.entries(a)) {
		const is = b[key];
		if (!is) {
			lines.push(`  removed ${key} (${[...was.types].join(', ')})`);
			continue;
		}
		const typesWas = [...was.types].join(', ');
		const typesIs = [...is.types].join(', ');
		if (typesWas !== typesIs) lines.push(`  ${key}: type ${typesWas} -> ${typesIs}`);
		const gone = [...was.values].filter((v) => !is.values.has(v));
		if (gone.length && is.values.size) lines.push(`  ${key}: values no longer offered: ${gone.join(', ')}`);
	}
	if (JSON.stringify(old.version) !== JSON.stringify(now.version)) lines.push(`  version ${JSON.stringify(old.version)} -> ${JSON.stringify(now.version)}`);
	if (lines.length) {
		console.log(`\n${name}:\n${lines.join('\n')}`);
		changes += lines.length;
	}
}
console.log(changes ? `\n${changes} change(s) a saved workflow may feel` : 'no stored parameter changed');
