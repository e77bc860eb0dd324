// @ts-check
'use strict';
/** Builds dist/ (npm run build) when it is missing or older than the sources. */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('./loader');

/**
 * Newest mtime of the files under dir whose name `accept`s, 0 if none.
 * @param {string} dir
 * @param {(name: string) => boolean} accept
 * @returns {number}
 */
function newestMtime(dir, accept) {
	let newest = 0;
	let entries;
	try {
		entries = fs.readdirSync(dir, { withFileTypes: true });
	} catch {
		return 0;
	}
	for (const e of entries) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) newest = Math.max(newest, newestMtime(p, accept));
		else if (accept(e.name)) newest = Math.max(newest, fs.statSync(p).mtimeMs);
	}
	return newest;
}

/**
 * Why dist/ needs a build, or undefined if it is up to date.
 * @param {string} [root]
 * @returns {string | undefined}
 */
function buildReason(root = ROOT) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const listed = [...((pkg.n8n && pkg.n8n.credentials) || []), ...((pkg.n8n && pkg.n8n.nodes) || [])];
	const isSource = (/** @type {string} */ n) => n.endsWith('.ts') || n.endsWith('.json') || n.endsWith('.svg');
	const newestSource = Math.max(
		newestMtime(path.join(root, 'nodes'), isSource),
		newestMtime(path.join(root, 'credentials'), isSource),
		newestMtime(path.join(root, 'icons'), isSource),
	);
	for (const file of listed) {
		const abs = path.join(root, file);
		const source = path.join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
		if (!fs.existsSync(abs)) {
			if (fs.existsSync(source)) return `${file} is missing`;
			continue; // not written yet: nothing to build
		}
		if (fs.statSync(abs).mtimeMs + 1 < newestSource) return `${file} is older than the sources`;
	}
	return undefined;
}

/**
 * Runs `npm run build` when dist/ is missing or older than the sources (or always with force).
 * @param {{ root?: string, force?: boolean, stdio?: import('node:child_process').StdioOptions }} [options]
 * @returns {{ built: boolean, ok: boolean, reason?: string, status?: number | null }}
 */
function buildIfNeeded({ root = ROOT, force = false, stdio = 'inherit' } = {}) {
	const reason = force ? 'forced' : buildReason(root);
	if (!reason) return { built: false, ok: true };
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const r = spawnSync(npm, ['run', 'build'], { cwd: root, stdio });
	// tsc emits even with type errors; the caller decides whether a non-zero exit matters.
	return { built: true, reason, ok: r.status === 0, status: r.status };
}

module.exports = { buildIfNeeded, buildReason };
